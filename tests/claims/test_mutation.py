"""The project's own referee: a mutation test of every committed verdict.

For each paper, the evidence the committed claims table was judged on
(``figures/paper<X>/claims-evidence.npz``, written by the claims_table rule) is judged again:

- the verdicts, values, intervals, limits and power of ``figures/paper<X>/claims.csv`` come back
  (the committed table is what the engine says of the committed data);
- every declared wrong theory (registry ``alternatives``), judged alone on the same data as if
  it were the claim (an equivalence with its own prediction and the row's margin), reads "does
  not reproduce", unless the row itself neither holds nor holds with a caveat;
- the target shifted by the row's reported power (in margins, each side) reads "does not
  reproduce", and by a little less does not: the power column is what the engine does.
"""

from pathlib import Path

import numpy as np
import pytest

from attnspec.claims.engine import judge
from attnspec.claims.rows import judge_paper
from attnspec.claims.verdict import Verdict
from attnspec.papers.registry import TESTS, registry_of
from attnspec.workflow.io import load_evidence, read_csv

ROOT = Path(__file__).resolve().parents[2]
PAPERS = ("A", "B", "C", "D")
QUICK = 20  # stability resamples: the stability column is not re-checked here
NUMBERS = ("value", "interval_low", "interval_high", "limit", "limit_low", "limit_high")


@pytest.fixture(scope="module", autouse=True)
def quick_stability_inner_resamples():
    """50 inner resamples per stability resample (the engine's: 500, read when a row is judged):
    only the stability and its commonest other verdict depend on them, and neither is checked
    here; the intervals, limits, verdicts and power keep the engine's bootstrap counts."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("attnspec.claims.stability.STABILITY_INNER_RESAMPLES", 50)
        yield


def _committed(paper: str):
    evidence = load_evidence(ROOT / "figures" / f"paper{paper}" / "claims-evidence.npz")
    rows = read_csv(ROOT / "figures" / f"paper{paper}" / "claims.csv")
    return {item.row_id: item for item in evidence}, {row["row_id"]: row for row in rows}


@pytest.fixture(scope="module", params=PAPERS)
def paper(request):
    evidence, rows = _committed(request.param)
    tests = registry_of(request.param)
    judged = judge_paper(tests, list(evidence.values()), stability_resamples=QUICK)
    return request.param, evidence, rows, {row["row_id"]: row for row in judged}


@pytest.mark.parametrize("name", PAPERS)
def test_committed_evidence_has_every_registry_row(name):
    evidence, rows = _committed(name)
    expected = [t.row_id for t in registry_of(name)]
    assert sorted(evidence) == sorted(expected) and list(rows) == expected


def test_committed_verdicts_are_what_the_engine_says_of_the_committed_evidence(paper):
    _, _, committed, judged = paper
    assert list(committed) == list(judged)
    for row_id, row in judged.items():
        for key in ("verdict", "claim_verdict", "ruled_out", "no_power_against"):
            assert row[key] == committed[row_id][key], (row_id, key)
        for key in (*NUMBERS, "power_up", "power_down"):
            np.testing.assert_allclose(
                float(row[key]), float(committed[row_id][key]), rtol=1e-9, err_msg=row_id
            )


def test_every_wrong_theory_is_ruled_out_by_every_row_that_passes(paper):
    _, evidence, committed, _ = paper
    for row_id, row in committed.items():
        test = TESTS[row_id]
        if test.kind != "empirical":
            continue
        assert [a.name for a in test.alternatives] == list(evidence[row_id].alternatives)
        if row["verdict"] not in (Verdict.HOLDS, Verdict.FINITE_SIZE_CAVEAT):
            continue
        for name, alternative in evidence[row_id].alternatives.items():
            found = judge(test, alternative, alone=True, stability_resamples=QUICK)
            assert found.verdict == Verdict.DOES_NOT_REPRODUCE, (row_id, name)


def _shifted(item, offset):
    import dataclasses

    return dataclasses.replace(
        item, target=item.target + offset, limit_target=item.limit_target + offset
    )


def test_a_target_shifted_by_the_reported_power_does_not_reproduce(paper):
    _, evidence, committed, _ = paper
    for row_id, row in committed.items():
        test = TESTS[row_id]
        if test.kind != "empirical":
            continue
        margin = float(row["margin"])
        for key, sign in (("power_up", 1.0), ("power_down", -1.0)):
            power = float(row[key])
            if not np.isfinite(power) or power == 0.0:
                continue
            for factor, fails in ((1.01, True), (0.99, False)):
                moved = _shifted(evidence[row_id], sign * power * factor * margin)
                got = judge(test, moved, stability_resamples=QUICK).verdict
                assert (got == Verdict.DOES_NOT_REPRODUCE) == fails, (row_id, key, factor, got)
