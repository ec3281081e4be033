"""A judged row as the claims tables print it: :data:`ROW_HEADER`'s columns, the test's text
(:func:`describe_test`), and a paper's rows judged in registry order (:func:`judge_paper`)."""

from collections.abc import Sequence
from functools import partial

import numpy as np

from attnspec.claims.catalogue import CLAIMS
from attnspec.claims.declared import DeclaredTest
from attnspec.claims.engine import Judgement, judge
from attnspec.claims.evidence import Evidence
from attnspec.claims.resampling import BOOTSTRAP_RESAMPLES
from attnspec.claims.rule import CONFIDENCE, FINITE_SIZE_RULE_TEXT, Limit
from attnspec.claims.stability import STABILITY_RESAMPLES

REGION_TEXT = {
    "equivalence": "inside [target - margin, target + margin]",
    "at_most": "at or below target + margin",
    "at_least": "at or above target + margin",
    "below": "at or below target - margin",
}
INTERVAL_TEXT = {
    "bootstrap": f"percentile bootstrap over draws, {BOOTSTRAP_RESAMPLES} resamples",
    "student-t": "Student-t (Welch for a difference of means)",
    "exact": "exact (a deterministic value)",
}


def describe_test(test: DeclaredTest) -> str:
    """The ``test`` column of a registry row (:class:`attnspec.claims.declared.DeclaredTest`)."""
    unit = f" x [{test.margin_unit}]" if test.margin_unit else ""
    text = (
        f"statistic: {test.describes} ({test.statistic}); points: {test.points}; target: "
        f"{test.target}; margin {test.margin:g}{unit} ({test.margin_reason}); holds if the "
        f"{CONFIDENCE:.0%} interval ({INTERVAL_TEXT[test.interval]}"
        + (
            f", widened {test.interval_scale:g}x about the value: {test.interval_scale_reason}"
            if test.interval_scale != 1.0
            else ""
        )
        + f") lies {REGION_TEXT[test.comparison]}"
    )
    model = test.finite_size
    if model is not None:
        own = [
            f"{a.name} at p in {a.exponents_text} ({a.exponents_reason})"
            for a in test.alternatives
            if a.exponents is not None
        ]
        text += (
            f"; finite-size model: the statistic at every size extrapolated by "
            f"g + a ell^(-p), p in {model.exponents_text} ({model.reason}), limit target "
            f"{model.limit}; a caveat's judged interval within {model.caveat_distance:g} "
            f"margin(s) of the pass region ({model.caveat_reason})"
            + (f"; wrong theories at their own rates: {'; '.join(own)}" if own else "")
            + "; "
            + FINITE_SIZE_RULE_TEXT
        )
    else:
        text += "; no finite-size model, so no caveat; does not reproduce if the interval lies "
        text += "entirely outside; else inconclusive"
    if test.alternatives:
        text += "; must rule out (read does not reproduce against): " + "; ".join(
            f"{a.name}: {a.theory}" for a in test.alternatives
        )
    return text


ROW_HEADER = (
    "claim_id",
    "row_id",
    "claim",
    "kind",
    "subject",
    "figure",
    "quantity",
    "statistic",
    "value",
    "interval_low",
    "interval_high",
    "target",
    "comparison",
    "margin",
    "draws",
    "sizes",
    "limit",
    "limit_low",
    "limit_high",
    "limit_target",
    "limit_fit",
    "claim_verdict",
    "verdict",
    "stability",
    "alternative",
    "alternatives",
    "ruled_out",
    "no_power_against",
    "power_up",
    "power_down",
    "replicate",
    "test",
    "beyond_paper",
    "other_resolutions",
    "changed_after_results",
    "note",
)
"""The columns of a judged row. ``claim_verdict``: the verdict against the claim's theory alone;
``verdict``: after the power rule. ``alternatives``: each declared wrong theory with its verdict,
value and 95 % interval and its own target (it is judged as an equivalence with that target,
same margin); ``ruled_out``: how many of them read does not reproduce ("2 of 3");
``power_up``, ``power_down``: the smallest target shifts in margins that read does not
reproduce.
``sizes``: the sizes of the finite-size model (the judged one is the largest).
``other_resolutions``: the verdict under each other declared resolution of the row's wrong
theories (``beta +-3 %: holds``), so that a verdict that depends on it shows it.
``beyond_paper``: for a row beyond the paper (a stronger statement of ours than the paper
makes), what it asks; empty for a row that judges the paper's own statement. ``limit_fit``: the
finite-size model's best rate and its fit's chi-square p-value ("p = 0.67,
fit p-value 0.41"; "rejected" when below the test's level)."""


def _limit_fit_text(limit: Limit | None) -> str:
    """``best p = 0.667, fit p-value 0.41`` (``, rejected`` when the fit is), or empty."""
    if limit is None:
        return ""
    text = f"best p = {limit.exponent:.3g}, fit p-value {limit.pvalue:.2g}"
    return text + ("" if limit.fit_ok else ", rejected")


