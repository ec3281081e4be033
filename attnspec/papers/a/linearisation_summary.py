"""Figure A5's statistics (paper A, claims A.1 and A.5): per draw the Kolmogorov distance D and
W1 / theta1 of the bulk (sqrt(ell) A_perp or Y_lin) to nu_inf(beta, c = 1), their means over draws,
the collapse in x = beta / sqrt(log ell), the threshold beta*(ell), and the rows of A5's tables.

For each ell, beta and draw: the Kolmogorov distance D = sup_x |F_n(x) - F(x)| and the
Wasserstein-1 distance W1 (divided by theta1 = e^{beta^2} - 1, the mean of nu_inf, so that
betas compare) between the empirical bulk and nu_inf(beta, c = 1). Two models:
"attention", the ell - 1 non-zero squared singular values of sqrt(ell) A_perp, and "linear",
those of Y_lin = (beta S + sqrt(a) W) / sqrt(ell), whose limit is exactly nu_inf: its distance
is the finite-size and sampling floor at the same ell (papers.md sections 2-3).

Linearisation replaces the row normaliser sum_j e^{beta S_ij} by its mean ell e^{beta^2 / 2};
its relative variance is (e^{beta^2} - 1) / ell, of order one when beta^2 ~ log ell. Hence the
threshold beta ~ sqrt(log ell) (paper A, section 6.1 per its follow-up), and the rescaled
variable x = beta / sqrt(log ell) (natural logarithm).
"""

import logging
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from attnspec.claims.evidence import threshold_crossings
from attnspec.distances import kolmogorov_distance, wasserstein1
from attnspec.intervals import student_t_half_width
from attnspec.papers.a.bulk_laws_summary import WRONG_LAWS, alternative_laws, attention_bulk
from attnspec.papers.progress import Stopwatch
from attnspec.theory.nu_infinity import NuInfinity

log = logging.getLogger(__name__)

MODELS = ("attention", "linear")
METRICS = ("kolmogorov", "wasserstein1_relative")
# The betas of the registry rows A.1/beta=<beta>.
JUDGED_BETAS = (0.5, 1.0)
# Kolmogorov distances of the attention bulk to each wrong law, at both resolutions (at the
# judged betas only, at every ell: the finite-size data of rows A.1).
ALTERNATIVE_METRICS = tuple(f"kolmogorov/{name}" for name in WRONG_LAWS)
# A.5/location: beta*(ell) is where the excess Kolmogorov distance over the Y_lin floor first
# reaches this value (the registry row's statistic).
EXCESS_THRESHOLD = 0.1
# Points of the common grid on which the curves of different ell are compared.
COLLAPSE_POINTS = 200


def rescaled_beta(beta, n_tokens):
    """x = beta / sqrt(log ell), the variable in which the linearisation threshold is O(1)."""
    return np.asarray(beta, dtype=np.float64) / np.sqrt(np.log(np.asarray(n_tokens, float)))


class _QuantileOnce:
    """A quantile function that evaluates each distinct argument array once.

    :func:`attnspec.distances.wasserstein1` evaluates F^{-1} at nodes fixed by the sample size,
    so all draws of one model at one ell reuse the same values.
    """

    def __init__(self, quantile: Callable):
        self._quantile = quantile
        self._cache: dict[bytes, np.ndarray] = {}

    def __call__(self, t: np.ndarray) -> np.ndarray:
        key = t.tobytes()
        if key not in self._cache:
            self._cache[key] = self._quantile(t)
        return self._cache[key]


def bulk_distances(spectrum: np.ndarray, model: str, law: NuInfinity, quantile=None):
    """(D, W1 / theta1) between the bulk of one draw of ``model`` and nu_inf.

    The attention bulk drops the structural zero of sqrt(ell) A_perp (A_perp u = 0); Y_lin keeps
    all ell values. ``quantile`` defaults to ``law.quantile``.
    """
    if model not in MODELS:
        raise ValueError(f"model must be one of {MODELS}, got {model!r}")
    values = attention_bulk(spectrum) if model == "attention" else spectrum
    w1 = wasserstein1(values, quantile or law.quantile)
    return kolmogorov_distance(values, law.cdf), w1 / law.mean


