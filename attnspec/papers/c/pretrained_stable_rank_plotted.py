"""Figure C7 (paper C): its tidy table (one row per plotted value, exactly the figure's CSV), from
the per-passage stable ranks of every n and the references of
:mod:`attnspec.papers.c.pretrained_stable_rank_summary`."""

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np

from attnspec.models.softmax import MASKS
from attnspec.papers.c.gaussian_stable_rank_summary import reference_slope
from attnspec.papers.c.pretrained_stable_rank_summary import (
    CONSTANT_SCORES,
    FITS,
    HEAD_MEAN,
    INTERCEPT,
    ISOTROPIC,
    PASSAGES,
    SLOPE,
    STABLE_RANK,
    bootstrap_parameters,
    median_slope,
    reference_curves,
)
from attnspec.plotting.tidy import DATA, STATISTIC, THEORY, tidy_table
from attnspec.pretrained.loader import FINE_TUNED_TOKENS
from attnspec.seeding import rng_for

if TYPE_CHECKING:  # pandas is imported lazily, by the tidy tables
    import pandas as pd

COLUMNS = ("kind", "series", "mask", "fit", "n", "passage", "layer", "head", "value", "low")
COLUMNS += ("high", "heads")


def stable_rank_plotted_table(
    lengths: Mapping[int, dict], head_width: int, resamples: int
) -> "pd.DataFrame":
    """Figure C7's tidy table from ``{n: stable-rank file}`` (``stable_rank`` of shape
    (passages, layers, heads, masks)); columns :data:`COLUMNS`, series:

    - data ``stable_rank``: every passage, layer, head and mask at each n;
    - statistic ``head_mean``: per head and mask at each n, the mean over passages;
      ``passages``: their number at each n; ``slope`` (value, low, high, heads) and
      ``intercept``: per mask and fit
      (:data:`attnspec.papers.c.pretrained_stable_rank_summary.FITS`),
      :func:`attnspec.papers.c.pretrained_stable_rank_summary.median_slope` with ``resamples``
      bootstrap resamples (a fit with fewer than two lengths, or the same lengths as
      the first, is left out);
    - theory ``constant_scores``, ``isotropic`` per mask at each n, and per mask and fit their
      OLS slopes on log n over the fit's lengths (series ``<reference>_slope``).
    """
    n_tokens = sorted(int(n) for n in lengths)
    parts, means = [], []
    for n in n_tokens:
        ranks = np.asarray(lengths[n]["stable_rank"], dtype=np.float64)
        passage, layer, head, mask = (axis.ravel() for axis in np.indices(ranks.shape))
        cells = {"mask": np.asarray(MASKS)[mask], "n": n, "layer": layer, "head": head}
        parts.append(
            {"kind": DATA, "series": STABLE_RANK, "passage": passage, "value": ranks.ravel()}
            | cells
        )
        means.append(ranks.mean(axis=0))
        layer, head, mask = (axis.ravel() for axis in np.indices(means[-1].shape))
        cells = {"mask": np.asarray(MASKS)[mask], "n": n, "layer": layer, "head": head}
        parts.append({"kind": STATISTIC, "series": HEAD_MEAN, "value": means[-1].ravel()} | cells)
        parts.append({"kind": STATISTIC, "series": PASSAGES, "n": [n], "value": ranks.shape[0]})
    means = np.stack(means).reshape(len(n_tokens), -1, len(MASKS))  # lengths, heads, masks
    curves = reference_curves(n_tokens, head_width)
    for (reference, mask), curve in curves.items():
        parts.append(
            {"kind": THEORY, "series": reference, "mask": mask, "n": n_tokens, "value": curve}
        )
    fine_tuned = [n for n in n_tokens if n <= FINE_TUNED_TOKENS]
    for fit, lengths_in_fit in zip(FITS, (n_tokens, fine_tuned), strict=True):
        if len(lengths_in_fit) < 2 or (fit != FITS[0] and lengths_in_fit == n_tokens):
            continue
        rows = [n_tokens.index(n) for n in lengths_in_fit]
        for m, mask in enumerate(MASKS):
            rng = rng_for(bootstrap_parameters(lengths_in_fit, mask, fit), 0, "bootstrap")
            slope, intercept, low, high = median_slope(
                lengths_in_fit, means[rows, :, m], resamples, rng
            )
            cells = {"mask": [mask], "fit": fit}
            parts.append(
                cells
                | {"kind": STATISTIC, "series": SLOPE, "value": slope, "low": low, "high": high}
                | {"heads": means.shape[1]}
            )
            parts.append(cells | {"kind": STATISTIC, "series": INTERCEPT, "value": intercept})
            for reference in (CONSTANT_SCORES, ISOTROPIC):
                reference_fit = reference_slope(lengths_in_fit, curves[reference, mask][rows])
                parts.append(
                    cells | {"kind": THEORY, "series": f"{reference}_slope", "value": reference_fit}
                )
    return tidy_table(parts, COLUMNS, integers=("n", "passage", "layer", "head", "heads"))
