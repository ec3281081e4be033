"""What the data of figures B1-B5 show at these sizes, in words, for their captions.

Each paragraph reports the measured numbers (medians, counts, rates with 95 % intervals) and, for
a judged point, the verdict of its row as read from the judged claims table
(``{results}/paperB/claims.csv``, values as text): no verdict is computed here.
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.experiments.conditional import COVARIANCE_LABELS, COVARIANCES, ConditionalSeries
from attnspec.experiments.sticking_evidence import (
    JUDGED_BETAS,
    JUDGED_RATIOS,
    edge_row,
    linear_edge_row,
    standardised_linear_gaps,
    uniform_row,
)
from attnspec.experiments.sticking_summary import (
    SCHEDULES,
    StickingSeries,
    gap_rate,
    relative_gaps,
    relative_tracy_widom,
    uniform_deviations,
)
from attnspec.verdicts import (
    DOES_NOT_REPRODUCE,
    FINITE_SIZE_CAVEAT,
    FRAGILE_BELOW,
    HOLDS,
    INCONCLUSIVE,
)

READINGS = {
    HOLDS: "at the target within the declared margin",
    FINITE_SIZE_CAVEAT: "{side} the target, approaching it (OLS and Theil-Sen trends over ell "
    "both significant), not reached at these sizes",
    INCONCLUSIVE: "not resolved at these draws (the 95 % interval neither lies inside the pass "
    "region nor excludes it)",
    DOES_NOT_REPRODUCE: "{side} the target with no significant approach at these sizes",
}


def reading(row: Mapping[str, str]) -> str:
    """A judged row in words: its verdict's reading, value against the pass region, the trend
    fits with their 95 % intervals, and the alternative verdict of a fragile row."""
    value, target = float(row["value"]), float(row["target"])
    side = "above" if value > target else "below"
    low, high = float(row["interval_low"]), float(row["interval_high"])
    margin = float(row["margin"])
    text = (
        f"row {row['row_id']}: {row['verdict']}, value {value:.3g} (95 % interval "
        f"[{low:.3g}, {high:.3g}]; target {target:.3g}, margin {margin:.3g}): "
        + READINGS[row["verdict"]].format(side=side)
    )
    if row["trend"]:
        text += f" (trend of log|value - target| on log ell: {row['trend']})"
    stability = float(row["stability"])
    if stability < FRAGILE_BELOW:
        text += (
            f"; fragile: the same verdict in {stability:.0%} of resampled draws, "
            f"{row['alternative'] or 'no single alternative'} otherwise"
        )
    return text


def _percent(value: float) -> str:
    return f"{100 * value:+.2f} %"


def edge_findings(series: Sequence[StickingSeries], judged: Mapping[str, Mapping]) -> str:
    """Figure B1, c = 1: per beta at the largest ell, the median gap against the Tracy-Widom
    expectation, the draws above x_+, theta_max against 1/G*, and the row's verdict."""
    parts = []
    for s in series:
        ell = int(s.n_tokens[-1])
        gaps = relative_gaps(s)[-1]
        expected, spread = relative_tracy_widom(s, float(ell))
        theta = float(np.median(s.theta_max[-1]))
        text = (
            f"beta = {s.beta:g}: median gap (ell s_2^2 - x_+)/x_+ {_percent(np.median(gaps))} "
            f"against the Tracy-Widom expectation {_percent(expected)} (sd {100 * spread:.2f} "
            f"%); {int(np.sum(gaps > 0))} of {gaps.size} draws above x_+; median theta_max "
            f"{theta:.3g} against the spike threshold 1/G* = {s.critical_spike:.3g}"
        )
        row = judged.get(edge_row(s.beta))
        if row is not None:
            text += "; " + reading(row)
        else:
            text += (
                "; shown, not judged: the largest entry stays a supercritical spike far beyond "
                "affordable ell (papers.md section 3)"
            )
        parts.append(text)
    ells = sorted({int(s.n_tokens[-1]) for s in series})
    return (
        f"\n\nWhat the data show at these sizes (c = 1, largest ell {ells}): "
        + ". ".join(parts)
        + ".\n\n"
    )


def gap_findings(series: Sequence[StickingSeries]) -> str:
    """Figure B2: the fitted rate of |gap| per beta with its 95 % interval."""
    parts = [
        f"beta = {s.beta:g}: |gap| ~ ell^slope, slope {gap_rate(s).describe()}" for s in series
    ]
    return (
        "\n\nFitted rates (least squares of log |gap| on log ell over every (ell, draw), 95 % "
        "Student-t interval; a descriptive fit, not the verdicts' trend rule): "
        + "; ".join(parts)
        + ".\n\n"
    )


def uniform_findings(series: Sequence[StickingSeries], judged: Mapping[str, Mapping]) -> str:
    """Figure B3: per judged beta and schedule, median D against D_classical and the verdict."""
    parts = []
    for s in series:
        if s.beta not in JUDGED_BETAS:
            continue
        for schedule in SCHEDULES:
            deviation = float(np.median(uniform_deviations(s, schedule)[-1]))
            parts.append(
                f"beta = {s.beta:g}, {schedule}: median D {deviation:.3g}; "
                + reading(judged[uniform_row(s.beta, schedule)])
            )
    return "\n\nWhat the data show at these sizes: " + "; ".join(parts) + ".\n\n"


def linear_edge_findings(
    series: Sequence[StickingSeries], n_tokens: int, judged: Mapping[str, Mapping]
) -> str:
    """Figure B4: per judged c, the median standardised gap of s_1(Y_lin)^2 per beta and the
    row's verdict."""
    parts = []
    for ratio in JUDGED_RATIOS:
        mine = [s for s in series if s.ratio == ratio]
        medians = ", ".join(
            f"beta {s.beta:g}: {np.median(standardised_linear_gaps(s, n_tokens)):+.2f}"
            for s in mine
        )
        parts.append(
            f"c = {ratio:g} ({medians} Tracy-Widom sd): " + reading(judged[linear_edge_row(ratio)])
        )
    return (
        f"\n\nWhat the data show at ell = {n_tokens}: the median standardised top gap "
        "(s_1(Y_lin)^2 - E lambda_max)/sd lambda_max of the Gaussian model against the scalar "
        "formula's x_+, " + "; ".join(parts) + ".\n\n"
    )


def conditional_findings(series: ConditionalSeries, judged: Mapping[str, Mapping]) -> str:
    """Figure B5: per covariance, the relative gap at the largest ell, its rate and the row."""
    ell = int(series.n_tokens[-1])
    parts = []
    for name in COVARIANCES:
        label = COVARIANCE_LABELS[name]
        gap = float(np.mean(series.relative_gaps(name)[-1]))
        parts.append(
            f"{label}: mean (E_ell - x_+)/x_+ {gap:+.2e} at ell = {ell}, |E_ell - x_+| ~ "
            f"ell^slope with slope {series.rates[name].describe()} (95 %); "
            + reading(judged[f"B.3/{label}"])
        )
    return "\n\nWhat the data show at these sizes: " + "; ".join(parts) + ".\n\n"
