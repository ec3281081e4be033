"""Figure B4 and table B-T2's statistics (paper B, claim B.4): the square-model edge, the rows of
table B-T2, the agreement of the R-transform route, figure B4's theory curves and its simulated
points at the largest ell (the evidence: :mod:`attnspec.papers.b.edge_formulas_evidence`).

Scalar formula (paper B, all c = ell / d_qk): x_+ = b (r + w)^2 g with r = a / b,
w = (1 + (1 - c) g) / (g (1 - c g)) and g the root in (0, 1/(sqrt(c)(1 + sqrt c))) of the
stationary cubic a g (1 - c g)^2 + b [c (1 - c) g^2 + (1 + 2c) g - 1] = 0
(:func:`attnspec.theory.edge.bulk_edge`, brentq). Square model (paper A, c = 1):
a g (1 - g)^2 + b (3g - 1) = 0 with g in (0, 1/3), w = 1 / (g (1 - g)), x_+ = (a + b w)^2 g / b,
solved here independently (companion-matrix roots, then Newton in a, b). A third, independent
route is the R-transform of Y_lin (:class:`attnspec.theory.r_transform.SymmetrisedLinearModel`,
x_+ = K(G*)^2), valid for every c. papers.md sections 2 and 4.
"""

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from attnspec.papers.b.sticking_summary import MIN_BAND_DRAWS, StickingSeries, band
from attnspec.tables import Residual
from attnspec.theory.asymptotics import edge_large_beta, edge_small_beta
from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.theory.edge import bulk_edge, edge_cubic_roots
from attnspec.theory.marchenko_pastur import mp_edge
from attnspec.theory.r_transform import SymmetrisedLinearModel

SQUARE_INTERVAL = (0.0, 1.0 / 3.0)
_NEWTON_STEPS = 20


class SquareModelEdge(NamedTuple):
    """The three roots of a g (1 - g)^2 + b (3g - 1), the physical index, the candidate edges."""

    roots: NDArray[np.complex128]
    physical_index: int
    edges: NDArray[np.complex128]  # (a + b / (g (1 - g)))^2 g / b at each root

    @property
    def physical_root(self) -> float:
        return float(self.roots[self.physical_index].real)

    @property
    def edge(self) -> float:
        return float(self.edges[self.physical_index].real)


def square_model_edge(beta: float) -> SquareModelEdge:
    """Paper A's square-model edge (c = 1), solved without the general scalar formula.

    The cubic a g (1 - g)^2 + b (3g - 1) = a g^3 - 2a g^2 + (a + 3b) g - b is solved by the
    eigenvalues of its companion matrix (numpy.roots); the root in (0, 1/3), where the cubic
    rises from -b to 4a/27 > 0 with slope a (1 - g)(1 - 3g) + 3b > 0, is polished by Newton's
    method to |step| <= eps g. Each root gives the candidate edge (a + b w)^2 g / b with
    w = 1 / (g (1 - g)); the physical one is x_+.

    Parameters
    ----------
    beta : float
        Inverse temperature, > 0.
    """
    if not beta > 0:
        raise ValueError(f"beta must be > 0, got {beta!r}")
    coefficients = nonlinearity_coefficients(beta)
    a, b = coefficients.a, coefficients.b
    roots = np.roots([a, -2 * a, a + 3 * b, -b]).astype(np.complex128)
    roots = roots[np.lexsort((roots.imag, roots.real))]
    lo, hi = SQUARE_INTERVAL
    inside = np.flatnonzero(
        (np.abs(roots.imag) <= 1e-8 * np.abs(roots)) & (roots.real > lo) & (roots.real < hi)
    )
    if inside.size != 1:
        raise RuntimeError(f"expected one root of the square-model cubic in (0, 1/3): {roots}")
    index = int(inside[0])
    g = float(roots[index].real)
    for _ in range(_NEWTON_STEPS):
        step = (a * g * (1 - g) ** 2 + b * (3 * g - 1)) / (a * (1 - g) * (1 - 3 * g) + 3 * b)
        g -= step
        if abs(step) <= np.finfo(float).eps * g:
            break
    roots[index] = g
    w = 1.0 / (roots * (1.0 - roots))
    return SquareModelEdge(roots, index, (a + b * w) ** 2 * roots / b)


