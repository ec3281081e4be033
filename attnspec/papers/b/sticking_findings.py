"""What the data of figures B1-B3 show at these sizes, in words, for their captions.

Each paragraph reports the measured numbers (medians, counts, rates with 95 % intervals) and, for
a judged point, the verdict of its row as read from the judged claims table
(``{results}/paperB/claims.csv``, values as text): no verdict is computed here.
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.claims.stability import FRAGILE_BELOW
from attnspec.papers.b.sticking import uniform_index_counts
from attnspec.papers.b.sticking_evidence import (
    JUDGED_BETAS,
    edge_row,
    largest_median,
    uniform_row,
)
from attnspec.papers.b.sticking_summary import (
    SCHEDULES,
    StickingSeries,
    gap_rate,
    index_deviations,
    relative_gaps,
    relative_tracy_widom,
)


def reading(row: Mapping[str, str]) -> str:
    """A judged row in words: its verdict, value and 95 % interval against the target and margin,
    the limit of its declared finite-size model (if any) with its interval, its verdict against
    the claim's theory alone, how many declared wrong theories its data rule out and which not,
    and the alternative verdict of a fragile row."""
    value, target = float(row["value"]), float(row["target"])
    low, high = float(row["interval_low"]), float(row["interval_high"])
    text = (
        f"row {row['row_id']}: {row['verdict']}, value {value:.3g} (95 % interval "
        f"[{low:.3g}, {high:.3g}]; target {target:.3g}, margin {float(row['margin']):.3g})"
    )
    limit = float(row["limit"])
    if np.isfinite(limit):
        text += (
            f"; limit of the declared finite-size model {limit:.3g} (95 % interval "
            f"[{float(row['limit_low']):.3g}, {float(row['limit_high']):.3g}]; target "
            f"{float(row['limit_target']):.3g})"
        )
    text += f"; against the claim's theory alone: {row['claim_verdict']}"
    if row["ruled_out"]:
        text += f"; declared wrong theories ruled out: {row['ruled_out']}"
        if row["no_power_against"]:
            text += f" (no power against {row['no_power_against']})"
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
        f"\n\n**What the data show** at these sizes (c = 1, largest ell {ells}): "
        + ". ".join(parts)
        + ".\n\n"
    )


def gap_findings(series: Sequence[StickingSeries]) -> str:
    """Figure B2: the fitted rate of |gap| per beta with its 95 % interval."""
    parts = [
        f"beta = {s.beta:g}: |gap| ~ ell^slope, slope {gap_rate(s).describe()}" for s in series
    ]
    return (
        "\n\n**Fitted rates** (least squares of log |gap| on log ell over every (ell, draw), 95 % "
        "Student-t interval; a descriptive fit: rows B.1 are judged in figure B1 with their "
        "declared finite-size model): " + "; ".join(parts) + ".\n\n"
    )


def uniform_findings(series: Sequence[StickingSeries], judged: Mapping[str, Mapping]) -> str:
    """Figure B3: per judged beta and schedule at the largest ell, the index k where the largest
    |median over draws of (ell s_k(A)^2 - gamma_k)/x_+| sits, the median at k = 2, and the
    row's verdict."""
    parts = []
    for s in series:
        if s.beta not in JUDGED_BETAS:
            continue
        ell = int(s.n_tokens[-1])
        for schedule in SCHEDULES:
            k_ell = uniform_index_counts(ell)[schedule]
            deviations = index_deviations(s, ell, s.attention[-1], k_ell)
            largest, k = largest_median(deviations)
            parts.append(
                f"beta = {s.beta:g}, {schedule} (k_ell = {k_ell} at ell = {ell}): largest "
                f"|median deviation| {100 * largest:.2f} % at k = {k}, median at k = 2 "
                f"{_percent(np.median(deviations[:, 0]))}; "
                + reading(judged[uniform_row(s.beta, schedule)])
            )
    return "\n\n**What the data show** at these sizes: " + "; ".join(parts) + ".\n\n"
