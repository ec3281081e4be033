"""Figure A6's tidy table (paper A): the draws, the finite-ell predictions and limits, and the
fitted power law, one row per plotted value."""

from collections.abc import Sequence

import numpy as np

from attnspec.papers.a.perron_summary import PerronSeries


def perron_plotted_table(series: Sequence[PerronSeries]):
    """Figure A6's tidy table (a pandas DataFrame), columns ``kind``, ``series``, ``panel``
    (``abs_s1_minus_1``, ``ell_s1sq_minus_1``, ``stable_rank``), ``beta``, ``n_tokens``,
    ``draw``, ``value``, per beta:

    - data ``draw``: every draw at every ell, in each panel;
    - theory ``prediction``: the finite-ell prediction at every ell of |s_1 - 1| and of the
      stable rank, and the constant theta1 + beta^4/2 of ell (s_1^2 - 1) (one row, no ell);
      ``limit``: the limit e^{beta^2} of the stable rank (one row, no ell);
    - statistic ``fit``: the fitted power law of |s_1 - 1| at the smallest and largest ell,
      and its slope ``fit_slope`` (one row, no ell).

    A row without ell is a level, drawn across the simulated ell."""
    import pandas as pd

    blocks = []
    for s in series:
        sizes = np.asarray(s.n_tokens, dtype=np.int64)
        measured = {
            "abs_s1_minus_1": s.deviation,
            "ell_s1sq_minus_1": s.rescaled,
            "stable_rank": s.stable_rank,
        }
        for panel, values in measured.items():
            values = np.asarray(values, dtype=np.float64)
            blocks.append(
                pd.DataFrame(
                    {"kind": "data", "series": "draw", "panel": panel, "beta": s.beta,
                     "n_tokens": np.repeat(sizes, values.shape[1]),
                     "draw": np.tile(np.arange(values.shape[1]), sizes.size),
                     "value": values.reshape(-1)}
                )
            )  # fmt: skip
        ends = sizes[[0, -1]]
        curves = [
            ("theory", "prediction", "abs_s1_minus_1", sizes, s.predicted_deviation),
            ("theory", "prediction", "ell_s1sq_minus_1", None, [s.rescaled_prediction]),
            ("theory", "prediction", "stable_rank", sizes, s.predicted_stable_rank),
            ("theory", "limit", "stable_rank", None, [s.limit_stable_rank]),
            ("statistic", "fit", "abs_s1_minus_1", ends,
             np.exp(s.fit.intercept) * ends.astype(np.float64) ** s.fit.slope),
            ("statistic", "fit_slope", "abs_s1_minus_1", None, [s.fit.slope]),
        ]  # fmt: skip
        blocks += [
            pd.DataFrame(
                {"kind": kind, "series": name, "panel": panel, "beta": s.beta,
                 "n_tokens": ells, "value": np.asarray(values, dtype=np.float64)}
            )
            for kind, name, panel, ells, values in curves
        ]  # fmt: skip
    columns = ["kind", "series", "panel", "beta", "n_tokens", "draw", "value"]
    table = pd.concat(blocks, ignore_index=True).reindex(columns=columns)
    return table.astype({"n_tokens": "Int64", "draw": "Int64"})
