"""The tidy tables figures B5 and B6 are drawn from (paper B, claim B.3): one row per
observation, each figure's CSV, read back as a pandas DataFrame by
:mod:`attnspec.papers.b.plot_conditional`. Columns as in :mod:`attnspec.papers.b.sticking_plotted`:
``kind`` (data, theory, statistic), ``series``, identifiers, value(s).

- B5 (:func:`conditional_plotted_table`): per (covariance, ell, draw) data ``edge``, the finite
  deformed-MP edge E_ell, and ``abs_gap``, |E_ell - x_+|; statistic ``abs_gap_fit`` per
  (covariance, ell), the fitted power law of |E_ell - x_+|, and ``fit_slope``, ``fit_slope_low``,
  ``fit_slope_high`` per covariance, its slope and 95 % interval; theory ``x_plus``.
- B6 (:func:`population_plotted_table`): data ``eigenvalue``, every eigenvalue (x) of every draw
  at the largest ell, and ``largest``, the TOP_SHOWN largest eigenvalues (x, rank 0 =
  lambda_max) of every draw at every ell with y = (x - edge of rho) / s, s the finite-ell
  Tracy-Widom scale (:class:`attnspec.papers.b.conditional_summary.EdgeScale`); theory ``density``,
  the density of rho = a + b MP_c (x, y), its ``atom`` (x = a, y = mass), its right edge
  (``rho_edge``, x) and per ell s (``tw_scale``) and the Tracy-Widom mean and 99th percentile of
  lambda_max(Sigma_G) in units of s (``tw1_mean``, ``tw1_q99``), in y; statistic
  ``kolmogorov`` per (covariance, ell), sup |F_pooled - F_rho| over the draws pooled at that ell
  (y).
Empty cells: an identifier or value that does not apply to the row.
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.papers.b.conditional import COVARIANCES
from attnspec.papers.b.conditional_summary import TOP_SHOWN, ConditionalSeries, PopulationSeries
from attnspec.plotting.tidy import tidy_table
from attnspec.theory.population import population_law

CONDITIONAL_COLUMNS = ("kind", "series", "covariance", "ell", "draw", "value")
POPULATION_COLUMNS = ("kind", "series", "covariance", "ell", "draw", "rank", "x", "y")
DENSITY_POINTS = 800
"""Points of rho's density curve in figure B6."""


def conditional_plotted_table(series: ConditionalSeries):
    """Figure B5's tidy table (module docstring), draws in index order."""
    parts = []
    ells = np.asarray(series.n_tokens, dtype=int)
    for name in COVARIANCES:
        edges = np.asarray(series.edges[name], dtype=np.float64)
        draws = {
            "ell": np.repeat(ells, edges.shape[1]),
            "draw": np.tile(np.arange(edges.shape[1]), len(ells)),
        }
        parts.append({"kind": "data", "series": "edge", "covariance": name, **draws,
                      "value": edges.ravel()})  # fmt: skip
        parts.append({"kind": "data", "series": "abs_gap", "covariance": name, **draws,
                      "value": np.abs(edges.ravel() - series.x_plus)})  # fmt: skip
        fit = series.rates[name]
        fitted = np.exp(fit.intercept) * ells.astype(np.float64) ** fit.slope
        parts.append({"kind": "statistic", "series": "abs_gap_fit", "covariance": name,
                      "ell": ells, "value": fitted})  # fmt: skip
        for label, value in (("fit_slope", fit.slope), ("fit_slope_low", fit.low),
                             ("fit_slope_high", fit.high)):  # fmt: skip
            parts.append({"kind": "statistic", "series": label, "covariance": [name],
                          "value": value})  # fmt: skip
    parts.append({"kind": ["theory"], "series": "x_plus", "value": series.x_plus})
    return tidy_table(parts, CONDITIONAL_COLUMNS, integers=("ell", "draw"))


def population_density(
    draws: Sequence[Mapping[str, np.ndarray]], *, beta: float, ratio: float
) -> tuple[np.ndarray, np.ndarray]:
    """(x, density of the continuous part of rho) on DENSITY_POINTS points spanning the pooled
    eigenvalues of both covariances and the support of rho, 2 % wider on each side (figure B6's
    histogram range)."""
    law = population_law(beta, ratio)
    pooled = [np.asarray(d[f"eigenvalues_{name}"]) for d in draws for name in COVARIANCES]
    low = min(min(float(v.min()) for v in pooled), law.support()[0][0])
    high = max(max(float(v.max()) for v in pooled), law.edge)
    span = high - low
    x = np.linspace(low - 0.02 * span, high + 0.02 * span, DENSITY_POINTS)
    return x, law.density(x)


def population_plotted_table(
    results: Sequence[Sequence[Mapping[str, np.ndarray]]], series: PopulationSeries
):
    """Figure B6's tidy table (module docstring) from the
    :func:`attnspec.papers.b.conditional.conditional_draw` records (``results[i]`` at
    ``series.n_tokens[i]``, draws in order) and their :class:`PopulationSeries`."""
    parts = []
    largest = int(series.n_tokens[-1])
    for name in COVARIANCES:
        for draw, record in enumerate(results[-1]):
            values = np.asarray(record[f"eigenvalues_{name}"], dtype=np.float64)
            parts.append({"kind": "data", "series": "eigenvalue", "covariance": name,
                          "ell": largest, "draw": draw, "x": values})  # fmt: skip
        for ell, draws, scale in zip(series.n_tokens, results, series.scales, strict=True):
            for draw, record in enumerate(draws):
                top = np.sort(record[f"eigenvalues_{name}"])[::-1][:TOP_SHOWN]
                parts.append({
                    "kind": "data", "series": "largest", "covariance": name, "ell": int(ell),
                    "draw": draw, "rank": np.arange(len(top)),
                    "x": top.astype(np.float64), "y": np.asarray(scale.units(top), np.float64),
                })  # fmt: skip
    x, density = population_density(results[-1], beta=series.beta, ratio=series.ratio)
    parts.append({"kind": "theory", "series": "density", "x": x, "y": density})
    law = population_law(series.beta, series.ratio)
    parts.append({"kind": ["theory"], "series": "atom", "x": float(law.shift),
                  "y": float(law.atom)})  # fmt: skip
    parts.append({"kind": ["theory"], "series": "rho_edge", "x": float(law.edge)})
    for ell, scale in zip(series.n_tokens, series.scales, strict=True):
        for name, value in (
            ("tw_scale", scale.scale),
            ("tw1_mean", float(scale.units(scale.tracy_widom_mean))),
            ("tw1_q99", float(scale.units(scale.tracy_widom_q99))),
        ):
            parts.append({"kind": ["theory"], "series": name, "ell": int(ell),
                          "y": float(value)})  # fmt: skip
    for name in COVARIANCES:
        parts.append({"kind": "statistic", "series": "kolmogorov", "covariance": name,
                      "ell": np.asarray(series.n_tokens, dtype=int),
                      "y": np.asarray(series.kolmogorov[name], dtype=np.float64)})  # fmt: skip
    return tidy_table(parts, POPULATION_COLUMNS, integers=("ell", "draw", "rank"))
