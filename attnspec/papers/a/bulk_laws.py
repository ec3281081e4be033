"""Figures A3 and A7 (paper A): the empirical bulk against nu_inf and the MP surrogate.

The bulk of one draw is the squared singular values of sqrt(ell) A_perp, A_perp = A - u u^T,
u = 1/sqrt(ell). Row-stochasticity gives A_perp u = 0, so one of the ell values is a structural
zero; the bulk is the other ell - 1 (:func:`attention_bulk`), pooled over draws for histograms
and the pooled distances, and kept per draw for the spread over draws.

A3 (claim A.4, "nu_inf is not Marchenko-Pastur: its right edge exceeds 4 theta1"): for each beta,
the bulk against nu_inf(beta, c) (right edge x_+) and against the iid-scores surrogate
theta1 MP_1 (density sqrt(x (4 theta1 - x)) / (2 pi theta1 x) on [0, 4 theta1]), with
theta1 = e^{beta^2} - 1. Y_lin = (beta S + sqrt(a) W)/sqrt(ell), whose limit is exactly nu_inf,
is the finite-size reference at the same size (papers.md sections 2-3). The figure shows the
statistic of the registry rows A.4/beta=<beta> at its one ell; the rows themselves are judged on
the square spectra (c = 1, d_qk = ell) of every ell of paperA.linearisation
(:func:`not_marchenko_pastur_evidence`): per draw, the share of the bulk above the MP edge
4 theta1, against nu_inf's mass there, 1 - F_nu(4 theta1) (MP puts none there; the same at every
ell since c = 1), judged at the largest ell with a finite-size model over all of them; the same
share above 4 theta1(beta') against nu_inf(beta')'s mass judges the wrong betas
beta' = beta (1 -+ 1 %), and at the coarser resolution reported beside it (:data:`BETA_VARIANT`)
beta (1 -+ 3 %). Its margin unit is the change of that mass that the nearest wrong beta makes
(:func:`edge_mass_unit`).

The wrong theories the Kolmogorov rows of paper A (A.1, A.3) must rule out are laws too
(:func:`alternative_laws`): the MP surrogate and nu_inf at beta (1 -+ 1 %) (and, for the variant,
beta (1 -+ 3 %)); their margin unit is the distance from nu_inf to the nearest wrong beta
(:func:`nearest_law_unit`). Both units follow one rule for every paper
(:data:`attnspec.papers.declared_texts.RESOLUTION_PRINCIPLE`).

A7: nu_inf(beta, c) across the proportional regime, c = ell / d_qk (not d_qk / ell, papers.md
section 3), against the bulk; the swapped ratio d_qk / ell is measured too, to show that the
convention is visible in the data.
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.claims.evidence import Evidence
from attnspec.claims.finite_size import MIN_SIZES
from attnspec.distances import kolmogorov_distance, law_kolmogorov_distance, wasserstein1
from attnspec.theory.marchenko_pastur import MarchenkoPasturSurrogate, mp_edge
from attnspec.theory.nu_infinity import NuInfinity

# Histograms and density curves span [0, HISTOGRAM_REACH * (largest theoretical edge)].
HISTOGRAM_REACH = 1.25
# Points of the theory curves (support endpoints are added so gaps and edges are drawn exactly).
THEORY_POINTS = 800
# Theory-grid points closer than this (relative) are one: far above rounding, far below the 1e-9
# edge neighbours.
GRID_MERGE = 1e-12
# The edge-region (survival) panels of A3 start at this quantile of nu_inf.
SURVIVAL_FROM_QUANTILE = 0.8

# The betas of the registry rows A.4/beta=<beta>.
JUDGED_BETAS = (0.5, 1.0)
# The wrong betas of the registry alternatives "beta-1%" and "beta+1%" (factors of beta): the
# nearest wrong theory of every paper moves its defining parameter by 1 %
# (attnspec.papers.declared_texts.RESOLUTION_PRINCIPLE).
BETA_MUTANTS = {"beta-1%": 0.99, "beta+1%": 1.01}
# The same rows judged at +- 3 % too (an Evidence variant, reported in other_resolutions).
BETA_VARIANT = "beta +-3 %"
COARSE_BETA_MUTANTS = {"beta-3%": 0.97, "beta+3%": 1.03}
# The names of the wrong laws of the registry alternatives of A.1, A.3, and of the variant's.
ALTERNATIVE_LAWS = ("MP", *BETA_MUTANTS)
VARIANT_LAWS = ("MP", *COARSE_BETA_MUTANTS)
# Every wrong law of :func:`alternative_laws` (the distances computed for both resolutions).
WRONG_LAWS = ("MP", *BETA_MUTANTS, *COARSE_BETA_MUTANTS)


def attention_bulk(spectrum: np.ndarray) -> np.ndarray:
    """The ell - 1 largest squared singular values of sqrt(ell) A_perp (descending input).

    sqrt(ell) A_perp u = 0 for row-stochastic A (A u = u), so the smallest value is a
    structural zero that is not part of the bulk law.
    """
    return np.sort(spectrum)[::-1][:-1]


def density_histogram(pooled: np.ndarray, top: float, bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Bin edges on [0, top] and the density counts / (n width), n = all pooled values.

    Values above ``top`` are left out of the bars but kept in n, so the bars integrate to the
    fraction of the bulk inside [0, top] and compare directly with a limit density.
    """
    edges = np.linspace(0.0, top, bins + 1)
    counts = np.histogram(pooled, bins=edges)[0]
    return edges, counts / (pooled.size * np.diff(edges))


