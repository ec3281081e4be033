"""The verdict engine: one judge for every row of the claims registry (:mod:`attnspec.registry`).

A row's test is declared before the data (statistic, points, target, margin with its reason,
interval method, comparison); the data arrive as an :class:`attnspec.evidence.Evidence`.

- **Interval**: the 95 % interval of the statistic: percentile bootstrap over draws
  (:data:`BOOTSTRAP_RESAMPLES` resamples), Student-t (means: t quantile x s/sqrt(n); a
  difference of means: Welch), or exact (a deterministic value: the interval is the value).
- **Pass region** R from the target t and the margin m: equivalence [t - m, t + m] (equal up to
  the margin), at most (-inf, t + m] (exceeds the target by no more than the margin), at least
  [t + m, inf) and below (-inf, t - m] (separated from the target by at least the margin).
- **Trend rule** (one for every row): on the per-(draw, size) values y, the approach to the
  target is the slope of log|y - t(size)| on log(size) (for the separations at least and below:
  the slope of y on log size, since there the target is a bound to pass); it counts when the
  95 % intervals of both the OLS slope (Student-t, n - 2 dof) and the Theil-Sen slope (Sen's
  interval) exclude 0 on the side that goes towards the pass region.
- **Verdict**: *holds* when the interval lies inside R; else *holds with a finite-size caveat*
  when the value lies outside R and the trend goes towards it; else *does not reproduce* when the
  interval lies entirely outside R; else *inconclusive at these sizes*. A wider interval can
  only move a row from holds to inconclusive, never the other way.
- **Stability**: the share of :data:`STABILITY_RESAMPLES` bootstrap resamples of the draws
  (statistic and trend data alike) whose re-judged verdict is the same; below
  :data:`FRAGILE_BELOW` the row is fragile.
- **Detectable**: m + h + z_0.8 se (h the interval's half-width, se the statistic's bootstrap
  standard error, normal approximation): the smallest deviation from the target that the test
  reports as not reproducing (equivalence, at most), or the smallest separation that it confirms
  (at least, below), with probability :data:`POWER` at these draws.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# scipy.stats is imported where it is used: figure scripts import this module for its
# vocabulary (verdict names, row columns) and should not pay for scipy.
import numpy as np

from attnspec.claims import CLAIMS
from attnspec.evidence import STATISTICS, Evidence
from attnspec.seeding import rng_for

HOLDS = "holds"
FINITE_SIZE_CAVEAT = "holds with a finite-size caveat"
INCONCLUSIVE = "inconclusive at these sizes"
DOES_NOT_REPRODUCE = "does not reproduce"
VERDICTS = (HOLDS, FINITE_SIZE_CAVEAT, INCONCLUSIVE, DOES_NOT_REPRODUCE)

KINDS = ("empirical", "identity", "bound")
"""empirical: data against a limit (evidence); identity: two exact computations agree; bound:
holds by construction (a theorem): shown, not counted as evidence."""
COMPARISONS = ("equivalence", "at_most", "at_least", "below")
INTERVALS = ("bootstrap", "student-t", "exact")

CONFIDENCE = 0.95
BOOTSTRAP_RESAMPLES = 2000
STABILITY_RESAMPLES = 1000
FRAGILE_BELOW = 0.9
POWER = 0.8
MIN_TREND_SIZES = 3


@dataclass(frozen=True)
class Interval:
    low: float
    high: float
    standard_error: float

    @property
    def halfwidth(self) -> float:
        return 0.5 * (self.high - self.low)

    @property
    def finite(self) -> bool:
        return bool(np.isfinite(self.low) and np.isfinite(self.high))


@dataclass(frozen=True)
class Slope:
    """A fitted slope with its 95 % interval."""

    slope: float
    low: float
    high: float

    def describe(self) -> str:
        return f"{self.slope:+.3g} [{self.low:+.3g}, {self.high:+.3g}]"


@dataclass(frozen=True)
class Trend:
    """The trend rule's two fits and whether they agree on an approach to the pass region."""

    ols: Slope
    theil_sen: Slope
    points: int
    towards: bool

    def describe(self) -> str:
        return (
            f"OLS {self.ols.describe()}, Theil-Sen {self.theil_sen.describe()} over "
            f"{self.points} (draw, size) points"
        )


