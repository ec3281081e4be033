"""Paper C, figures C2-C4 and table C-T1: the numbers drawn from the canonical-model jobs.

Stable rank srank(A) = ||A||_F^2 / ||A||^2. Fits: srank against log n by ordinary least squares
over every (n, draw) point (slope with its 95 % Student-t interval from the residual scatter:
descriptive; the judged intervals are the claims table's bootstrap); bulk
quantiles of n s_k(A) from the exact counts N(x) = #{k : n s_k(A) < x}; Cesaro reference
C_n = row-softmax(0) with the causal mask, ||C_n||_F^2 = H_n = sum_{i <= n} 1/i, ||C_n|| -> 2
(Hardy's inequality), so srank(C_n) ~ (log n)/4 asymptotically (papers.md section 5).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from attnspec.intervals import student_t_half_width
from attnspec.models.softmax import MASKS
from attnspec.tables import Residual

ASYMPTOTIC_CAUSAL_SLOPE = 0.25
"""d srank / d log n of the Cesaro matrix as n -> infinity: H_n / 4 with ||C_n|| -> 2."""


class LineFit(NamedTuple):
    """y = intercept + slope x by OLS, with the standard error of the slope and its dof."""

    slope: float
    slope_se: float
    intercept: float
    dof: int

    @property
    def halfwidth(self) -> float:
        """Half-width of the slope's 95 % Student-t confidence interval."""
        return confidence_halfwidth(self.slope_se, self.dof)

    def interval(self) -> tuple[float, float]:
        """The slope's 95 % Student-t interval."""
        return self.slope - self.halfwidth, self.slope + self.halfwidth


def confidence_halfwidth(standard_error: float, dof: int) -> float:
    """Half-width t_{0.975, dof} x standard error of a 95 % Student-t interval."""
    return float(student_t_half_width(standard_error, dof))


def fit_line(x, y) -> LineFit:
    """OLS of y on x over all finite points (scipy.stats.linregress): slope_se =
    sqrt(sum r^2 / (m - 2) / Sxx), m - 2 dof."""
    from scipy import stats  # lazy: jobs that never call it skip the import

    x = np.asarray(x, dtype=np.float64).ravel()
    y = np.asarray(y, dtype=np.float64).ravel()
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    if x.size < 3 or np.ptp(x) == 0:
        raise ValueError("a line fit needs >= 3 finite points at >= 2 distinct x")
    fit = stats.linregress(x, y)
    return LineFit(float(fit.slope), float(fit.stderr), float(fit.intercept), x.size - 2)


def mean_halfwidth(samples) -> float:
    """95 % Student-t half-width t_{0.975, m - 1} s / sqrt(m) of the mean of the m ``samples``;
    0 for a single (deterministic) draw, since the only random input then is absent (the
    ``zeros`` profile)."""
    from scipy import stats  # lazy: jobs that never call it skip the import

    samples = np.asarray(samples, dtype=np.float64).ravel()
    if samples.size < 2:
        return 0.0
    return confidence_halfwidth(float(stats.sem(samples)), samples.size - 1)


@dataclass(frozen=True)
class StableRankSeries:
    """One (model, profile, mask) of figure C3: stable ranks, shape (L, draws), against n."""

    model: str
    profile: str
    mask: str
    n_tokens: np.ndarray
    stable_rank: np.ndarray

    @property
    def log_n(self) -> np.ndarray:
        return np.broadcast_to(np.log(self.n_tokens)[:, None], self.stable_rank.shape)

    def fit(self) -> LineFit:
        """srank against log n over every (n, draw)."""
        return fit_line(self.log_n, self.stable_rank)

    def local_slopes(self) -> tuple[float, float]:
        """Slopes of the mean srank against log n over the lower and the upper half of the n
        range (the middle n in both when L is odd): how the slope changes with n."""
        from scipy import stats  # lazy: jobs that never call it skip the import

        if len(self.n_tokens) < 3:
            raise ValueError(
                f"local slopes need at least 3 sizes n (two per half), got {len(self.n_tokens)}"
            )
        means = self.stable_rank.mean(axis=1)
        logs = np.log(self.n_tokens)
        half = (len(logs) + 1) // 2
        lower = stats.linregress(logs[:half], means[:half]).slope
        upper = stats.linregress(logs[-half:], means[-half:]).slope
        return float(lower), float(upper)


