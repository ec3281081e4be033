"""A registry row's declared finite-size model: the limit of its statistic, extrapolated.

The row's statistic T (a median, a mean, ...) is computed at every simulated size ell from that
size's draws and modelled as T(ell) = g + a ell^(-p): the exponent p is declared in the registry
before the data, with its reason (e.g. p = 2/3 for an edge eigenvalue, whose Tracy-Widom shift and
spread scale like ell^(-2/3)); the limit g is what the model extrapolates. Fit: weighted least
squares of the per-size statistics on x = ell^(-p), each size weighted by the inverse of its
statistic's bootstrap variance (the smallest sizes are the noisiest), a size whose statistic is
not finite dropped; at least :data:`MIN_SIZES` sizes, so that two parameters never interpolate
the data exactly. Interval: percentile bootstrap, each size's draws resampled on their own (the
sizes are independent simulations), the weights held at those of the data being resampled.

The verdict engine (:mod:`attnspec.claims.verdicts`) reads "holds with a finite-size caveat" only
when this interval lies inside the limit's pass region while the judged size's interval does not: a
limit that the sizes cannot place is wide, and wide is inconclusive.
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.claims.evidence import STATISTICS

MIN_SIZES = 3


def intercepts(x: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Weighted least-squares intercept of each row of y (B, S) on x (S,), with ``weights``
    (B, S) or (S,) (None: equal), non-finite entries dropped; NaN for a row with fewer than
    :data:`MIN_SIZES` finite entries."""
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
        return np.where(count >= MIN_SIZES, y_mean - slope * x_mean, np.nan)


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
    if not (np.isfinite(exponent) and exponent > 0):
        raise ValueError(f"exponent must be finite and > 0, got {exponent!r}")
    x = np.asarray(sizes, dtype=np.float64) ** -float(exponent)
    return intercepts(x, statistics, weights)


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
