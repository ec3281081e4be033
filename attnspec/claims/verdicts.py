"""The verdict engine: one judge for every row of the claims registry
(:mod:`attnspec.papers.registry`).

A row's test is declared apart from the data (statistic, points, target, margin with its reason,
interval method, comparison, finite-size model, the wrong theories it must rule out); the data
arrive as an :class:`attnspec.claims.evidence.Evidence`.

- **Interval**: the 95 % interval of the statistic: percentile bootstrap over draws
  (:data:`BOOTSTRAP_RESAMPLES` resamples), Student-t (means: t quantile x s/sqrt(n); a
  difference of means: Welch), or exact (a deterministic value: the interval is the value).
- **Pass region** R from the target t and the margin m (a number fixed in the claim's own units,
  never from the data's spread or the judged size): equivalence [t - m, t + m], at most
  (-inf, t + m], at least [t + m, inf) and below (-inf, t - m] (separated from the target by at
  least the margin).
- **Finite-size model** (declared for some rows; :mod:`attnspec.claims.finite_size`): the statistic
  extrapolated from every size by m(ell) = g + a ell^(-p) at every rate p of a declared range
  (the claim's rate and every wrong theory's inside it), the limit's interval the union over
  the rates of the bootstrap intervals of g, placed against the limit's pass region (limit
  target +- the same margin); the best rate's fit must pass a chi-square test of its weighted
  residuals.
- **Verdict against one theory**, without a finite-size model: *holds* when the judged
  interval lies inside R, *does not reproduce* when it lies entirely outside, else
  *inconclusive at these sizes*. With one, the claim is about the limit, and the limit decides,
  provided the model fits: *holds* when the limit's interval lies inside the limit's region and
  the judged interval inside R; *holds with a finite-size caveat* when the limit's lies inside
  and the judged one does not but lies within the declared distance of R; *does not
  reproduce* when the limit's lies entirely outside (whatever the judged size shows: a finite
  size that agrees while the model carries the data away is a crossing, not agreement); else,
  or when the fit is rejected, *inconclusive at these sizes* (a limit the sizes or the rates
  cannot place is wide, and wide is inconclusive); a rejected fit passes nothing and reads
  *does not reproduce* only where the limit's union and the judged interval both lie outside,
  on one side. Each wrong theory is judged with its own
  range of rates. Every rule needs an interval inside a region to pass, so a wider interval
  (more noise, a smaller simulation, a wider range of rates) can only move a verdict away from
  a pass.
- **Power rule** (the built-in mutation test): the same data are judged, by the same statistic,
  interval, finite-size model and margin, against each wrong theory the row declares
  (:attr:`Evidence.alternatives`: the evidence recomputed with that theory's quantities, or on
  the data it would produce), as an equivalence with that theory's prediction; one is *ruled
  out* when it reads *does not reproduce* (for an equivalence row this is the row's own test
  with the wrong theory's target; for a one-sided row, whose target is the refuted value, it is
  the same interval placed against the wrong theory's prediction). An empirical row reads
  *holds* (or the caveat) only if every alternative is ruled out; otherwise *inconclusive at
  these sizes*, with no power against the alternatives left standing.
- **Stability**: the share of :data:`STABILITY_RESAMPLES` bootstrap resamples of the draws
  (the statistic, the finite-size data and every alternative's data resampled alike) whose
  re-judged final verdict is the same, each resample's intervals from
  :data:`STABILITY_INNER_RESAMPLES` inner resamples; below :data:`FRAGILE_BELOW` the row is
  fragile.
- **Power**: the smallest shift of the target (and of the limit's target), in margins, up and
  down, that the whole engine, finite-size caveat included, calls *does not reproduce* on the
  row's data (bisection on the engine's own decision); infinite where no shift up to
  :data:`POWER_SEARCH_LIMIT` margins does (a one-sided row cannot fail on one side).
"""

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

# scipy.stats is imported where it is used: figure scripts import this module for its
# vocabulary (verdict names, row columns) and should not pay for scipy.
import numpy as np

from attnspec.claims.catalogue import CLAIMS
from attnspec.claims.evidence import STATISTICS, Evidence
from attnspec.claims.finite_size import (
    MIN_SIZES,
    exponent_grid,
    fit_acceptable,
    inverse_variances,
    limit_fits,
    size_statistics,
)
from attnspec.seeding import rng_for
from attnspec.validation import check_choice, check_count