def series_from_jobs(
    model: str, profile: str, mask: str, n_tokens: Sequence[int], jobs: Sequence[Mapping]
) -> StableRankSeries:
    """Stable ranks of one (profile, mask) from per-n job outputs (same order as n_tokens).

    Canonical and isotropic jobs hold ``.../top`` (squared singular values, s_1^2 first),
    Gaussian-model jobs ``<mask>/norm_squared``.
    """
    prefix = {"gaussian": mask, "isotropic": f"isotropic/{mask}"}.get(model, f"{profile}/{mask}")
    rows = []
    for job in jobs:
        norm = (
            job[f"{prefix}/top"][:, 0] if f"{prefix}/top" in job else job[f"{prefix}/norm_squared"]
        )
        rows.append(job[f"{prefix}/frobenius_squared"] / norm)
    order = np.argsort(n_tokens)
    return StableRankSeries(
        model=model,
        profile=profile,
        mask=mask,
        n_tokens=np.asarray(n_tokens, dtype=np.int64)[order],
        stable_rank=np.array([rows[i] for i in order]),
    )


class CesaroReference(NamedTuple):
    """The zero-bulk causal matrix C_n at each n: ||C_n||, ||C_n||_F^2 = H_n, srank."""

    n_tokens: np.ndarray
    norm: np.ndarray
    frobenius_squared: np.ndarray

    @property
    def stable_rank(self) -> np.ndarray:
        return self.frobenius_squared / self.norm**2

    @property
    def harmonic(self) -> np.ndarray:
        """H_n = sum_{i <= n} 1/i (exact reference for ||C_n||_F^2)."""
        return np.array([np.sum(1.0 / np.arange(1, n + 1)) for n in self.n_tokens])


def cesaro_from_jobs(n_tokens: Sequence[int], jobs: Sequence[Mapping]) -> CesaroReference:
    order = np.argsort(n_tokens)
    return CesaroReference(
        n_tokens=np.asarray(n_tokens, dtype=np.int64)[order],
        norm=np.array([float(np.ravel(jobs[i]["cesaro/norm"])[0]) for i in order]),
        frobenius_squared=np.array([float(jobs[i]["cesaro/frobenius_squared"]) for i in order]),
    )


def bulk_quantile(counts, grid, n: int, bulk_size: int, level: float) -> float:
    """The level-quantile of the bulk of n s_k(A) (the n - r - 1 smallest values), from the
    exact counts N(x) on the grid, interpolated linearly in log x; nan when it lies below the
    grid (values that are exactly 0 to rounding, e.g. the zeros profile, bidirectional)."""
    counts = np.asarray(counts, dtype=np.float64)
    target = level * bulk_size
    if counts[0] >= target:
        return float("nan")
    if counts[-1] < target:
        raise ValueError("the grid does not reach the requested bulk quantile")
    upper = int(np.argmax(counts >= target))
    lower = upper - 1
    logs = np.log(np.asarray(grid, dtype=np.float64)[[lower, upper]])
    weight = (target - counts[lower]) / (counts[upper] - counts[lower])
    return float(np.exp(logs[0] + weight * (logs[1] - logs[0])))


