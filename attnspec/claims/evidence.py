"""The data a verdict is judged on, and the statistics the registry may name.

An :class:`Evidence` holds, for one registry row (:mod:`attnspec.papers.registry`), the per-draw
samples at the judged point(s), the target computed from theory, the unit of the declared margin,
the per-(draw, size) values of the row's finite-size model, and the same data judged against each
wrong theory the row declares (its alternatives). Per-paper code builds it from simulations;
:func:`attnspec.claims.engine.judge` judges it. Nothing here reads files.

Every array in ``samples`` and ``by_size`` has the resampling unit (a draw: an independent random
matrix, or a passage of text) on axis 0; missing entries are NaN. A statistic
(:data:`STATISTICS`) maps a batch of resampled ``samples`` (each array gaining a leading batch
axis) to one value per resample, so the bootstrap is vectorised.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np


def _gather(samples: Mapping[str, np.ndarray], index: Mapping[str, np.ndarray], name: str):
    """The resampled copies of ``samples[name]``: shape (B, draws, ...)."""
    return samples[name][index[name]]


def row_medians(values: np.ndarray) -> np.ndarray:
    """Median of each row of a (B, ...) array over everything but axis 0, NaN ignored (NaN for
    a row with no finite entry): the two middle order statistics of each sorted row (sorting
    short rows is several times faster than np.median's partition, and gives the same value)."""
    ordered = np.sort(values.reshape(values.shape[0], -1), axis=1)  # NaN last
    count = np.sum(~np.isnan(ordered), axis=1)
    if count.size and np.all(count == ordered.shape[1]):
        size = ordered.shape[1]
        return 0.5 * (ordered[:, (size - 1) // 2] + ordered[:, size // 2])
    low = np.take_along_axis(ordered, np.maximum(count - 1, 0)[:, None] // 2, axis=1)[:, 0]
    high = np.take_along_axis(ordered, (count // 2)[:, None], axis=1)[:, 0]
    return np.where(count > 0, 0.5 * (low + high), np.nan)


def resampled_medians(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Median of the pooled values (every entry of axes 1...) of the draws each row of
    ``index`` (B, draws) picks, NaN ignored; NaN for a resample with no finite value."""
    return row_medians(values[index])


def resampled_means(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Mean of the pooled values of the draws each row of ``index`` (B, draws) picks, NaN
    ignored: the multiplicities times the per-draw sums over the multiplicities times the
    per-draw counts (no copy of the resamples)."""
    draws = values.shape[0]
    flat = values.reshape(draws, -1)
    finite = np.isfinite(flat)
    multiplicity = _multiplicities(index, draws)
    sums = multiplicity @ np.where(finite, flat, 0.0).sum(axis=1)
    counts = multiplicity @ finite.sum(axis=1).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / counts, np.nan)


def _median(samples, index) -> np.ndarray:
    return resampled_medians(samples["values"], index["values"])


def _mean(samples, index) -> np.ndarray:
    return resampled_means(samples["values"], index["values"])


def _mean_difference(samples, index) -> np.ndarray:
    values = resampled_means(samples["values"], index["values"])
    return values - resampled_means(samples["reference"], index["reference"])


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


def _max_abs_median(samples, index) -> np.ndarray:
    """max over columns k of |median over the resampled draws of values[:, k]|, NaN ignored:
    the columns gathered draw-last (K, B, draws), so that one sort runs along contiguous
    memory, then the two middle order statistics of each."""
    columns = np.ascontiguousarray(samples["values"].T)[:, index["values"]]  # (K, B, draws)
    ordered = np.sort(columns, axis=2)  # NaN last
    count = np.sum(~np.isnan(ordered), axis=2)  # (K, B)
    low = np.take_along_axis(ordered, (np.maximum(count - 1, 0) // 2)[..., None], axis=2)[..., 0]
    high = np.take_along_axis(ordered, (count // 2)[..., None], axis=2)[..., 0]
    deviations = np.abs(np.where(count > 0, 0.5 * (low + high), np.nan))
    largest = np.where(np.isnan(deviations), -np.inf, deviations).max(axis=0)
    return np.where(np.isfinite(largest), largest, np.nan)


def threshold_crossings(excess: np.ndarray, betas: np.ndarray, threshold: float) -> np.ndarray:
    """beta* where each row of ``excess`` (..., betas) first reaches ``threshold``.

    Betas ascending; between the last simulated beta below the threshold and the first at or
    above it, the excess is interpolated linearly in log beta. NaN where the crossing is not
    bracketed: the excess already reaches the threshold at the smallest beta, or never does.
    """
    betas = np.asarray(betas, dtype=np.float64)
    excess = np.asarray(excess, dtype=np.float64)
    if betas.ndim != 1 or betas.size < 2 or np.any(np.diff(betas) <= 0) or betas[0] <= 0:
        raise ValueError(
            f"betas must be positive, ascending and at least two, got {betas.tolist()}"
        )
    if excess.shape[-1] != betas.size:
        raise ValueError(f"excess must end with {betas.size} betas, got shape {excess.shape}")
    reached = excess >= threshold
    first = np.argmax(reached, axis=-1)
    bracketed = reached.any(axis=-1) & (first > 0)
    above = np.where(bracketed, first, 1)
    below = above - 1
    low = np.take_along_axis(excess, below[..., None], axis=-1)[..., 0]
    high = np.take_along_axis(excess, above[..., None], axis=-1)[..., 0]
    log_low, log_high = np.log(betas[below]), np.log(betas[above])
    with np.errstate(invalid="ignore", divide="ignore"):
        fraction = (threshold - low) / (high - low)
    return np.where(bracketed, np.exp(log_low + fraction * (log_high - log_low)), np.nan)


def _threshold_slope(samples, index) -> np.ndarray:
    """OLS slope of log beta* on log log ell; ``values`` (draws, 2, ell, beta) holds per draw
    the attention (0) and Y_lin (1) distances, and the floor (the mean Y_lin distance) is
    recomputed in every resample."""
    values = _gather(samples, index, "values")  # (B, draws, 2, ell, beta)
    linear = values[:, :, 1]
    count = np.sum(np.isfinite(linear), axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        floor = np.where(np.isfinite(linear), linear, 0.0).sum(axis=1) / count  # (B, ell, beta)
    excess = values[:, :, 0] - floor[:, None]
    crossings = threshold_crossings(excess, samples["betas"], float(samples["threshold"]))
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(crossings)
    return ols_slopes(np.log(samples["log_sizes"]), logs)


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
        Statistic(
            "max_abs_median",
            "largest |median over draws| over the columns (indices) of the values",
            ("values",),
            ("values",),
            _max_abs_median,
        ),
        Statistic(
            "threshold_slope",
            "OLS slope of log beta* on log log ell, beta* where the attention distance minus the "
            "mean Y_lin distance (recomputed in every resample) first reaches the threshold",
            ("values", "betas", "log_sizes", "threshold"),
            ("values",),
            _threshold_slope,
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
        The registry row (:data:`attnspec.papers.registry.REGISTRY`) this evidence is for.
    samples : mapping of str to array
        The arrays its statistic reads (:data:`STATISTICS`); axis 0 is the draw. ``sizes`` (for
        slopes) has shape (S,) and ``values`` then (draws, S).
    target : float
        The target value of the statistic at the judged point (from theory or the declared
        constant), finite-size corrections that theory predicts included.
    margin_scale : float
        The unit of the registry's margin in the statistic's units: 1 when the margin is
        declared in those units, else a number from theory alone (e.g. KS(nu_inf, MP) at the
        row's beta), never from the spread of the data and never dependent on the judged size.
    sizes, by_size : array and sequence of mappings, or None
        The data of the row's declared finite-size model: the sizes (S,), increasing, and for
        each size the samples its statistic reads there (the same keys as ``samples``; each
        size has its own draws). The engine extrapolates the statistic from every size to the
        limit (:mod:`attnspec.claims.finite_size`).
    limit_target : float or None
        The target of that limit (default: ``target``).
    quantity : str
        The judged number in words with its parameters (shown in the row).
    note : str
        What else the per-paper code measured that a reader needs (shown in the row).
    alternatives : mapping of str to Evidence
        The same data judged against each wrong theory the registry declares for the row (its
        name -> the evidence computed with that theory's quantities, or, for a data mutant, on
        the data that theory would produce); the engine applies the row's own test, margin
        included, to each (a built-in mutation test). Each has the claim's arrays with the same
        draw counts and sizes (the engine resamples all theories alike) and takes the claim's
        ``margin_scale``.
    variants : mapping of str to Evidence
        The same row at another declared resolution of its wrong theories (e.g. ``beta +-3 %``
        beside the declared 1 %): each with its own margin scale and alternatives; the engine
        judges each alike and reports the verdicts, so a row whose verdict depends on the
        resolution shows it. The row's verdict is the declared resolution's.
    """

    row_id: str
    samples: Mapping[str, np.ndarray]
    target: float
    margin_scale: float = 1.0
    sizes: np.ndarray | None = None
    by_size: tuple[Mapping[str, np.ndarray], ...] | None = None
    limit_target: float | None = None
    quantity: str = ""
    note: str = ""
    extra: Mapping[str, float] = field(default_factory=dict)
    alternatives: Mapping[str, "Evidence"] = field(default_factory=dict)
    variants: Mapping[str, "Evidence"] = field(default_factory=dict)

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
        if (self.sizes is None) != (self.by_size is None):
            raise ValueError(f"{self.row_id}: sizes and by_size go together")
        if self.sizes is not None:
            sizes = np.asarray(self.sizes, dtype=np.float64)
            by_size = tuple(
                {key: np.asarray(value, dtype=np.float64) for key, value in own.items()}
                for own in self.by_size
            )
            if sizes.ndim != 1 or len(by_size) != sizes.size:
                raise ValueError(
                    f"{self.row_id}: by_size needs one samples mapping per size ({sizes.size}), "
                    f"got {len(by_size)}"
                )
            if any(sorted(own) != sorted(samples) for own in by_size):
                raise ValueError(f"{self.row_id}: every size needs the keys {sorted(samples)}")
            if np.any(sizes <= 0) or np.any(np.diff(sizes) <= 0):
                raise ValueError(
                    f"{self.row_id}: sizes must be positive and increasing, got {sizes.tolist()}"
                )
            object.__setattr__(self, "sizes", sizes)
            object.__setattr__(self, "by_size", by_size)
        limit = self.target if self.limit_target is None else float(self.limit_target)
        if not np.isfinite(limit):
            raise ValueError(f"{self.row_id}: limit_target must be finite, got {limit!r}")
        object.__setattr__(self, "limit_target", float(limit))
        alternatives = {}
        for name, item in self.alternatives.items():
            if item.row_id != self.row_id or item.alternatives:
                raise ValueError(
                    f"{self.row_id}: alternative {name!r} must be evidence of the same row "
                    "without alternatives of its own"
                )
            if _layout(item) != _layout(self):
                raise ValueError(
                    f"{self.row_id}: alternative {name!r} must have the claim's arrays, shapes "
                    f"and sizes (the engine resamples them alike), got {_layout(item)} for "
                    f"{_layout(self)}"
                )
            alternatives[name] = replace(item, margin_scale=self.margin_scale)
        object.__setattr__(self, "alternatives", alternatives)
        for name, item in self.variants.items():
            if item.row_id != self.row_id or item.variants or "/" in name:
                raise ValueError(
                    f"{self.row_id}: variant {name!r} must be evidence of the same row without "
                    "variants of its own, named without '/'"
                )

    @property
    def draws(self) -> int:
        """The number of draws of the statistic's first resampled array (non-NaN rows)."""
        values = self.samples["values"]
        rows = values.reshape(values.shape[0], -1)
        return int(np.sum(np.any(np.isfinite(rows), axis=1)))

    def to_arrays(self) -> dict[str, np.ndarray]:
        """Flat arrays for storage (:func:`from_arrays` restores the evidence); an
        alternative's arrays and texts go under ``alternative/<name>/``."""
        arrays = {f"samples/{key}": value for key, value in self.samples.items()}
        arrays["target"] = np.float64(self.target)
        arrays["margin_scale"] = np.float64(self.margin_scale)
        arrays["limit_target"] = np.float64(self.limit_target)
        if self.sizes is not None:
            arrays["finite_size/sizes"] = self.sizes
            for i, own in enumerate(self.by_size):
                arrays.update({f"finite_size/{i}/{key}": value for key, value in own.items()})
        for key, value in self.extra.items():
            arrays[f"extra/{key}"] = np.float64(value)
        for name, item in self.alternatives.items():
            if "/" in name:
                raise ValueError(f"{self.row_id}: alternative name {name!r} contains '/'")
            own = item.to_arrays()
            own["quantity"], own["note"] = np.array(item.quantity), np.array(item.note)
            arrays.update({f"alternative/{name}/{key}": value for key, value in own.items()})
        for name, item in self.variants.items():
            own = item.to_arrays()
            own["quantity"], own["note"] = np.array(item.quantity), np.array(item.note)
            arrays.update({f"variant/{name}/{key}": value for key, value in own.items()})
        return arrays


def _layout(evidence: Evidence) -> tuple:
    """What the engine's resampling indexes: each array's draw count, and each size's."""

    def counts(samples: Mapping[str, np.ndarray]) -> tuple:
        return tuple((key, np.shape(value)[:1]) for key, value in sorted(samples.items()))

    sizes = None if evidence.sizes is None else tuple(evidence.sizes.tolist())
    by_size = None if evidence.by_size is None else tuple(counts(own) for own in evidence.by_size)
    return counts(evidence.samples), sizes, by_size


def from_arrays(
    row_id: str, arrays: Mapping[str, np.ndarray], *, quantity: str, note: str
) -> Evidence:
    """The :class:`Evidence` stored by :meth:`Evidence.to_arrays`."""

    def part(prefix: str) -> dict:
        return {k.removeprefix(prefix): v for k, v in arrays.items() if k.startswith(prefix)}

    def nested(kind: str) -> dict:
        names = dict.fromkeys(k.split("/")[1] for k in arrays if k.startswith(f"{kind}/"))
        found = {}
        for name in names:
            own = part(f"{kind}/{name}/")
            text = {key: str(own.pop(key)) for key in ("quantity", "note")}
            found[name] = from_arrays(row_id, own, **text)
        return found

    variants = nested("variant")
    arrays = {k: v for k, v in arrays.items() if not k.startswith("variant/")}
    alternatives = nested("alternative")
    sizes = arrays.get("finite_size/sizes")
    by_size = None
    if sizes is not None:
        by_size = tuple(part(f"finite_size/{i}/") for i in range(len(sizes)))
    return Evidence(
        row_id=row_id,
        samples=part("samples/"),
        target=float(arrays["target"]),
        margin_scale=float(arrays["margin_scale"]),
        sizes=sizes,
        by_size=by_size,
        limit_target=float(arrays["limit_target"]),
        quantity=quantity,
        note=note,
        extra={k: float(v) for k, v in part("extra/").items()},
        alternatives=alternatives,
        variants=variants,
    )
