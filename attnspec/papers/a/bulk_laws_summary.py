"""Figures A3 and A7's statistics (paper A): the attention bulk of each draw, its histograms,
edge region and distances to nu_inf, the MP surrogate and the wrong betas' laws, and the rows of
tables A3 and A7 (the draws: the model spectra of :mod:`attnspec.papers.spectra`).

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
the square spectra of paperA.linearisation (:mod:`attnspec.papers.a.bulk_laws_evidence`).

The wrong theories the Kolmogorov rows of paper A (A.1, A.3) must rule out are laws too
(:func:`alternative_laws`): the MP surrogate and nu_inf at beta (1 -+ 1 %) (and, for the variant,
beta (1 -+ 3 %)).

A7: nu_inf(beta, c) across the proportional regime, c = ell / d_qk (not d_qk / ell, papers.md
section 3), against the bulk; the swapped ratio d_qk / ell is measured too, to show that the
convention is visible in the data.
"""

from collections.abc import Mapping, Sequence

import numpy as np

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

# The wrong betas of the registry alternatives "beta-1%" and "beta+1%" (factors of beta): the
# nearest wrong theory of every paper moves its defining parameter by 1 %
# (attnspec.papers.declared_texts.RESOLUTION_PRINCIPLE).
BETA_MUTANTS = {"beta-1%": 0.99, "beta+1%": 1.01}

# The wrong betas of the same rows judged at +- 3 % (the variant BETA_VARIANT of
# attnspec.papers.a.bulk_laws_evidence, reported in other_resolutions).
COARSE_BETA_MUTANTS = {"beta-3%": 0.97, "beta+3%": 1.03}

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


def share_above(draws: Sequence[np.ndarray], threshold: float) -> np.ndarray:
    """Per draw, the share of its values strictly above ``threshold``."""
    return np.array([np.mean(np.asarray(d) > threshold) for d in draws])


def mass_above_mp_edge(beta: float, ratio: float = 1.0) -> float:
    """nu_inf(beta, c)'s mass above the MP edge 4 theta1(beta), 1 - F_nu(4 theta1): the
    target of row A.4/beta=<beta> (the MP surrogate has none there)."""
    return float(1.0 - NuInfinity(beta, ratio).cdf(mp_edge(beta)))


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


def edge_shares(spectra: Sequence[np.ndarray], beta: float) -> dict[str, np.ndarray]:
    """Per draw of square attention spectra (c = 1), the share of the bulk above the MP edge
    4 theta1(beta) (key ``beta``) and above 4 theta1(beta') for each wrong beta' of
    :data:`BETA_MUTANTS` and :data:`COARSE_BETA_MUTANTS` (key: its name): the statistic of row
    A.4 and of its wrong theories at one ell."""
    bulk = [attention_bulk(s) for s in spectra]
    factors = {"beta": 1.0} | BETA_MUTANTS | COARSE_BETA_MUTANTS
    return {name: share_above(bulk, mp_edge(factor * beta)) for name, factor in factors.items()}


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
