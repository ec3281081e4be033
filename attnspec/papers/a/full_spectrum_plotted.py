"""Figure A2's tidy table (paper A): every squared singular value of every draw, the leading
non-Perron pairs with their IPR, nu_inf's quantiles and expected counts, the spike predictions
and the theory levels, one row per plotted value."""

from collections.abc import Mapping

import numpy as np

FULL_SPECTRUM_LEVELS = (
    "perron_prediction",
    "x_plus",
    "mp_edge",
    "outlier_threshold",
    "ipr_reference",
)
"""The theory levels of figure A2, one row each in its table (kind ``theory``)."""


def full_spectrum_plotted_table(summary: Mapping[str, np.ndarray]):
    """Figure A2's tidy table from :func:`summarise_full_spectrum`: a pandas DataFrame with
    columns kind, series, draw, k, x, value, one row per number drawn, empty cells where a
    column does not apply:

    - kind ``data``: ``spectrum``, every ell s_k(A)^2 of every draw (``draw``, ``k``,
      ``value``), panels (a) (draw 0) and (b) (all, on log bins of BINS_PER_DECADE per decade);
      ``nonperron``, the leading squared singular values of sqrt(ell) A_perp per draw (``draw``,
      ``k``, ``value``), and ``ell_ipr_left`` / ``ell_ipr_right``, ell IPR (``value``) of their
      singular vectors at ``x`` = the squared singular value;
    - kind ``theory``: ``nu_inf_quantile`` (``k``, ``value``); ``nu_inf_expected_count``, per
      log bin of panel (b) its geometric centre ``x`` and draws (ell - 1) nu_inf(bin)
      (``value``); ``spike_prediction`` K(1/theta)^2 per draw (``draw``, k = 1, ``value``); the
      levels :data:`FULL_SPECTRUM_LEVELS` (``value``).
    """
    import pandas as pd  # lazily: the simulation jobs never build tables

    values = summary["values"]
    draws, ranks = np.indices(values.shape)
    edges = summary["edges"]
    pairs = pd.DataFrame({"draw": summary["pair_draw"]})
    pairs["k"] = pairs.groupby("draw").cumcount() + 1  # the rank within the draw
    top = summary["pair_value"]
    pieces = [
        pd.DataFrame(
            {
                "kind": "data",
                "series": "spectrum",
                "draw": draws.ravel(),
                "k": ranks.ravel() + 1,
                "value": values.ravel(),
            }
        ),
        pairs.assign(kind="data", series="nonperron", value=top),
        pairs.assign(kind="data", series="ell_ipr_left", x=top, value=summary["pair_ipr_left"]),
        pairs.assign(kind="data", series="ell_ipr_right", x=top, value=summary["pair_ipr_right"]),
        pd.DataFrame(
            {
                "kind": "theory",
                "series": "nu_inf_quantile",
                "k": summary["theory_ranks"],
                "value": summary["theory_sorted"],
            }
        ),
        pd.DataFrame(
            {
                "kind": "theory",
                "series": "nu_inf_expected_count",
                "x": np.sqrt(edges[1:] * edges[:-1]),
                "value": summary["theory_counts"],
            }
        ),
        pd.DataFrame(
            {
                "kind": "theory",
                "series": "spike_prediction",
                "draw": np.arange(len(summary["spike_prediction"])),
                "k": 1,
                "value": summary["spike_prediction"],
            }
        ),
        pd.DataFrame(
            {
                "kind": "theory",
                "series": list(FULL_SPECTRUM_LEVELS),
                "value": [float(summary[name]) for name in FULL_SPECTRUM_LEVELS],
            }
        ),
    ]
    table = pd.concat(pieces, ignore_index=True).astype({"draw": "Int64", "k": "Int64"})
    return table[["kind", "series", "draw", "k", "x", "value"]]