class EdgeFormulaRow(NamedTuple):
    """One beta of table B-T2 (c = 1): both formulas, their difference, the other branches."""

    beta: float
    g_scalar: float
    g_square: float
    x_plus_scalar: float
    x_plus_square: float
    abs_difference: float
    relative_difference: float
    x_plus_r_transform: float
    other_roots_min_abs_imag: float  # > 0: the other two roots are not real
    other_candidates_min_relative_distance: float  # min |x_k - x_+| / x_+ over the other roots
    x_plus_small_beta: float
    x_plus_large_beta: float
    mp_edge_4theta1: float


EDGE_FORMULA_HEADER = EdgeFormulaRow._fields


def edge_formula_row(beta: float) -> EdgeFormulaRow:
    """Compare the scalar formula at c = 1 with the square-model solver at one beta."""
    scalar = edge_cubic_roots(beta, 1.0)
    square = square_model_edge(beta)
    x_scalar = bulk_edge(beta, 1.0)
    x_square = square.edge
    others = np.delete(np.arange(3), square.physical_index)
    return EdgeFormulaRow(
        beta=float(beta),
        g_scalar=float(scalar.roots[scalar.physical_index].real),
        g_square=square.physical_root,
        x_plus_scalar=x_scalar,
        x_plus_square=x_square,
        abs_difference=Residual(abs(x_square - x_scalar), x_scalar),
        relative_difference=Residual(abs(x_square - x_scalar) / x_scalar),
        x_plus_r_transform=SymmetrisedLinearModel(beta, 1.0).edge,
        other_roots_min_abs_imag=float(np.min(np.abs(square.roots[others].imag))),
        other_candidates_min_relative_distance=float(
            np.min(np.abs(square.edges[others] - x_square)) / x_square
        ),
        x_plus_small_beta=float(edge_small_beta(beta)),
        x_plus_large_beta=float(edge_large_beta(beta)),
        mp_edge_4theta1=float(mp_edge(beta)),
    )


def edge_formula_rows(betas: Sequence[float]) -> list[EdgeFormulaRow]:
    """Rows of table B-T2, one per beta (c = 1)."""
    return [edge_formula_row(beta) for beta in betas]


class RouteAgreement(NamedTuple):
    """Largest relative difference between the scalar formula and the R-transform route."""

    max_relative_difference: float
    beta: float
    ratio: float
    n_points: int


def r_transform_agreement(betas: Sequence[float], ratios: Sequence[float]) -> RouteAgreement:
    """max over (beta, c) of |x_+(scalar) - K(G*)^2| / x_+(scalar) (two independent routes)."""
    worst = (-1.0, float("nan"), float("nan"))
    for beta in betas:
        for ratio in ratios:
            scalar = bulk_edge(beta, ratio)
            difference = abs(SymmetrisedLinearModel(beta, ratio).edge - scalar) / scalar
            worst = max(worst, (difference, float(beta), float(ratio)))
    return RouteAgreement(*worst, len(betas) * len(ratios))


# --- figure B4 -----------------------------------------------------------------------------


def edge_curves(beta_min: float, beta_max: float, points: int, ratios: Sequence[float]) -> dict:
    """x_+(beta) from the scalar formula for every c, on ``points`` evenly spaced betas.

    Returns a dict of arrays: ``beta`` (points,), ``ratio`` (C,), ``x_plus`` (C, points),
    ``theta1`` = e^{beta^2} - 1 (points,), ``mp_edge`` = 4 theta1 (points,).
    """
    betas = np.linspace(beta_min, beta_max, points)
    return {
        "beta": betas,
        "ratio": np.asarray(ratios, dtype=np.float64),
        "x_plus": np.array([[bulk_edge(beta, c) for beta in betas] for c in ratios]),
        "theta1": np.expm1(betas**2),
        "mp_edge": mp_edge(betas),
    }