def theory_grid(top: float, breakpoints: Sequence[float]) -> np.ndarray:
    """x in (0, top]: THEORY_POINTS even points plus each support endpoint and its neighbours.

    The neighbours (1e-9 relative on either side) make a curve drop to zero exactly at an edge
    or at the ends of an internal gap instead of cutting the corner to the next grid point.
    Points within :data:`GRID_MERGE` relative of a smaller one are dropped: two laws' edges
    that agree up to rounding (a few 1e-16) give one point, so the grid's length does not
    depend on the CPU's last bits.
    """
    grid = np.linspace(0.0, top, THEORY_POINTS + 1)[1:]
    ends = np.array([b for b in breakpoints if 0.0 < b < top], dtype=np.float64)
    extra = np.concatenate([ends, ends * (1 - 1e-9), ends * (1 + 1e-9)])
    points = np.sort(np.concatenate([grid, extra]))
    keep = np.concatenate([[True], np.diff(points) > GRID_MERGE * points[1:]])
    return points[keep]


def survival_points(pooled: np.ndarray, start: float) -> tuple[np.ndarray, np.ndarray]:
    """Sorted values x_(k) >= start and the fraction of the bulk at or above each, (n - k + 1)/n."""
    x = np.sort(pooled)
    above = (x.size - np.arange(x.size)) / x.size
    keep = x >= start
    return x[keep], above[keep]


def alternative_laws(beta: float, ratio: float = 1.0) -> dict:
    """The wrong laws (:data:`WRONG_LAWS`) a bulk said to follow nu_inf(beta, c) must be told
    from: ``MP``, the iid-scores surrogate theta1 MP_1 with the same mean; ``beta-1%`` and
    ``beta+1%``, nu_inf at 0.99 beta and 1.01 beta (:data:`BETA_MUTANTS`, the registry's); and
    ``beta-3%``, ``beta+3%`` at 0.97 beta and 1.03 beta (:data:`COARSE_BETA_MUTANTS`, the
    variant's)."""
    laws = {"MP": MarchenkoPasturSurrogate(beta)}
    for factors in (BETA_MUTANTS, COARSE_BETA_MUTANTS):
        laws |= {name: NuInfinity(factor * beta, ratio) for name, factor in factors.items()}
    return laws


def nearest_law_unit(beta: float, ratio: float = 1.0, mutants: Mapping = BETA_MUTANTS) -> float:
    """min over the wrong betas beta' of ``mutants`` (default beta (1 -+ 1 %)) of
    KS(nu_inf(beta), nu_inf(beta')) (:func:`attnspec.distances.law_kolmogorov_distance`): the
    unit of the Kolmogorov margins of the rows A.1 and A.3, the distance to the nearest wrong
    law declared, from theory alone."""
    law = NuInfinity(beta, ratio)
    return min(
        law_kolmogorov_distance(law, NuInfinity(factor * beta, ratio))
        for factor in mutants.values()
    )


def share_above(draws: Sequence[np.ndarray], threshold: float) -> np.ndarray:
    """Per draw, the share of its values strictly above ``threshold``."""
    return np.array([np.mean(np.asarray(d) > threshold) for d in draws])


def mass_above_mp_edge(beta: float, ratio: float = 1.0) -> float:
    """nu_inf(beta, c)'s mass above the MP edge 4 theta1(beta), 1 - F_nu(4 theta1): the
    target of row A.4/beta=<beta> (the MP surrogate has none there)."""
    return float(1.0 - NuInfinity(beta, ratio).cdf(mp_edge(beta)))