class BulkSeries(NamedTuple):
    """Figure C2 for one (profile, mask): bulk quantiles of n s_k(A), shape (L, draws)."""

    profile: str
    mask: str
    n_tokens: np.ndarray
    median: np.ndarray
    upper: np.ndarray  # the 0.9 quantile

    def fit(self) -> LineFit | None:
        """log(median s) = log(median n s / n) against log n; None when unresolved."""
        scaled = self.median / self.n_tokens[:, None]
        if not np.all(np.isfinite(scaled)):
            return None
        return fit_line(
            np.broadcast_to(np.log(self.n_tokens)[:, None], scaled.shape), np.log(scaled)
        )


UPPER_LEVEL = 0.9


def iid_bidirectional_bulk_cdf(x, beta: float) -> np.ndarray:
    """Limit law of n s_k(A), bidirectional, iid bulk sigma = beta xi (derived): P(|e^{beta xi}
    - 1| <= x) = Phi(log(1 + x)/beta) - Phi(log(1 - x)/beta) (second term 0 for x >= 1).

    A = diag(delta) P + 1 1^T / n with n delta_i = n (e^{sigma_i} - 1)/(e^{sigma_i} + n - 1)
    -> e^{sigma_i} - 1, and s_k(diag(delta) P) interlaces the sorted |delta_i| (rank-one
    perturbations shift the index by at most one), so the bulk law of n s is that of |e^sigma - 1|.
    """
    from scipy.stats import norm  # lazy: jobs that never call it skip the import

    x = np.asarray(x, dtype=np.float64)
    upper = norm.cdf(np.log1p(x) / beta)
    with np.errstate(invalid="ignore", divide="ignore"):
        lower = np.where(x < 1.0, norm.cdf(np.log1p(-np.minimum(x, 1.0)) / beta), 0.0)
    return upper - lower


def counts_by_size(counts: Mapping, n_tokens: Sequence[int]) -> list[dict]:
    """Split the output of :func:`attnspec.papers.c.degeneration.bulk_count_job` into one
    dict per n (keys ``grid`` and ``<profile>/<mask>/counts``), in the order of n_tokens."""
    return [
        {"grid": counts["grid"]}
        | {key.split("/", 1)[1]: value for key, value in counts.items() if key.startswith(f"n{n}/")}
        for n in n_tokens
    ]


def bulk_series(
    profile: str, mask: str, n_tokens: Sequence[int], jobs: Sequence[Mapping], spikes: int
) -> BulkSeries:
    """Median and 0.9 quantile of the bulk of n s_k(A) per n and draw (jobs: one dict per n,
    see :func:`counts_by_size`)."""
    order = np.argsort(n_tokens)
    ells = np.asarray(n_tokens, dtype=np.int64)[order]
    medians, uppers = [], []
    for i in order:
        job, n = jobs[i], int(n_tokens[i])
        counts = job[f"{profile}/{mask}/counts"]
        size = n - spikes - 1
        medians.append([bulk_quantile(c, job["grid"], n, size, 0.5) for c in counts])
        uppers.append([bulk_quantile(c, job["grid"], n, size, UPPER_LEVEL) for c in counts])
    return BulkSeries(profile, mask, ells, np.array(medians), np.array(uppers))


def spike_deviation(spike_values: np.ndarray) -> np.ndarray:
    """max_p |s_p - 1| over the r spike-tied singular values of each draw (last axis): 0 for a
    fully kept mode, 1 for a lost one (claim C.1)."""
    return np.max(np.abs(np.asarray(spike_values) - 1.0), axis=-1)


def survival_crossing(kappas, values) -> float:
    """The kappa where the mean spike-tied singular value first reaches 1/2 (linear
    interpolation); nan if it never does. Limit: kappa = 1 (bidirectional)."""
    values = np.asarray(values, dtype=np.float64)
    above = np.nonzero(np.nan_to_num(values, nan=0.0) >= 0.5)[0]
    if above.size == 0 or above[0] == 0:
        return float("nan")
    j = above[0]
    low = 0.0 if np.isnan(values[j - 1]) else values[j - 1]
    return float(kappas[j - 1] + (0.5 - low) / (values[j] - low) * (kappas[j] - kappas[j - 1]))