HOLDS = "holds"
FINITE_SIZE_CAVEAT = "holds with a finite-size caveat"
INCONCLUSIVE = "inconclusive at these sizes"
DOES_NOT_REPRODUCE = "does not reproduce"
VERDICTS = (HOLDS, FINITE_SIZE_CAVEAT, INCONCLUSIVE, DOES_NOT_REPRODUCE)

KINDS = ("empirical", "model", "identity", "bound")
"""empirical: data from random draws against a limit, which can fail (evidence); model: a
deterministic evaluation of a closed-form model (its spread over draws below what the margin
resolves); identity: two exact computations agree; bound: holds by construction (a theorem).
Only empirical rows are evidence; the others are shown and labelled."""
COMPARISONS = ("equivalence", "at_most", "at_least", "below")
INTERVALS = ("bootstrap", "student-t", "exact")

CONFIDENCE = 0.95
BOOTSTRAP_RESAMPLES = 2000
STABILITY_RESAMPLES = 1000
STABILITY_INNER_RESAMPLES = 500
FRAGILE_BELOW = 0.9
# Rows whose claim is about a limit: the limit's region is the limit target +- the margin.
FINITE_SIZE_COMPARISONS = ("equivalence", "at_most")
RULE_TEXT = (
    f"holds if the {CONFIDENCE:.0%} interval lies inside the pass region; does not reproduce if "
    "it lies entirely outside; else inconclusive at these sizes"
)
FINITE_SIZE_RULE_TEXT = (
    "the limit decides if the model fits (the best rate's weighted residuals pass a chi-square "
    "test at the 1 % level): holds if the union over the rates of the limit's "
    f"{CONFIDENCE:.0%} bootstrap intervals lies inside the limit's region (limit target +- the "
    "margin) and the judged interval inside the pass region; holds with a finite-size caveat if "
    "the union lies inside and the judged interval does not but lies within the declared "
    "distance of the pass region; does not reproduce if the union lies entirely outside, "
    "whatever the judged size shows (with a rejected fit, only if the judged interval lies "
    "outside on the same side); else, or if the fit is rejected, inconclusive at these sizes"
)
POWER_SEARCH_LIMIT = 100.0


@dataclass(frozen=True)
class Interval:
    low: float
    high: float
    standard_error: float


def pass_region(comparison: str, target: float, margin: float) -> tuple[float, float]:
    """(low, high) of the pass region R of a comparison."""
    if comparison == "equivalence":
        return target - margin, target + margin
    if comparison == "at_most":
        return -np.inf, target + margin
    if comparison == "at_least":
        return target + margin, np.inf
    if comparison == "below":
        return -np.inf, target - margin
    raise ValueError(f"comparison must be one of {COMPARISONS}, got {comparison!r}")


def _placement(lows, highs, region):
    """(inside, disjoint) of each interval [low, high] against the region (non-finite: neither)."""
    low, high = region
    finite = np.isfinite(lows) & np.isfinite(highs)
    inside = finite & (low <= lows) & (highs <= high)
    disjoint = finite & ((highs < low) | (lows > high))
    return inside, disjoint


def _distance(lows, highs, region):
    """How far each interval lies from the region (0 where they meet)."""
    low, high = region
    with np.errstate(invalid="ignore"):
        return np.maximum(0.0, np.maximum(low - highs, lows - high))


def _decide(
    lows,
    highs,
    region,
    limit_lows=None,
    limit_highs=None,
    limit_region=None,
    fit_ok=None,
    caveat_distance=np.inf,
):
    """The index in :data:`VERDICTS` of each resample's verdict against one theory (module
    docstring); the limit arrays (the union over the declared rates), ``fit_ok`` (the model's
    fit acceptable) and ``caveat_distance`` (how far, in the statistic's units, the judged
    interval may lie from its region for a caveat) are None / inf for a row without a
    finite-size model. A rejected fit passes nothing; it reads does not reproduce only where
    the judged interval lies outside its region on the same side as the limit's union (data
    far off at every scale the model tried, e.g. a wrong law's distance)."""
    inside, disjoint = _placement(lows, highs, region)
    verdict = np.full(np.shape(lows), VERDICTS.index(INCONCLUSIVE))
    if limit_lows is None:
        verdict[disjoint] = VERDICTS.index(DOES_NOT_REPRODUCE)
        verdict[inside] = VERDICTS.index(HOLDS)
        return verdict
    limit_inside, limit_disjoint = _placement(limit_lows, limit_highs, limit_region)
    fit_ok = np.ones(np.shape(lows), dtype=bool) if fit_ok is None else np.asarray(fit_ok)
    near = _distance(lows, highs, region) <= caveat_distance
    with np.errstate(invalid="ignore"):
        below = (np.asarray(limit_highs) < limit_region[0]) & (np.asarray(highs) < region[0])
        above = (np.asarray(limit_lows) > limit_region[1]) & (np.asarray(lows) > region[1])
    verdict[limit_inside & fit_ok & near] = VERDICTS.index(FINITE_SIZE_CAVEAT)
    verdict[limit_inside & fit_ok & inside] = VERDICTS.index(HOLDS)
    verdict[limit_disjoint & (fit_ok | below | above)] = VERDICTS.index(DOES_NOT_REPRODUCE)
    return verdict


