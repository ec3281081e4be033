"""Resampling: the intervals the rule places (:mod:`attnspec.claims.rule`), of the statistic at
the judged point and of the finite-size model's limit, on the data as they are or on each outer
resample of the draws (for the stability).

- Percentile bootstrap over draws (:data:`BOOTSTRAP_RESAMPLES` resamples), computed in batches
  of at most :data:`BATCH_ELEMENTS` resampled values; Student-t of a mean and Welch's of a
  difference of means; exact for a deterministic value.
- The limit: at every rate of the declared range the weighted fit g + a ell^(-p) of each
  resample, its percentile bootstrap interval over inner resamples of each size's draws, and the
  union of those intervals over the rates (:mod:`attnspec.claims.finite_size`).
- Every theory of a row draws its inner resamples from the same streams (common random
  numbers), keyed by the row (:func:`attnspec.seeding.rng_for`), so a judgement is reproducible
  bit for bit; theories with the same data share one computation.
"""

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from attnspec.claims.evidence import STATISTICS, Evidence
from attnspec.claims.finite_size import (
    exponent_grid,
    fit_acceptable,
    inverse_variances,
    limit_fits,
    size_statistics,
)
from attnspec.claims.rule import CONFIDENCE, INTERVALS, TheoryTest
from attnspec.intervals import student_t_half_width
from attnspec.seeding import rng_for

BOOTSTRAP_RESAMPLES = 2000


def _identity(samples: Mapping[str, np.ndarray], names) -> dict[str, np.ndarray]:
    return {key: np.arange(samples[key].shape[0])[None, :] for key in names}


def statistic_value(name: str, samples: Mapping[str, np.ndarray]) -> float:
    """The statistic on the data as they are (every draw once)."""
    statistic = STATISTICS[name]
    return float(statistic.reduce(samples, _identity(samples, statistic.resampled))[0])


