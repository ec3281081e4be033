"""Paper B, figures B1-B3 and table B-T1: the draws of :mod:`attnspec.papers.b.sticking`
gathered per (c, beta) and compared with the edge theory (papers.md sections 3-4).

Quantities, all at aspect ratio c = ell / d_qk and inverse temperature beta:

- relative gap of the k-th value, (ell s_k(A)^2 - x_+) / x_+, x_+ the right edge of nu_inf;
- the Tracy-Widom expectation of the top of the Gaussian model,
  x_+ + gamma_TW ell^{-2/3} E[TW1], and its spread gamma_TW ell^{-2/3} sd(TW1);
- the spike prediction K(1/theta_max)^2 when theta_max > 1/G* (Benaych-Georges-Nadakuditi);
- the location gamma_k of each leading index k >= 2 at ell (row B.2): the Tracy-Widom
  expectation for k = 2, the classical location Q(1 - (k - 3/2) / ell) of nu_inf (mass
  (k - 3/2) / ell above it) for k >= 3, and the per-index deviations (ell s_k(A)^2 - gamma_k) / x_+;
- the uniform deviation D = max over 2 <= k <= k_ell of |ell s_k(A)^2 - x_+| / x_+ and its
  classical value, the relative distance to x_+ of the classical location of the k_ell-th value
  (figure B3): the D of values sitting exactly where the limit law puts them, a deterministic
  finite-size offset that vanishes for every sublinear k_ell;
- the rate of the gap: least squares of log |gap| on log ell over every (ell, draw) with its
  95 % Student-t interval (figure B2; a description, not a verdict: the rows' finite-size models
  are the engine's, :mod:`attnspec.claims.finite_size`).

The figures draw 10-90 % bands over draws with seaborn from their tidy tables
(:mod:`attnspec.papers.b.sticking_plotted`), only from at least MIN_BAND_DRAWS draws; with
fewer, the individual draws.
"""

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from attnspec.intervals import student_t_half_width
from attnspec.papers.b.sticking import uniform_index_counts
from attnspec.theory.nu_infinity import NuInfinity
from attnspec.theory.r_transform import TRACY_WIDOM_1_MEAN, SymmetrisedLinearModel

TRACY_WIDOM_1_SD = 1.2679622
"""Standard deviation of the GOE Tracy-Widom law, sqrt(1.6077810345) (Tracy & Widom 1996)."""


QUANTILES = (0.1, 0.5, 0.9)
"""The quantiles (q10, median, q90) over draws of table B-T1 and of the key-number tables in the
captions of B1-B4 (linear interpolation, as seaborn's 10-90 % bands in the figures)."""
MIN_BAND_DRAWS = 10
"""Fewest draws a 10-90 % interval is reported from in figure B4's key-number table (with 3 or 4
draws it is the min-max range); as attnspec.plotting.style.BAND_MIN_DRAWS for the figures."""

SCHEDULES = ("log", "cube_root", "square_root")
SCHEDULE_LABELS = {
    "log": r"$k_\ell = \lceil \log \ell \rceil$",
    "cube_root": r"$k_\ell = \lceil \ell^{1/3} \rceil$",
    "square_root": r"$k_\ell = \lceil \ell^{1/2} \rceil$",
}