def edge_mass_unit(beta: float, ratio: float = 1.0, mutants: Mapping = BETA_MUTANTS) -> float:
    """min over the wrong betas beta' of ``mutants`` (default beta (1 -+ 1 %)) of
    |mass of nu_inf(beta') above 4 theta1(beta) - mass of nu_inf(beta) there|: how far the
    statistic of row A.4/beta=<beta> (the share above 4 theta1(beta)) moves when the bulk
    follows the nearest wrong law, the unit of its margin, from theory alone."""
    threshold = mp_edge(beta)
    own = NuInfinity(beta, ratio).cdf(threshold)
    return min(
        abs(float(NuInfinity(factor * beta, ratio).cdf(threshold) - own))
        for factor in mutants.values()
    )


def per_draw_distances(draws: Sequence[np.ndarray], law) -> np.ndarray:
    """Kolmogorov distance sup_x |F_draw(x) - F(x)| of every draw to ``law`` (has ``cdf``)."""
    return np.array([kolmogorov_distance(d, law.cdf) for d in draws])


def summarise_bulk_laws(
    attention: Sequence[np.ndarray],
    linear: Sequence[np.ndarray],
    *,
    beta: float,
    ratio: float,
    bins: int,
) -> dict:
    """Everything figure A3 shows at one beta: histograms, laws, edge region and distances.

    Parameters
    ----------
    attention : sequence of ndarray
        Per-draw spectra of sqrt(ell) A_perp (the structural zero is dropped here).
    linear : sequence of ndarray
        Per-draw spectra of Y_lin at the same (ell, d_qk, beta).
    beta, ratio : float
        Inverse temperature and c = ell / d_qk.
    bins : int
        Histogram bins on [0, HISTOGRAM_REACH * max(x_+, 4 theta1)].

    Returns
    -------
    dict of arrays
        ``edges``, ``density_attention``, ``density_linear`` (counts / (n width), n all pooled
        values); ``theory_x``, ``density_nu_inf``, ``density_mp``; ``survival_*`` (fraction of
        the pooled bulk >= x from the 80 % quantile of nu_inf, and 1 - F of both laws);
        per-draw ``ks_*`` (Kolmogorov distance of each draw of attention/linear to nu_inf/mp)
        and ``edge_mass_*`` (share above 4 theta1; 0 under MP, 1 - F_nu(4 theta1) under
        nu_inf, :func:`mass_above_mp_edge`); pooled
        ``pooled_ks_*``, ``pooled_w1_*`` (Wasserstein-1); scalars ``beta``, ``ratio``,
        ``x_plus``, ``mp_edge`` = 4 theta1, ``theta1``, ``edge_mass_theory``, ``ks_nu_inf_mp``
        (KS(nu_inf, MP), from the laws alone), ``m1_attention``, ``n_beyond`` (attention
        values above the histogram), ``largest``.
    """
    law, surrogate = NuInfinity(beta, ratio), MarchenkoPasturSurrogate(beta)
    bulk_draws = [attention_bulk(s) for s in attention]
    linear_draws = [np.asarray(s, dtype=np.float64) for s in linear]
    samples = {"attention": np.concatenate(bulk_draws), "linear": np.concatenate(linear_draws)}
    per_draw = {"attention": bulk_draws, "linear": linear_draws}
    laws = {"nu_inf": law, "mp": surrogate}
    top = HISTOGRAM_REACH * max(law.edge, surrogate.edge)
    theory_x = theory_grid(
        top, [e for interval in law.support() for e in interval] + [surrogate.edge]
    )
    start = float(law.quantile(SURVIVAL_FROM_QUANTILE))
    survival_x = theory_x[theory_x >= start]
    summary = {
        "beta": np.float64(beta),
        "ratio": np.float64(ratio),
        "x_plus": np.float64(law.edge),
        "mp_edge": np.float64(surrogate.edge),
        "theta1": np.float64(law.mean),
        "edge_mass_theory": np.float64(mass_above_mp_edge(beta, ratio)),
        "ks_nu_inf_mp": np.float64(law_kolmogorov_distance(law, surrogate)),
        "m1_attention": np.float64(samples["attention"].mean()),
        "n_beyond": np.int64(np.count_nonzero(samples["attention"] > top)),
        "largest": np.float64(samples["attention"].max()),
        "theory_x": theory_x,
        "density_nu_inf": law.density(theory_x),
        "density_mp": surrogate.density(theory_x),
        "survival_theory_x": survival_x,
        "survival_nu_inf": np.clip(1.0 - law.cdf(survival_x), 0.0, None),
        "survival_mp": np.clip(1.0 - surrogate.cdf(survival_x), 0.0, None),
    }
    for model, pooled in samples.items():
        summary["edges"], summary[f"density_{model}"] = density_histogram(pooled, top, bins)
        summary[f"survival_x_{model}"], summary[f"survival_{model}"] = survival_points(
            pooled, start
        )
        summary[f"edge_mass_{model}"] = share_above(per_draw[model], surrogate.edge)
        for name, target in laws.items():
            summary[f"ks_{model}_{name}"] = per_draw_distances(per_draw[model], target)
            summary[f"pooled_ks_{model}_{name}"] = np.float64(
                kolmogorov_distance(pooled, target.cdf)
            )
            summary[f"pooled_w1_{model}_{name}"] = np.float64(wasserstein1(pooled, target.quantile))
    return summary