def alternative_distances(spectrum: np.ndarray, laws: Mapping) -> list[float]:
    """Kolmogorov distance of the attention bulk of one draw to each law of ``laws`` (the wrong
    laws of :func:`attnspec.papers.a.bulk_laws_summary.alternative_laws`), in their order."""
    bulk = attention_bulk(spectrum)
    return [kolmogorov_distance(bulk, law.cdf) for law in laws.values()]


def distance_table(
    spectra: Sequence[np.ndarray],
    points: Sequence[Mapping],
    judged_betas: Sequence[float] = JUDGED_BETAS,
) -> dict:
    """Distances of every spectrum to nu_inf(beta, c = 1), one row per spectrum.

    Parameters
    ----------
    spectra : sequence of arrays
        Squared singular values, one array per point.
    points : sequence of mappings
        Keys ``model``, ``n_tokens``, ``beta``, ``draw`` of each spectrum.
    judged_betas : sequence of float
        The betas of the rows A.1/beta=<beta>: there the attention bulk's distances to the wrong
        laws are computed too.

    Returns
    -------
    dict of arrays
        ``model``, ``n_tokens``, ``beta``, ``draw``, ``kolmogorov`` (D) and
        ``wasserstein1_relative`` (W1 / theta1), and ``kolmogorov/<name>`` for each wrong law
        of :data:`ALTERNATIVE_METRICS` (NaN except for attention at a judged beta), aligned with
        ``points``.
    """
    if len(spectra) != len(points):
        raise ValueError(f"{len(spectra)} spectra for {len(points)} points")
    judged = {float(beta) for beta in judged_betas}
    wrong = {beta: alternative_laws(beta) for beta in judged}
    alternatives = np.full((len(points), len(ALTERNATIVE_METRICS)), np.nan)
    laws: dict[float, tuple[NuInfinity, _QuantileOnce]] = {}
    sizes = list(dict.fromkeys(int(p["n_tokens"]) for p in points))
    clock = Stopwatch()
    distances = []
    group_start = 0  # first point of the current run of points at one ell (one log record each)
    for i, (spectrum, point) in enumerate(zip(spectra, points, strict=True)):
        beta = float(point["beta"])
        if beta not in laws:
            law = NuInfinity(beta, 1.0)
            laws[beta] = (law, _QuantileOnce(law.quantile))
        distances.append(bulk_distances(spectrum, point["model"], *laws[beta]))
        if point["model"] == "attention" and beta in judged:
            alternatives[i] = alternative_distances(spectrum, wrong[beta])
        ell = int(point["n_tokens"])
        if i + 1 == len(points) or int(points[i + 1]["n_tokens"]) != ell:
            log.info(
                "size %d of %d, ell = %d: %d spectra (models x betas x draws), %.2f s",
                sizes.index(ell) + 1,
                len(sizes),
                ell,
                i + 1 - group_start,
                clock.lap(),
            )
            group_start = i + 1
    log.info("%d spectra in %.2f s", len(points), clock.total())
    distances = np.array(distances)
    return {
        "model": np.array([str(p["model"]) for p in points]),
        "n_tokens": np.array([int(p["n_tokens"]) for p in points]),
        "beta": np.array([float(p["beta"]) for p in points]),
        "draw": np.array([int(p["draw"]) for p in points]),
        "kolmogorov": distances[:, 0],
        "wasserstein1_relative": distances[:, 1],
        **{key: alternatives[:, k] for k, key in enumerate(ALTERNATIVE_METRICS)},
    }


