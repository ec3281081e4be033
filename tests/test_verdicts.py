"""Verdict logic on synthetic inputs that should pass and that should fail."""

import pytest

from attnspec.verdicts import (
    CLAIM_HEADER,
    DOES_NOT_REPRODUCE,
    FINITE_SIZE_CAVEAT,
    HOLDS,
    ClaimCheck,
    judge,
    judge_at_most,
    judge_exceeds,
)


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


def test_claim_check_row_and_bad_verdict():
    row = ClaimCheck("A.2", "s1 -> 1", "A6", "|s1-1|", 0.01, 0.0, 0.02, "spread", HOLDS, "")
    assert len(row.as_row()) == len(CLAIM_HEADER)
    with pytest.raises(ValueError, match="verdict"):
        ClaimCheck("A.2", "s1 -> 1", "A6", "|s1-1|", 0.01, 0.0, 0.02, "spread", "maybe", "")
