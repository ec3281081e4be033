"""A registry row's declared finite-size model: the limit of its statistic, extrapolated.

The row's statistic T (a median, a mean, ...) is computed at every simulated size ell from that
size's draws and modelled as T(ell) = g + a ell^(-p). The approach rate p is not one declared
number but a declared *range* [p_min, p_max] with its reason, wide enough to hold the rate of the
claim (e.g. 2/3 for an edge eigenvalue's Tracy-Widom shift) and of every wrong theory the row
must rule out (an outlier's fluctuations, 1/2; a bias of order 1/ell, 1): the data of a few
sizes cannot pin p down, so no choice of p inside the range may decide a verdict. The limit g is
fitted at each of :data:`EXPONENT_GRID` rates spanning the range (evenly in log p, ends
included) and its interval is the union of the intervals at every rate.

Fit: weighted least squares of the per-size statistics on x = ell^(-p), each size weighted by
the inverse of its statistic's bootstrap variance (the smallest sizes are the noisiest), a size
whose statistic is not finite dropped; at least :data:`MIN_SIZES` sizes, so that two parameters
never interpolate the data exactly. Goodness of fit: the weighted residual sum of squares of the
best rate in the range against chi-square with (sizes - 2) degrees of freedom; a fit worse than
its 1 - :data:`FIT_LEVEL` quantile is rejected (the model's family does not describe the data)
and the limit then decides nothing. Interval: percentile bootstrap, each size's draws resampled
on their own (the sizes are independent simulations), the weights held at those of the data
being resampled.

The verdict engine (:mod:`attnspec.claims.rule`) reads "holds with a finite-size caveat" only
when this union lies inside the limit's pass region, the fit is acceptable and the judged size's
interval, though not inside its region, lies within the declared distance of it: a limit that the
sizes or the rates cannot place is wide, and wide is inconclusive.
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.claims.evidence import STATISTICS

MIN_SIZES = 3
EXPONENT_GRID = 9
FIT_LEVEL = 0.01


def exponent_grid(exponents: tuple[float, float]) -> np.ndarray:
    """:data:`EXPONENT_GRID` rates evenly in log p from p_min to p_max (one if they are equal);
    ValueError unless 0 < p_min <= p_max are finite."""
    low, high = (float(p) for p in exponents)
    if not (np.isfinite(low) and np.isfinite(high) and 0 < low <= high):
        raise ValueError(f"exponents must be finite with 0 < p_min <= p_max, got {exponents!r}")
    if low == high:
        return np.array([low])
    return np.geomspace(low, high, EXPONENT_GRID)


def weighted_fits(
    x: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(intercepts, residual chi-squares, degrees of freedom) of the weighted least-squares
    lines of each row of y (B, S) on x (S,), with ``weights`` (B, S) or (S,) (None: equal),
    non-finite entries dropped; intercept NaN for a row with fewer than :data:`MIN_SIZES`
    finite entries. The chi-square is sum w (y - g - a x)^2 over the row's entries, with
    (entries - 2) degrees of freedom."""
    weights = np.ones(y.shape) if weights is None else np.broadcast_to(weights, y.shape)
    valid = np.isfinite(y) & np.isfinite(weights) & (weights > 0)
    count = valid.sum(axis=1)
    w = np.where(valid, weights, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        total = w.sum(axis=1)
        x_mean = (w * x[None, :]).sum(axis=1) / total
        y_mean = np.where(valid, w * y, 0.0).sum(axis=1) / total
        dx = np.where(valid, x[None, :] - x_mean[:, None], 0.0)
        dy = np.where(valid, y - y_mean[:, None], 0.0)
        slope = (w * dx * dy).sum(axis=1) / (w * dx * dx).sum(axis=1)
        residual = np.where(valid, dy - slope[:, None] * dx, 0.0)
        chi2 = (w * residual * residual).sum(axis=1)
    enough = count >= MIN_SIZES
    return (
        np.where(enough, y_mean - slope * x_mean, np.nan),
        np.where(enough, chi2, np.nan),
        count - 2,
    )


def fit_acceptable(chi2: np.ndarray, dof: np.ndarray) -> np.ndarray:
    """Whether each weighted fit's residuals are as small as chance allows at level
    :data:`FIT_LEVEL` (chi2 at most the 1 - FIT_LEVEL quantile of chi-square with ``dof``
    degrees of freedom); False for a missing fit."""
    from scipy import stats

    dof = np.maximum(np.asarray(dof, dtype=np.float64), 1.0)
    with np.errstate(invalid="ignore"):
        return np.isfinite(chi2) & (chi2 <= stats.chi2.ppf(1.0 - FIT_LEVEL, dof))


def size_statistics(
    statistic: str, by_size: Sequence[Mapping[str, np.ndarray]], index: Sequence[Mapping]
) -> np.ndarray:
    """(B, S): the statistic at each size on each resample; ``index[s][name]`` (B, draws_s)
    picks the draws of size s."""
    reduce = STATISTICS[statistic].reduce
    return np.stack([reduce(samples, own) for samples, own in zip(by_size, index, strict=True)], 1)


def limits(
    sizes: np.ndarray, statistics: np.ndarray, exponent: float, weights: np.ndarray | None = None
) -> np.ndarray:
    """The extrapolated limit g of each row of ``statistics`` (B, S) at ``sizes`` (S,), the
    sizes weighted by ``weights`` (B, S) or (S,) (None: equal)."""
    return limit_fits(sizes, statistics, exponent, weights)[0]


def limit_fits(
    sizes: np.ndarray, statistics: np.ndarray, exponent: float, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(limits, chi-squares, degrees of freedom) of g + a ell^(-exponent) fitted to each row
    of ``statistics`` (B, S) at ``sizes`` (S,) (:func:`weighted_fits`)."""
    if not (np.isfinite(exponent) and exponent > 0):
        raise ValueError(f"exponent must be finite and > 0, got {exponent!r}")
    x = np.asarray(sizes, dtype=np.float64) ** -float(exponent)
    return weighted_fits(x, statistics, weights)


def inverse_variances(boot: np.ndarray) -> np.ndarray:
    """The weights of each size: 1 / variance over axis 1 of bootstrap statistics (O, B, S),
    NaN ignored; (O, S)."""
    finite = np.isfinite(boot)
    count = finite.sum(axis=1)
    values = np.where(finite, boot, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = values.sum(axis=1) / count
        variance = (np.where(finite, boot - mean[:, None, :], 0.0) ** 2).sum(axis=1) / (count - 1)
        return 1.0 / variance
