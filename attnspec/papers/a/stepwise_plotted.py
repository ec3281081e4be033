"""Figure A1's tidy table (paper A): every model's bulk values per draw, nu_inf's density,
quantiles and edge x_+, and each model's Kolmogorov distance to sqrt(ell) A_perp."""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.papers.a.stepwise_summary import bulk


def stepwise_plotted_table(
    spectra: Mapping[str, Sequence[np.ndarray]], summary: Mapping, n_removed: int
):
    """Figure A1's tidy table: a pandas DataFrame with columns kind, series, model, draw, k, x,
    value, one row per number drawn, empty cells where a column does not apply:

    - kind ``data``, series ``bulk``: per model and draw the k-th largest bulk value (``value``),
      k = 1, 2, ...: the observations of both rows of panels (histogram and sorted values);
    - kind ``theory``: the limit law nu_inf, series ``nu_inf_density`` (``x``, ``value``) and
      ``nu_inf_quantile`` (``k``, ``value``), and ``x_plus``, its right edge (``value``);
    - kind ``statistic``, series ``ks_to_attention``: per model the Kolmogorov distance of its
      pooled bulk to that of sqrt(ell) A_perp, stated in each panel's title.

    ``spectra``: the draws of :func:`attnspec.papers.a.stepwise_summary.summarise_stepwise`;
    ``summary``: its output.
    """
    import pandas as pd  # lazily: the simulation jobs never build tables

    models = [str(m) for m in summary["models"]]
    pieces = []
    for model in models:
        values = np.stack([bulk(spectrum, n_removed) for spectrum in spectra[model]])
        draws, ranks = np.indices(values.shape)
        pieces.append(
            pd.DataFrame(
                {
                    "kind": "data",
                    "series": "bulk",
                    "model": model,
                    "draw": draws.ravel(),
                    "k": ranks.ravel() + 1,
                    "value": values.ravel(),
                }
            )
        )
    pieces += [
        pd.DataFrame(
            {
                "kind": "theory",
                "series": "nu_inf_density",
                "x": summary["theory_x"],
                "value": summary["theory_density"],
            }
        ),
        pd.DataFrame(
            {
                "kind": "theory",
                "series": "nu_inf_quantile",
                "k": summary["ranks"],
                "value": summary["theory_sorted"],
            }
        ),
        pd.DataFrame({"kind": "theory", "series": "x_plus", "value": [float(summary["x_plus"])]}),
        pd.DataFrame(
            {
                "kind": "statistic",
                "series": "ks_to_attention",
                "model": models,
                "value": summary["ks_to_attention"],
            }
        ),
    ]
    table = pd.concat(pieces, ignore_index=True).astype({"draw": "Int64", "k": "Int64"})
    return table[["kind", "series", "model", "draw", "k", "x", "value"]]
