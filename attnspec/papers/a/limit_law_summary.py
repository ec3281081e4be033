"""Figure A8's theory values (paper A): nu_inf = rho ⊠ MP_1 against its surrogate theta1 MP_1 in
units of theta1, across beta (c = 1) and c: densities, edges, x_+ against 4 theta1, sup |F - G|,
the mass above 4 theta1, m2 / m1^2 - 2 = beta^4 c / theta1^2, and the rows of its table.

nu_inf = rho ⊠ MP_1, rho = a + b MP_c, is the law of the squared non-Perron singular values of
sqrt(ell) A_perp and of Y_lin (:class:`attnspec.theory.NuInfinity`); the surrogate theta1 MP_1
(:class:`attnspec.theory.MarchenkoPasturSurrogate`) has the same mean theta1 = e^{beta^2} - 1 and
the edge 4 theta1. In units of theta1 (t = x / theta1, density theta1 p(theta1 t)) the surrogate is
MP_1 at every beta, while nu_inf runs from the Fuss–Catalan law of a product of two Ginibre
matrices (edge 27/4) as beta -> 0 to MP_1 as beta -> infinity. Across beta (c = 1): x_+ / theta1
(:func:`attnspec.theory.bulk_edge`) against 4 with both expansions of x_+
(:mod:`attnspec.theory.asymptotics`), and three measures of how far nu_inf is from the surrogate,
each 0 for the surrogate itself: the Kolmogorov distance sup |F - G|
(:func:`attnspec.distances.law_kolmogorov_distance`), the mass of nu_inf above 4 theta1, and
m2 / m1^2 - 2 = beta^4 c / theta1^2 (the surrogate's m2 / m1^2 is 2).
"""

from collections.abc import Sequence

import numpy as np

from attnspec.distances import law_kolmogorov_distance
from attnspec.theory import (
    MarchenkoPasturSurrogate,
    NuInfinity,
    bulk_edge,
    edge_large_beta,
    edge_small_beta,
    mp_edge,
)
from attnspec.validation import check_beta, check_betas, check_count, check_ratio

EDGE_NEIGHBOUR = 1e-9
"""Grid points this far (relative) on either side of an edge, so that a density curve drops to
zero at the edge instead of cutting the corner to the next grid point."""
GRID_REACH = 1.04
"""The density grid spans t = x / theta1 in (0, GRID_REACH * the largest edge / theta1]."""


BETA_GRID_SERIES = (
    "x_plus",
    "mp_edge",
    "small_beta",
    "large_beta",
    "kolmogorov_distance",
    "mass_above_mp_edge",
    "second_moment_excess",
)
"""The curves against beta: x_+, 4 theta1, the small- and large-beta expansions of x_+ (value and
value / theta1), sup |F_nu - F_MP|, nu_inf((4 theta1, x_+]) and m2 / m1^2 - 2 (value only)."""


def scaled_grid(top: float, points: int, edges: Sequence[float]) -> np.ndarray:
    """t in (0, top]: ``points`` even points plus each of ``edges`` in (0, top) and its two
    neighbours (:data:`EDGE_NEIGHBOUR` relative), sorted."""
    if not (np.isfinite(top) and top > 0):
        raise ValueError(f"top must be finite and > 0, got {top!r}")
    points = check_count(points, "points", 2)
    ends = np.array([e for e in edges if 0.0 < e < top], dtype=np.float64)
    extra = np.concatenate([ends, ends * (1 - EDGE_NEIGHBOUR), ends * (1 + EDGE_NEIGHBOUR)])
    return np.unique(np.concatenate([np.linspace(0.0, top, points + 1)[1:], extra]))


def _breakpoints(law) -> list[float]:
    return [float(end) for interval in law.support() for end in interval]


def _density_part(series: str, sweep: str, law, beta: float, ratio: float, t: np.ndarray):
    theta1 = law.mean
    density = law.density(theta1 * t)
    return {
        "kind": "theory",
        "series": series,
        "sweep": sweep,
        "beta": beta,
        "c": ratio,
        "x": theta1 * t,
        "x_over_theta1": t,
        "density": density,
        "theta1_density": theta1 * density,
    }


def _edge_part(series: str, sweep: str, beta: float, ratio: float, edge: float, theta1: float):
    return {
        "kind": "theory",
        "series": series,
        "sweep": sweep,
        "beta": [beta],
        "c": [ratio],
        "value": [edge],
        "value_over_theta1": [edge / theta1],
    }