def _alternatives_text(found: Judgement) -> str:
    return "; ".join(
        f"{name}: {j.verdict}, value {j.value:.4g} [{j.interval.low:.4g}, {j.interval.high:.4g}]"
        f", target {j.target:.6g}"
        + (
            f", limit {j.limit.value:.4g} [{j.limit.low:.4g}, {j.limit.high:.4g}]"
            if j.limit
            else ""
        )
        for name, j in found.alternatives.items()
    )


def _ruled_out_text(found: Judgement) -> str:
    """``2 of 3`` (alternatives reading does not reproduce, of those declared); empty if none."""
    total = len(found.alternatives)
    return f"{total - len(found.standing)} of {total}" if total else ""


def sizes_text(evidence: Evidence) -> str:
    """The sizes of a row's finite-size model, ``1024, 2048, 4096, 8192``; empty without
    one (the judged size is in the row's quantity)."""
    if evidence.sizes is None:
        return ""
    return ", ".join(f"{size:g}" for size in evidence.sizes)


def variant_verdicts(test: DeclaredTest, evidence: Evidence, *, replicate: int = 0) -> str:
    """``beta +-3 %: holds; ...``: the row judged by the same test on each of the evidence's
    variants (another declared resolution of its wrong theories, with their margin scale),
    verdict only (no stability); empty without variants."""
    found = {
        name: judge(test, evidence, replicate=replicate, variant=name, stability_resamples=1)
        for name in evidence.variants
    }
    return "; ".join(f"{name}: {judgement.verdict}" for name, judgement in found.items())


def judge_row(
    test: DeclaredTest,
    evidence: Evidence,
    *,
    replicate: int = 0,
    stability_resamples: int = STABILITY_RESAMPLES,
) -> dict:
    """The claims-table row of a registry test judged on its evidence (:data:`ROW_HEADER`);
    ``stability_resamples`` as for :func:`attnspec.claims.engine.judge`."""
    if evidence.row_id != test.row_id:
        raise ValueError(f"evidence for {evidence.row_id!r} given to test {test.row_id!r}")
    found = judge(test, evidence, replicate=replicate, stability_resamples=stability_resamples)
    alternative = (
        f"{found.alternative} ({found.alternative_share:.0%})" if found.alternative else ""
    )
    limit = found.claim.limit
    return {
        "claim_id": test.claim_id,
        "row_id": test.row_id,
        "claim": CLAIMS[test.claim_id],
        "kind": test.kind,
        "subject": test.subject,
        "figure": test.figure,
        "quantity": evidence.quantity,
        "statistic": test.statistic,
        "value": found.value,
        "interval_low": found.interval.low,
        "interval_high": found.interval.high,
        "target": found.claim.target,
        "comparison": test.comparison,
        "margin": found.margin,
        "draws": found.draws,
        "sizes": sizes_text(evidence),
        "limit": np.nan if limit is None else limit.value,
        "limit_low": np.nan if limit is None else limit.low,
        "limit_high": np.nan if limit is None else limit.high,
        "limit_target": found.claim.limit_target,
        "limit_fit": _limit_fit_text(limit),
        "claim_verdict": str(found.claim.verdict),
        "verdict": str(found.verdict),
        "stability": found.stability,
        "alternative": alternative,
        "alternatives": _alternatives_text(found),
        "ruled_out": _ruled_out_text(found),
        "no_power_against": "; ".join(found.no_power_against),
        "power_up": found.power_up,
        "power_down": found.power_down,
        "replicate": int(replicate),
        "test": describe_test(test),
        "beyond_paper": test.beyond_paper,
        "other_resolutions": variant_verdicts(test, evidence, replicate=replicate),
        "changed_after_results": " | ".join(test.changed_after_results),
        "note": evidence.note,
    }


def judge_paper(
    tests: Sequence[DeclaredTest],
    evidence: Sequence[Evidence],
    *,
    replicate: int = 0,
    stability_resamples: int = STABILITY_RESAMPLES,
    mapper=map,
) -> list:
    """The claims-table rows of a paper: every registry test judged on its evidence, in
    registry order. ValueError unless each test has exactly one evidence item and each item
    belongs to a test. ``mapper`` (e.g. a process pool's map) judges the rows; each row's random
    streams are its own, so the rows are the same whichever process judges them."""
    ids = [item.row_id for item in evidence]
    wanted = [test.row_id for test in tests]
    duplicated = sorted({row for row in ids if ids.count(row) > 1})
    missing = [row for row in wanted if row not in ids]
    unknown = [row for row in ids if row not in wanted]
    if duplicated or missing or unknown:
        raise ValueError(
            f"evidence does not match the registry: missing {missing}, duplicated "
            f"{duplicated}, not in the registry {unknown}"
        )
    by_row = {item.row_id: item for item in evidence}
    judged = partial(judge_row, replicate=replicate, stability_resamples=stability_resamples)
    return list(mapper(judged, tests, [by_row[test.row_id] for test in tests]))