@dataclass(frozen=True)
class StickingSeries:
    """Every draw at one (c, beta), ell ascending; per-ell arrays have draws as first axis."""

    ratio: float
    beta: float
    n_tokens: np.ndarray  # (L,)
    attention: tuple[np.ndarray, ...]  # (draws, n_values): ell s_k(A)^2, k = 1..n_values
    linear: tuple[np.ndarray, ...]  # (draws, top_k - 1): s_k(Y_lin)^2, k = 1..top_k - 1
    theta_max: tuple[np.ndarray, ...]  # (draws,)
    ipr_left: tuple[np.ndarray, ...]  # (draws, top_k - 1): k = 2..top_k
    ipr_right: tuple[np.ndarray, ...]

    @cached_property
    def model(self) -> SymmetrisedLinearModel:
        """Edge x_+, Tracy-Widom scale and spike outliers of the Gaussian model (c, beta)."""
        return SymmetrisedLinearModel(self.beta, self.ratio)

    @cached_property
    def law(self) -> NuInfinity:
        """nu_inf at (beta, c): the classical locations of the leading indices."""
        return NuInfinity(self.beta, self.ratio)

    @property
    def x_plus(self) -> float:
        return self.model.edge

    @property
    def critical_spike(self) -> float:
        """1/G*: spikes theta above it leave the bulk."""
        return 1.0 / self.model.critical_point

    @property
    def top_k(self) -> int:
        return self.linear[0].shape[1] + 1


def collect_series(records: Iterable[Mapping[str, np.ndarray]]) -> list[StickingSeries]:
    """Group the per-draw results of :func:`attnspec.papers.b.sticking.sticking_draw` into
    one series per (c, beta), sorted by (c, beta); draws in ascending draw index."""
    grouped = defaultdict(lambda: defaultdict(list))
    for record in records:
        ratio, ell, draw = float(record["ratio"]), int(record["n_tokens"]), int(record["draw"])
        for j, beta in enumerate(np.asarray(record["betas"], dtype=float)):
            grouped[(ratio, float(beta))][ell].append((draw, record, j))
    series = []
    for (ratio, beta), by_ell in sorted(grouped.items()):
        ells = sorted(by_ell)
        per_ell = [sorted(by_ell[ell], key=lambda item: item[0]) for ell in ells]
        arrays = {
            key: tuple(np.stack([record[key][j] for _, record, j in rows]) for rows in per_ell)
            for key in ("attention", "linear", "theta_max", "ipr_left", "ipr_right")
        }
        series.append(
            StickingSeries(
                ratio=ratio, beta=beta, n_tokens=np.asarray(ells, dtype=np.int64), **arrays
            )
        )
    return series


def split_square(
    series: Sequence[StickingSeries],
) -> tuple[list[StickingSeries], list[StickingSeries]]:
    """(the c = 1 series, the others)."""
    return [s for s in series if s.ratio == 1.0], [s for s in series if s.ratio != 1.0]


def band(values: np.ndarray) -> np.ndarray:
    """(q10, median, q90) over the first axis (draws)."""
    return np.quantile(np.asarray(values, dtype=np.float64), QUANTILES, axis=0)


def tracy_widom_expectation(series: StickingSeries, n_tokens) -> np.ndarray:
    """E lambda_max of the Gaussian model ~ x_+ + gamma_TW ell^{-2/3} E[TW1] (papers.md
    section 3); vectorised in ell."""
    ell = np.asarray(n_tokens, dtype=np.float64)
    return series.x_plus + series.model.tracy_widom_scale * ell ** (-2 / 3) * TRACY_WIDOM_1_MEAN


def tracy_widom_spread(series: StickingSeries, n_tokens) -> np.ndarray:
    """sd lambda_max of the Gaussian model ~ gamma_TW ell^{-2/3} sd(TW1); vectorised in ell."""
    ell = np.asarray(n_tokens, dtype=np.float64)
    return series.model.tracy_widom_scale * ell ** (-2 / 3) * TRACY_WIDOM_1_SD


def relative_tracy_widom(series: StickingSeries, n_tokens) -> tuple[np.ndarray, np.ndarray]:
    """(E lambda_max - x_+) / x_+ and sd lambda_max / x_+ of the Gaussian model at each ell:
    the Tracy-Widom expectation of a relative gap and its spread; vectorised in ell."""
    return (
        (tracy_widom_expectation(series, n_tokens) - series.x_plus) / series.x_plus,
        tracy_widom_spread(series, n_tokens) / series.x_plus,
    )