def series_evidence(
    row_id: str, sizes: Sequence[int], per_size: Sequence[Mapping[str, np.ndarray]], **fields
) -> Evidence:
    """Evidence judged at the largest size with the finite-size data of every size:
    ``per_size`` holds each size's samples (draws first), ``sizes`` ascending; the limit's
    target is the judged size's (the targets of paper A's rows judged by a finite-size model do
    not depend on ell: distances that vanish, nu_inf's mass above 4 theta1 at c = 1).
    ValueError naming the config key with fewer than :data:`MIN_SIZES` sizes."""
    if len(sizes) < MIN_SIZES:
        raise ValueError(
            f"{row_id}: paperA.linearisation.n_tokens needs at least {MIN_SIZES} sizes for the "
            f"row's finite-size model, got {[int(n) for n in sizes]}"
        )
    return Evidence(
        row_id=row_id,
        samples=dict(per_size[-1]),
        sizes=np.asarray(sizes, dtype=np.float64),
        by_size=tuple(dict(own) for own in per_size),
        **fields,
    )


def edge_shares(spectra: Sequence[np.ndarray], beta: float) -> dict[str, np.ndarray]:
    """Per draw of square attention spectra (c = 1), the share of the bulk above the MP edge
    4 theta1(beta) (key ``beta``) and above 4 theta1(beta') for each wrong beta' of
    :data:`BETA_MUTANTS` and :data:`COARSE_BETA_MUTANTS` (key: its name): the statistic of row
    A.4 and of its wrong theories at one ell."""
    bulk = [attention_bulk(s) for s in spectra]
    factors = {"beta": 1.0} | BETA_MUTANTS | COARSE_BETA_MUTANTS
    return {name: share_above(bulk, mp_edge(factor * beta)) for name, factor in factors.items()}


def _by_ell(sizes: Sequence[int], values: Sequence[np.ndarray]) -> str:
    """``ell=<n>: <mean>`` for each size, means over draws."""
    return ", ".join(f"ell={int(n)}: {np.mean(v):.4f}" for n, v in zip(sizes, values, strict=True))


