"""Figure B4 and table B-T2: the scalar edge formula, the square-model solver, the evidence of the
identity rows B.4/square-model and B.4/r-transform, figure B4's simulated points."""

import numpy as np
import pytest

import attnspec.papers.b.edge_formulas_summary as edge_formulas_summary
import attnspec.theory.edge as general_edge
from attnspec.claims.rows import judge_row
from attnspec.claims.verdict import Verdict
from attnspec.papers.b.edge_formulas_evidence import edge_formula_evidence
from attnspec.papers.b.edge_formulas_summary import (
    SIMULATED_POINT_HEADER,
    RouteAgreement,
    edge_formula_rows,
    largest_ell_points,
    r_transform_agreement,
    simulated_point_rows,
    square_cubic_branches,
    square_model_edge,
)
from attnspec.papers.b.sticking_summary import StickingSeries
from attnspec.papers.registry import TESTS
from attnspec.theory import bulk_edge, nonlinearity_coefficients

# Both formulas are root-finding to a few machine epsilon (x(g) is stationary at the root).
FORMULA_TOLERANCE = 1e-10

BETAS = [0.01, 0.05, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5]


@pytest.mark.parametrize("beta", BETAS)
def test_square_model_and_scalar_formula_agree_to_1e10_at_c_1(beta):
    square = square_model_edge(beta)
    assert square.edge == pytest.approx(bulk_edge(beta, 1.0), rel=FORMULA_TOLERANCE, abs=0)


def test_square_model_solver_never_calls_the_general_one(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the square-model solver used the general stationary cubic")

    for name in ("bulk_edge", "edge_cubic_roots", "edge_cubic_coefficients", "_physical_root"):
        monkeypatch.setattr(general_edge, name, forbidden)
    for name in ("bulk_edge", "edge_cubic_roots", "SymmetrisedLinearModel"):
        monkeypatch.setattr(edge_formulas_summary, name, forbidden)
    assert square_model_edge(1.0).edge == pytest.approx(9.009542550375313, rel=1e-12)


@pytest.mark.parametrize("beta", [0.05, 1.0, 3.0])
def test_square_model_roots_solve_the_cubic_and_only_one_is_physical(beta):
    c = nonlinearity_coefficients(beta)
    square = square_model_edge(beta)
    g = square.roots
    residual = c.a * g * (1 - g) ** 2 + c.b * (3 * g - 1)
    assert np.all(np.abs(residual) <= 1e-9 * c.b)
    assert 0 < square.physical_root < 1 / 3
    others = np.delete(g, square.physical_index)
    assert np.all(np.abs(others.imag) > 0)  # the other two roots are a complex pair at c = 1
    assert others[0] == pytest.approx(np.conj(others[1]))


def test_edge_formula_rows_compare_independent_routes():
    rows = edge_formula_rows([0.5, 1.0, 2.0])
    for row in rows:
        assert row.relative_difference <= FORMULA_TOLERANCE
        assert row.g_square == pytest.approx(row.g_scalar, rel=1e-12)
        assert row.x_plus_r_transform == pytest.approx(row.x_plus_scalar, rel=1e-10)
        assert row.other_roots_min_abs_imag > 0
        assert row.other_candidates_min_relative_distance > 0.1
        assert row.x_plus_scalar > row.mp_edge_4theta1  # paper A: x_+ > 4 theta_1
    assert rows[0].x_plus_small_beta == pytest.approx(rows[0].x_plus_scalar, rel=1e-3)
    assert rows[2].x_plus_large_beta == pytest.approx(rows[2].x_plus_scalar, rel=1e-3)


def test_identity_rows_from_the_real_formulas_hold_and_a_broken_formula_fails():
    betas = [0.25, 1.0, 2.5]
    rows = edge_formula_rows(betas)
    agreement = r_transform_agreement(betas, [0.5, 1.0, 2.0])
    square, route = edge_formula_evidence(rows, agreement)
    assert (square.row_id, route.row_id) == ("B.4/square-model", "B.4/r-transform")
    assert square.samples["values"][0] == max(row.relative_difference for row in rows)
    assert route.samples["values"][0] == agreement.max_relative_difference
    assert "9 (beta, c) points" in route.quantity and "(0, 1/3): True" in square.note
    for item in (square, route):
        row = judge_row(TESTS[item.row_id], item)
        assert (
            row["kind"] == "identity"
            and row["verdict"] == Verdict.HOLDS
            and row["stability"] == 1.0
        )
    assert route.note == "every point agrees to rounding (< 1e-13 relative)"
    broken = rows[1]._replace(relative_difference=1e-6)
    worse = RouteAgreement(1e-6, 1.0, 2.0, 9)
    for item in edge_formula_evidence([rows[0], broken], worse):
        assert judge_row(TESTS[item.row_id], item)["verdict"] == Verdict.DOES_NOT_REPRODUCE
    assert edge_formula_evidence(rows, worse)[1].note == "largest at beta = 1, c = 2"


def test_square_cubic_branches_mark_the_physical_root():
    betas = np.array([0.1, 1.0, 2.0])
    branches = square_cubic_branches(betas)
    for i, beta in enumerate(betas):
        physical = branches["edges"][i, branches["physical_index"][i]]
        assert physical.real == pytest.approx(bulk_edge(beta, 1.0), rel=1e-12)
        assert physical.imag == 0


def synthetic_series(ratio, beta, draws, ells=(512, 1024)):
    """Draws whose ell s_2(A)^2 is x_+ (1 + 0.02 + 1/ell) and s_1(Y_lin)^2 is x_+ (1 - 1/ell)."""
    edge = bulk_edge(beta, ratio)
    jitter = np.linspace(0.99, 1.01, draws)
    attention = tuple(
        np.column_stack([np.full(draws, float(ell)), edge * (1.02 + 1 / ell) * jitter])
        for ell in ells
    )
    linear = tuple((edge * (1 - 1 / ell) * jitter)[:, None] for ell in ells)
    ones = tuple(np.ones((draws, 1)) for _ in ells)
    return StickingSeries(
        ratio, beta, np.array(ells), attention, linear, tuple(np.ones(draws) for _ in ells),
        ones, ones,
    )  # fmt: skip


def test_largest_ell_points_take_a_and_y_lin_at_the_largest_ell_of_each_c_beta():
    series = [synthetic_series(2.0, 1.0, 12), synthetic_series(1.0, 1.0, 12)]
    series.append(synthetic_series(1.0, 0.5, 3))
    points = largest_ell_points(series)
    assert list(points["c"]) == [1.0, 1.0, 2.0]
    assert list(points["beta"]) == [0.5, 1.0, 1.0]
    assert np.all(points["n_tokens"] == 1024) and list(points["draws"]) == [3, 12, 12]
    np.testing.assert_allclose(points["relative_gap_of_median"], 0.02 + 1 / 1024)
    np.testing.assert_allclose(points["Y_lin_relative_gap_of_median"], -1 / 1024)
    assert np.isnan(points["q10"][0]) and np.isnan(points["Y_lin_q90"][0])  # 3 draws: no band
    assert points["q10"][1] < points["median_ell_s2sq"][1] < points["q90"][1]
    rows = simulated_point_rows(points)
    assert len(rows) == 3 and len(rows[0]) == len(SIMULATED_POINT_HEADER)
