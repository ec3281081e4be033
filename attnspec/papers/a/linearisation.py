"""Figure A5 (paper A): the linearisation threshold, distance of the bulk to nu_inf against
beta / sqrt(log ell), square model c = 1; the evidence of claims A.1 and A.5.

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

Evidence (rows of :mod:`attnspec.papers.a.declared_tests`): A.1/beta=<beta> is, per draw at the
largest ell, the attention distance to nu_inf minus the distance of the Y_lin draw from the same
Q, K (a paired excess over the floor), with the same at every ell for its finite-size model; its
alternatives replace nu_inf in the attention distance by a wrong law L
(:func:`attnspec.papers.a.bulk_laws_summary.alternative_laws`: MP and nu_inf at beta (1 -+ 1 %), and
beta (1 -+ 3 %) for the variant reported beside it; the floor stays the nu_inf one: subtracting
KS(Y_lin, L) instead would cancel whatever L is). A.5/breakdown compares
the two distances at the largest beta; A.5/location the threshold beta*(ell)
(:func:`attnspec.claims.evidence.threshold_crossings`) against sqrt(log ell), attention and Y_lin
draws resampled together.
"""

import logging
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from attnspec.claims.evidence import Evidence, threshold_crossings
from attnspec.distances import kolmogorov_distance, wasserstein1
from attnspec.intervals import student_t_half_width
from attnspec.papers.a.bulk_laws_evidence import (
    ALTERNATIVE_LAWS,
    BETA_VARIANT,
    VARIANT_LAWS,
    nearest_law_unit,
    series_evidence,
)
from attnspec.papers.a.bulk_laws_summary import (
    COARSE_BETA_MUTANTS,
    WRONG_LAWS,
    alternative_laws,
    attention_bulk,
)
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


def _beta_index(summary: Mapping, beta: float, key: str) -> int:
    matches = np.flatnonzero(summary["beta"] == beta)
    if matches.size != 1:
        raise ValueError(f"{key} must contain the judged beta {beta:g}")
    return int(matches[0])


def _sizes_text(summary: Mapping) -> str:
    return ", ".join(str(int(n)) for n in summary["n_tokens"])


def _by_size_text(summary: Mapping, values: np.ndarray) -> str:
    return ", ".join(
        f"ell={int(n)}: {v:+.4f}" for n, v in zip(summary["n_tokens"], values, strict=True)
    )