def summarise_distances(table: Mapping[str, np.ndarray]) -> dict:
    """The per-(ell, beta, draw) distances on a grid, their means and spread over draws.

    Returns
    -------
    dict
        ``n_tokens`` (ascending), ``beta`` (ascending), ``draws`` (their number),
        ``rescaled`` (ell x beta: beta / sqrt(log ell)); for each metric and model
        ``<metric>/<model>/draws`` (ell x beta x draw), ``.../mean`` (ell x beta) and
        ``.../log_se`` (the standard error of log(mean), sd / (sqrt(draws) mean)); for each
        wrong law in the table (:data:`ALTERNATIVE_METRICS`), ``<metric>/attention/draws``
        (ell x beta x draw, NaN where it was not computed).

    Raises
    ------
    ValueError
        If a (model, ell, beta, draw) is missing, or there are fewer than two ell, betas or
        draws (the trend in ell, the threshold in beta and the spread over draws need them).
    """
    n_tokens = np.unique(table["n_tokens"])
    betas = np.unique(table["beta"])
    draws = np.unique(table["draw"])
    if n_tokens.size < 2 or betas.size < 2 or draws.size < 2:
        raise ValueError(
            "figure A5 needs at least 2 ell, 2 betas and 2 draws, got "
            f"{n_tokens.size}, {betas.size} and {draws.size}"
        )
    summary = {
        "n_tokens": n_tokens,
        "beta": betas,
        "draws": np.int64(draws.size),
        "rescaled": rescaled_beta(betas[None, :], n_tokens[:, None]),
    }

    def grid_of(metric: str, model: str) -> np.ndarray:
        grid = np.full((n_tokens.size, betas.size, draws.size), np.nan)
        rows = table["model"] == model
        grid[
            np.searchsorted(n_tokens, table["n_tokens"][rows]),
            np.searchsorted(betas, table["beta"][rows]),
            np.searchsorted(draws, table["draw"][rows]),
        ] = table[metric][rows]
        return grid

    for metric in METRICS:
        for model in MODELS:
            grid = grid_of(metric, model)
            if np.isnan(grid).any():
                raise ValueError(f"{model}: not every (ell, beta, draw) has a {metric} distance")
            mean = grid.mean(axis=2)
            key = f"{metric}/{model}"
            summary[f"{key}/draws"] = grid
            summary[f"{key}/mean"] = mean
            summary[f"{key}/log_se"] = grid.std(axis=2, ddof=1) / (np.sqrt(draws.size) * mean)
    for metric in ALTERNATIVE_METRICS:
        if metric in table:
            summary[f"{metric}/attention/draws"] = grid_of(metric, "attention")
    return summary


def size_exponent(n_tokens: np.ndarray, log_values: np.ndarray, log_errors: np.ndarray):
    """Least-squares slope s of log D against log ell, and its standard error.

    s = sum_i w_i log D_i with w_i = (u_i - mean u) / sum_j (u_j - mean u)^2, u = log ell; the
    standard error sqrt(sum_i w_i^2 sigma_i^2) propagates the per-ell errors sigma_i of log D.
    D ~ ell^s: s < 0 while D converges, s = 0 when D does not decrease with ell.

    Parameters
    ----------
    n_tokens : ndarray, shape (n_ell,)
    log_values, log_errors : ndarray, shape (n_ell, ...)
        log D and its standard error; one slope per trailing index.
    """
    u = np.log(np.asarray(n_tokens, dtype=np.float64))
    weights = (u - u.mean()) / np.sum((u - u.mean()) ** 2)
    weights = weights.reshape((-1,) + (1,) * (np.ndim(log_values) - 1))
    exponent = np.sum(weights * log_values, axis=0)
    return exponent, np.sqrt(np.sum(weights**2 * log_errors**2, axis=0))


def interval_factor(draws: int) -> float:
    """The Student-t quantile t_{0.975, draws - 1}: a 95 % interval is value +- factor x s.e."""
    return float(student_t_half_width(1.0, int(draws) - 1))


def _common_grid(coordinates: np.ndarray, points: int) -> np.ndarray:
    grid = np.linspace(coordinates[:, 0].max(), coordinates[:, -1].min(), points)
    if not grid[0] < grid[-1]:
        raise ValueError("the curves of different ell share no range of the coordinate")
    return grid


