"""What figure B7's data show at these sizes, in words, for its caption (paper B): per beta, the
draws whose theta_max is supercritical and the model's critical size ell*."""

import numpy as np

from attnspec.papers.b.visibility_summary import (
    BELOW_EVERY_SIZE,
    SMALLEST_SIZE,
    critical_size,
    spike_threshold,
)


def _size_cell(size: float):
    return BELOW_EVERY_SIZE if size == SMALLEST_SIZE else size


def visibility_findings(frame) -> str:
    """The caption's summary (Markdown): per beta of the measured draws, how many are
    supercritical and the model's ell* (c = 1)."""
    draws = frame[(frame["kind"] == "data") & (frame["series"] == "theta_max")]
    parts = []
    for beta, mine in draws.groupby("beta"):
        above = int((mine["value"].to_numpy(dtype=np.float64) > spike_threshold(beta)).sum())
        size = _size_cell(critical_size(beta))
        size = f"{size:.3g}" if isinstance(size, float) else "none, below 1/G* at every ell"
        parts.append(f"beta = {beta:g}: {above} of {len(mine)} draws supercritical "
                     f"(ell* = {size})")  # fmt: skip
    return "\n\nMeasured at c = 1 (ell from " + (
        f"{int(draws['ell'].min())} to {int(draws['ell'].max())}): " + "; ".join(parts) + ".\n\n"
    )
