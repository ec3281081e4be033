"""The data a verdict is judged on, and the statistics the registry may name.

An :class:`Evidence` holds, for one registry row (:mod:`attnspec.registry`), the per-draw samples
at the judged point(s), the target computed from theory, the scale of the declared margin, and
the per-(draw, size) values the trend rule is fitted to. Per-paper code builds it from
simulations; :mod:`attnspec.verdicts` judges it. Nothing here reads files.

Every array in ``samples`` and ``trend`` has the resampling unit (a draw: an independent random
matrix, or a passage of text) on axis 0; missing entries are NaN. A statistic
(:data:`STATISTICS`) maps a batch of resampled ``samples`` (each array gaining a leading batch
axis) to one value per resample, so the bootstrap is vectorised.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np


def _gather(samples: Mapping[str, np.ndarray], index: Mapping[str, np.ndarray], name: str):
    """The resampled copies of ``samples[name]``: shape (B, draws, ...)."""
    return samples[name][index[name]]


def row_medians(values: np.ndarray) -> np.ndarray:
    """Median of each row of a (B, ...) array over everything but axis 0, NaN ignored (NaN for
    a row with no finite entry)."""
    rows = values.reshape(values.shape[0], -1)
    if not np.isnan(rows).any():
        return np.median(rows, axis=1)
    ordered = np.sort(rows, axis=1)  # NaN last
    count = np.sum(~np.isnan(rows), axis=1)
    low = np.take_along_axis(ordered, np.maximum(count - 1, 0)[:, None] // 2, axis=1)[:, 0]
    high = np.take_along_axis(ordered, (count // 2)[:, None], axis=1)[:, 0]
    return np.where(count > 0, 0.5 * (low + high), np.nan)


def row_means(values: np.ndarray) -> np.ndarray:
    """Mean of each row of a (B, ...) array over everything but axis 0, NaN ignored."""
    rows = values.reshape(values.shape[0], -1)
    if not np.isnan(rows).any():
        return rows.mean(axis=1)
    count = np.sum(~np.isnan(rows), axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, np.nansum(rows, axis=1) / count, np.nan)


def _median(samples, index) -> np.ndarray:
    return row_medians(_gather(samples, index, "values"))


def _mean(samples, index) -> np.ndarray:
    return row_means(_gather(samples, index, "values"))


def _mean_difference(samples, index) -> np.ndarray:
    values = row_means(_gather(samples, index, "values"))
    return values - row_means(_gather(samples, index, "reference"))


def ols_slopes(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """OLS slope of y on x over the last two axes (draws, sizes) of y; NaN entries ignored, x
    broadcast against y. One slope per leading index.

    slope = sum (x - mean x)(y - mean y) / sum (x - mean x)^2 over the valid (draw, size)
    entries. With every entry valid and x the same for every leading index, the deviations of x
    are shared, so the slope is one product y . w with w = (x - mean x) / sum (x - mean x)^2.
    """
    y = np.asarray(y, dtype=np.float64)
    x = np.asarray(x, dtype=np.float64)
    valid = np.isfinite(y)
    if valid.all() and x.ndim <= 2 and y.ndim >= 2:
        shared = np.broadcast_to(x, y.shape[-2:])
        dx = shared - shared.mean()
        with np.errstate(invalid="ignore", divide="ignore"):
            weights = dx / np.sum(dx * dx)
        return y.reshape(*y.shape[:-2], -1) @ weights.ravel()
    x = np.broadcast_to(x, y.shape)
    count = valid.sum(axis=(-2, -1))
    with np.errstate(invalid="ignore", divide="ignore"):
        x_mean = np.where(valid, x, 0.0).sum(axis=(-2, -1)) / count
        y_mean = np.where(valid, y, 0.0).sum(axis=(-2, -1)) / count
        dx = np.where(valid, x - x_mean[..., None, None], 0.0)
        dy = np.where(valid, y - y_mean[..., None, None], 0.0)
        return (dx * dy).sum(axis=(-2, -1)) / (dx * dx).sum(axis=(-2, -1))


def _loglog_slope(samples, index) -> np.ndarray:
    values = samples["values"]
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(np.where(values > 0, values, np.nan))  # once, before resampling
    return ols_slopes(np.log(samples["sizes"]), logs[index["values"]])


def _semilog_slope(samples, index) -> np.ndarray:
    return ols_slopes(np.log(samples["sizes"]), _gather(samples, index, "values"))


def _multiplicities(index: np.ndarray, units: int) -> np.ndarray:
    """(B, units) counts of each unit in each resample."""
    offsets = np.arange(index.shape[0])[:, None] * units
    counts = np.bincount((index + offsets).ravel(), minlength=index.shape[0] * units)
    return counts.reshape(index.shape[0], units).astype(np.float64)


def _value(samples, index) -> np.ndarray:
    return np.atleast_1d(np.nanmean(samples["values"]))


def _ks_two_sample(samples, index) -> np.ndarray:
    """sup over the grid of |F_values - F_reference|, both pooled over the resampled units.

    ``values`` and ``reference`` hold, per unit (axis 0), the number of its observations at or
    below each grid point (the last grid point at or above every observation), so a resample's
    pooled distribution function is a product of its multiplicities with these counts; exact
    when the grid holds every distinct observation.
    """
    # F_values - F_reference = [m_v / t_v, -m_r / t_r] @ [counts_v; counts_r] in one product
    # (m: multiplicities, t = m @ counts[:, -1]: each resample's pooled number of observations).
    weights, counts = [], []
    for name, sign in (("values", 1.0), ("reference", -1.0)):
        multiplicity = _multiplicities(index[name], samples[name].shape[0])
        weights.append(multiplicity * (sign / (multiplicity @ samples[name][:, -1]))[:, None])
        counts.append(samples[name])
    difference = np.hstack(weights) @ np.vstack(counts).astype(np.float64)
    return np.maximum(difference.max(axis=1), -difference.min(axis=1))


@dataclass(frozen=True)
class Statistic:
    """A named statistic: ``reduce(samples, index)`` gives one value per resample, where
    ``index[name]`` (B, draws) resamples axis 0 of each array in ``resampled``; the other
    arrays it reads (an x-axis of sizes, say) are used as they are."""

    name: str
    formula: str
    arrays: tuple[str, ...]
    resampled: tuple[str, ...]
    reduce: Callable[[Mapping[str, np.ndarray], Mapping[str, np.ndarray]], np.ndarray]


STATISTICS = {
    s.name: s
    for s in (
        Statistic("median", "median over draws", ("values",), ("values",), _median),
        Statistic("mean", "mean over draws", ("values",), ("values",), _mean),
        Statistic(
            "mean_difference",
            "mean over draws of the values minus mean over draws of the reference",
            ("values", "reference"),
            ("values", "reference"),
            _mean_difference,
        ),
        Statistic(
            "loglog_slope",
            "OLS slope of log(value) on log(size) over every (draw, size)",
            ("values", "sizes"),
            ("values",),
            _loglog_slope,
        ),
        Statistic(
            "semilog_slope",
            "OLS slope of value on log(size) over every (draw, size)",
            ("values", "sizes"),
            ("values",),
            _semilog_slope,
        ),
        Statistic(
            "ks_two_sample",
            "two-sample Kolmogorov distance between the pooled observations of the draws and "
            "the pooled reference observations",
            ("values", "reference"),
            ("values", "reference"),
            _ks_two_sample,
        ),
        Statistic("value", "a deterministic value (no sampling)", ("values",), (), _value),
    )
}
"""The statistics a registry row may name."""


@dataclass(frozen=True)
class Evidence:
    """What one registry row is judged on.

    Parameters
    ----------
    row_id : str
        The registry row (:data:`attnspec.registry.REGISTRY`) this evidence is for.
    samples : mapping of str to array
        The arrays its statistic reads (:data:`STATISTICS`); axis 0 is the draw. ``sizes`` (for
        slopes) has shape (S,) and ``values`` then (draws, S).
    target : float
        The target value of the statistic (from theory or the declared constant).
    margin_scale : float
        The unit of the registry's margin in the statistic's units (1 when the margin is
        declared in those units; e.g. the Tracy-Widom standard deviation at the judged size).
    trend_sizes, trend_values, trend_targets : arrays or None
        The trend data: sizes (S,), per-draw values of the statistic at each size (draws, S),
        and the target at each size (S,), to which the trend rule fits the approach.
    quantity : str
        The judged number in words with its parameters (shown in the row).
    note : str
        What else the per-paper code measured that a reader needs (shown in the row).
    """

    row_id: str
    samples: Mapping[str, np.ndarray]
    target: float
    margin_scale: float = 1.0
    trend_sizes: np.ndarray | None = None
    trend_values: np.ndarray | None = None
    trend_targets: np.ndarray | None = None
    quantity: str = ""
    note: str = ""
    extra: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self):
        samples = {key: np.asarray(value, dtype=np.float64) for key, value in self.samples.items()}
        object.__setattr__(self, "samples", samples)
        if not np.isfinite(self.target):
            raise ValueError(f"{self.row_id}: target must be finite, got {self.target!r}")
        if not (np.isfinite(self.margin_scale) and self.margin_scale > 0):
            raise ValueError(
                f"{self.row_id}: margin_scale must be finite and > 0, got {self.margin_scale!r}"
            )
        if "sizes" in samples and samples["sizes"].ndim != 1:
            raise ValueError(f"{self.row_id}: samples['sizes'] must have shape (S,)")
        trend = (self.trend_sizes, self.trend_values)
        if (trend[0] is None) != (trend[1] is None):
            raise ValueError(f"{self.row_id}: trend_sizes and trend_values go together")
        if self.trend_sizes is not None:
            sizes = np.asarray(self.trend_sizes, dtype=np.float64)
            values = np.atleast_2d(np.asarray(self.trend_values, dtype=np.float64))
            targets = (
                np.full(sizes.shape, float(self.target))
                if self.trend_targets is None
                else np.asarray(self.trend_targets, dtype=np.float64)
            )
            if values.shape[1] != sizes.size or targets.shape != sizes.shape:
                raise ValueError(
                    f"{self.row_id}: trend_values must be (draws, {sizes.size}) and "
                    f"trend_targets ({sizes.size},), got {values.shape} and {targets.shape}"
                )
            object.__setattr__(self, "trend_sizes", sizes)
            object.__setattr__(self, "trend_values", values)
            object.__setattr__(self, "trend_targets", targets)

    @property
    def draws(self) -> int:
        """The number of draws of the statistic's first resampled array (non-NaN rows)."""
        values = self.samples["values"]
        rows = values.reshape(values.shape[0], -1)
        return int(np.sum(np.any(np.isfinite(rows), axis=1)))

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Flat arrays for storage (:func:`from_arrays` restores the evidence)."""
        arrays = {f"samples/{key}": value for key, value in self.samples.items()}
        arrays["target"] = np.float64(self.target)
        arrays["margin_scale"] = np.float64(self.margin_scale)
        if self.trend_sizes is not None:
            arrays["trend/sizes"] = self.trend_sizes
            arrays["trend/values"] = self.trend_values
            arrays["trend/targets"] = self.trend_targets
        for key, value in self.extra.items():
            arrays[f"extra/{key}"] = np.float64(value)
        return arrays


def from_arrays(
    row_id: str, arrays: Mapping[str, np.ndarray], *, quantity: str, note: str
) -> Evidence:
    """The :class:`Evidence` stored by :meth:`Evidence.to_arrays`."""
    samples = {k.removeprefix("samples/"): v for k, v in arrays.items() if k.startswith("samples/")}
    extra = {
        k.removeprefix("extra/"): float(v) for k, v in arrays.items() if k.startswith("extra/")
    }
    has_trend = "trend/sizes" in arrays
    return Evidence(
        row_id=row_id,
        samples=samples,
        target=float(arrays["target"]),
        margin_scale=float(arrays["margin_scale"]),
        trend_sizes=arrays["trend/sizes"] if has_trend else None,
        trend_values=arrays["trend/values"] if has_trend else None,
        trend_targets=arrays["trend/targets"] if has_trend else None,
        quantity=quantity,
        note=note,
        extra=extra,
    )
