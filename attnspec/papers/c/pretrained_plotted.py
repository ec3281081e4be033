"""Figures C5 (eigen-angles) and C6 (score spectra) of paper C: their tidy tables (one row per
plotted value, exactly each figure's CSV), from the per-head diagnostics."""

from typing import TYPE_CHECKING

import numpy as np

from attnspec.models.softmax import MASKS
from attnspec.papers.c.pretrained import HAAR, NULL_SPACE_CONVENTIONS, SIDES
from attnspec.papers.c.pretrained_summary import (
    REFERENCE_Q95,
    U_SIDE,
    angle_counts,
    angle_steps,
    near_bin_edge,
)
from attnspec.plotting.tidy import DATA, STATISTIC, tidy_table

if TYPE_CHECKING:  # pandas is imported lazily, by the tidy tables
    import pandas as pd

CDF_POINTS = 181


def _cells(values: np.ndarray, *, layers: bool) -> dict:
    """Columns layer, head, passage and index (the trailing axes, one column each) over an array
    (passages, layers, heads, index...) and its ``value``s; layer and head missing for the
    synthetic references (layers = heads = 1)."""
    passage, layer, head, *index = (axis.ravel() for axis in np.indices(values.shape))
    cells = {"layer": layer, "head": head} if layers else {}
    return cells | {"passage": passage, "index": index, "value": np.ravel(values).astype(float)}


def eigen_angle_plotted_table(
    full_rank: dict,
    long: dict,
    iso_full_rank: dict,
    iso_long: dict,
    *,
    bins: int,
    controls: dict,
    reference_q95: float,
) -> "pd.DataFrame":
    """Figure C5's tidy table (columns kind, series, panel, layer, head, side, passage,
    convention, x, y, near_bin_edge), per panel:

    - ``eigen_angles`` (a), data: per series (``model``, ``isotropic``), bin centre x and the
      number y of eigen-angles of U and V (pooled over passages and heads, n <= head width) in
      the bin, and ``near_bin_edge``
      (:func:`attnspec.papers.c.pretrained_summary.near_bin_edge`: the angles another CPU could
      move across the bin's edges);
    - ``distances`` (b), data: every Kolmogorov distance x of one head's (or draw's) angles to
      uniform, per side, series ``model``, ``reference`` (Haar) and each of ``controls``;
      statistic ``Haar 95 % quantile``: ``reference_q95`` (x), the quantile of the reference's
      distances the C.5 test compares with;
    - ``null_space`` (c), data: per series (``model``, ``isotropic``) and null-space
      ``convention``, grid point x and the number y of eigen-angles of U at n > head width in
      the step ending at x (:func:`attnspec.papers.c.pretrained_summary.angle_steps`), and
      ``near_bin_edge`` as in (a).
    """
    parts = []
    edges = np.linspace(0.0, np.pi, bins + 1)
    centres = 0.5 * (edges[1:] + edges[:-1])
    for series, data in (("model", full_rank), ("isotropic", iso_full_rank)):
        angles = data["angles"][..., HAAR, :]
        parts.append(
            {
                "kind": DATA,
                "series": series,
                "panel": "eigen_angles",
                "x": centres,
                "y": angle_counts(angles, edges),
                "near_bin_edge": near_bin_edge(angles, edges),
            }
        )
    sources = {"model": full_rank, "reference": iso_full_rank, **controls}
    for series, data in sources.items():
        distance = data["angle_distance"][..., HAAR]  # full rank: the conventions agree
        cells = _cells(distance, layers=series == "model")
        side = np.asarray(SIDES)[cells.pop("index")[0]]
        parts.append(
            {
                "kind": DATA,
                "series": series,
                "panel": "distances",
                "side": side,
                "x": cells.pop("value"),
                **cells,
            }
        )
    parts.append(
        {
            "kind": [STATISTIC],
            "series": [REFERENCE_Q95],
            "panel": ["distances"],
            "x": [float(reference_q95)],
        }
    )
    grid = np.linspace(0.0, np.pi, CDF_POINTS)
    for source, data in (("model", long), ("isotropic", iso_long)):
        for c, convention in enumerate(NULL_SPACE_CONVENTIONS):
            angles = data["angles"][..., U_SIDE, c, :]
            parts.append(
                {
                    "kind": DATA,
                    "series": source,
                    "panel": "null_space",
                    "side": "U",
                    "convention": convention,
                    "x": grid,
                    "y": angle_steps(angles, grid),
                    "near_bin_edge": near_bin_edge(angles, grid, steps=True),
                }
            )
    columns = ("kind", "series", "panel", "layer", "head", "side", "passage", "convention")
    integers = ("layer", "head", "passage", "y", "near_bin_edge")
    return tidy_table(parts, (*columns, "x", "y", "near_bin_edge"), integers=integers)


def spectra_plotted_table(long: dict, iso_long: dict, *, top_k: int) -> "pd.DataFrame":
    """Figure C6's tidy table (columns kind, series, panel, layer, head, mask, passage, x, y; n >
    head width), series ``model`` (per layer and head) or ``isotropic`` (the reference), per
    panel:

    - ``spectra`` (a), data: sigma_k / sigma_1 (y) of every passage's (reference: draw's) scores
      at x = k;
    - ``energy`` (c), statistic: the top-k energy E_k (y), median over passages (draws);
    - ``stable_rank`` (b), statistic: the attention's stable rank (y) per mask, median over
      passages (draws).
    """
    parts = []
    for series, data in (("model", long), ("isotropic", iso_long)):
        cells = _cells(data["normalised_singular_values"], layers=series == "model")
        k = cells.pop("index")[0] + 1
        parts.append(
            {
                "kind": DATA,
                "series": series,
                "panel": "spectra",
                "x": k,
                "y": cells.pop("value"),
                **cells,
            }
        )
    for series, data in (("model", long), ("isotropic", iso_long)):
        energy = np.median(data["energy"][..., top_k - 1], axis=0)
        layer, head = (axis.ravel() for axis in np.indices(energy.shape))
        cells = {"layer": layer, "head": head} if series == "model" else {}
        parts.append(
            {"kind": STATISTIC, "series": series, "panel": "energy", "y": energy.ravel(), **cells}
        )
    for series, data in (("model", long), ("isotropic", iso_long)):
        ranks = np.median(data["stable_rank"], axis=0)
        layer, head, m = (axis.ravel() for axis in np.indices(ranks.shape))
        cells = {"layer": layer, "head": head} if series == "model" else {}
        parts.append(
            {
                "kind": STATISTIC,
                "series": series,
                "panel": "stable_rank",
                "mask": np.asarray(MASKS)[m],
                "y": ranks.ravel(),
                **cells,
            }
        )
    columns = ("kind", "series", "panel", "layer", "head", "mask", "passage", "x", "y")
    return tidy_table(parts, columns, integers=("layer", "head", "passage", "x"))
