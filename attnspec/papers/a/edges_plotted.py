"""Figure A4's tidy table (paper A): the theory curves of the edge over beta and the top value
of Y_lin per simulated beta and draw, each as the edge, over 4 theta1 and relative to x_+."""

from collections.abc import Mapping

import numpy as np

EDGE_THEORY_SERIES = ("x_plus", "mp_edge", "small_beta", "large_beta", "tracy_widom_expectation")


def edge_plotted_table(theory: Mapping, simulated: Mapping):
    """Figure A4's tidy table: a pandas DataFrame with columns kind, series, beta, draw, edge,
    edge_over_4theta1, deviation_percent, one row per beta (and draw) drawn, each value as the
    edge itself, divided by 4 theta1 and as 100 (edge / x_+ - 1) (the y of the figure's three
    panels):

    - kind ``theory``: per beta of the theory grid each curve of :data:`EDGE_THEORY_SERIES`
      (no draw);
    - kind ``data``, series ``ylin_top``: per simulated beta and draw the top value of Y_lin.
    """
    import pandas as pd  # lazily: the simulation jobs never build tables

    def scaled(edge, four_theta1, x_plus) -> dict:
        return {
            "edge": edge,
            "edge_over_4theta1": edge / four_theta1,
            "deviation_percent": 100.0 * (edge / x_plus - 1.0),
        }

    pieces = [
        pd.DataFrame(
            {"kind": "theory", "series": series, "beta": theory["beta"]}
            | scaled(np.asarray(theory[series]), theory["mp_edge"], theory["x_plus"])
        )
        for series in EDGE_THEORY_SERIES
    ]
    top = np.asarray(simulated["top"])  # beta x draw
    n_betas, n_draws = top.shape
    pieces.append(
        pd.DataFrame(
            {
                "kind": "data",
                "series": "ylin_top",
                "beta": np.repeat(simulated["beta"], n_draws),
                "draw": np.tile(np.arange(n_draws), n_betas),
            }
            | scaled(
                top.ravel(),
                np.repeat(simulated["mp_edge"], n_draws),
                np.repeat(simulated["x_plus"], n_draws),
            )
        )
    )
    table = pd.concat(pieces, ignore_index=True).astype({"draw": "Int64"})
    columns = ["beta", "draw", "edge", "edge_over_4theta1", "deviation_percent"]
    return table[["kind", "series", *columns]]
