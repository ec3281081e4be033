"""The tidy tables figures B5 and B6 are drawn from (paper B, claim B.3): one row per
observation, each figure's CSV, read back as a pandas DataFrame by
:mod:`attnspec.plotting.conditional`.

- B5 (:data:`CONDITIONAL_PLOTTED_HEADER`): per (covariance, ell, draw) the finite deformed-MP
  edge E_ell, |E_ell - x_+|, the fitted power law of |E_ell - x_+| at that ell and x_+.
- B6 (:data:`POPULATION_PLOTTED_HEADER`): panel ``spectrum`` every eigenvalue (x) of every draw
  at the largest ell; panel ``top`` the TOP_SHOWN largest eigenvalues (x, rank 0 = lambda_max)
  of every draw at every ell with y = (x - edge of rho) / s, s the finite-ell Tracy-Widom scale
  (:class:`attnspec.experiments.conditional.EdgeScale`); panel ``rho`` the density of
  rho = a + b MP_c (series ``density``) and its atom (series ``atom``: x = a, y = mass);
  panel ``reference`` per ell the edge of rho (``rho_edge``), s (``tw_scale``), and the
  Tracy-Widom mean and 99th percentile of lambda_max(Sigma_G) in units of s (``tw1_mean``,
  ``tw1_q99``); panel ``kolmogorov`` per (covariance, ell) sup |F_pooled - F_rho| over the
  draws pooled at that ell.
Empty cells: a column that does not apply to the row.
"""

from collections.abc import Iterator, Mapping, Sequence

import numpy as np

from attnspec.experiments.conditional import (
    COVARIANCES,
    TOP_SHOWN,
    ConditionalSeries,
    PopulationSeries,
)
from attnspec.theory.population import population_law

CONDITIONAL_PLOTTED_HEADER = (
    "covariance", "ell", "draw", "edge", "abs_gap", "abs_gap_fit", "x_plus"
)  # fmt: skip
POPULATION_PLOTTED_HEADER = ("panel", "covariance", "series", "ell", "draw", "rank", "x", "y")
DENSITY_POINTS = 800
"""Points of rho's density curve in figure B6."""


def conditional_plotted_rows(series: ConditionalSeries) -> Iterator[tuple]:
    """Figure B5's table: rows of :data:`CONDITIONAL_PLOTTED_HEADER`, draws in index order."""
    for name in COVARIANCES:
        fit = series.rates[name]
        for ell, edges in zip(series.n_tokens, series.edges[name], strict=True):
            fitted = float(np.exp(fit.intercept) * float(ell) ** fit.slope)
            for draw, edge in enumerate(edges):
                gap = abs(float(edge) - series.x_plus)
                yield (name, int(ell), draw, float(edge), gap, fitted, series.x_plus)


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


def population_plotted_rows(
    results: Sequence[Sequence[Mapping[str, np.ndarray]]], series: PopulationSeries
) -> Iterator[tuple]:
    """Figure B6's table: rows of :data:`POPULATION_PLOTTED_HEADER` from the
    :func:`attnspec.experiments.conditional.conditional_draw` records (``results[i]`` at
    ``series.n_tokens[i]``, draws in order) and their :class:`PopulationSeries`."""
    largest = int(series.n_tokens[-1])
    for name in COVARIANCES:
        for draw, record in enumerate(results[-1]):
            for value in record[f"eigenvalues_{name}"]:
                yield ("spectrum", name, "eigenvalue", largest, draw, "", float(value), "")
        for ell, draws, scale in zip(series.n_tokens, results, series.scales, strict=True):
            for draw, record in enumerate(draws):
                top = np.sort(record[f"eigenvalues_{name}"])[::-1][:TOP_SHOWN]
                for rank, (value, units) in enumerate(zip(top, scale.units(top), strict=True)):
                    yield ("top", name, "largest", int(ell), draw, rank, float(value), float(units))
    x, density = population_density(results[-1], beta=series.beta, ratio=series.ratio)
    for xi, yi in zip(x, density, strict=True):
        yield ("rho", "", "density", largest, "", "", float(xi), float(yi))
    law = population_law(series.beta, series.ratio)
    yield ("rho", "", "atom", largest, "", "", float(law.shift), float(law.atom))
    for ell, scale in zip(series.n_tokens, series.scales, strict=True):
        for name, value in (
            ("rho_edge", scale.rho_edge),
            ("tw_scale", scale.scale),
            ("tw1_mean", float(scale.units(scale.tracy_widom_mean))),
            ("tw1_q99", float(scale.units(scale.tracy_widom_q99))),
        ):
            yield ("reference", "", name, int(ell), "", "", "", value)
    for name in COVARIANCES:
        for ell, distance in zip(series.n_tokens, series.kolmogorov[name], strict=True):
            yield ("kolmogorov", name, "pooled", int(ell), "", "", "", float(distance))
