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
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from attnspec.intervals import student_t_half_width
from attnspec.models.softmax import MASKS
from attnspec.plotting.tidy import DATA, STATISTIC, THEORY, tidy_table
from attnspec.tables import Residual

if TYPE_CHECKING:  # pandas is imported lazily (see the tidy tables below)
    import pandas as pd

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


# Tidy tables of figures C1-C4 (pandas DataFrames, exactly the figures' CSVs): ``kind`` first
# ("data": simulated values; "theory": derived curves, limits and guides; "statistic": quantities
# the experiment derives from the draws), then ``series`` (what the row is within its kind), the
# identifiers and the values; one row per observation, missing cells where a column does not
# apply (theory curves and pooled values have no draw). pandas is imported inside the functions:
# the simulation jobs import this module without paying for it.


SCORES, ATTENTION, ISOTROPIC_ATTENTION = "S", "A", "isotropic A"


def spectra_plotted_table(spectra: Mapping, *, profiles: Sequence[str]) -> "pd.DataFrame":
    """Figure C1's tidy table: every singular value s_k, k = 1..n (kind "data"), series the
    matrix: S = diag(sigma) (mask "none"), its row softmax A (bidirectional, causal) and the
    isotropic softmax(U Sigma V^T) ("isotropic A", rows of the profile whose sigma it takes;
    C1 draws them in their own panel). Columns: kind, series, profile, mask, rank,
    singular_value."""
    isotropic = str(spectra["isotropic_profile"]) if "isotropic_profile" in spectra else ""
    parts = []
    for profile in profiles:
        series = [(SCORES, "none", spectra[f"{profile}/scores"])]
        series += [(ATTENTION, m, spectra[f"{profile}/{m}/attention"]) for m in MASKS]
        if profile == isotropic:
            series += [(ISOTROPIC_ATTENTION, m, spectra[f"isotropic/{m}/attention"]) for m in MASKS]
        for matrix, mask, values in series:
            values = np.asarray(values, dtype=np.float64)
            rank = np.arange(1, values.size + 1)
            parts.append(
                {
                    "kind": DATA,
                    "series": matrix,
                    "profile": profile,
                    "mask": mask,
                    "rank": rank,
                    "singular_value": values,
                }
            )
    return tidy_table(parts, ("kind", "series", "profile", "mask", "rank", "singular_value"))


BULK_SHARE, BULK_LIMIT, BULK_GUIDE = "bulk share", "limit", "1/n guide"
BULK_STATISTICS = (("median", "median"), ("0.9 quantile", "upper"))
"""The bulk quantiles of figure C2 (series, BulkSeries field)."""
GUIDE_FRACTION = 0.3
"""The 1/n guide of C2 starts at this fraction of the smallest mean bulk median at the least n."""


def bulk_shares(counts, n: int, spikes: int) -> np.ndarray:
    """Share of the bulk values n s_k(A) (the n - r - 1 smallest, over every draw) in each grid
    bin [x_{j-1}, x_j) (the first bin: below x_0), from the exact counts N(x) per draw capped at
    the bulk size; their running sum is the mean over draws of min(N(x) / (n - r - 1), 1)."""
    bulk = n - spikes - 1
    capped = np.minimum(np.asarray(counts), bulk).sum(axis=0)
    return np.diff(capped, prepend=0) / (len(counts) * bulk)