def not_marchenko_pastur_evidence(
    sizes: Sequence[int],
    attention: Sequence[Sequence[np.ndarray]],
    linear: Sequence[Sequence[np.ndarray]],
    *,
    beta: float,
) -> Evidence:
    """Registry row A.4/beta=<beta> from square spectra (c = 1, d_qk = ell) at each ell of
    ``sizes`` (ascending; ``attention`` and ``linear`` the draws of sqrt(ell) A_perp and of Y_lin
    at each): ``values`` = per draw the share of the bulk above 4 theta1 (:func:`edge_shares`),
    judged at the largest ell with every ell for the row's finite-size model; target and limit
    target nu_inf's mass there (:func:`mass_above_mp_edge`, the same at every ell since c = 1);
    margin unit :func:`edge_mass_unit`. Alternatives on the same draws at every ell: ``MP`` (the
    same shares, target 0) and each wrong beta' of :data:`BETA_MUTANTS` (the shares above
    4 theta1(beta') against nu_inf(beta')'s mass there); the variant :data:`BETA_VARIANT` the
    same with :data:`COARSE_BETA_MUTANTS` and its own margin unit. Y_lin's shares (its limit is
    exactly nu_inf) are reported in the note."""
    row_id, n_max = f"A.4/beta={beta:g}", int(sizes[-1])
    shares = [edge_shares(draws, beta) for draws in attention]
    where = f"ell = {n_max}, c = 1, beta = {beta:g}"
    mass = mass_above_mp_edge(beta)

    def series(key: str, target: float, **fields) -> Evidence:
        per_size = [{"values": own[key]} for own in shares]
        return series_evidence(row_id, sizes, per_size, target=target, **fields)

    def wrong_theories(mutants: Mapping) -> dict:
        found = {
            "MP": series(
                "beta",
                0.0,
                quantity=f"share of the bulk above 4 theta1 = {mp_edge(beta):.4g}, {where} (and "
                "every ell of the series)",
                note="the MP surrogate has no mass above its edge 4 theta1",
            )
        }
        for name, factor in mutants.items():
            wrong = factor * beta
            found[name] = series(
                name,
                mass_above_mp_edge(wrong),
                quantity=f"share of the bulk above 4 theta1({wrong:g}) = {mp_edge(wrong):.4g}, "
                f"{where} (and every ell of the series)",
                note=f"target: nu_inf({wrong:g})'s mass above 4 theta1({wrong:g})",
            )
        return found

    def described(mutants: Mapping) -> str:
        return "; ".join(
            f"{name}: share {np.mean(shares[-1][name]):.4f} against "
            f"{mass_above_mp_edge(factor * beta):.4f}"
            for name, factor in mutants.items()
        )

    quantity = (
        "share of the bulk of sqrt(ell) A_perp above the MP edge 4 theta1 = "
        f"{mp_edge(beta):.4g} per draw, mean over draws, {where}"
    )
    unit, coarse = edge_mass_unit(beta), edge_mass_unit(beta, mutants=COARSE_BETA_MUTANTS)
    variant = series(
        "beta",
        mass,
        margin_scale=coarse,
        quantity=f"{quantity}; wrong betas beta (1 -+ 3 %)",
        note=f"margin unit at beta (1 -+ 3 %) {coarse:.4g}; at ell = {n_max}: "
        f"{described(COARSE_BETA_MUTANTS)}",
        alternatives=wrong_theories(COARSE_BETA_MUTANTS),
    )
    floor = [share_above(draws, mp_edge(beta)) for draws in linear]
    return series(
        "beta",
        mass,
        margin_scale=unit,
        quantity=quantity,
        note=(
            f"nu_inf's mass there {mass:.4f}, MP's 0; mean share by ell: "
            f"{_by_ell(sizes, [own['beta'] for own in shares])}; Y_lin at the same ell: "
            f"{_by_ell(sizes, floor)}; beta off by 1 % at ell = {n_max} "
            f"({described(BETA_MUTANTS)}); margin unit: the nearest wrong beta moves the share "
            f"by {unit:.4g} (by {coarse:.4g} at 3 %)"
        ),
        alternatives=wrong_theories(BETA_MUTANTS),
        variants={BETA_VARIANT: variant},
    )


def not_marchenko_pastur_evidence_rows(
    points: Sequence[Mapping],
    attention: Sequence[Sequence[np.ndarray]],
    linear: Sequence[Sequence[np.ndarray]],
) -> list[Evidence]:
    """The A.4 evidence at each judged beta (:data:`JUDGED_BETAS`) from square spectra at
    ``points`` (keys ``n_tokens`` and ``beta``; ``attention`` and ``linear`` the draws at each,
    in the same order), the ell of each beta its finite-size series; ValueError naming the
    config key if a judged beta was not simulated."""
    by_beta: dict[float, dict[int, tuple]] = {}
    for point, own, floor in zip(points, attention, linear, strict=True):
        by_beta.setdefault(float(point["beta"]), {})[int(point["n_tokens"])] = (own, floor)
    missing = [beta for beta in JUDGED_BETAS if beta not in by_beta]
    if missing:
        raise ValueError(
            f"paperA.linearisation.betas must contain the judged betas {list(JUDGED_BETAS)}; "
            f"missing {missing}"
        )
    rows = []
    for beta in JUDGED_BETAS:
        sizes = sorted(by_beta[beta])
        pairs = [by_beta[beta][n] for n in sizes]
        rows.append(
            not_marchenko_pastur_evidence(
                sizes, [own for own, _ in pairs], [floor for _, floor in pairs], beta=beta
            )
        )
    return rows


BULK_LAWS_TABLE_HEADER = (
    "beta",
    "x_plus",
    "4_theta1",
    "ks_to_nu_inf",
    "ks_to_mp",
    "w1_to_nu_inf",
    "w1_to_mp",
    "ks_nu_inf_to_mp",
    "ks_ylin_to_nu_inf",
    "mass_above_4theta1",
    "mass_above_4theta1_ylin",
    "mass_above_4theta1_nu_inf",
    "m1",
    "theta1",
)