NO_TREND = Trend(Slope(np.nan, np.nan, np.nan), Slope(np.nan, np.nan, np.nan), 0, False)


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


def decide(
    value: float, interval: Interval, region: tuple[float, float], trend_towards: bool
) -> str:
    """The verdict from the value, its interval, the pass region and the trend (module
    docstring): holds, caveat, does not reproduce, else inconclusive."""
    index = _decide(
        np.array([value]),
        np.array([interval.low]),
        np.array([interval.high]),
        region,
        np.array([trend_towards]),
    )
    return VERDICTS[int(index[0])]


def _decide(values, lows, highs, region, towards) -> np.ndarray:
    """Vectorised :func:`decide`: the index in :data:`VERDICTS` of each resample's verdict."""
    low, high = region
    finite = np.isfinite(values) & np.isfinite(lows) & np.isfinite(highs)
    inside = (low <= lows) & (highs <= high)
    outside_value = ~((low <= values) & (values <= high))
    disjoint = (highs < low) | (lows > high)
    verdict = np.full(values.shape, VERDICTS.index(INCONCLUSIVE))
    verdict[disjoint] = VERDICTS.index(DOES_NOT_REPRODUCE)
    verdict[outside_value & towards] = VERDICTS.index(FINITE_SIZE_CAVEAT)
    verdict[inside] = VERDICTS.index(HOLDS)
    verdict[~finite] = VERDICTS.index(INCONCLUSIVE)
    return verdict


def _identity(samples: Mapping[str, np.ndarray], names) -> dict[str, np.ndarray]:
    return {key: np.arange(samples[key].shape[0])[None, :] for key in names}


def statistic_value(name: str, samples: Mapping[str, np.ndarray]) -> float:
    """The statistic on the data as they are (every draw once)."""
    statistic = STATISTICS[name]
    return float(statistic.reduce(samples, _identity(samples, statistic.resampled))[0])


# Bootstrap work per batch: resamples x draws kept below this many indices per array.
BATCH_ELEMENTS = 2_000_000


