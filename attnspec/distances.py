"""Distances between an empirical spectrum and a limit law or another sample (paper A, A5, A-T2).

Kolmogorov: D = sup_x |F_n(x) - F(x)|. Wasserstein-1: W1 = int_0^1 |F_n^{-1}(t) - F^{-1}(t)| dt
= int |F_n(x) - F(x)| dx. Empirical distribution functions are right-continuous step functions.
"""

from collections.abc import Callable

import numpy as np

from attnspec.theory.law import LimitLaw
from attnspec.validation import check_samples


def _sorted_sample(samples) -> np.ndarray:
    return np.sort(check_samples(samples))


def kolmogorov_distance(samples, cdf_or_samples: Callable | np.ndarray) -> float:
    """D = sup_x |F_n(x) - F(x)| (one-sample) or sup_x |F_n(x) - G_m(x)| (two-sample).

    Parameters
    ----------
    samples : array_like
        Sample x_1..x_n (any shape, flattened).
    cdf_or_samples : callable or array_like
        A vectorised, continuous distribution function F (one-sample: with the order statistics
        x_(i), D = max_i max(i/n - F(x_(i)), F(x_(i)) - (i-1)/n)), or a second sample y_1..y_m
        (two-sample: the supremum is attained at a point of the pooled sample).

    Returns
    -------
    float
        In [0, 1].
    """
    x = _sorted_sample(samples)
    n = x.size
    if callable(cdf_or_samples):
        cdf = np.asarray(cdf_or_samples(x), dtype=np.float64)
        above = np.arange(1, n + 1) / n - cdf
        below = cdf - np.arange(n) / n
        return float(max(above.max(), below.max()))
    y = _sorted_sample(cdf_or_samples)
    pooled = np.concatenate([x, y])
    f_x = np.searchsorted(x, pooled, side="right") / n
    f_y = np.searchsorted(y, pooled, side="right") / y.size
    return float(np.max(np.abs(f_x - f_y)))


def wasserstein1(
    samples, quantile_or_samples: Callable | np.ndarray, *, nodes_per_interval: int = 8
) -> float:
    """W1 = int_0^1 |F_n^{-1}(t) - F^{-1}(t)| dt (one-sample) or exact two-sample W1.

    Parameters
    ----------
    samples : array_like
        Sample x_1..x_n (any shape, flattened).
    quantile_or_samples : callable or array_like
        A vectorised quantile function F^{-1} on (0, 1) (one-sample: F_n^{-1} = x_(i) on
        ((i-1)/n, i/n], and each of these n integrals is done by Gauss-Legendre quadrature with
        ``nodes_per_interval`` nodes, which never evaluates F^{-1} at 0 or 1), or a second
        sample y_1..y_m (two-sample, exact: int |F_n(x) - G_m(x)| dx summed over the gaps of
        the pooled sample).
    nodes_per_interval : int
        Quadrature nodes per interval (one-sample only).

    Returns
    -------
    float
        In the units of the samples.
    """
    x = _sorted_sample(samples)
    n = x.size
    if callable(quantile_or_samples):
        nodes, weights = np.polynomial.legendre.leggauss(nodes_per_interval)
        t = (np.arange(n)[:, None] + 0.5 * (nodes[None, :] + 1.0)) / n
        quantiles = np.asarray(quantile_or_samples(t.ravel()), dtype=np.float64).reshape(t.shape)
        return float(np.sum(np.abs(x[:, None] - quantiles) @ weights) / (2 * n))
    y = _sorted_sample(quantile_or_samples)
    pooled = np.sort(np.concatenate([x, y]))
    f_x = np.searchsorted(x, pooled[:-1], side="right") / n
    f_y = np.searchsorted(y, pooled[:-1], side="right") / y.size
    return float(np.sum(np.abs(f_x - f_y) * np.diff(pooled)))


# Points of the grid on which law_kolmogorov_distance compares two distribution functions.
LAW_GRID_POINTS = 200_001
LAW_GRIDS = ("even and geometric", "even")
"""Grids of :func:`law_kolmogorov_distance` (paper A's default; paper D's, refined)."""


def law_kolmogorov_distance(
    first: LimitLaw,
    second: LimitLaw,
    *,
    points: int = LAW_GRID_POINTS,
    grid: str = "even and geometric",
    refine: bool = False,
) -> float:
    """D = sup_x |F(x) - G(x)| between two laws on [0, inf) (e.g. nu_inf and MP; a
    :class:`attnspec.theory.law.LimitLaw`'s ``cdf`` and ``support()`` are what it reads).

    The supremum is taken over a grid of [0, top] (top: the larger right end of the two
    supports). ``grid="even and geometric"`` (paper A): ``points`` even points, as many
    geometrically spaced points in [1e-9 top, top] (where a density diverges at 0, as x^(-1/2)
    for c = 1) and every support endpoint. ``grid="even"`` (paper D, with ``refine``): the
    ``points`` even points only. ``refine`` adds a bounded scalar search (xatol 1e-12 top)
    between the neighbours of the best grid point and keeps the larger value. A grid supremum
    of continuous functions is a lower bound that converges as the grid is refined; without
    ``refine`` it is exact to about max density x top / points. Atoms at 0 are on every grid.
    """
    if points < 2:
        raise ValueError(f"points must be >= 2, got {points!r}")
    if grid not in LAW_GRIDS:
        raise ValueError(f"grid must be one of {LAW_GRIDS}, got {grid!r}")
    ends = [float(end) for law in (first, second) for interval in law.support() for end in interval]
    top = max(ends)
    if not (np.isfinite(top) and top > 0):
        raise ValueError(f"the supports must end at a finite positive point, got {top!r}")
    x = np.linspace(0.0, top, points)
    if grid == "even and geometric":
        x = np.unique(
            np.concatenate([x, np.geomspace(1e-9 * top, top, points), np.clip(ends, 0.0, top)])
        )

    def gap(x):
        difference = np.asarray(first.cdf(x), dtype=np.float64) - np.asarray(second.cdf(x))
        return np.abs(difference)

    values = gap(x)
    best = int(np.argmax(values))
    if not refine:
        return float(values[best])
    from scipy.optimize import minimize_scalar  # lazy: jobs that never refine skip the import

    found = minimize_scalar(
        lambda point: -float(gap(np.array([point]))[0]),
        bounds=(x[max(best - 1, 0)], x[min(best + 1, x.size - 1)]),
        method="bounded",
        options={"xatol": 1e-12 * top},
    )
    return float(max(values[best], -found.fun))