def bulk_laws_table_rows(summaries: Sequence[Mapping]) -> list[tuple]:
    """One row per beta (:data:`BULK_LAWS_TABLE_HEADER`): pooled distances of the attention
    bulk, the laws' own distance KS(nu_inf, MP), the share above 4 theta1 (the A.4 statistic:
    mean over draws of the bulk and of Y_lin, and nu_inf's mass) and the first moment against
    theta1."""
    rows = []
    for s in summaries:
        rows.append(
            (
                float(s["beta"]),
                float(s["x_plus"]),
                float(s["mp_edge"]),
                float(s["pooled_ks_attention_nu_inf"]),
                float(s["pooled_ks_attention_mp"]),
                float(s["pooled_w1_attention_nu_inf"]),
                float(s["pooled_w1_attention_mp"]),
                float(s["ks_nu_inf_mp"]),
                float(np.mean(s["ks_linear_nu_inf"])),
                float(np.mean(s["edge_mass_attention"])),
                float(np.mean(s["edge_mass_linear"])),
                float(s["edge_mass_theory"]),
                float(s["m1_attention"]),
                float(s["theta1"]),
            )
        )
    return rows


def summarise_ratio_panel(
    attention: Sequence[np.ndarray],
    *,
    n_tokens: int,
    d_qk: int,
    beta: float,
    bins: int,
    sampler: str = "gaussian",
    d_model: int | None = None,
) -> dict:
    """Everything one panel of figure A7 shows: the bulk against nu_inf(beta, c), c = ell/d_qk.

    Parameters
    ----------
    attention : sequence of ndarray
        Per-draw spectra of sqrt(ell) A_perp (the structural zero is dropped here).
    n_tokens, d_qk : int
        ell and d_qk; the ratio is c = ell / d_qk (papers.md section 1). The swapped ratio
        d_qk / ell, the common mistake of papers.md section 3, is measured for comparison.
    beta : float
        Inverse temperature.
    bins : int
        Histogram bins on [0, HISTOGRAM_REACH x_+].
    sampler : {"gaussian", "literal"}
        How Q, K were drawn; ``literal`` uses X with orthonormal rows and d_model columns.
    d_model : int, optional
        d of the literal sampler (gamma = ell / d).

    Returns
    -------
    dict of arrays
        ``sampler``, ``d_model`` (0 for the gaussian sampler), ``d_qk``, ``n_tokens``,
        ``edges``, ``density`` (counts / (n width), n all pooled values), ``theory_x``,
        ``density_nu_inf``, ``density_swapped``, ``support`` (k x 2 intervals; two when nu_inf
        has an internal gap, where its density is zero), per-draw ``ks_per_draw``, pooled
        ``ks``, ``w1``, ``ks_swapped``, scalars ``ratio``, ``x_plus``, ``m1``, ``theta1``,
        ``n_beyond``, ``largest``.
    """
    ratio = n_tokens / d_qk
    law, swapped = NuInfinity(beta, ratio), NuInfinity(beta, 1.0 / ratio)
    draws = [attention_bulk(s) for s in attention]
    pooled = np.concatenate(draws)
    top = HISTOGRAM_REACH * law.edge
    edges, density = density_histogram(pooled, top, bins)
    theory_x = theory_grid(
        top, [e for interval in law.support() + swapped.support() for e in interval]
    )
    return {
        "sampler": np.str_(sampler),
        "d_model": np.int64(d_model if sampler == "literal" else 0),
        "d_qk": np.int64(d_qk),
        "n_tokens": np.int64(n_tokens),
        "ratio": np.float64(ratio),
        "beta": np.float64(beta),
        "x_plus": np.float64(law.edge),
        "theta1": np.float64(law.mean),
        "m1": np.float64(pooled.mean()),
        "n_beyond": np.int64(np.count_nonzero(pooled > top)),
        "largest": np.float64(pooled.max()),
        "support": np.array(law.support(), dtype=np.float64),
        "edges": edges,
        "density": density,
        "theory_x": theory_x,
        "density_nu_inf": law.density(theory_x),
        "density_swapped": swapped.density(theory_x),
        "ks_per_draw": per_draw_distances(draws, law),
        "ks": np.float64(kolmogorov_distance(pooled, law.cdf)),
        "w1": np.float64(wasserstein1(pooled, law.quantile)),
        "ks_swapped": np.float64(kolmogorov_distance(pooled, swapped.cdf)),
    }