def _intervals(
    name: str,
    method: str,
    samples: Mapping[str, np.ndarray],
    outer: Mapping[str, np.ndarray],
    rng: np.random.Generator,
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
    widest = max(samples[key].shape[0] for key in statistic.resampled)
    chunk = max(1, BATCH_ELEMENTS // (BOOTSTRAP_RESAMPLES * widest))
    tail = 50.0 * (1.0 - CONFIDENCE)
    lows, highs, errors = (np.empty(values.shape) for _ in range(3))
    for start in range(0, values.size, chunk):
        rows = slice(start, min(start + chunk, values.size))
        count = rows.stop - rows.start
        index = {}
        for key in statistic.resampled:
            draws = samples[key].shape[0]
            inner = rng.integers(0, draws, size=(count, BOOTSTRAP_RESAMPLES, draws))
            index[key] = np.take_along_axis(outer[key][rows, None, :], inner, axis=2).reshape(
                count * BOOTSTRAP_RESAMPLES, draws
            )
        boot = statistic.reduce(samples, index).reshape(count, BOOTSTRAP_RESAMPLES)
        finite = np.isfinite(boot)
        enough = finite.sum(axis=1) >= BOOTSTRAP_RESAMPLES // 2
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


def interval_of(
    name: str, method: str, samples: Mapping[str, np.ndarray], rng: np.random.Generator
) -> Interval:
    """The 95 % interval of statistic ``name`` by ``method`` (module docstring)."""
    identity = _identity(samples, STATISTICS[name].resampled)
    _, low, high, error = _intervals(name, method, samples, identity, rng)
    return Interval(float(low[0]), float(high[0]), float(error[0]))


def _tie_sum(counts: np.ndarray) -> np.ndarray:
    """sum over groups of k (k - 1) (2k + 5), the tie correction of Kendall's variance."""
    return np.sum(counts * (counts - 1.0) * (2.0 * counts + 5.0), axis=-1)


def _trend_fits(x: np.ndarray, y: np.ndarray):
    """OLS and Theil-Sen slopes of y (S, P) on x (P,), NaN points dropped, with their 95 %
    intervals (Student-t; Sen 1968, eq. 2.6, with ties in x and y as in scipy.stats.theilslopes).
    Returns six (S,) arrays: OLS slope, low, high, Theil-Sen slope, low, high."""
    from scipy import stats

    valid = np.isfinite(y)
    n = valid.sum(axis=1).astype(float)
    xs = np.where(valid, x[None, :], 0.0)
    ys = np.where(valid, y, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        x_mean, y_mean = xs.sum(axis=1) / n, ys.sum(axis=1) / n
        dx = np.where(valid, x[None, :] - x_mean[:, None], 0.0)
        dy = np.where(valid, y - y_mean[:, None], 0.0)
        sxx, sxy = (dx * dx).sum(axis=1), (dx * dy).sum(axis=1)
        slope = sxy / sxx
        residual = np.where(valid, dy - slope[:, None] * dx, 0.0)
        stderr = np.sqrt((residual**2).sum(axis=1) / (n - 2.0) / sxx)
        half = stats.t.ppf(0.5 + CONFIDENCE / 2, n - 2.0) * stderr
    first, second = np.nonzero(x[None, :] > x[:, None])  # pairs with x[second] > x[first]
    pair_slopes = (y[:, second] - y[:, first]) / (x[second] - x[first])
    ordered = np.sort(pair_slopes, axis=1)  # NaN (pairs with a dropped point) last
    nt = np.sum(np.isfinite(pair_slopes), axis=1)
    rows = np.arange(y.shape[0])
    middle = 0.5 * (ordered[rows, np.maximum(nt - 1, 0) // 2] + ordered[rows, nt // 2])
    # ties: in x, the valid points per distinct x; in y, runs of equal sorted valid values
    distinct = np.unique(x)
    x_counts = np.stack([(valid & (x[None, :] == value)).sum(axis=1) for value in distinct], 1)
    sorted_y = np.sort(np.where(valid, y, np.nan), axis=1)
    starts = np.ones(sorted_y.shape, dtype=bool)
    starts[:, 1:] = sorted_y[:, 1:] != sorted_y[:, :-1]
    group = np.cumsum(starts, axis=1) - 1
    y_counts = np.zeros(sorted_y.shape)
    np.add.at(y_counts, (np.broadcast_to(rows[:, None], group.shape), group), np.isfinite(sorted_y))
    sigma = np.sqrt(
        (n * (n - 1.0) * (2.0 * n + 5.0) - _tie_sum(x_counts) - _tie_sum(y_counts)) / 18.0
    )
    z = stats.norm.ppf((1.0 - CONFIDENCE) / 2.0)
    upper = np.minimum(np.round((nt - z * sigma) / 2.0).astype(int), nt - 1)
    lower = np.maximum(np.round((nt + z * sigma) / 2.0).astype(int) - 1, 0)
    usable = (nt > 0) & (np.unique(x).size >= 2)
    ts_low = np.where(usable, ordered[rows, np.clip(lower, 0, None)], np.nan)
    ts_high = np.where(usable, ordered[rows, np.clip(upper, 0, None)], np.nan)
    return slope, slope - half, slope + half, np.where(usable, middle, np.nan), ts_low, ts_high


def _trend_inputs(evidence: Evidence, comparison: str, values: np.ndarray):
    """(x, y, sign) of the trend rule on trend values (S, draws, sizes)."""
    sizes = np.broadcast_to(evidence.trend_sizes, values.shape[1:])
    targets = np.broadcast_to(evidence.trend_targets, values.shape[1:])
    if comparison in ("at_least", "below"):
        y, sign = values, (1.0 if comparison == "at_least" else -1.0)
    else:
        with np.errstate(divide="ignore"):
            y, sign = np.log(np.abs(values - targets[None])), -1.0
    y = np.where(np.isfinite(y), y, np.nan)
    return np.log(sizes).ravel(), y.reshape(values.shape[0], -1), sign


def _trends(evidence: Evidence, comparison: str, values: np.ndarray):
    """The fits and the towards flag of the trend rule on (S, draws, sizes) trend values."""
    x, y, sign = _trend_inputs(evidence, comparison, values)
    fits = _trend_fits(x, y)
    enough = np.array(
        [np.unique(x[np.isfinite(row)]).size >= MIN_TREND_SIZES for row in y], dtype=bool
    )
    ols_low, ols_high, ts_low, ts_high = fits[1], fits[2], fits[4], fits[5]
    if sign > 0:
        towards = (ols_low > 0) & (ts_low > 0)
    else:
        towards = (ols_high < 0) & (ts_high < 0)
    return fits, np.where(enough, towards, False), enough, np.isfinite(y).sum(axis=1)


def trend_of(evidence: Evidence, comparison: str) -> Trend:
    """The trend rule on the evidence's trend values (module docstring)."""
    if evidence.trend_sizes is None:
        return NO_TREND
    fits, towards, enough, points = _trends(evidence, comparison, evidence.trend_values[None])
    if not enough[0]:
        return NO_TREND
    ols, ts = Slope(*(float(f[0]) for f in fits[:3])), Slope(*(float(f[0]) for f in fits[3:]))
    return Trend(ols, ts, int(points[0]), bool(towards[0]))


def detectable(margin: float, interval: Interval) -> float:
    """m + h + z_POWER se (module docstring)."""
    from scipy import stats

    return float(margin + interval.halfwidth + stats.norm.ppf(POWER) * interval.standard_error)


@dataclass(frozen=True)
class Judgement:
    """The engine's numbers for one row (without its texts)."""

    value: float
    target: float
    margin: float
    interval: Interval
    trend: Trend
    verdict: str
    stability: float
    alternative: str
    alternative_share: float
    detectable: float
    draws: int

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
) -> Judgement:
    """Judge ``evidence`` by a declared test (module docstring). ``seed_key`` keys the
    bootstrap's random streams (:func:`attnspec.seeding.rng_for`), so a judgement is
    reproducible bit for bit."""
    if statistic not in STATISTICS:
        raise ValueError(f"statistic must be one of {sorted(STATISTICS)}, got {statistic!r}")
    if interval not in INTERVALS:
        raise ValueError(f"interval must be one of {INTERVALS}, got {interval!r}")
    missing = [key for key in STATISTICS[statistic].arrays if key not in evidence.samples]
    if missing:
        raise ValueError(f"{evidence.row_id}: statistic {statistic!r} needs samples {missing}")
    if not (np.isfinite(margin) and margin >= 0):
        raise ValueError(f"{evidence.row_id}: margin must be finite and >= 0, got {margin!r}")
    scaled = margin * evidence.margin_scale
    region = pass_region(comparison, evidence.target, scaled)
    value = statistic_value(statistic, evidence.samples)
    found = interval_of(statistic, interval, evidence.samples, rng_for(seed_key, 0, "interval"))
    trend = trend_of(evidence, comparison)
    verdict = decide(value, found, region, trend.towards)
    stability, alternative, share = _stability(
        evidence,
        statistic,
        interval,
        comparison,
        region,
        verdict,
        rng_for(seed_key, 0, "stability"),
    )
    return Judgement(
        value=value,
        target=evidence.target,
        margin=scaled,
        interval=found,
        trend=trend,
        verdict=verdict,
        stability=stability,
        alternative=alternative,
        alternative_share=share,
        detectable=detectable(scaled, found),
        draws=evidence.draws,
    )


def _stability(
    evidence: Evidence,
    statistic: str,
    interval: str,
    comparison: str,
    region: tuple[float, float],
    verdict: str,
    rng: np.random.Generator,
) -> tuple[float, str, float]:
    """(share of re-judged resamples with the same verdict, the commonest other verdict, its
    share); a deterministic row (no resampled draws, no trend) is stable by construction."""
    names = STATISTICS[statistic].resampled if interval != "exact" else ()
    if not names and evidence.trend_values is None:
        return 1.0, "", 0.0
    outer = {
        key: rng.integers(
            0, evidence.samples[key].shape[0], (STABILITY_RESAMPLES, evidence.samples[key].shape[0])
        )
        for key in STATISTICS[statistic].resampled
    }
    if names:
        values, lows, highs, _ = _intervals(statistic, interval, evidence.samples, outer, rng)
    else:
        value = statistic_value(statistic, evidence.samples)
        values = lows = highs = np.full(STABILITY_RESAMPLES, value)
    towards = np.zeros(STABILITY_RESAMPLES, dtype=bool)
    if evidence.trend_values is not None:
        draws = evidence.trend_values.shape[0]
        resampled = evidence.trend_values[rng.integers(0, draws, (STABILITY_RESAMPLES, draws))]
        towards = _trends(evidence, comparison, resampled)[1]
    counts = np.bincount(_decide(values, lows, highs, region, towards), minlength=len(VERDICTS))
    shares = counts / STABILITY_RESAMPLES
    same = float(shares[VERDICTS.index(verdict)])
    others = [i for i in range(len(VERDICTS)) if VERDICTS[i] != verdict]
    other = max(others, key=lambda i: (shares[i], -i))
    return same, (VERDICTS[other] if shares[other] > 0 else ""), float(shares[other])


def weakest(verdicts: Sequence[str]) -> str:
    """The weakest of several verdicts (does not reproduce, inconclusive, caveat, holds)."""
    return max(verdicts, key=VERDICTS.index)


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
    """The ``test`` column of a registry row (:class:`attnspec.registry.DeclaredTest`)."""
    unit = f" x [{test.margin_unit}]" if test.margin_unit else ""
    text = (
        f"statistic: {test.describes} ({test.statistic}); points: {test.points}; target: "
        f"{test.target}; margin {test.margin:g}{unit} ({test.margin_reason}); holds if the "
        f"{CONFIDENCE:.0%} interval ({INTERVAL_TEXT[test.interval]}) lies "
        f"{REGION_TEXT[test.comparison]}"
    )
    if test.trend:
        text += (
            f"; caveat if the value lies outside but the trend goes towards it (OLS and "
            f"Theil-Sen {CONFIDENCE:.0%} intervals both exclude 0, on {test.trend})"
        )
    else:
        text += "; no trend is fitted, so no caveat"
    return text + "; does not reproduce if the interval lies entirely outside; else inconclusive"


ROW_HEADER = (
    "claim_id",
    "row_id",
    "claim",
    "kind",
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
    "trend",
    "verdict",
    "stability",
    "alternative",
    "detectable",
    "replicate",
    "test",
    "note",
)


def judge_row(test, evidence: Evidence, *, replicate: int = 0) -> dict:
    """The claims-table row of a registry test judged on its evidence (:data:`ROW_HEADER`)."""
    if evidence.row_id != test.row_id:
        raise ValueError(f"evidence for {evidence.row_id!r} given to test {test.row_id!r}")
    found = judge(
        evidence,
        statistic=test.statistic,
        comparison=test.comparison,
        margin=test.margin,
        interval=test.interval,
        seed_key={"row": test.row_id, "replicate": int(replicate)},
    )
    alternative = (
        f"{found.alternative} ({found.alternative_share:.0%})" if found.alternative else ""
    )
    return {
        "claim_id": test.claim_id,
        "row_id": test.row_id,
        "claim": CLAIMS[test.claim_id],
        "kind": test.kind,
        "figure": test.figure,
        "quantity": evidence.quantity,
        "statistic": test.statistic,
        "value": found.value,
        "interval_low": found.interval.low,
        "interval_high": found.interval.high,
        "target": found.target,
        "comparison": test.comparison,
        "margin": found.margin,
        "draws": found.draws,
        "trend": found.trend.describe() if found.trend.points else "",
        "verdict": found.verdict,
        "stability": found.stability,
        "alternative": alternative,
        "detectable": found.detectable,
        "replicate": int(replicate),
        "test": describe_test(test),
        "note": evidence.note,
    }


def judge_paper(tests: Sequence, evidence: Sequence[Evidence], *, replicate: int = 0) -> list:
    """The claims-table rows of a paper: every registry test judged on its evidence, in
    registry order. ValueError unless each test has exactly one evidence item and each item
    belongs to a test."""
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
    return [judge_row(test, by_row[test.row_id], replicate=replicate) for test in tests]