def by_draw(per_size: Sequence[np.ndarray]) -> np.ndarray:
    """(draws, S) from one (draws_i,) array per size, NaN where a size has fewer draws."""
    rows = max(np.size(v) for v in per_size)
    table = np.full((rows, len(per_size)), np.nan)
    for j, values in enumerate(per_size):
        table[: np.size(values), j] = np.ravel(values)
    return table


def relative_gaps(series: StickingSeries, k: int = 2) -> tuple[np.ndarray, ...]:
    """(ell s_k(A)^2 - x_+) / x_+ per draw, one array per ell."""
    return tuple((a[:, k - 1] - series.x_plus) / series.x_plus for a in series.attention)


def linear_relative_gaps(series: StickingSeries, k: int = 2) -> tuple[np.ndarray, ...]:
    """(s_{k-1}(Y_lin)^2 - x_+) / x_+ per draw, the Gaussian reference for A's k-th value."""
    return tuple((v[:, k - 2] - series.x_plus) / series.x_plus for v in series.linear)


class Rate(NamedTuple):
    """Least squares log |y| = intercept + slope log ell over every (ell, draw), with the 95 %
    Student-t interval (low, high) of the slope (n - 2 dof); nan when there is nothing to fit."""

    slope: float
    low: float
    high: float
    intercept: float

    def describe(self) -> str:
        """``-0.52 [-0.81, -0.23]``."""
        return f"{self.slope:+.2f} [{self.low:+.2f}, {self.high:+.2f}]"


NO_RATE = Rate(*(4 * [float("nan")]))


def fit_rate(n_tokens: Sequence[int], values: Sequence[np.ndarray]) -> Rate:
    """:class:`Rate` of |y| on ell, ``values[i]`` the draws at ``n_tokens[i]`` (NaN draws
    dropped); :data:`NO_RATE` without 3 finite non-zero points at 2 sizes."""
    from scipy import stats  # lazy: jobs that never call it skip the import

    ells = np.concatenate(
        [
            np.full(np.size(v), ell, dtype=np.float64)
            for ell, v in zip(n_tokens, values, strict=True)
        ]
    )
    y = np.abs(np.concatenate([np.ravel(np.asarray(v, dtype=np.float64)) for v in values]))
    keep = np.isfinite(y) & (y > 0)
    x, y = np.log(ells[keep]), np.log(y[keep])
    if y.size < 3 or np.unique(x).size < 2:
        return NO_RATE
    fit = stats.linregress(x, y)
    half = float(student_t_half_width(fit.stderr, y.size - 2))
    return Rate(float(fit.slope), fit.slope - half, fit.slope + half, float(fit.intercept))


def gap_rate(series: StickingSeries, k: int = 2) -> Rate:
    """:func:`fit_rate` of the relative gaps of the k-th value (figure B2)."""
    return fit_rate(series.n_tokens, relative_gaps(series, k))


def spike_predictions(series: StickingSeries) -> tuple[np.ndarray, ...]:
    """K(1/theta_max)^2 per draw where theta_max > 1/G* (an outlier is predicted), else nan."""
    return tuple(series.model.spike_outlier(theta) for theta in series.theta_max)


def spike_correlation(series: StickingSeries) -> tuple[float, int]:
    """Pearson correlation of ell s_2(A)^2 with K(1/theta_max)^2 over the supercritical draws of
    every ell, and their number (nan below 3 draws or without spread)."""
    predicted = np.concatenate(spike_predictions(series))
    observed = np.concatenate([a[:, 1] for a in series.attention])
    keep = np.isfinite(predicted)
    if keep.sum() < 3 or np.ptp(predicted[keep]) == 0 or np.ptp(observed[keep]) == 0:
        return float("nan"), int(keep.sum())
    return float(np.corrcoef(predicted[keep], observed[keep])[0, 1]), int(keep.sum())