RATIO_TABLE_HEADER = (
    "sampler",
    "d_model",
    "d_qk",
    "c",
    "x_plus",
    "support",
    "ks_to_nu_inf",
    "ks_sd_over_draws",
    "w1_to_nu_inf",
    "ks_to_nu_inf_of_swapped_c",
    "m1",
    "theta1",
)


def ratio_table_rows(panels: Sequence[Mapping]) -> list[tuple]:
    """One row per A7 panel (:data:`RATIO_TABLE_HEADER`); ``support`` as "[lo, hi] u [lo, hi]"
    and d_model "-" for the gaussian sampler."""
    return [
        (
            str(p["sampler"]),
            int(p["d_model"]) if str(p["sampler"]) == "literal" else "-",
            int(p["d_qk"]),
            float(p["ratio"]),
            float(p["x_plus"]),
            " u ".join(f"[{lo:.4g}, {hi:.4g}]" for lo, hi in p["support"]),
            float(p["ks"]),
            float(np.std(p["ks_per_draw"], ddof=1)) if p["ks_per_draw"].size > 1 else float("nan"),
            float(p["w1"]),
            float(p["ks_swapped"]),
            float(p["m1"]),
            float(p["theta1"]),
        )
        for p in panels
    ]


def pack_panels(panels: Sequence[Mapping]) -> dict:
    """One flat dict of arrays ``"<i>/<key>"`` from per-panel dicts (for a single .npz)."""
    return {f"{i}/{key}": value for i, panel in enumerate(panels) for key, value in panel.items()}


def unpack_panels(packed: Mapping) -> list[dict]:
    """Inverse of :func:`pack_panels`: the per-panel dicts in order."""
    panels: dict[int, dict] = {}
    for name, value in packed.items():
        index, key = name.split("/", 1)
        panels.setdefault(int(index), {})[key] = value
    return [panels[i] for i in sorted(panels)]


def bulk_laws_plotted_table(
    summaries: Sequence[Mapping],
    attention: Sequence[Sequence[np.ndarray]],
    linear: Sequence[Sequence[np.ndarray]],
):
    """Figure A3's tidy table (a pandas DataFrame), columns ``kind``, ``series``, ``beta``,
    ``model``, ``draw``, ``x``, ``value``, per beta:

    - data ``bulk``: every value of every draw of the attention bulk and of Y_lin (``model``,
      ``draw``, ``value``), the histograms and the edge-region fractions;
    - theory ``nu_inf_density`` / ``mp_density`` and ``nu_inf_fraction_above`` /
      ``mp_fraction_above`` (``x``, ``value``): the laws; ``x_plus`` and ``mp_edge``
      (= 4 theta1), ``nu_inf_mass_above_4theta1`` (the law's mass above 4 theta1);
    - statistic ``mass_above_4theta1`` per draw (``model`` attention or linear), the statistic
      of row A.4; ``pooled_ks_to_<law>`` / ``pooled_w1_to_<law>`` (law nu_inf or mp; ``model``
      attention), the pooled distances of the attention bulk.

    ``summaries``: :func:`summarise_bulk_laws` of each beta, from the draws ``attention`` and
    ``linear`` (one sequence of spectra per beta)."""
    import pandas as pd

    blocks = []
    for summary, attention_draws, linear_draws in zip(summaries, attention, linear, strict=True):
        beta = float(summary["beta"])
        for model, draws in (("attention", attention_draws), ("linear", linear_draws)):
            for draw, spectrum in enumerate(draws):
                values = attention_bulk(spectrum) if model == "attention" else spectrum
                blocks.append(
                    pd.DataFrame(
                        {"kind": "data", "series": "bulk", "beta": beta, "model": model,
                         "draw": draw, "value": np.asarray(values, dtype=np.float64)}
                    )
                )  # fmt: skip
        for law in ("nu_inf", "mp"):
            curves = (
                (f"{law}_density", summary["theory_x"], summary[f"density_{law}"]),
                (f"{law}_fraction_above", summary["survival_theory_x"], summary[f"survival_{law}"]),
            )
            blocks += [
                pd.DataFrame({"kind": "theory", "series": series, "beta": beta, "x": x, "value": y})
                for series, x, y in curves
            ]
        scalars = [
            ("theory", "x_plus", None, float(summary["x_plus"])),
            ("theory", "mp_edge", None, float(summary["mp_edge"])),
            ("theory", "nu_inf_mass_above_4theta1", None, float(summary["edge_mass_theory"])),
        ] + [
            ("statistic", f"pooled_{distance}_to_{law}", "attention",
             float(summary[f"pooled_{distance}_attention_{law}"]))
            for distance in ("ks", "w1")
            for law in ("nu_inf", "mp")
        ]  # fmt: skip
        blocks.append(
            pd.DataFrame(scalars, columns=["kind", "series", "model", "value"]).assign(beta=beta)
        )
        for model in ("attention", "linear"):
            masses = np.asarray(summary[f"edge_mass_{model}"], dtype=np.float64)
            blocks.append(
                pd.DataFrame(
                    {"kind": "statistic", "series": "mass_above_4theta1", "beta": beta,
                     "model": model, "draw": np.arange(masses.size), "value": masses}
                )
            )  # fmt: skip
    columns = ["kind", "series", "beta", "model", "draw", "x", "value"]
    table = pd.concat(blocks, ignore_index=True).reindex(columns=columns)
    return table.astype({"draw": "Int64"})