def _on_grid(grid: np.ndarray, coordinates: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Each row of ``values`` interpolated linearly in its row of ``coordinates``."""
    return np.array([np.interp(grid, x, v) for x, v in zip(coordinates, values, strict=True)])


def collapse_analysis(summary: Mapping, metric: str = "kolmogorov") -> dict:
    """Do the curves D_ell of the attention bulk collapse in x = beta / sqrt(log ell)?

    Descriptive (no verdict): log D (and its standard error) is interpolated linearly on a
    common grid of each variable, x and beta, over the range every ell covers. At each grid
    point: the spread across ell of log10 D (decades), and the exponent s of D ~ ell^s
    (:func:`size_exponent`) with its 95 % interval (Student-t with draws - 1 degrees of freedom
    on the propagated standard error), for the attention bulk and, at fixed x, for Y_lin.

    Returns
    -------
    dict
        ``x``, ``x_spread``, ``x_exponent``, ``x_exponent_low``, ``x_exponent_high``,
        ``x_floor_exponent`` (on the x grid); ``beta_grid``, ``beta_spread`` (on the beta
        grid); ``beta_exponent``, ``beta_exponent_low``, ``beta_exponent_high`` (at the
        simulated betas); ``crossover``: the smallest grid x from which the exponent's 95 %
        interval reaches 0 or above (the distance stops decreasing with ell), nan if there is
        none; ``x_spread_mean`` and ``beta_spread_mean`` over the whole grids;
        ``x_spread_beyond`` (x >= crossover) and ``beta_spread_beyond`` (beta >= crossover x
        sqrt(log ell_max), where every ell is past the crossover), nan without a crossover.
    """
    n_tokens = summary["n_tokens"]
    rescaled = summary["rescaled"]
    factor = interval_factor(int(summary["draws"]))
    betas = np.broadcast_to(summary["beta"], rescaled.shape)
    log_d = np.log(summary[f"{metric}/attention/mean"])
    log_se = summary[f"{metric}/attention/log_se"]
    x = _common_grid(rescaled, COLLAPSE_POINTS)
    beta_grid = _common_grid(betas, COLLAPSE_POINTS)
    on_x, on_beta = _on_grid(x, rescaled, log_d), _on_grid(beta_grid, betas, log_d)
    x_exponent, x_exponent_se = size_exponent(n_tokens, on_x, _on_grid(x, rescaled, log_se))
    floor_on_x = _on_grid(x, rescaled, np.log(summary[f"{metric}/linear/mean"]))
    floor_se_on_x = _on_grid(x, rescaled, summary[f"{metric}/linear/log_se"])
    beta_exponent, beta_exponent_se = size_exponent(n_tokens, log_d, log_se)
    decades = 1 / np.log(10)
    x_spread = decades * (on_x.max(axis=0) - on_x.min(axis=0))
    beta_spread = decades * (on_beta.max(axis=0) - on_beta.min(axis=0))
    x_high = x_exponent + factor * x_exponent_se
    decreasing = np.flatnonzero(x_high < 0)
    crossover = np.nan
    if decreasing.size == 0:
        crossover = x[0]
    elif decreasing[-1] < x.size - 1:
        crossover = x[decreasing[-1] + 1]
    beyond_x = x >= crossover
    beyond_beta = beta_grid >= crossover * np.sqrt(np.log(n_tokens[-1]))
    return {
        "x": x,
        "x_spread": x_spread,
        "x_exponent": x_exponent,
        "x_exponent_low": x_exponent - factor * x_exponent_se,
        "x_exponent_high": x_high,
        "x_floor_exponent": size_exponent(n_tokens, floor_on_x, floor_se_on_x)[0],
        "beta_grid": beta_grid,
        "beta_spread": beta_spread,
        "beta_exponent": beta_exponent,
        "beta_exponent_low": beta_exponent - factor * beta_exponent_se,
        "beta_exponent_high": beta_exponent + factor * beta_exponent_se,
        "crossover": crossover,
        "x_spread_mean": x_spread.mean(),
        "beta_spread_mean": beta_spread.mean(),
        "x_spread_beyond": x_spread[beyond_x].mean() if beyond_x.any() else np.nan,
        "beta_spread_beyond": beta_spread[beyond_beta].mean() if beyond_beta.any() else np.nan,
    }


def excess_over_floor(summary: Mapping) -> np.ndarray:
    """Per (ell, beta, draw): the attention Kolmogorov distance minus the mean Y_lin distance
    over the draws at the same (ell, beta) (the floor of the same law at the same size)."""
    floor = summary["kolmogorov/linear/mean"]
    return summary["kolmogorov/attention/draws"] - floor[:, :, None]


def threshold_betas(summary: Mapping) -> np.ndarray:
    """beta*(ell) per draw, shape (draws, ell) (:func:`attnspec.claims.evidence.threshold_crossings`
    of :func:`excess_over_floor` at EXCESS_THRESHOLD): the crossings whose OLS slope on
    log log ell is the statistic of row A.5/location on the data as they are."""
    excess = np.moveaxis(excess_over_floor(summary), 2, 0)  # (draws, ell, beta)
    return threshold_crossings(excess, summary["beta"], EXCESS_THRESHOLD)


DISTANCE_TABLE_HEADER = (
    "ell",
    "beta",
    "x",
    "ks_attention",
    "ks_ylin",
    "ks_excess",
    "median_threshold_beta_star",
    "w1_over_theta1_attention",
    "w1_over_theta1_ylin",
)


def distance_table_rows(summary: Mapping) -> list[tuple]:
    """One row per (ell, beta) (:data:`DISTANCE_TABLE_HEADER`), means over draws; the excess
    is the attention distance minus the Y_lin distance, and the median beta* (A.5/location) is
    repeated on every row of its ell."""
    excess = excess_over_floor(summary).mean(axis=2)
    crossings = threshold_betas(summary)
    rows = []
    for i, n_tokens in enumerate(summary["n_tokens"]):
        column = crossings[:, i]
        median = float(np.nanmedian(column)) if np.isfinite(column).any() else float("nan")
        for j, beta in enumerate(summary["beta"]):
            rows.append(
                (
                    int(n_tokens),
                    float(beta),
                    float(summary["rescaled"][i, j]),
                    float(summary["kolmogorov/attention/mean"][i, j]),
                    float(summary["kolmogorov/linear/mean"][i, j]),
                    float(excess[i, j]),
                    median,
                    float(summary["wasserstein1_relative/attention/mean"][i, j]),
                    float(summary["wasserstein1_relative/linear/mean"][i, j]),
                )
            )
    return rows


EXPONENT_TABLE_HEADER = (
    "fixed",
    "value",
    "exponent_s",
    "s_95_low",
    "s_95_high",
    "spread_decades",
)


def exponent_table_rows(summary: Mapping, collapse: Mapping) -> list[tuple]:
    """Exponent s of D ~ ell^s (Kolmogorov) with its 95 % interval and the spread across ell
    of log10 D, at fixed beta (the simulated betas) and at fixed x (the x of the largest ell
    that lie in the common range)."""
    spread_at_beta = np.interp(summary["beta"], collapse["beta_grid"], collapse["beta_spread"])
    rows = [
        ("beta", float(b), float(s), float(lo), float(hi), float(spread))
        for b, s, lo, hi, spread in zip(
            summary["beta"],
            collapse["beta_exponent"],
            collapse["beta_exponent_low"],
            collapse["beta_exponent_high"],
            spread_at_beta,
            strict=True,
        )
    ]
    grid = collapse["x"]
    for x in summary["rescaled"][-1]:
        if grid[0] <= x <= grid[-1]:
            rows.append(
                (
                    "x",
                    float(x),
                    *(
                        float(np.interp(x, grid, collapse[key]))
                        for key in ("x_exponent", "x_exponent_low", "x_exponent_high", "x_spread")
                    ),
                )
            )
    return rows


def threshold_fit(summary: Mapping) -> dict:
    """The lines of figure A5(f) through beta*(ell) (:func:`threshold_betas`) on log-log axes
    against log ell: the OLS fit of log beta* on log log ell over every bracketed (draw, ell)
    (the point estimate of row A.5/location) and beta* proportional to sqrt(log ell) through the
    geometric mean at the smallest ell. Returns ``log_ell`` (the smallest and largest),
    ``fit``, ``reference`` (their values there) and ``slope``; NaN with fewer than two ell."""
    crossings = threshold_betas(summary)
    log_sizes = np.log(summary["n_tokens"].astype(np.float64))
    ends = log_sizes[[0, -1]]
    valid = np.isfinite(crossings)
    u = np.broadcast_to(np.log(log_sizes), crossings.shape)[valid]
    y = np.log(crossings[valid])
    if np.unique(u).size < 2:
        nan = np.full(2, np.nan)
        return {"log_ell": ends, "fit": nan, "reference": nan, "slope": np.nan}
    slope, intercept = np.polyfit(u, y, 1)
    start = np.exp(np.mean(y[u == u.min()]))
    return {
        "log_ell": ends,
        "fit": np.exp(intercept) * ends**slope,
        "reference": start * np.sqrt(ends / ends[0]),
        "slope": float(slope),
    }