def convergence_evidence(summary: Mapping, beta: float) -> Evidence:
    """Registry row A.1/beta=<beta>: ``values`` = per draw, KS(attention bulk, nu_inf) -
    KS(Y_lin, nu_inf), the Y_lin draw built from the same Q, K (a paired excess over the
    finite-size floor), judged at the largest ell with the same at every ell of the table for
    the row's finite-size model (limit 0); margin unit the distance from nu_inf to the nearest
    wrong beta (:func:`attnspec.papers.a.bulk_laws_evidence.nearest_law_unit`). Each alternative
    law L (:data:`attnspec.papers.a.bulk_laws_evidence.ALTERNATIVE_LAWS`) gives
    KS(attention bulk, L) -
    KS(Y_lin, nu_inf) at every ell, target 0: the floor stays nu_inf's, since KS(attention, L)
    - KS(Y_lin, L) would cancel any L. The variant :data:`BETA_VARIANT` is the same row with
    the wrong betas at 3 % and their margin unit."""
    j = _beta_index(summary, beta, "paperA.linearisation.betas")
    attention = summary["kolmogorov/attention/draws"][:, j, :]  # (ell, draws)
    linear = summary["kolmogorov/linear/draws"][:, j, :]
    sizes = summary["n_tokens"]
    row_id, n_max = f"A.1/beta={beta:g}", int(sizes[-1])
    where = f"ell = {n_max}, beta = {beta:g}, c = 1"
    distances = {}
    for name in WRONG_LAWS:
        key = f"kolmogorov/{name}/attention/draws"
        found = summary[key][:, j] if key in summary else np.full(linear.shape, np.nan)
        if not np.isfinite(found).all():
            raise ValueError(
                f"the A5 distance table lacks the Kolmogorov distances of the attention bulk to "
                f"the wrong law {name!r} at every ell, beta = {beta:g}: rerun the rule "
                "paperA_A5_distances"
            )
        distances[name] = found  # (ell, draws)

    def wrong_laws(names) -> dict:
        return {
            name: series_evidence(
                row_id,
                sizes,
                [{"values": d - floor} for d, floor in zip(distances[name], linear, strict=True)],
                target=0.0,
                quantity=f"KS(attention bulk, {name}) - KS(Y_lin, nu_inf) per draw, mean, "
                f"{where} (and every ell of the table)",
                note=f"KS(attention bulk, {name}) {distances[name][-1].mean():.4f}",
            )
            for name in names
        }

    def described(names) -> str:
        return ", ".join(f"{name} {distances[name][-1].mean():.4f}" for name in names)

    excess = [{"values": a - floor} for a, floor in zip(attention, linear, strict=True)]
    quantity = (
        "per draw, Kolmogorov distance of the bulk of sqrt(ell) A_perp to nu_inf minus that of "
        f"the Y_lin draw from the same scores, mean over draws, {where}"
    )
    unit = nearest_law_unit(beta)
    coarse = nearest_law_unit(beta, mutants=COARSE_BETA_MUTANTS)
    variant = series_evidence(
        row_id,
        sizes,
        excess,
        target=0.0,
        margin_scale=coarse,
        quantity=f"{quantity}; wrong betas beta (1 -+ 3 %)",
        note=f"margin unit min KS(nu_inf(beta), nu_inf(beta (1 -+ 3 %))) = {coarse:.4f}; KS "
        f"of the attention bulk to the wrong laws: {described(VARIANT_LAWS)}",
        alternatives=wrong_laws(VARIANT_LAWS),
    )
    return series_evidence(
        row_id,
        sizes,
        excess,
        target=0.0,
        margin_scale=unit,
        quantity=quantity,
        note=(
            f"at ell = {n_max}: attention {attention[-1].mean():.4f}, Y_lin "
            f"{linear[-1].mean():.4f}; KS of the attention bulk to the wrong laws: "
            f"{described(ALTERNATIVE_LAWS)} (at 3 %: {described(COARSE_BETA_MUTANTS)}); mean "
            f"paired excess by ell: {_by_size_text(summary, (attention - linear).mean(axis=1))}; "
            f"margin unit min KS(nu_inf(beta), nu_inf(beta (1 -+ 1 %))) = {unit:.4f} at beta = "
            f"{beta:g} ({coarse:.4f} at 3 %)"
        ),
        alternatives=wrong_laws(ALTERNATIVE_LAWS),
        variants={BETA_VARIANT: variant},
    )


def breakdown_evidence(summary: Mapping) -> Evidence:
    """Registry row A.5/breakdown: the attention (``values``) and Y_lin (``reference``)
    distances per draw at the largest beta and the largest ell; the alternative ``no
    threshold`` (linearisation at every beta) predicts a difference of 0."""
    attention = summary["kolmogorov/attention/draws"][-1, -1]
    linear = summary["kolmogorov/linear/draws"][-1, -1]
    beta, n_max = float(summary["beta"][-1]), int(summary["n_tokens"][-1])
    samples = {"values": attention, "reference": linear}
    quantity = (
        "Kolmogorov distance of the bulk of sqrt(ell) A_perp to nu_inf minus that of Y_lin, "
        f"means over draws, ell = {n_max}, beta = {beta:g} "
        f"(x = beta / sqrt(log ell) = {float(summary['rescaled'][-1, -1]):.2f})"
    )
    return Evidence(
        row_id="A.5/breakdown",
        samples=samples,
        target=0.0,
        quantity=quantity,
        note=(
            f"attention {attention.mean():.4f}, Y_lin {linear.mean():.4f}: the bulk of the "
            "attention matrix is far from nu_inf while Y_lin at the same size is at nu_inf"
        ),
        alternatives={
            "no threshold": Evidence(
                "A.5/breakdown",
                samples,
                target=0.0,
                quantity=quantity,
                note="linearisation at every beta: the attention bulk as close to nu_inf as Y_lin",
            )
        },
    )


# A.5/location: the exponent of beta* ~ (log ell)^exponent under each declared theory.
LOCATION_TARGET = 0.5
LOCATION_ALTERNATIVES = {"fixed": 0.0, "log ell": 1.0}