def density_parts(betas: Sequence[float], ratios: Sequence[float], ratio_beta: float, points: int):
    """The density panels' rows: for every beta of ``betas`` (c = 1) nu_inf and the surrogate
    (series ``nu_inf_density``, ``mp_density``) with their edges (``nu_inf_edge``,
    ``mp_edge``); for every c of ``ratios`` at ``ratio_beta`` nu_inf(beta, c) and its edge. One
    grid in t = x / theta1 for all, up to :data:`GRID_REACH` times the largest edge, with every
    support endpoint (gaps included) added."""
    betas = [float(b) for b in check_betas(betas).ravel()]
    ratios = [check_ratio(c) for c in ratios]
    ratio_beta = check_beta(ratio_beta)
    panels = [("betas", NuInfinity(beta), beta, 1.0) for beta in betas]
    panels += [("ratios", NuInfinity(ratio_beta, c), ratio_beta, c) for c in ratios]
    top = GRID_REACH * max(max(law.edge / law.mean, 4.0) for _, law, _, _ in panels)
    parts = []
    for sweep, law, beta, ratio in panels:
        t = scaled_grid(top, points, [end / law.mean for end in _breakpoints(law)])
        parts.append(_density_part("nu_inf_density", sweep, law, beta, ratio, t))
        parts.append(_edge_part("nu_inf_edge", sweep, beta, ratio, law.edge, law.mean))
        if sweep == "betas":
            surrogate = MarchenkoPasturSurrogate(beta)
            t = scaled_grid(top, points, [4.0])
            parts.append(_density_part("mp_density", sweep, surrogate, beta, 1.0, t))
            parts.append(_edge_part("mp_edge", sweep, beta, 1.0, surrogate.edge, law.mean))
    return parts


def beta_grid_parts(beta_min: float, beta_max: float, points: int):
    """The curves against beta (c = 1) on ``points`` even betas in [beta_min, beta_max], one
    part per series of :data:`BETA_GRID_SERIES`."""
    beta_min, beta_max = (float(b) for b in check_betas([beta_min, beta_max]))
    if not beta_min < beta_max:
        raise ValueError(f"beta_min must be < beta_max, got {beta_min!r}, {beta_max!r}")
    betas = np.linspace(beta_min, beta_max, check_count(points, "points", 2))
    laws = [NuInfinity(beta) for beta in betas]
    surrogates = [MarchenkoPasturSurrogate(beta) for beta in betas]
    theta1 = np.array([law.mean for law in laws])
    edges = {
        "x_plus": np.array([bulk_edge(beta) for beta in betas]),
        "mp_edge": mp_edge(betas),
        "small_beta": edge_small_beta(betas),
        "large_beta": edge_large_beta(betas),
    }
    differences = {
        "kolmogorov_distance": [
            law_kolmogorov_distance(law, mp) for law, mp in zip(laws, surrogates, strict=True)
        ],
        "mass_above_mp_edge": [
            float(1.0 - law.cdf(mp.edge)) for law, mp in zip(laws, surrogates, strict=True)
        ],
        "second_moment_excess": [
            (law.second_moment - mp.second_moment) / law.mean**2
            for law, mp in zip(laws, surrogates, strict=True)
        ],
    }
    common = {"kind": "theory", "sweep": "beta_grid", "beta": betas, "c": 1.0}
    parts = [
        common | {"series": name, "value": value, "value_over_theta1": value / theta1}
        for name, value in edges.items()
    ]
    parts += [common | {"series": name, "value": value} for name, value in differences.items()]
    return parts


LIMIT_LAW_TABLE_HEADER = (
    "beta",
    "c",
    "theta1",
    "x_plus",
    "x_plus_over_theta1",
    "x_plus_over_4_theta1",
    "mass_above_4_theta1",
    "m2_over_m1_squared",
)


def limit_law_table_rows(betas: Sequence[float], ratios: Sequence[float], ratio_beta: float):
    """The caption's table: per density panel (each beta at c = 1, then each c at
    ``ratio_beta``) theta1, x_+, x_+ / theta1, x_+ / (4 theta1), nu_inf's mass above 4 theta1
    and m2 / m1^2 (2 for the surrogate)."""
    points = [(float(b), 1.0) for b in betas] + [(float(ratio_beta), float(c)) for c in ratios]
    rows = []
    for beta, ratio in points:
        law = NuInfinity(beta, ratio)
        theta1, four_theta1 = law.mean, mp_edge(beta)
        rows.append(
            (
                beta,
                ratio,
                theta1,
                law.edge,
                law.edge / theta1,
                law.edge / four_theta1,
                float(1.0 - law.cdf(four_theta1)),
                law.second_moment / theta1**2,
            )
        )
    return rows