def index_locations(series: StickingSeries, n_tokens: int, k_max: int) -> np.ndarray:
    """gamma_k for k = 2..k_max at ell = ``n_tokens`` (row B.2): gamma_2 = x_+ + gamma_TW
    ell^(-2/3) E[TW1], the Tracy-Widom expectation of the top of the Gaussian model (row B.1's
    target), and gamma_k = Q(1 - (k - 3/2) / ell) for k >= 3, the classical location of nu_inf
    (the (k - 1)-th bulk value, mass (k - 3/2) / ell above it; the top index's quantile would sit
    about 0.5 % of x_+ off its Tracy-Widom expectation at ell = 2048)."""
    if not 2 <= k_max < n_tokens:
        raise ValueError(f"need 2 <= k_max < ell = {n_tokens}, got {k_max}")
    k = np.arange(3, k_max + 1)
    classical = series.law.quantile(1.0 - (k - 1.5) / n_tokens)
    return np.concatenate([[float(tracy_widom_expectation(series, n_tokens))], classical])


def index_deviations(
    series: StickingSeries,
    n_tokens: int,
    values: np.ndarray,
    k_max: int,
    *,
    dilation: float = 1.0,
    top: float | None = None,
) -> np.ndarray:
    """(draws, k_max - 1): (ell s_k(A)^2 - s gamma_k) / (s x_+) for k = 2..k_max, gamma_k from
    :func:`index_locations` and ``values`` the draws' ell s_k(A)^2 (k = 1.. from column 0).

    A wrong theory: ``dilation`` s scales the law (x_+ and every location), ``top`` replaces
    gamma_2 (before the dilation), e.g. by a persistent outlier's location.
    """
    locations = index_locations(series, n_tokens, k_max)
    if top is not None:
        locations[0] = top
    return (values[:, 1:k_max] - dilation * locations) / (dilation * series.x_plus)


def uniform_deviation(values: np.ndarray, x_plus: float, k_max: int) -> np.ndarray:
    """D = max over 2 <= k <= k_max of |ell s_k^2 - x_+| / x_+ for each row (draw) of values
    (ell s_k^2, k = 1..n from column 0)."""
    values = np.atleast_2d(values)
    if not 2 <= k_max <= values.shape[1]:
        raise ValueError(f"need 2 <= k_max <= {values.shape[1]}, got {k_max}")
    return np.max(np.abs(values[:, 1:k_max] - x_plus), axis=1) / x_plus


def uniform_deviations(series: StickingSeries, schedule: str) -> tuple[np.ndarray, ...]:
    """D per draw at each ell with k_ell from the named schedule (figure B3)."""
    return tuple(
        uniform_deviation(a, series.x_plus, uniform_index_counts(int(ell))[schedule])
        for ell, a in zip(series.n_tokens, series.attention, strict=True)
    )


def classical_deviation(law: NuInfinity, n_tokens: int, k_max: int) -> float:
    """(x_+ - Q(1 - (k_max - 3/2) / ell)) / x_+: the relative distance to the edge of the
    classical location of A's k_max-th value (bulk index k_max - 1) under nu_inf."""
    location = float(law.quantile(1.0 - (k_max - 1.5) / n_tokens))
    return (law.edge - location) / law.edge


def classical_deviations(series: StickingSeries, schedule: str) -> np.ndarray:
    """:func:`classical_deviation` at each ell of the series for the named schedule."""
    return np.array(
        [
            classical_deviation(series.law, int(ell), uniform_index_counts(int(ell))[schedule])
            for ell in series.n_tokens
        ]
    )


STICKING_TABLE_HEADER = (
    "ell", "c", "beta", "draws", "k", "median", "q10", "q90", "x_plus", "relative_gap"
)  # fmt: skip