def location_samples(summary: Mapping) -> dict[str, np.ndarray]:
    """The samples of the threshold_slope statistic (:mod:`attnspec.claims.evidence`): ``values``
    (draws, 2, ell, beta), the attention (0) and Y_lin (1) Kolmogorov distances of each draw,
    ``betas``, ``log_sizes`` = log ell and ``threshold`` = :data:`EXCESS_THRESHOLD`."""
    distances = np.stack(
        [summary[f"kolmogorov/{model}/draws"] for model in MODELS], axis=0
    )  # (2, ell, beta, draws)
    return {
        "values": np.moveaxis(distances, 3, 0),
        "betas": summary["beta"],
        "log_sizes": np.log(summary["n_tokens"].astype(np.float64)),
        "threshold": np.float64(EXCESS_THRESHOLD),
    }


def location_evidence(summary: Mapping) -> Evidence:
    """Registry row A.5/location: the OLS slope of log beta* on log log ell
    (:func:`location_samples`; 1/2 for beta* proportional to sqrt(log ell)); alternatives: a
    fixed threshold (slope 0) and beta* proportional to log ell (slope 1), the same samples."""
    crossings = threshold_betas(summary)
    sizes = summary["n_tokens"]
    samples = location_samples(summary)
    medians = [
        f"ell={int(n)}: {np.nanmedian(c):.3f}" if np.isfinite(c).any() else f"ell={int(n)}: none"
        for n, c in zip(sizes, crossings.T, strict=True)
    ]
    change = np.sqrt(np.log(sizes.max()) / np.log(sizes.min())) - 1.0
    missing = int(np.sum(~np.isfinite(crossings)))
    quantity = (
        f"OLS slope of log beta* on log log ell, beta* where the excess Kolmogorov distance "
        f"over the Y_lin floor first reaches {EXCESS_THRESHOLD:g} (per draw, interpolated "
        f"linearly in log beta over beta = {', '.join(f'{b:g}' for b in summary['beta'])}), "
        f"ell = {_sizes_text(summary)}, c = 1"
    )
    alternatives = {
        name: Evidence(
            "A.5/location",
            samples,
            target=target,
            quantity=quantity,
            note=f"beta* proportional to (log ell)^{target:g}",
        )
        for name, target in LOCATION_ALTERNATIVES.items()
    }
    return Evidence(
        row_id="A.5/location",
        samples=samples,
        target=LOCATION_TARGET,
        quantity=quantity,
        note=(
            f"median beta* by ell: {', '.join(medians)}"
            + (f"; {missing} (draw, ell) crossings not bracketed by the betas" if missing else "")
            + f". Over ell = {int(sizes.min())}..{int(sizes.max())}, sqrt(log ell) grows by "
            f"only {change:.0%}: the exponent is measured over a short range of log log ell, "
            "where a finite-size drift of beta* at fixed ell weighs as much as the scaling"
        ),
        alternatives=alternatives,
    )


def linearisation_evidence(summary: Mapping) -> list[Evidence]:
    """The evidence of rows A.1/beta=<beta> (:data:`JUDGED_BETAS`), A.5/breakdown and
    A.5/location from :func:`summarise_distances`."""
    return [convergence_evidence(summary, beta) for beta in JUDGED_BETAS] + [
        breakdown_evidence(summary),
        location_evidence(summary),
    ]


def collapse_statement(collapse: Mapping) -> str:
    """What the collapse analysis shows, in words chosen by its numbers (descriptive)."""
    text = (
        f"Across ell, log10 D spreads by {collapse['x_spread_mean']:.2f} decades on average at "
        f"fixed x against {collapse['beta_spread_mean']:.2f} at fixed beta. At fixed beta, D "
        f"goes like ell^s with s from {collapse['beta_exponent'].min():+.2f} to "
        f"{collapse['beta_exponent'].max():+.2f}; at fixed x, s rises from "
        f"{collapse['x_exponent'][0]:+.2f} (Y_lin floor: {collapse['x_floor_exponent'][0]:+.2f})"
    )
    if np.isnan(collapse["crossover"]):
        return text + (
            f" to {collapse['x_exponent'][-1]:+.2f} and its 95 % interval stays below 0 up to "
            f"x = {collapse['x'][-1]:.2f}: no collapse in the simulated range"
        )
    text += (
        f"; from x = {collapse['crossover']:.2f} on its 95 % interval reaches 0: there the "
        f"distance no longer decreases with ell and the curves spread by "
        f"{collapse['x_spread_beyond']:.3f} decades at fixed x against "
        f"{collapse['beta_spread_beyond']:.3f} at fixed beta (same region)"
    )
    if collapse["x_spread_beyond"] < collapse["beta_spread_beyond"]:
        return text + ": the curves collapse better in x than in beta"
    return text + ": the curves do not collapse better in x than in beta"


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