def _compose(outer: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """The draws of inner resamples (O, B, draws) of outer resamples (O, draws), as (O B,
    draws) indices into the data: outer[o, inner[o, b, d]] by one flat take."""
    count, resamples, draws = inner.shape
    offsets = (np.arange(count) * draws)[:, None, None]
    return np.take(outer.ravel(), inner + offsets).reshape(count * resamples, draws)


# Bootstrap work per batch: resamples x the resampled values kept below this many elements.
BATCH_ELEMENTS = 2_000_000


def statistic_intervals(
    name: str,
    method: str,
    samples: Mapping[str, np.ndarray],
    outer: Mapping[str, np.ndarray],
    rng: np.random.Generator,
    resamples: int = BOOTSTRAP_RESAMPLES,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(values, lows, highs, standard errors) of statistic ``name`` on each outer resample
    (``outer[key]``: (S, draws) indices into ``samples[key]``), by ``method``."""
    statistic = STATISTICS[name]
    values = statistic.reduce(samples, outer)
    if method == "exact" or not statistic.resampled:
        return values, values, values, np.zeros_like(values)
    infinite = np.full(values.shape, np.inf)
    if min(samples[key].shape[0] for key in statistic.resampled) < 2:
        return values, -infinite, infinite, infinite
    if method == "student-t":
        return (values, *_student_t(name, samples, outer))
    if method != "bootstrap":
        raise ValueError(f"interval must be one of {INTERVALS}, got {method!r}")
    widest = max(samples[key].size for key in statistic.resampled)  # a resample's copy
    chunk = max(1, BATCH_ELEMENTS // (resamples * widest))
    tail = 50.0 * (1.0 - CONFIDENCE)
    lows, highs, errors = (np.empty(values.shape) for _ in range(3))
    for start in range(0, values.size, chunk):
        rows = slice(start, min(start + chunk, values.size))
        count = rows.stop - rows.start
        index = {}
        for key in statistic.resampled:
            draws = samples[key].shape[0]
            inner = rng.integers(0, draws, size=(count, resamples, draws))
            index[key] = _compose(outer[key][rows], inner)
        boot = statistic.reduce(samples, index).reshape(count, resamples)
        finite = np.isfinite(boot)
        enough = finite.sum(axis=1) >= resamples // 2
        boot = np.where(finite, boot, np.nan)
        with np.errstate(invalid="ignore"):
            low, high = np.nanpercentile(boot, [tail, 100.0 - tail], axis=1)
            error = np.nanstd(boot, axis=1, ddof=1)
        lows[rows] = np.where(enough, low, -np.inf)
        highs[rows] = np.where(enough, high, np.inf)
        errors[rows] = np.where(enough, error, np.inf)
    return values, lows, highs, errors


def _student_t(name, samples, outer):
    """Student-t interval of a mean, or Welch's of a difference of means, per outer resample."""
    if name not in ("mean", "mean_difference"):
        raise ValueError(f"a Student-t interval needs a mean or a mean difference, not {name!r}")
    keys = ["values"] + (["reference"] if name == "mean_difference" else [])
    variances, sizes = [], []
    for key in keys:
        data = samples[key][outer[key]].reshape(outer[key].shape[0], -1)
        count = np.sum(np.isfinite(data), axis=1)
        variances.append(np.nanvar(data, axis=1, ddof=1) / count)
        sizes.append(count)
    total = sum(variances)
    if len(keys) == 1:
        dof = sizes[0] - 1.0
    else:  # Welch-Satterthwaite
        dof = total**2 / sum(v**2 / (n - 1.0) for v, n in zip(variances, sizes, strict=True))
    se = np.sqrt(total)
    half = student_t_half_width(se, dof, CONFIDENCE)
    values = STATISTICS[name].reduce(samples, outer)
    return values - half, values + half, se


@dataclass(frozen=True)
class LimitArrays:
    """The finite-size model on each outer resample: the limit at the best-fitting rate, the
    union over the declared rates of the limit's percentile intervals, the best rate, its
    chi-square p-value and whether that fit is acceptable."""

    values: np.ndarray
    lows: np.ndarray
    highs: np.ndarray
    exponents: np.ndarray
    pvalues: np.ndarray
    fit_ok: np.ndarray


def _best_fits(sizes, per_size, grid, weights):
    """(limit, chi-square, degrees of freedom, rate) of the best-fitting rate of ``grid`` for
    each row of ``per_size`` (O, S)."""
    fits = [limit_fits(sizes, per_size, p, weights) for p in grid]
    chi2 = np.stack([f[1] for f in fits], axis=1)  # (O, P)
    best = np.argmin(np.where(np.isnan(chi2), np.inf, chi2), axis=1)
    rows = np.arange(per_size.shape[0])
    values = np.stack([f[0] for f in fits], axis=1)[rows, best]
    return values, chi2[rows, best], fits[0][2], grid[best]


def limit_intervals(
    test: TheoryTest,
    evidence: Evidence,
    outer: Sequence[Mapping],
    rng: np.random.Generator,
    resamples: int = BOOTSTRAP_RESAMPLES,
) -> LimitArrays:
    """The finite-size model on each outer resample (``outer[s][name]`` (O, draws_s) picks the
    draws of size s): at every rate of the declared range (:func:`exponent_grid`) the weighted
    fit of the resample, each size weighted by the inverse variance of its statistic over the
    inner resamples, and its percentile bootstrap interval over ``resamples`` inner resamples of
    each size's draws (same weights, same inner resamples at every rate); the union of those
    intervals over every rate of the range (a rate the data fit badly still counts: dropping
    such rates let 9 of 1800 synthetic wrong limits pass), and the best rate's limit and
    goodness of fit."""
    from scipy import stats

    names = STATISTICS[test.statistic].resampled
    by_size, sizes = evidence.by_size, evidence.sizes
    grid = exponent_grid(test.exponents)
    per_size = size_statistics(test.statistic, by_size, outer)  # (O, S)
    count_outer = per_size.shape[0]
    values, chi2, dof, best = _best_fits(sizes, per_size, grid, None)
    lows, highs = np.empty(count_outer), np.empty(count_outer)
    if not names:  # a deterministic statistic: the limit's spread is that over the rates
        spread = np.stack([limit_fits(sizes, per_size, p)[0] for p in grid], axis=1)
        ok = np.ones(count_outer, dtype=bool)
        return LimitArrays(values, spread.min(1), spread.max(1), best, np.ones(count_outer), ok)
    counts = [{key: own[key].shape[0] for key in names} for own in by_size]
    if min(min(c.values()) for c in counts) < 2:
        infinite = np.full(count_outer, np.inf)
        return LimitArrays(values, -infinite, infinite, best, np.full(count_outer, np.nan),
                           np.zeros(count_outer, dtype=bool))  # fmt: skip
    widest = sum(max(own[key].size for key in names) for own in by_size)  # a resample's copy
    chunk = max(1, BATCH_ELEMENTS // (resamples * widest))
    tail = 50.0 * (1.0 - CONFIDENCE)
    for start in range(0, count_outer, chunk):
        rows = slice(start, min(start + chunk, count_outer))
        count = rows.stop - rows.start
        index = []
        for own, size_outer in zip(counts, outer, strict=True):
            picked = {}
            for key, draws in own.items():
                inner = rng.integers(0, draws, size=(count, resamples, draws))
                picked[key] = _compose(size_outer[key][rows], inner)
            index.append(picked)
        boot = size_statistics(test.statistic, by_size, index).reshape(count, resamples, -1)
        weights = inverse_variances(boot)  # (count, S): each outer resample's own
        values[rows], chi2[rows], dof[rows], best[rows] = _best_fits(
            sizes, per_size[rows], grid, weights
        )
        flat = boot.reshape(count * resamples, -1)
        repeated = np.repeat(weights, resamples, 0)
        low, high = np.full(count, np.inf), np.full(count, -np.inf)
        for p in grid:
            boot_limits = limit_fits(sizes, flat, p, repeated)[0].reshape(count, resamples)
            enough = np.isfinite(boot_limits).sum(axis=1) >= resamples // 2
            with np.errstate(invalid="ignore"):
                at_low, at_high = np.nanpercentile(boot_limits, [tail, 100.0 - tail], axis=1)
            low = np.minimum(low, np.where(enough, at_low, -np.inf))
            high = np.maximum(high, np.where(enough, at_high, np.inf))
        lows[rows], highs[rows] = low, high
    with np.errstate(invalid="ignore"):
        pvalues = stats.chi2.sf(chi2, np.maximum(dof, 1))
    return LimitArrays(values, lows, highs, best, pvalues, fit_acceptable(chi2, dof))


def _fingerprint(evidence: Evidence) -> str:
    """A digest of the data a theory's intervals depend on (its samples, sizes and by_size,
    with their shapes), so that alternatives that differ from the claim only in their targets
    reuse its intervals."""
    digest = hashlib.sha256()
    arrays = dict(evidence.samples)
    if evidence.sizes is not None:
        arrays["__sizes"] = evidence.sizes
    for i, own in enumerate(evidence.by_size or ()):
        arrays.update({f"__size{i}/{key}": value for key, value in own.items()})
    for key in sorted(arrays):
        value = np.ascontiguousarray(arrays[key], dtype=np.float64)
        digest.update(f"{key}{value.shape}".encode())
        digest.update(value.tobytes())
    return digest.hexdigest()


def theory_intervals(
    test: TheoryTest,
    evidence: Evidence,
    outer: Mapping,
    seed_key,
    cache: dict,
    resamples: int = BOOTSTRAP_RESAMPLES,
):
    """(values, lows, highs, standard errors, limit) of one theory on each outer resample
    (``limit`` a :class:`LimitArrays`, None without a finite-size model). Every
    theory draws its inner resamples from the same streams (common random numbers), and
    theories with the same data share one computation."""
    key = (_fingerprint(evidence), _outer_key(outer), test.exponents)
    if key in cache:
        return cache[key]
    names = STATISTICS[test.statistic].resampled if test.interval != "exact" else ()
    if names:
        values, lows, highs, errors = statistic_intervals(
            test.statistic,
            test.interval,
            evidence.samples,
            {k: outer[k] for k in names},
            rng_for(seed_key, 0, "interval"),
            resamples,
        )
    else:
        count = max((v.shape[0] for k, v in outer.items() if k != "__by_size"), default=1)
        values = np.full(count, statistic_value(test.statistic, evidence.samples))
        lows = highs = values
        errors = np.zeros(count)
    limit = None
    if test.exponents is not None:
        limit = limit_intervals(
            test, evidence, outer["__by_size"], rng_for(seed_key, 0, "limit"), resamples
        )
    if test.interval_scale != 1.0:
        scale = test.interval_scale
        lows, highs = values - scale * (values - lows), values + scale * (highs - values)
        errors = scale * errors
        if limit is not None:
            at = limit.values
            limit = replace(
                limit, lows=at - scale * (at - limit.lows), highs=at + scale * (limit.highs - at)
            )
    cache[key] = (values, lows, highs, errors, limit)
    return cache[key]


def _outer_key(outer: Mapping) -> tuple:
    """A hashable key of outer resample indices (by-size indices included)."""
    parts = []
    for name in sorted(outer):
        if name == "__by_size":
            for own in outer[name]:
                parts += [(key, value.tobytes()) for key, value in sorted(own.items())]
        else:
            parts.append((name, outer[name].tobytes()))
    return tuple(parts)


def unresampled(samples: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each draw once, for every array with a draw axis (a 0-d array has none)."""
    return {
        key: np.arange(value.shape[0])[None, :] for key, value in samples.items() if np.ndim(value)
    }


def outer_of_size(own: Mapping, evidence: Evidence, outer: Mapping, rng, resamples: int) -> dict:
    """The stability resamples of one size's draws: the judged samples' own where the size's
    samples are the judged ones (the judged point is one of the sizes), else new ones."""
    picked = {}
    for key in own:
        same = key in outer and np.array_equal(own[key], evidence.samples[key], equal_nan=True)
        picked[key] = (
            outer[key]
            if same
            else rng.integers(0, own[key].shape[0], (resamples, own[key].shape[0]))
        )
    return picked