def mean_spike_value(job: Mapping, mask: str) -> np.ndarray:
    """Mean over spikes and draws of the spike-tied singular values at each kappa, a lost spike
    (not among the top values) counting as 0."""
    values = np.nan_to_num(job[f"{mask}/spike_values"], nan=0.0)
    return values.mean(axis=(1, 2))


STABLE_RANK_TABLE_HEADER = (
    "model",
    "profile",
    "mask",
    "quantity",
    "estimate",
    "ci95_low",
    "ci95_high",
    "n_min",
    "n_max",
    "draws",
    "finite_n_reference",
    "limit",
)


def _mean_interval(samples) -> tuple[float, float, float]:
    samples = np.asarray(samples, dtype=np.float64)
    mean, half = float(np.mean(samples)), mean_halfwidth(samples)
    return mean, mean - half, mean + half


def _slope_interval(series: StableRankSeries) -> tuple[float, float, float]:
    fit = series.fit()
    return (fit.slope, *fit.interval())


def stable_rank_table_rows(
    series: Sequence[StableRankSeries],
    cesaro: CesaroReference,
    *,
    spikes: int,
    beta: float,
    gaussian_reference: Mapping,
) -> list[tuple]:
    """Rows of table C-T1 per model, profile and mask: bidirectional, the mean stable rank at
    the largest n (95 % Student-t interval over draws) with its derived finite-n reference and
    limit; causal, the OLS slope on log n over every (n, draw) (95 % Student-t interval) with
    its finite-n reference (Cesaro: the Cesaro matrix's own slope over the same n; Gaussian
    model: the derived reference slope) and its n -> infinity value. Then the Cesaro matrix."""
    cesaro_fit = fit_line(np.log(cesaro.n_tokens), cesaro.stable_rank)
    limit = float(np.exp(beta**2))
    rows = []
    for s in series:
        n_min, n_max, draws = int(s.n_tokens[0]), int(s.n_tokens[-1]), s.stable_rank.shape[1]
        if s.mask == "bidirectional":
            quantity = "srank at n_max"
            estimate = _mean_interval(s.stable_rank[-1])
            reference, asymptote = {
                "canonical": ((spikes + 1) / (1 + np.sqrt(spikes / n_max)), spikes + 1.0),
                "gaussian": (float(gaussian_reference["bidirectional/stable_rank"][-1]), limit),
            }.get(s.model, (float("nan"), float("nan")))
        else:
            quantity = "d srank / d log n"
            estimate = _slope_interval(s)
            reference, asymptote = {
                "canonical": (cesaro_fit.slope, ASYMPTOTIC_CAUSAL_SLOPE),
                "gaussian": (float(gaussian_reference["causal/slope"]), limit / 4.0),
            }.get(s.model, (float("nan"), float("nan")))
        rows.append(
            (
                s.model,
                s.profile,
                s.mask,
                quantity,
                *estimate,
                n_min,
                n_max,
                draws,
                float(reference),
                float(asymptote),
            )
        )
    n_min, n_max = int(cesaro.n_tokens[0]), int(cesaro.n_tokens[-1])
    slope = (cesaro_fit.slope, *cesaro_fit.interval())
    rows.append(
        ("cesaro", "zeros, r = 0", "causal", "d srank / d log n", *slope, n_min, n_max, 1)
        + (float("nan"), ASYMPTOTIC_CAUSAL_SLOPE)
    )
    norm = float(cesaro.norm[-1])
    rows.append(
        ("cesaro", "zeros, r = 0", "causal", "||C_n|| at n_max", norm, norm, norm, n_min, n_max, 1)
        + (float("nan"), 2.0)
    )
    return rows


SPECTRA_TABLE_HEADER = (
    "profile",
    "mask",
    "s_1(A)",
    "s_r+1(A)",
    "s_r+2(A)",
    "median n s_k(A), bulk",
    "max abs difference, explicit vs generic softmax",
)