def check_finite_size_test(row_id: str, comparison: str, interval: str) -> None:
    """ValueError unless a finite-size model can go with ``comparison`` (one of
    :data:`FINITE_SIZE_COMPARISONS`: the limit's region is its target +- the margin) and
    ``interval`` (resampled: the limit's interval is a bootstrap)."""
    if comparison not in FINITE_SIZE_COMPARISONS:
        raise ValueError(
            f"{row_id}: a finite-size model goes with a comparison in "
            f"{FINITE_SIZE_COMPARISONS}, got {comparison!r}"
        )
    if interval == "exact":
        raise ValueError(f"{row_id}: a finite-size model needs a resampled interval, not 'exact'")


def decide(
    interval: Interval,
    region: tuple[float, float],
    limit: Interval | None = None,
    limit_region: tuple[float, float] | None = None,
    fit_ok: bool = True,
    caveat_distance: float = np.inf,
) -> str:
    """The verdict against one theory from the judged interval and, for a row with a
    finite-size model, the limit's interval (the union over the declared rates), whether the
    model's fit is acceptable and how far the judged interval may lie from its region for a
    caveat (module docstring)."""
    arrays = [np.array([interval.low]), np.array([interval.high]), region]
    if limit is not None:
        arrays += [np.array([limit.low]), np.array([limit.high]), limit_region]
        arrays += [np.array([fit_ok]), caveat_distance]
    return VERDICTS[int(_decide(*arrays)[0])]


def _with_power_rule(claim: np.ndarray, alternatives: Sequence[np.ndarray]) -> np.ndarray:
    """The final verdict indices: holds or caveat against the claim's theory become
    inconclusive where some alternative is not ruled out (does not read does not reproduce)."""
    passing = (claim == VERDICTS.index(HOLDS)) | (claim == VERDICTS.index(FINITE_SIZE_CAVEAT))
    standing = np.zeros(claim.shape, dtype=bool)
    for verdict in alternatives:
        standing |= verdict != VERDICTS.index(DOES_NOT_REPRODUCE)
    return np.where(passing & standing, VERDICTS.index(INCONCLUSIVE), claim)


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


