"""Verdict logic on synthetic inputs that should pass and that should fail."""

import re

import pytest

from attnspec.legacy_verdicts import (
    AT_MOST,
    CLAIM_HEADER,
    DOES_NOT_REPRODUCE,
    EXCEEDS,
    FINITE_SIZE_CAVEAT,
    HOLDS,
    WITHIN,
    ClaimCheck,
    describe_test,
    judge,
    judge_at_most,
    judge_exceeds,
)

TRIPLES = [  # (value, target, tolerance): inside, on and beyond each side of the band
    (1.02, 1.0, 0.05),
    (1.10, 1.0, 0.05),
    (0.90, 1.0, 0.05),
    (0.5, 0.25, 0.25),
    (0.0, 0.25, 0.25),
    (-0.98, -1.0, 0.0),
    (6.95, 6.9, 0.1),
    (9.0, 6.9, 0.1),
    (3.0, 3.0, 0.0),
]


def test_judge_within_tolerance_holds_and_outside_fails():
    assert judge(1.02, 1.0, 0.05) == HOLDS
    assert judge(1.10, 1.0, 0.05) == DOES_NOT_REPRODUCE
    assert judge(1.10, 1.0, 0.05, improving=True) == FINITE_SIZE_CAVEAT
    assert judge(0.90, 1.0, 0.05) == DOES_NOT_REPRODUCE


def test_one_sided_judgements():
    assert judge_at_most(0.03, 0.05, 0.0) == HOLDS
    assert judge_at_most(0.08, 0.05, 0.01) == DOES_NOT_REPRODUCE
    assert judge_at_most(0.08, 0.05, 0.01, improving=True) == FINITE_SIZE_CAVEAT
    assert judge_exceeds(9.0, 6.9, 0.1) == HOLDS
    assert judge_exceeds(6.95, 6.9, 0.1) == DOES_NOT_REPRODUCE, "inside the noise is no separation"
    assert judge_exceeds(6.5, 6.9, 0.1) == DOES_NOT_REPRODUCE


def test_negative_or_nan_tolerance_is_rejected():
    with pytest.raises(ValueError, match="tolerance"):
        judge(1.0, 1.0, -0.1)
    with pytest.raises(ValueError, match="tolerance"):
        judge_at_most(1.0, 1.0, float("nan"))


def stated(statement: str, value: float, target: float, tolerance: float) -> bool:
    """Evaluate a condition's statement as written, apart from the code that judges."""
    assert set(re.findall(r"[a-z]+", statement)) <= {"abs", "value", "target", "tolerance"}
    return eval(statement, {"abs": abs}, dict(value=value, target=target, tolerance=tolerance))


@pytest.mark.parametrize(
    "condition, judge_",
    [(WITHIN, judge), (AT_MOST, judge_at_most), (EXCEEDS, judge_exceeds)],
    ids=["judge", "judge_at_most", "judge_exceeds"],
)
def test_each_judge_holds_exactly_when_its_stated_condition_does(condition, judge_):
    outcomes = set()
    for value, target, tolerance in TRIPLES:
        says = stated(condition.statement, value, target, tolerance)
        outcomes.add(says)
        assert condition(value, target, tolerance) == says
        case = (value, target, tolerance)
        assert judge_(*case) == (HOLDS if says else DOES_NOT_REPRODUCE), case
        assert judge_(*case, improving=True) == (HOLDS if says else FINITE_SIZE_CAVEAT), case
    assert outcomes == {True, False}, "the triples must reach both sides of the condition"


def test_the_three_conditions_differ_on_the_same_numbers():
    assert [c(1.10, 1.0, 0.05) for c in (WITHIN, AT_MOST, EXCEEDS)] == [False, False, True]
    assert [c(0.90, 1.0, 0.05) for c in (WITHIN, AT_MOST, EXCEEDS)] == [False, True, False]


def test_described_test_states_the_condition_and_the_caveat():
    text = describe_test(AT_MOST, "r kept", caveat="the distance falls with ell")
    assert text == (
        "holds if value <= target + tolerance and r kept; caveat if not but the distance falls "
        "with ell; otherwise does not reproduce"
    )
    assert describe_test(EXCEEDS) == (
        "holds if value > target + tolerance; otherwise does not reproduce (no caveat)"
    )


AT_MOST_TEST = describe_test(AT_MOST)


def claim_row(value=0.01, tolerance=0.02, test=AT_MOST_TEST, verdict=HOLDS):
    return ClaimCheck(
        "A.2", "s1 -> 1", "A6", "|s1-1|", value, 0.0, tolerance, "spread", test, verdict, ""
    )


def test_claim_check_row_and_bad_verdict():
    row = claim_row()
    assert len(row.as_row()) == len(CLAIM_HEADER)
    assert CLAIM_HEADER.index("test") == CLAIM_HEADER.index("tolerance_basis") + 1
    assert row.condition is AT_MOST and row.meets_condition()
    with pytest.raises(ValueError, match="verdict"):
        claim_row(verdict="maybe")


def test_claim_check_needs_a_test_that_its_holding_row_passes():
    with pytest.raises(ValueError, match="pass condition"):
        claim_row(test="value is small", verdict=DOES_NOT_REPRODUCE)
    with pytest.raises(ValueError, match="fails its test"):
        claim_row(value=0.01, tolerance=0.0)
    assert claim_row(value=0.01, tolerance=0.0, verdict=DOES_NOT_REPRODUCE).verdict