def spectra_table_rows(spectra: Mapping, *, profiles: Sequence[str], spikes: int, n: int):
    """Figure C1's key numbers per profile and mask (and the isotropic model): the top
    singular value, the last spike-level one s_{r+1}, the first bulk one s_{r+2}, the median
    of n s_k over the bulk k > r + 1, and the explicit-versus-generic softmax difference; values
    zero in exact arithmetic (the bulk of the zeros profile, the difference) print as their
    rounding bound (:class:`attnspec.tables.Residual`, relative to s_1 or to 1)."""
    rows = []
    for profile in profiles:
        for mask in MASKS:
            values = spectra[f"{profile}/{mask}/attention"]
            top = float(values[0])
            rows.append(
                (
                    profile,
                    mask,
                    top,
                    Residual(values[spikes], top),
                    Residual(values[spikes + 1], top),
                    Residual(n * np.median(values[spikes + 1 :]), n * top),
                    Residual(spectra[f"{profile}/{mask}/softmax_difference"]),
                )
            )
    if "isotropic_profile" in spectra:
        for mask in MASKS:
            values = spectra[f"isotropic/{mask}/attention"]
            rows.append(
                (
                    f"isotropic ({spectra['isotropic_profile']})",
                    mask,
                    float(values[0]),
                    float(values[spikes]),
                    float(values[spikes + 1]),
                    float(n * np.median(values[spikes + 1 :])),
                    float("nan"),
                )
            )
    return rows


BULK_TABLE_HEADER = ("profile", "mask", "n", "median n s (bulk)", "0.9 quantile n s (bulk)")


def bulk_table_rows(series: Sequence[BulkSeries]) -> list[tuple]:
    """Figure C2's key numbers: mean over draws of the bulk median and 0.9 quantile of n s."""
    return [
        (s.profile, s.mask, int(n), float(np.mean(median)), float(np.mean(upper)))
        for s in series
        for n, median, upper in zip(s.n_tokens, s.median, s.upper, strict=True)
    ]


SURVIVAL_TABLE_HEADER = (
    "mask",
    "n",
    "kappa where the mean spike-tied s reaches 1/2",
    "mean spike-tied s at the largest kappa",
)


def survival_table_rows(jobs: Sequence[Mapping], n_tokens: Sequence[int]) -> list[tuple]:
    """Figure C4's key numbers per mask and n."""
    rows = []
    for mask in MASKS:
        for job, n in zip(jobs, n_tokens, strict=True):
            values = mean_spike_value(job, mask)
            rows.append((mask, int(n), survival_crossing(job["kappas"], values), float(values[-1])))
    return rows


class StableRankData(NamedTuple):
    """Everything figure C3 and table C-T1 draw from: series per model, profile and mask."""

    canonical: list[StableRankSeries]
    isotropic: list[StableRankSeries]
    gaussian: list[StableRankSeries]
    cesaro: CesaroReference


def collect_stable_ranks(
    canonical: tuple[Sequence[int], Sequence[Mapping]],
    isotropic: tuple[Sequence[int], Sequence[Mapping]],
    gaussian: tuple[Sequence[int], Sequence[Mapping]],
    profiles: Sequence[str],
    isotropic_profile: str,
) -> StableRankData:
    """Series from the (n_tokens, jobs) of the canonical, isotropic and Gaussian-model jobs."""
    return StableRankData(
        canonical=[
            series_from_jobs("canonical", profile, mask, *canonical)
            for mask in MASKS
            for profile in profiles
        ],
        isotropic=[
            series_from_jobs("isotropic", isotropic_profile, mask, *isotropic) for mask in MASKS
        ],
        gaussian=[series_from_jobs("gaussian", "c = 1", mask, *gaussian) for mask in MASKS],
        cesaro=cesaro_from_jobs(*canonical),
    )