def r_transform_points(betas: Sequence[float], ratios: Sequence[float]) -> dict:
    """The R-transform edge K(G*)^2 at each (c, beta): ``beta``, ``ratio``, ``x_plus`` (C, B)."""
    return {
        "beta": np.asarray(betas, dtype=np.float64),
        "ratio": np.asarray(ratios, dtype=np.float64),
        "x_plus": np.array(
            [[SymmetrisedLinearModel(beta, c).edge for beta in betas] for c in ratios]
        ),
    }


def square_cubic_branches(betas: NDArray[np.float64]) -> dict:
    """All three roots of the square-model cubic (c = 1) and their candidate edges, per beta.

    From :func:`attnspec.theory.edge.edge_cubic_roots` (roots sorted by real part, so at c = 1
    the physical root, the only real one, is index 0 and the complex pair follows).
    Returns ``beta``, ``roots`` and ``edges`` (B, 3) complex, ``physical_index`` (B,).
    """
    cubics = [edge_cubic_roots(beta, 1.0) for beta in betas]
    return {
        "beta": np.asarray(betas, dtype=np.float64),
        "roots": np.array([cubic.roots for cubic in cubics]),
        "edges": np.array([cubic.edges for cubic in cubics]),
        "physical_index": np.array([cubic.physical_index for cubic in cubics]),
    }


SIMULATED_POINT_HEADER = (
    "c",
    "beta",
    "n_tokens",
    "draws",
    "median_ell_s2sq",
    "q10",
    "q90",
    "median_Y_lin_top",
    "Y_lin_q10",
    "Y_lin_q90",
    "x_plus",
    "relative_gap_of_median",
    "Y_lin_relative_gap_of_median",
)


def largest_ell_points(series: Sequence[StickingSeries]) -> dict:
    """ell s_2(A)^2 and s_1(Y_lin)^2 at the largest ell of every (c, beta) series: median over
    draws and 10 % / 90 % quantiles (NaN with fewer than MIN_BAND_DRAWS draws: no band), and
    x_+ from the scalar formula. Arrays sorted by (c, beta)."""
    if not series:
        raise ValueError("need at least one sticking series")
    ordered = sorted(series, key=lambda s: (s.ratio, s.beta))
    columns = {key: [] for key in SIMULATED_POINT_HEADER}
    for s in ordered:
        x_plus = bulk_edge(s.beta, s.ratio)
        top, linear = s.attention[-1][:, 1], s.linear[-1][:, 0]
        banded = top.size >= MIN_BAND_DRAWS
        for prefix, values in (("", top), ("Y_lin_", linear)):
            q10, median, q90 = band(values)
            columns["median_ell_s2sq" if not prefix else "median_Y_lin_top"].append(median)
            columns[f"{prefix}q10"].append(q10 if banded else np.nan)
            columns[f"{prefix}q90"].append(q90 if banded else np.nan)
        columns["c"].append(s.ratio)
        columns["beta"].append(s.beta)
        columns["n_tokens"].append(int(s.n_tokens[-1]))
        columns["draws"].append(top.size)
        columns["x_plus"].append(x_plus)
    points = {key: np.asarray(values) for key, values in columns.items() if values}
    points["relative_gap_of_median"] = points["median_ell_s2sq"] / points["x_plus"] - 1.0
    points["Y_lin_relative_gap_of_median"] = points["median_Y_lin_top"] / points["x_plus"] - 1.0
    return points


def simulated_point_rows(points: Mapping) -> list[tuple]:
    """Rows of figure B4's key-number table, one per simulated (c, beta)."""
    return [
        tuple(np.asarray(points[key])[i].item() for key in SIMULATED_POINT_HEADER)
        for i in range(len(points["c"]))
    ]
