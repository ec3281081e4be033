"""Figure B4 and table B-T2 (paper B, claim B.4): the scalar edge formula and its square model.

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

from attnspec.claims import CLAIMS
from attnspec.legacy_verdicts import AT_MOST, DOES_NOT_REPRODUCE, HOLDS, ClaimCheck, describe_test
from attnspec.theory.asymptotics import edge_large_beta, edge_small_beta
from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.theory.edge import bulk_edge, edge_cubic_roots
from attnspec.theory.marchenko_pastur import mp_edge
from attnspec.theory.r_transform import SymmetrisedLinearModel

CLAIM_ID = "B.4"
TABLE = "B-T2-edge-formulas"
SQUARE_INTERVAL = (0.0, 1.0 / 3.0)
# Relative agreement demanded of independent solutions of the same cubic (the bound).
# Both roots are converged to a few eps relative and x(g) is stationary at the root
# (dx/dg = 0), so x_+ carries only the rounding of its evaluation, about 1e-15 relative.
FORMULA_TOLERANCE = 1e-10
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
        abs_difference=abs(x_square - x_scalar),
        relative_difference=abs(x_square - x_scalar) / x_scalar,
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


class EdgeFormulaCheck(NamedTuple):
    """The numbers that judge claim B.4."""

    max_relative_difference: float  # square model against scalar formula, c = 1
    max_root_relative_difference: float  # |g_square - g_scalar| / g_square
    physical_roots_in_interval: bool  # both physical roots in (0, 1/3)
    min_other_distance: float  # nearest candidate edge of another root, relative to x_+
    min_other_abs_imag: float  # > 0: no other root is real
    r_transform: RouteAgreement  # scalar formula against the R-transform over (beta, c)


def edge_formula_check(rows: Sequence[EdgeFormulaRow], agreement: RouteAgreement):
    """Collect the worst case over the rows of table B-T2 and the (beta, c) grid."""
    lo, hi = SQUARE_INTERVAL
    return EdgeFormulaCheck(
        max_relative_difference=max(row.relative_difference for row in rows),
        max_root_relative_difference=max(
            abs(row.g_square - row.g_scalar) / row.g_square for row in rows
        ),
        physical_roots_in_interval=all(
            lo < row.g_scalar < hi and lo < row.g_square < hi for row in rows
        ),
        min_other_distance=min(row.other_candidates_min_relative_distance for row in rows),
        min_other_abs_imag=min(row.other_roots_min_abs_imag for row in rows),
        r_transform=agreement,
    )


def judge_edge_formulas(check: EdgeFormulaCheck, tolerance: float = FORMULA_TOLERANCE) -> str:
    """Verdict on claim B.4 (theory: no finite-size caveat).

    holds when, at c = 1, the two formulas agree to ``tolerance`` (relative) in x_+ and in the
    physical root, both physical roots lie in (0, 1/3), every other root's candidate edge is more
    than ``tolerance`` away from x_+ (so the branch choice matters), and the scalar formula
    agrees with the independent R-transform edge to ``tolerance`` over the (beta, c) grid;
    does not reproduce otherwise.
    """
    agree = (
        AT_MOST(check.max_relative_difference, 0.0, tolerance)
        and check.max_root_relative_difference <= tolerance
        and check.r_transform.max_relative_difference <= tolerance
    )
    branch = check.physical_roots_in_interval and check.min_other_distance > tolerance
    return HOLDS if agree and branch else DOES_NOT_REPRODUCE


EDGE_FORMULA_TEST = describe_test(
    AT_MOST,
    "the relative difference of the physical roots <= tolerance",
    "both physical roots lie in (0, 1/3)",
    "every other root's candidate edge is more than tolerance (relative) from x_+",
    "the relative difference of the scalar formula to the R-transform edge <= tolerance over "
    "the (beta, c) grid",
)
"""The test of :func:`judge_edge_formulas` (B.4, theory only: no finite-size caveat)."""


def edge_formula_claim(check: EdgeFormulaCheck, n_betas: int) -> ClaimCheck:
    """The B.4 verdict row: value = max relative difference of x_+ between the formulas, c = 1."""
    agreement = check.r_transform
    not_real = "none is real" if check.min_other_abs_imag > 0 else "a real one exists"
    note = (
        f"c = 1, {n_betas} betas: max |g_square - g_scalar|/g = "
        f"{check.max_root_relative_difference:.2e}; both physical roots in (0, 1/3): "
        f"{check.physical_roots_in_interval}; the other two roots give candidate edges at least "
        f"{check.min_other_distance:.3g} x_+ away from x_+ (smallest |Im g| of those roots "
        f"{check.min_other_abs_imag:.3g}: {not_real}). Scalar formula against the independent "
        f"R-transform edge K(G*)^2 over "
        f"{agreement.n_points} (beta, c) points: max relative difference "
        f"{agreement.max_relative_difference:.2e} (at beta = {agreement.beta:g}, "
        f"c = {agreement.ratio:g})."
    )
    return ClaimCheck(
        claim_id=CLAIM_ID,
        claim=CLAIMS[CLAIM_ID],
        figure=TABLE,
        quantity=(
            "max over the beta grid of |x_+(square model) - x_+(scalar formula)| / x_+ at c = 1"
        ),
        value=check.max_relative_difference,
        target=0.0,
        tolerance=FORMULA_TOLERANCE,
        tolerance_basis=(
            "floating-point root-finding accuracy: brentq (scalar) and companion roots + Newton "
            "(square model) converge the root to a few eps relative, and x(g) is stationary at "
            "the root, so x_+ carries ~1e-15 relative rounding; 1e-10 is the issue's bound"
        ),
        test=EDGE_FORMULA_TEST,
        verdict=judge_edge_formulas(check),
        note=note,
    )


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
    "k",
    "median",
    "q10",
    "q90",
    "x_plus",
    "relative_gap_of_median",
)


def _column(rows: Mapping, keys: Sequence, name: str) -> NDArray[np.float64]:
    return np.array([float(rows[key][name]) for key in keys])


def largest_ell_points(sticking_rows: Sequence[Mapping[str, str]], k: int = 2) -> dict:
    """The k-th value ell s_k(A)^2 at the largest ell of every (c, beta) of table B-T1.

    ``sticking_rows`` are B-T1's rows as text (columns ell, c, beta, k, median, q10, q90,
    x_plus, ...). Checks that B-T1's x_plus is this module's scalar formula (same c = ell/d_qk
    convention). Returns arrays sorted by (c, beta): ``c``, ``beta``, ``n_tokens``, ``median``,
    ``q10``, ``q90``, ``x_plus`` and ``relative_gap`` = median / x_+ - 1.
    """
    largest: dict[tuple[float, float], Mapping[str, str]] = {}
    for row in sticking_rows:
        if int(row["k"]) != k:
            continue
        key = (float(row["c"]), float(row["beta"]))
        if key not in largest or int(row["ell"]) > int(largest[key]["ell"]):
            largest[key] = row
    if not largest:
        raise ValueError(f"table B-T1 has no row with k = {k}")
    keys = sorted(largest)
    x_plus = np.array([bulk_edge(beta, c) for c, beta in keys])
    reported = np.array([float(largest[key]["x_plus"]) for key in keys])
    if not np.allclose(reported, x_plus, rtol=1e-9, atol=0):
        raise ValueError(f"B-T1's x_plus {reported} differs from the scalar formula {x_plus}")
    median = _column(largest, keys, "median")
    return {
        "c": np.array([c for c, _ in keys]),
        "beta": np.array([beta for _, beta in keys]),
        "n_tokens": np.array([int(largest[key]["ell"]) for key in keys]),
        "k": k,
        "median": median,
        "q10": _column(largest, keys, "q10"),
        "q90": _column(largest, keys, "q90"),
        "x_plus": x_plus,
        "relative_gap": median / x_plus - 1.0,
    }


def simulated_point_rows(points: Mapping) -> list[tuple]:
    """Rows of figure B4's key-number table, one per simulated (c, beta)."""
    return [
        (
            float(points["c"][i]),
            float(points["beta"][i]),
            int(points["n_tokens"][i]),
            int(points["k"]),
            float(points["median"][i]),
            float(points["q10"][i]),
            float(points["q90"][i]),
            float(points["x_plus"][i]),
            float(points["relative_gap"][i]),
        )
        for i in range(len(points["c"]))
    ]
