"""The evidence of registry rows B.4/square-model and B.4/r-transform (paper B): the scalar edge
formula against paper A's square-model solver and against the R-transform route."""

from collections.abc import Sequence

from attnspec.claims.evidence import Evidence
from attnspec.papers.b.edge_formulas_summary import SQUARE_INTERVAL, EdgeFormulaRow, RouteAgreement
from attnspec.tables import ROUNDING_FLOOR, Residual, format_cell, rounding_bound


def route_note(agreement: RouteAgreement) -> str:
    """Where the two routes differ most, or, when every point agrees to rounding, that bound
    (the argmax of rounding noise is not a finding and differs between CPUs)."""
    if abs(agreement.max_relative_difference) <= ROUNDING_FLOOR:
        return f"every point agrees to rounding ({rounding_bound()} relative)"
    return f"largest at beta = {agreement.beta:g}, c = {agreement.ratio:g}"


def edge_formula_evidence(
    rows: Sequence[EdgeFormulaRow], agreement: RouteAgreement
) -> list[Evidence]:
    """Rows B.4/square-model and B.4/r-transform (identities: two exact computations agree).

    B.4/square-model: max over the rows (beta grid, c = 1) of |x_+(square model) - x_+(scalar
    formula)| / x_+, each formula with its physical root in (0, 1/3); B.4/r-transform: the
    largest relative difference of the scalar formula to K(G*)^2 over the (beta, c) grid. The
    notes give the roots' agreement and how far the other branches' candidate edges lie.
    """
    lo, hi = SQUARE_INTERVAL
    roots_inside = all(lo < row.g_scalar < hi and lo < row.g_square < hi for row in rows)
    root_difference = max(abs(row.g_square - row.g_scalar) / row.g_square for row in rows)
    other_distance = min(row.other_candidates_min_relative_distance for row in rows)
    other_imag = min(row.other_roots_min_abs_imag for row in rows)
    not_real = "none is real" if other_imag > 0 else "a real one exists"
    square = Evidence(
        row_id="B.4/square-model",
        samples={"values": [max(row.relative_difference for row in rows)]},
        target=0.0,
        quantity=f"max over {len(rows)} betas of |x_+(square model) - x_+(scalar formula)| / "
        "x_+ at c = 1",
        note=f"max |g_square - g_scalar| / g = {format_cell(Residual(root_difference), 3)}; both "
        "physical roots in "
        f"(0, 1/3): {roots_inside}; the other two roots of the square-model cubic give "
        f"candidate edges at least {other_distance:.3g} x_+ away from x_+ (smallest |Im g| of "
        f"those roots {other_imag:.3g}: {not_real}), so the branch choice matters",
    )
    route = Evidence(
        row_id="B.4/r-transform",
        samples={"values": [agreement.max_relative_difference]},
        target=0.0,
        quantity=f"max over {agreement.n_points} (beta, c) points of |x_+(scalar formula) - "
        "K(G*)^2| / x_+",
        note=route_note(agreement),
    )
    return [square, route]