def ratio_panel_name(panel: Mapping) -> str:
    """Short identifier of an A7 panel: gaussian-dqk<d_qk> or literal-d<d>-dqk<d_qk>."""
    if str(panel["sampler"]) == "literal":
        return f"literal-d{int(panel['d_model'])}-dqk{int(panel['d_qk'])}"
    return f"gaussian-dqk{int(panel['d_qk'])}"


def ratios_plotted_table(panels: Sequence[Mapping], attention: Sequence[Sequence[np.ndarray]]):
    """Figure A7's tidy table (a pandas DataFrame), columns ``kind``, ``series``, then the
    panel's identifiers ``panel`` (:func:`ratio_panel_name`), ``sampler``, ``d_model`` (empty
    for the gaussian sampler), ``d_qk``, ``c``, then ``draw``, ``x``, ``value``, per panel:

    - data ``bulk``: every value of every draw (``draw``, ``value``);
    - theory ``nu_inf_density`` and, for c != 1, ``nu_inf_swapped_ratio_density`` (nu_inf at
      1/c; ``x``, ``value``); ``x_plus``; ``gap_start`` / ``gap_end`` of each internal gap of
      the support;
    - statistic ``ks_to_nu_inf``, ``w1_to_nu_inf`` and ``ks_to_nu_inf_swapped_ratio``, the
      pooled distances.

    ``panels``: :func:`summarise_ratio_panel` of each panel, from the draws ``attention`` (one
    sequence of spectra per panel)."""
    import pandas as pd

    blocks = []
    for panel, draws in zip(panels, attention, strict=True):
        c = float(panel["ratio"])
        literal = str(panel["sampler"]) == "literal"
        key = {
            "panel": ratio_panel_name(panel),
            "sampler": str(panel["sampler"]),
            "d_model": int(panel["d_model"]) if literal else None,
            "d_qk": int(panel["d_qk"]),
            "c": c,
        }
        rows = [
            pd.DataFrame({"kind": "data", "series": "bulk", "draw": draw,
                          "value": attention_bulk(spectrum)})
            for draw, spectrum in enumerate(draws)
        ]  # fmt: skip
        curves = [("nu_inf_density", panel["density_nu_inf"])]
        if c != 1.0:
            curves.append(("nu_inf_swapped_ratio_density", panel["density_swapped"]))
        rows += [
            pd.DataFrame({"kind": "theory", "series": series, "x": panel["theory_x"], "value": y})
            for series, y in curves
        ]
        support = panel["support"]
        scalars = [("theory", "x_plus", float(panel["x_plus"]))]
        for (_, gap_start), (gap_end, _) in zip(support[:-1], support[1:], strict=True):
            scalars += [("theory", "gap_start", float(gap_start)),
                        ("theory", "gap_end", float(gap_end))]  # fmt: skip
        scalars += [
            ("statistic", "ks_to_nu_inf", float(panel["ks"])),
            ("statistic", "w1_to_nu_inf", float(panel["w1"])),
            ("statistic", "ks_to_nu_inf_swapped_ratio", float(panel["ks_swapped"])),
        ]
        rows.append(pd.DataFrame(scalars, columns=["kind", "series", "value"]))
        blocks.append(pd.concat(rows, ignore_index=True).assign(**key))
    columns = ["kind", "series", "panel", "sampler", "d_model", "d_qk", "c", "draw", "x", "value"]
    table = pd.concat(blocks, ignore_index=True).reindex(columns=columns)
    return table.astype({"d_model": "Int64", "d_qk": "Int64", "draw": "Int64"})
