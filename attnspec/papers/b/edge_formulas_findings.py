"""What figure B4's data show at these sizes, in words, for its caption (paper B, claim B.4): the
Gaussian model's top gap to the scalar formula's x_+ per c and the verdicts of rows B.4/c=<c>."""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.papers.b.sticking_evidence import JUDGED_RATIOS, linear_edge_row, linear_top_gaps
from attnspec.papers.b.sticking_findings import reading
from attnspec.papers.b.sticking_summary import StickingSeries


def _percent(value: float) -> str:
    return f"{100 * value:+.2f} %"


def linear_edge_findings(
    series: Sequence[StickingSeries], n_tokens: int, judged: Mapping[str, Mapping]
) -> str:
    """Figure B4: per judged c, the median relative top gap of s_1(Y_lin)^2 per beta and the
    row's verdict."""
    parts = []
    for ratio in JUDGED_RATIOS:
        mine = [s for s in series if s.ratio == ratio]
        medians = ", ".join(
            f"beta {s.beta:g}: {_percent(np.median(linear_top_gaps(s, n_tokens)))}" for s in mine
        )
        parts.append(f"c = {ratio:g} ({medians}): " + reading(judged[linear_edge_row(ratio)]))
    return (
        f"\n\n**What the data show** at ell = {n_tokens}: the median relative top gap "
        "(s_1(Y_lin)^2 - E lambda_max)/x_+ of the Gaussian model, E lambda_max the Tracy-Widom "
        "expectation about the scalar formula's x_+, " + "; ".join(parts) + ".\n\n"
    )
