"""What figure B5's data show at these sizes, in words, for its caption (paper B, claim B.3):
the conditional edges' gaps to x_+, their rates, and the verdicts of rows B.3."""

from collections.abc import Mapping

import numpy as np

from attnspec.papers.b.conditional import COVARIANCE_LABELS, COVARIANCES
from attnspec.papers.b.conditional_summary import ConditionalSeries
from attnspec.papers.b.sticking_findings import reading


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
    return "\n\n**What the data show** at these sizes: " + "; ".join(parts) + ".\n\n"