LINEARISATION_SCALARS = ("crossover", "x_spread_mean", "beta_spread_mean")


def linearisation_plotted_table(summary: Mapping, collapse: Mapping):
    """Figure A5's tidy table (a pandas DataFrame), columns ``kind``, ``series``, ``model``,
    ``n_tokens``, ``beta``, ``draw``, ``x``, ``value``:

    - data ``kolmogorov`` / ``wasserstein1_relative``: per model, ell, beta and draw the distance
      to nu_inf (``value``) at ``x`` = beta / sqrt(log ell), panels (a)-(c);
    - statistic ``excess_over_floor``: per (ell, beta, draw) the attention distance minus the
      mean Y_lin distance, panel (e);
    - statistic ``beta_star`` per (ell, draw) at ``x`` = log ell, its least-squares line
      ``beta_star_fit`` (:func:`threshold_fit`) and slope ``beta_star_fit_slope``; theory
      ``beta_star_sqrt_log``, the line beta* proportional to sqrt(log ell), panel (f);
    - statistic ``exponent`` (attention and linear), ``exponent_low`` / ``exponent_high`` (the
      95 % interval, attention) against ``x``, panel (d);
    - statistic: the scalars :data:`LINEARISATION_SCALARS` of :func:`collapse_analysis`.

    ``summary``: :func:`summarise_distances`; ``collapse``: :func:`collapse_analysis`.
    """
    import pandas as pd

    sizes = summary["n_tokens"].astype(np.int64)
    shape = (sizes.size, summary["beta"].size, int(summary["draws"]))
    ell, beta, draw = np.indices(shape).reshape(3, -1)
    cells = {
        "n_tokens": sizes[ell],
        "beta": summary["beta"][beta].astype(np.float64),
        "draw": draw,
        "x": summary["rescaled"][ell, beta].astype(np.float64),
    }
    blocks = [
        pd.DataFrame({"kind": "data", "series": metric, "model": model, **cells,
                      "value": summary[f"{metric}/{model}/draws"].reshape(-1)})
        for metric in METRICS
        for model in MODELS
    ]  # fmt: skip
    blocks.append(
        pd.DataFrame({"kind": "statistic", "series": "excess_over_floor", "model": "attention",
                      **cells, "value": excess_over_floor(summary).reshape(-1)})
    )  # fmt: skip
    crossings = threshold_betas(summary)
    log_sizes = np.log(sizes.astype(np.float64))
    blocks += [
        pd.DataFrame({"kind": "statistic", "series": "beta_star", "model": "attention",
                      "n_tokens": sizes, "draw": d, "x": log_sizes, "value": row})
        for d, row in enumerate(crossings)
    ]  # fmt: skip
    fit = threshold_fit(summary)
    for kind, series, line in (
        ("statistic", "beta_star_fit", "fit"),
        ("theory", "beta_star_sqrt_log", "reference"),
    ):
        blocks.append(
            pd.DataFrame({"kind": kind, "series": series, "n_tokens": sizes[[0, -1]],
                          "x": fit["log_ell"], "value": fit[line]})
        )  # fmt: skip
    curves = (
        ("exponent", "attention", "x_exponent"),
        ("exponent_low", "attention", "x_exponent_low"),
        ("exponent_high", "attention", "x_exponent_high"),
        ("exponent", "linear", "x_floor_exponent"),
    )
    blocks += [
        pd.DataFrame({"kind": "statistic", "series": series, "model": model, "x": collapse["x"],
                      "value": collapse[key]})
        for series, model, key in curves
    ]  # fmt: skip
    scalars = [("beta_star_fit_slope", float(fit["slope"]))]
    scalars += [(name, float(collapse[name])) for name in LINEARISATION_SCALARS]
    blocks.append(pd.DataFrame(scalars, columns=["series", "value"]).assign(kind="statistic"))
    columns = ["kind", "series", "model", "n_tokens", "beta", "draw", "x", "value"]
    table = pd.concat(blocks, ignore_index=True).reindex(columns=columns)
    return table.astype({"n_tokens": "Int64", "draw": "Int64"})