def bulk_plotted_table(jobs, series, *, n_tokens, profiles, spikes, bulk_scale) -> "pd.DataFrame":
    """Figure C2's tidy table (columns kind, series, profile, mask, n, draw, x, y):

    - data ``bulk share``: per n, profile, mask and grid point x, the share y of the bulk values
      n s_k(A) over every draw in the bin ending at x (for a weighted distribution function);
    - theory ``limit``: the iid bidirectional limit law y = F(x);
    - statistic ``median``, ``0.9 quantile``: each draw's bulk quantile y of s = (n s) / n
      (NaN when the bulk is exactly 0);
    - theory ``1/n guide``: y proportional to 1/n through GUIDE_FRACTION of the smallest mean
      median at the least n, per profile.
    """
    parts = []
    for job, n in zip(jobs, n_tokens, strict=True):
        for profile in profiles:
            for mask in MASKS:
                shares = bulk_shares(job[f"{profile}/{mask}/counts"], n, spikes)
                parts.append(
                    {
                        "kind": DATA,
                        "series": BULK_SHARE,
                        "profile": profile,
                        "mask": mask,
                        "n": int(n),
                        "x": np.asarray(job["grid"], dtype=np.float64),
                        "y": shares,
                    }
                )
    if "iid" in profiles:
        grid = np.asarray(jobs[0]["grid"], dtype=np.float64)
        parts.append(
            {
                "kind": THEORY,
                "series": BULK_LIMIT,
                "profile": "iid",
                "mask": "bidirectional",
                "x": grid,
                "y": iid_bidirectional_bulk_cdf(grid, bulk_scale),
            }
        )
    for s in series:
        for label, field in BULK_STATISTICS:
            for n, row in zip(s.n_tokens, getattr(s, field), strict=True):
                parts.append(
                    {
                        "kind": STATISTIC,
                        "series": label,
                        "profile": s.profile,
                        "mask": s.mask,
                        "n": int(n),
                        "draw": np.arange(len(row)),
                        "y": np.asarray(row, dtype=np.float64) / n,
                    }
                )
    sizes = np.sort(np.asarray(n_tokens, dtype=np.float64))
    for profile in profiles:
        resolved = [s for s in series if s.profile == profile and np.all(np.isfinite(s.median))]
        if resolved:
            start = min(float(np.mean(s.median[0])) / s.n_tokens[0] for s in resolved)
            parts.append(
                {
                    "kind": THEORY,
                    "series": BULK_GUIDE,
                    "profile": profile,
                    "n": sizes.astype(int),
                    "y": GUIDE_FRACTION * start * sizes[0] / sizes,
                }
            )
    columns = ("kind", "series", "profile", "mask", "n", "draw", "x", "y")
    return tidy_table(parts, columns, integers=("n", "draw"))


STABLE_RANK, NORM, FROBENIUS_SQUARED = "stable rank", "norm", "squared Frobenius norm"
HARMONIC, APPROACH, REFERENCE = "harmonic number", "finite-n approach", "finite-n reference"
LIMIT, NORM_LIMIT = "limit", "norm limit"
APPROACH_POINTS = 200
"""Points of the derived canonical approach (r + 1) / (1 + sqrt(r / n)) drawn in C3."""


def canonical_approach(n, spikes: int) -> np.ndarray:
    """Derived finite-n stable rank of the canonical bidirectional model, (r + 1)/(1 + sqrt(r/n))
    (papers.md section 5)."""
    return (spikes + 1) / (1 + np.sqrt(spikes / np.asarray(n, dtype=np.float64)))