def _intervals(
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
    from scipy import stats

    se = np.sqrt(total)
    half = stats.t.ppf(0.5 + CONFIDENCE / 2, dof) * se
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


def _limit_intervals(
    test: "_Test",
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


@dataclass(frozen=True)
class Limit:
    """The finite-size model's extrapolated limit (at the best-fitting rate) with its 95 %
    interval (the union over the declared rates), the best rate, its fit's chi-square p-value
    and whether that fit is acceptable."""

    value: float
    low: float
    high: float
    exponent: float = np.nan
    pvalue: float = np.nan
    fit_ok: bool = True

    @property
    def interval(self) -> Interval:
        return Interval(self.low, self.high, np.nan)


@dataclass(frozen=True)
class TheoryJudgement:
    """One theory (the claim's, or a declared alternative) judged on the row's data."""

    value: float
    target: float
    limit_target: float
    interval: Interval
    limit: Limit | None
    verdict: str


@dataclass(frozen=True)
class _Test:
    """The declared test the engine applies to every theory of a row: ``exponents`` the
    finite-size model's range of rates (None: no model), ``caveat_distance`` in margins."""

    statistic: str
    comparison: str
    margin: float
    interval: str
    exponents: tuple[float, float] | None
    interval_scale: float = 1.0
    caveat_distance: float = np.inf

    @property
    def caveat_reach(self) -> float:
        """How far, in the statistic's units, the judged interval may lie from its region for
        a finite-size caveat."""
        return self.caveat_distance * self.margin

    def regions(self, evidence: Evidence, shift: float = 0.0):
        """(region, limit region) with both targets shifted by ``shift`` margins; the limit's
        region is the limit target +- the margin, for an at-most row too (its statistics are
        distances: a limit extrapolated below the target by more than the margin is a model
        that does not fit, not a pass)."""
        offset = shift * self.margin
        return (
            pass_region(self.comparison, evidence.target + offset, self.margin),
            pass_region("equivalence", evidence.limit_target + offset, self.margin),
        )


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


def _resampled_intervals(
    test: _Test,
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
        values, lows, highs, errors = _intervals(
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
        limit = _limit_intervals(
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


def _unresampled(samples: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Each draw once, for every array with a draw axis (a 0-d array has none)."""
    return {
        key: np.arange(value.shape[0])[None, :] for key, value in samples.items() if np.ndim(value)
    }


def _judge_theory(test: _Test, evidence: Evidence, seed_key, cache: dict) -> TheoryJudgement:
    """One theory on the data as they are (every draw once)."""
    outer = _unresampled(evidence.samples)
    if evidence.by_size is not None:
        outer["__by_size"] = [_unresampled(own) for own in evidence.by_size]
    _, lows, highs, errors, limit = _resampled_intervals(test, evidence, outer, seed_key, cache)
    interval = Interval(float(lows[0]), float(highs[0]), float(errors[0]))
    found = None
    if limit is not None:
        found = Limit(
            float(limit.values[0]),
            float(limit.lows[0]),
            float(limit.highs[0]),
            float(limit.exponents[0]),
            float(limit.pvalues[0]),
            bool(limit.fit_ok[0]),
        )
    region, limit_region = test.regions(evidence)
    verdict = decide(
        interval,
        region,
        found and found.interval,
        limit_region,
        found is None or found.fit_ok,
        test.caveat_reach,
    )
    return TheoryJudgement(
        statistic_value(test.statistic, evidence.samples),
        evidence.target,
        evidence.limit_target,
        interval,
        found,
        verdict,
    )


def power_shifts(test: _Test, evidence: Evidence, claim: TheoryJudgement) -> tuple[float, float]:
    """(up, down): the smallest shifts of the targets, in margins, that the engine calls does
    not reproduce on the claim's intervals (module docstring); inf where none up to
    :data:`POWER_SEARCH_LIMIT` margins does, NaN for a zero margin."""
    if not test.margin > 0:
        return np.nan, np.nan

    def fails(shift: float) -> bool:
        region, limit_region = test.regions(evidence, shift)
        found = claim.limit
        limit = found.interval if found is not None else None
        fit_ok = found is None or found.fit_ok
        verdict = decide(claim.interval, region, limit, limit_region, fit_ok, test.caveat_reach)
        return verdict == DOES_NOT_REPRODUCE

    found = []
    for sign in (1.0, -1.0):
        if fails(0.0):
            found.append(0.0)
            continue
        if not fails(sign * POWER_SEARCH_LIMIT):
            found.append(np.inf)
            continue
        low, high = 0.0, POWER_SEARCH_LIMIT
        for _ in range(60):
            middle = 0.5 * (low + high)
            low, high = (low, middle) if fails(sign * middle) else (middle, high)
        found.append(high)
    return found[0], found[1]


@dataclass(frozen=True)
class Judgement:
    """The engine's numbers for one row (without its texts)."""

    claim: TheoryJudgement
    margin: float
    alternatives: Mapping[str, TheoryJudgement]
    verdict: str
    stability: float
    alternative: str
    alternative_share: float
    power_up: float
    power_down: float
    draws: int

    @property
    def value(self) -> float:
        return self.claim.value

    @property
    def interval(self) -> Interval:
        return self.claim.interval

    @property
    def standing(self) -> tuple[str, ...]:
        """The alternatives not ruled out (not reading does not reproduce)."""
        return tuple(
            name for name, found in self.alternatives.items() if found.verdict != DOES_NOT_REPRODUCE
        )

    @property
    def no_power_against(self) -> tuple[str, ...]:
        """The alternatives that turned a pass into *inconclusive* (the power rule): those left
        standing when the claim passes against its own theory; none when it fails on its own
        (an alternative left standing then is agreement with a wrong theory, not lack of
        power: the alternatives column shows it)."""
        return self.standing if self.claim.verdict in (HOLDS, FINITE_SIZE_CAVEAT) else ()

    @property
    def fragile(self) -> bool:
        return self.stability < FRAGILE_BELOW


def judge(
    evidence: Evidence,
    *,
    statistic: str,
    comparison: str,
    margin: float,
    interval: str,
    seed_key: Mapping,
    exponents: tuple[float, float] | None = None,
    alternatives: Sequence[str] = (),
    alternative_exponents: Mapping[str, tuple[float, float]] | None = None,
    caveat_distance: float = np.inf,
    interval_scale: float = 1.0,
    stability_resamples: int = STABILITY_RESAMPLES,
) -> Judgement:
    """Judge ``evidence`` by a declared test (module docstring): ``exponents`` is the declared
    finite-size model's range of rates (None: none), ``alternatives`` the names of the declared
    wrong theories (the evidence must carry exactly these), ``alternative_exponents`` the
    range of rates of those that approach their limit otherwise than the claim (the others use
    ``exponents``), ``caveat_distance`` how far (in margins) the judged interval may lie from
    its region for a finite-size caveat, ``interval_scale`` a declared widening of every
    interval about its value (calibrated on independent replicates; 1: none). ``seed_key``
    keys the bootstrap's random streams (:func:`attnspec.seeding.rng_for`), so a judgement is
    reproducible bit for bit. ``stability_resamples`` is lowered only by tests that do not read
    the stability."""
    check_choice(statistic, "statistic", tuple(sorted(STATISTICS)))
    check_choice(interval, "interval", INTERVALS)
    missing = [key for key in STATISTICS[statistic].arrays if key not in evidence.samples]
    if missing:
        raise ValueError(f"{evidence.row_id}: statistic {statistic!r} needs samples {missing}")
    if not (np.isfinite(margin) and margin >= 0):
        raise ValueError(f"{evidence.row_id}: margin must be finite and >= 0, got {margin!r}")
    if (exponents is None) != (evidence.by_size is None):
        raise ValueError(
            f"{evidence.row_id}: the evidence has {'no ' if evidence.by_size is None else ''}"
            f"finite-size data but the test declares {'no' if exponents is None else 'a'} "
            "finite-size model"
        )
    alternative_exponents = dict(alternative_exponents or {})
    for rates in (exponents, *alternative_exponents.values()):
        if rates is not None:
            exponent_grid(rates)  # ValueError unless a valid range
    if exponents is not None:
        check_finite_size_test(evidence.row_id, comparison, interval)
    if exponents is not None and evidence.sizes.size < MIN_SIZES:
        raise ValueError(
            f"{evidence.row_id}: the finite-size model needs at least {MIN_SIZES} sizes, got "
            f"{evidence.sizes.size}"
        )
    if sorted(evidence.alternatives) != sorted(alternatives):
        raise ValueError(
            f"{evidence.row_id}: the evidence judges alternatives {sorted(evidence.alternatives)}"
            f", the registry declares {sorted(alternatives)}"
        )
    if not (np.isfinite(interval_scale) and interval_scale >= 1.0):
        raise ValueError(f"interval_scale must be finite and >= 1, got {interval_scale!r}")
    unknown = sorted(set(alternative_exponents) - set(alternatives))
    if unknown or (alternative_exponents and exponents is None):
        named = unknown or sorted(alternative_exponents)
        raise ValueError(
            f"{evidence.row_id}: alternative_exponents for {named} need declared alternatives "
            "and a finite-size model"
        )
    if not caveat_distance >= 0:
        raise ValueError(f"caveat_distance must be >= 0, got {caveat_distance!r}")
    check_count(stability_resamples, "stability_resamples", 1)
    test = _Test(
        statistic,
        comparison,
        margin * evidence.margin_scale,
        interval,
        None if exponents is None else tuple(float(p) for p in exponents),
        interval_scale,
        caveat_distance,
    )
    cache: dict = {}
    claim = _judge_theory(test, evidence, seed_key, cache)
    rivals = {name: _rival(test, alternative_exponents.get(name)) for name in alternatives}
    judged = {
        name: _judge_theory(rivals[name], evidence.alternatives[name], seed_key, cache)
        for name in alternatives
    }
    final = VERDICTS[
        int(
            _with_power_rule(
                np.array([VERDICTS.index(claim.verdict)]),
                [np.array([VERDICTS.index(j.verdict)]) for j in judged.values()],
            )[0]
        )
    ]
    stability, other, share = _stability(
        test,
        evidence,
        [(evidence.alternatives[name], rivals[name]) for name in alternatives],
        final,
        seed_key,
        stability_resamples,
    )
    up, down = power_shifts(test, evidence, claim)
    return Judgement(
        claim=claim,
        margin=test.margin,
        alternatives=judged,
        verdict=final,
        stability=stability,
        alternative=other,
        alternative_share=share,
        power_up=up,
        power_down=down,
        draws=evidence.draws,
    )


def _rival(test: _Test, exponents: tuple[float, float] | None) -> _Test:
    """The test a wrong theory is judged by: an equivalence with its prediction, at its own
    rates where it declares them."""
    rival = replace(test, comparison="equivalence")
    return rival if exponents is None else replace(rival, exponents=tuple(map(float, exponents)))


def _stability(
    test: _Test,
    evidence: Evidence,
    alternatives: Sequence[tuple[Evidence, _Test]],
    verdict: str,
    seed_key: Mapping,
    resamples: int,
) -> tuple[float, str, float]:
    """(share of re-judged resamples with the same final verdict, the commonest other verdict,
    its share). Every theory (``alternatives``: its evidence and test) is judged on the same
    resampled draws. A deterministic row (no resampled draws, no finite-size data) is stable by
    construction."""
    names = STATISTICS[test.statistic].resampled if test.interval != "exact" else ()
    if not names and evidence.by_size is None:
        return 1.0, "", 0.0
    rng = rng_for(seed_key, 0, "stability")
    outer = {
        key: rng.integers(
            0, evidence.samples[key].shape[0], (resamples, evidence.samples[key].shape[0])
        )
        for key in names
    }
    if evidence.by_size is not None:
        outer["__by_size"] = [
            _outer_of_size(own, evidence, outer, rng, resamples) for own in evidence.by_size
        ]
    cache: dict = {}
    verdicts = []
    for item, own_test in ((evidence, test), *alternatives):
        _, lows, highs, _, limit = _resampled_intervals(
            own_test, item, outer, seed_key, cache, STABILITY_INNER_RESAMPLES
        )
        region, limit_region = own_test.regions(item)
        if limit is None:
            verdicts.append(_decide(lows, highs, region))
        else:
            verdicts.append(
                _decide(lows, highs, region, limit.lows, limit.highs, limit_region,
                        limit.fit_ok, own_test.caveat_reach)
            )  # fmt: skip
    final = _with_power_rule(verdicts[0], verdicts[1:])
    shares = np.bincount(final, minlength=len(VERDICTS)) / final.size
    same = float(shares[VERDICTS.index(verdict)])
    others = [i for i in range(len(VERDICTS)) if VERDICTS[i] != verdict]
    other = max(others, key=lambda i: (shares[i], -i))
    return same, (VERDICTS[other] if shares[other] > 0 else ""), float(shares[other])


def _outer_of_size(own: Mapping, evidence: Evidence, outer: Mapping, rng, resamples: int) -> dict:
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


REGION_TEXT = {
    "equivalence": "inside [target - margin, target + margin]",
    "at_most": "at or below target + margin",
    "at_least": "at or above target + margin",
    "below": "at or below target - margin",
}
INTERVAL_TEXT = {
    "bootstrap": f"percentile bootstrap over draws, {BOOTSTRAP_RESAMPLES} resamples",
    "student-t": "Student-t (Welch for a difference of means)",
    "exact": "exact (a deterministic value)",
}


def describe_test(test) -> str:
    """The ``test`` column of a registry row (:class:`attnspec.claims.declared.DeclaredTest`)."""
    unit = f" x [{test.margin_unit}]" if test.margin_unit else ""
    text = (
        f"statistic: {test.describes} ({test.statistic}); points: {test.points}; target: "
        f"{test.target}; margin {test.margin:g}{unit} ({test.margin_reason}); holds if the "
        f"{CONFIDENCE:.0%} interval ({INTERVAL_TEXT[test.interval]}"
        + (
            f", widened {test.interval_scale:g}x about the value: {test.interval_scale_reason}"
            if test.interval_scale != 1.0
            else ""
        )
        + f") lies {REGION_TEXT[test.comparison]}"
    )
    model = test.finite_size
    if model is not None:
        own = [
            f"{a.name} at p in {a.exponents_text} ({a.exponents_reason})"
            for a in test.alternatives
            if a.exponents is not None
        ]
        text += (
            f"; finite-size model: the statistic at every size extrapolated by "
            f"g + a ell^(-p), p in {model.exponents_text} ({model.reason}), limit target "
            f"{model.limit}; a caveat's judged interval within {model.caveat_distance:g} "
            f"margin(s) of the pass region ({model.caveat_reason})"
            + (f"; wrong theories at their own rates: {'; '.join(own)}" if own else "")
            + "; "
            + FINITE_SIZE_RULE_TEXT
        )
    else:
        text += "; no finite-size model, so no caveat; does not reproduce if the interval lies "
        text += "entirely outside; else inconclusive"
    if test.alternatives:
        text += "; must rule out (read does not reproduce against): " + "; ".join(
            f"{a.name}: {a.theory}" for a in test.alternatives
        )
    return text


ROW_HEADER = (
    "claim_id",
    "row_id",
    "claim",
    "kind",
    "subject",
    "figure",
    "quantity",
    "statistic",
    "value",
    "interval_low",
    "interval_high",
    "target",
    "comparison",
    "margin",
    "draws",
    "sizes",
    "limit",
    "limit_low",
    "limit_high",
    "limit_target",
    "limit_fit",
    "claim_verdict",
    "verdict",
    "stability",
    "alternative",
    "alternatives",
    "ruled_out",
    "no_power_against",
    "power_up",
    "power_down",
    "replicate",
    "test",
    "beyond_paper",
    "other_resolutions",
    "changed_after_results",
    "note",
)
"""The columns of a judged row. ``claim_verdict``: the verdict against the claim's theory alone;
``verdict``: after the power rule. ``alternatives``: each declared wrong theory with its verdict,
value and 95 % interval and its own target (it is judged as an equivalence with that target,
same margin); ``ruled_out``: how many of them read does not reproduce ("2 of 3");
``power_up``, ``power_down``: the smallest target shifts in margins that read does not
reproduce.
``sizes``: the sizes of the finite-size model (the judged one is the largest).
``other_resolutions``: the verdict under each other declared resolution of the row's wrong
theories (``beta +-3 %: holds``), so that a verdict that depends on it shows it.
``beyond_paper``: for a row beyond the paper (a stronger statement of ours than the paper
makes), what it asks; empty for a row that judges the paper's own statement. ``limit_fit``: the
finite-size model's best rate and its fit's chi-square p-value ("p = 0.67,
fit p-value 0.41"; "rejected" when below the test's level)."""


def _limit_fit_text(limit: Limit | None) -> str:
    """``best p = 0.667, fit p-value 0.41`` (``, rejected`` when the fit is), or empty."""
    if limit is None:
        return ""
    text = f"best p = {limit.exponent:.3g}, fit p-value {limit.pvalue:.2g}"
    return text + ("" if limit.fit_ok else ", rejected")


def _alternatives_text(found: Judgement) -> str:
    return "; ".join(
        f"{name}: {j.verdict}, value {j.value:.4g} [{j.interval.low:.4g}, {j.interval.high:.4g}]"
        f", target {j.target:.6g}"
        + (
            f", limit {j.limit.value:.4g} [{j.limit.low:.4g}, {j.limit.high:.4g}]"
            if j.limit
            else ""
        )
        for name, j in found.alternatives.items()
    )


def _ruled_out_text(found: Judgement) -> str:
    """``2 of 3`` (alternatives reading does not reproduce, of those declared); empty if none."""
    total = len(found.alternatives)
    return f"{total - len(found.standing)} of {total}" if total else ""


def judge_declared(
    test,
    evidence: Evidence,
    *,
    replicate: int = 0,
    alone: bool = False,
    stability_resamples: int = STABILITY_RESAMPLES,
) -> Judgement:
    """:func:`judge` by a registry test (:class:`attnspec.claims.declared.DeclaredTest`), its random
    streams keyed by the row and the replicate. ``alone``: the evidence is one wrong theory's,
    judged by itself as the engine judges it within the row (an equivalence with that theory's
    target, no alternatives; its margin scale should be the claim's)."""
    model = test.finite_size
    return judge(
        evidence,
        statistic=test.statistic,
        comparison="equivalence" if alone else test.comparison,
        margin=test.margin,
        interval=test.interval,
        seed_key={"row": test.row_id, "replicate": int(replicate)},
        exponents=None if model is None else model.exponents,
        alternatives=() if alone else [a.name for a in test.alternatives],
        alternative_exponents=None
        if alone or model is None
        else {a.name: a.exponents for a in test.alternatives if a.exponents is not None},
        caveat_distance=np.inf if model is None else model.caveat_distance,
        interval_scale=test.interval_scale,
        stability_resamples=stability_resamples,
    )


def sizes_text(evidence: Evidence) -> str:
    """The sizes of a row's finite-size model, ``1024, 2048, 4096, 8192``; empty without
    one (the judged size is in the row's quantity)."""
    if evidence.sizes is None:
        return ""
    return ", ".join(f"{size:g}" for size in evidence.sizes)


def variant_verdicts(test, evidence: Evidence, *, replicate: int = 0) -> str:
    """``beta +-3 %: holds; ...``: the row judged by the same test on each of the evidence's
    variants (another declared resolution of its wrong theories, with their margin scale),
    verdict only (no stability); empty without variants."""
    model = test.finite_size
    own = {a.name: a.exponents for a in test.alternatives if a.exponents is not None}
    found = []
    for name, item in evidence.variants.items():
        verdict = judge(
            item,
            statistic=test.statistic,
            comparison=test.comparison,
            margin=test.margin,
            interval=test.interval,
            seed_key={"row": test.row_id, "replicate": int(replicate), "variant": name},
            exponents=None if model is None else model.exponents,
            alternatives=list(item.alternatives),
            alternative_exponents=None
            if model is None
            else {a: own[a] for a in item.alternatives if a in own},
            caveat_distance=np.inf if model is None else model.caveat_distance,
            interval_scale=test.interval_scale,
            stability_resamples=1,
        ).verdict
        found.append(f"{name}: {verdict}")
    return "; ".join(found)


def judge_row(
    test, evidence: Evidence, *, replicate: int = 0, stability_resamples: int = STABILITY_RESAMPLES
) -> dict:
    """The claims-table row of a registry test judged on its evidence (:data:`ROW_HEADER`);
    ``stability_resamples`` as for :func:`judge`."""
    if evidence.row_id != test.row_id:
        raise ValueError(f"evidence for {evidence.row_id!r} given to test {test.row_id!r}")
    found = judge_declared(
        test, evidence, replicate=replicate, stability_resamples=stability_resamples
    )
    alternative = (
        f"{found.alternative} ({found.alternative_share:.0%})" if found.alternative else ""
    )
    limit = found.claim.limit
    return {
        "claim_id": test.claim_id,
        "row_id": test.row_id,
        "claim": CLAIMS[test.claim_id],
        "kind": test.kind,
        "subject": test.subject,
        "figure": test.figure,
        "quantity": evidence.quantity,
        "statistic": test.statistic,
        "value": found.value,
        "interval_low": found.interval.low,
        "interval_high": found.interval.high,
        "target": found.claim.target,
        "comparison": test.comparison,
        "margin": found.margin,
        "draws": found.draws,
        "sizes": sizes_text(evidence),
        "limit": np.nan if limit is None else limit.value,
        "limit_low": np.nan if limit is None else limit.low,
        "limit_high": np.nan if limit is None else limit.high,
        "limit_target": found.claim.limit_target,
        "limit_fit": _limit_fit_text(limit),
        "claim_verdict": found.claim.verdict,
        "verdict": found.verdict,
        "stability": found.stability,
        "alternative": alternative,
        "alternatives": _alternatives_text(found),
        "ruled_out": _ruled_out_text(found),
        "no_power_against": "; ".join(found.no_power_against),
        "power_up": found.power_up,
        "power_down": found.power_down,
        "replicate": int(replicate),
        "test": describe_test(test),
        "beyond_paper": test.beyond_paper,
        "other_resolutions": variant_verdicts(test, evidence, replicate=replicate),
        "changed_after_results": " | ".join(test.changed_after_results),
        "note": evidence.note,
    }


def judge_paper(
    tests: Sequence,
    evidence: Sequence[Evidence],
    *,
    replicate: int = 0,
    stability_resamples: int = STABILITY_RESAMPLES,
    mapper=map,
) -> list:
    """The claims-table rows of a paper: every registry test judged on its evidence, in
    registry order. ValueError unless each test has exactly one evidence item and each item
    belongs to a test. ``mapper`` (e.g. a process pool's map) judges the rows; each row's random
    streams are its own, so the rows are the same whichever process judges them."""
    ids = [item.row_id for item in evidence]
    wanted = [test.row_id for test in tests]
    duplicated = sorted({row for row in ids if ids.count(row) > 1})
    missing = [row for row in wanted if row not in ids]
    unknown = [row for row in ids if row not in wanted]
    if duplicated or missing or unknown:
        raise ValueError(
            f"evidence does not match the registry: missing {missing}, duplicated "
            f"{duplicated}, not in the registry {unknown}"
        )
    by_row = {item.row_id: item for item in evidence}
    judge = partial(judge_row, replicate=replicate, stability_resamples=stability_resamples)
    return list(mapper(judge, tests, [by_row[test.row_id] for test in tests]))