def sticking_table_rows(series: Sequence[StickingSeries]) -> list[tuple]:
    """Table B-T1: for each (ell, c, beta) and k = 2..top_k, the number of draws, the median and
    the 10 % and 90 % quantiles over draws of ell s_k(A)^2, x_+, and (median - x_+) / x_+."""
    rows = []
    for s in sorted(series, key=lambda s: (s.ratio != 1.0, s.ratio, s.beta)):
        for ell, values in zip(s.n_tokens, s.attention, strict=True):
            q10, median, q90 = band(values[:, 1 : s.top_k])
            for i, k in enumerate(range(2, s.top_k + 1)):
                rows.append(
                    (
                        int(ell),
                        s.ratio,
                        s.beta,
                        values.shape[0],
                        k,
                        float(median[i]),
                        float(q10[i]),
                        float(q90[i]),
                        s.x_plus,
                        float((median[i] - s.x_plus) / s.x_plus),
                    )
                )
    return rows


EDGE_KEY_HEADER = (
    "c",
    "beta",
    "ell",
    "draws",
    "median_ell_s2sq",
    "median_Y_lin_top",
    "tracy_widom_expectation",
    "x_plus",
    "relative_gap",
    "median_theta_max",
    "critical_theta",
)


def edge_key_rows(series: Sequence[StickingSeries]) -> list[tuple]:
    """Key numbers of B1/B2 per (c, beta, ell): the median of ell s_2(A)^2 and of the Gaussian
    reference s_1(Y_lin)^2, the Tracy-Widom expectation, x_+, the median relative gap, the
    median theta_max and the spike threshold 1/G*."""
    rows = []
    for s in sorted(series, key=lambda s: (s.ratio != 1.0, s.ratio, s.beta)):
        expected = tracy_widom_expectation(s, s.n_tokens)
        for i, ell in enumerate(s.n_tokens):
            top = s.attention[i][:, 1]
            rows.append(
                (
                    s.ratio,
                    s.beta,
                    int(ell),
                    top.size,
                    float(np.median(top)),
                    float(np.median(s.linear[i][:, 0])),
                    float(expected[i]),
                    s.x_plus,
                    float(np.median((top - s.x_plus) / s.x_plus)),
                    float(np.median(s.theta_max[i])),
                    s.critical_spike,
                )
            )
    return rows


UNIFORM_KEY_HEADER = (
    "beta",
    "schedule",
    "ell",
    "k_ell",
    "median_D",
    "q10_D",
    "q90_D",
    "classical_D",
)


def uniform_key_rows(series: Sequence[StickingSeries]) -> list[tuple]:
    """Key numbers of B3 per (beta, schedule, ell): D over draws and its classical value."""
    rows = []
    for s in series:
        for schedule in SCHEDULES:
            classical = classical_deviations(s, schedule)
            deviations = uniform_deviations(s, schedule)
            for i, ell in enumerate(s.n_tokens):
                q10, median, q90 = band(deviations[i])
                k_ell = uniform_index_counts(int(ell))[schedule]
                rows.append(
                    (
                        s.beta,
                        schedule,
                        int(ell),
                        k_ell,
                        float(median),
                        float(q10),
                        float(q90),
                        float(classical[i]),
                    )
                )
    return rows


GAP_KEY_HEADER = (
    "beta",
    "gap_slope",
    "gap_slope_low",
    "gap_slope_high",
    "spike_correlation",
    "supercritical_draws",
    "all_draws",
    "largest_ell",
    "median_ipr_left",
    "median_ipr_right",
    "delocalised_ipr",
)


def gap_key_rows(series: Sequence[StickingSeries]) -> list[tuple]:
    """Key numbers of B2 per beta: the fitted rate of |gap| (slope and 95 % interval), the
    correlation of ell s_2(A)^2 with the spike prediction over the supercritical draws, and the
    median IPR of the k = 2 singular vectors at the largest ell against 3/ell."""
    rows = []
    for s in series:
        fit = gap_rate(s)
        r, supercritical = spike_correlation(s)
        ell = int(s.n_tokens[-1])
        rows.append(
            (
                s.beta,
                fit.slope,
                fit.low,
                fit.high,
                r,
                supercritical,
                sum(t.size for t in s.theta_max),
                ell,
                float(np.median(s.ipr_left[-1][:, 0])),
                float(np.median(s.ipr_right[-1][:, 0])),
                3.0 / ell,
            )
        )
    return rows