def stable_rank_plotted_table(
    data: StableRankData, reference: Mapping, *, spikes: int, beta: float
) -> "pd.DataFrame":
    """Figure C3's tidy table (columns kind, series, model, profile, mask, n, draw, value):

    - data ``stable rank``: every draw's stable rank (models canonical, isotropic, gaussian);
      the Cesaro matrix (model ``cesaro``: the causal softmax of zero scores, no draw): its
      ``stable rank``, ``norm`` and ``squared Frobenius norm``;
    - theory: the Cesaro matrix's ``harmonic number`` H_n; the canonical bidirectional
      ``finite-n approach`` (r + 1) / (1 + sqrt(r / n)) on APPROACH_POINTS sizes; the Gaussian
      model's derived ``finite-n reference`` per mask; the bidirectional ``limit`` r + 1
      (canonical) and e^(beta^2) (Gaussian) and the Cesaro ``norm limit`` 2 (no n).

    ``n`` is an integer but for the approach's sizes (object column: the CSV writes 256, not
    256.0)."""
    import pandas as pd

    def sizes_of(values):
        return pd.Series(list(values), dtype=object)

    parts = []
    for s in (*data.canonical, *data.isotropic, *data.gaussian):
        for n, row in zip(s.n_tokens, s.stable_rank, strict=True):
            parts.append(
                {
                    "kind": DATA,
                    "series": STABLE_RANK,
                    "model": s.model,
                    "profile": s.profile,
                    "mask": s.mask,
                    "n": sizes_of([int(n)] * len(row)),
                    "draw": np.arange(len(row)),
                    "value": np.asarray(row, dtype=np.float64),
                }
            )
    cesaro = data.cesaro
    for kind, name, values in (
        (DATA, STABLE_RANK, cesaro.stable_rank),
        (DATA, NORM, cesaro.norm),
        (DATA, FROBENIUS_SQUARED, cesaro.frobenius_squared),
        (THEORY, HARMONIC, cesaro.harmonic),
    ):
        parts.append(
            {
                "kind": kind,
                "series": name,
                "model": "cesaro",
                "profile": "zeros",
                "mask": "causal",
                "n": sizes_of(int(n) for n in cesaro.n_tokens),
                "value": np.asarray(values, dtype=float),
            }
        )
    sizes = np.geomspace(cesaro.n_tokens[0], cesaro.n_tokens[-1], APPROACH_POINTS)
    parts.append(
        {
            "kind": THEORY,
            "series": APPROACH,
            "model": "canonical",
            "mask": "bidirectional",
            "n": sizes_of(float(n) for n in sizes),
            "value": canonical_approach(sizes, spikes),
        }
    )
    for mask in MASKS:
        parts.append(
            {
                "kind": THEORY,
                "series": REFERENCE,
                "model": "gaussian",
                "mask": mask,
                "n": sizes_of(int(n) for n in reference["n_tokens"]),
                "value": np.asarray(reference[f"{mask}/stable_rank"], dtype=np.float64),
            }
        )
    parts.append(
        {
            "kind": THEORY,
            "series": [LIMIT, LIMIT, NORM_LIMIT],
            "model": ["canonical", "gaussian", "cesaro"],
            "mask": ["bidirectional", "bidirectional", "causal"],
            "value": [float(spikes + 1), float(np.exp(beta**2)), 2.0],
        }
    )
    columns = ("kind", "series", "model", "profile", "mask", "n", "draw", "value")
    return tidy_table(parts, columns, integers=("draw",))


SPIKE_TIED, SPIKE_DIAGONAL, TRANSITION = "spike-tied s(A)", "A_pp", "transition"
TRANSITION_KAPPA = 1.0
"""The spikes sigma = kappa log n survive in A for kappa above this (papers.md, figure C4)."""


def survival_plotted_table(jobs: Sequence[Mapping], *, n_tokens: Sequence[int]) -> "pd.DataFrame":
    """Figure C4's tidy table (columns kind, series, mask, n, kappa, draw, spike, value): data
    per mask, n, kappa, draw and spike p: the ``spike-tied s(A)`` (0 for a spike lost from the
    top values, as in :func:`mean_spike_value`) and the explicit diagonal entry ``A_pp``; theory
    ``transition``: the kappa where the spikes start to survive."""
    parts = []
    for job, n in zip(jobs, n_tokens, strict=True):
        kappas = np.asarray(job["kappas"], dtype=np.float64)
        for mask in MASKS:
            for name, values in (
                (SPIKE_TIED, np.nan_to_num(job[f"{mask}/spike_values"], nan=0.0)),
                (SPIKE_DIAGONAL, job[f"{mask}/spike_diagonal"]),
            ):
                values = np.asarray(values, dtype=np.float64)
                k, draw, spike = (index.ravel() for index in np.indices(values.shape))
                parts.append(
                    {
                        "kind": DATA,
                        "series": name,
                        "mask": mask,
                        "n": int(n),
                        "kappa": kappas[k],
                        "draw": draw,
                        "spike": spike,
                        "value": values.ravel(),
                    }
                )
    parts.append({"kind": [THEORY], "series": [TRANSITION], "kappa": [TRANSITION_KAPPA]})
    columns = ("kind", "series", "mask", "n", "kappa", "draw", "spike", "value")
    return tidy_table(parts, columns, integers=("n", "draw", "spike"))
