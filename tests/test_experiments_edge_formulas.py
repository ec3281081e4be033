"""Figure B4 and table B-T2: the scalar edge formula, the square-model solver, the B.4 verdict."""

import numpy as np
import pytest

import attnspec.experiments.edge_formulas as edge_formulas
import attnspec.theory.edge as general_edge
from attnspec.experiments.edge_formulas import (
    FORMULA_TOLERANCE,
    EdgeFormulaCheck,
    RouteAgreement,
    edge_curves,
    edge_formula_check,
    edge_formula_claim,
    edge_formula_rows,
    judge_edge_formulas,
    largest_ell_points,
    r_transform_agreement,
    r_transform_points,
    simulated_point_rows,
    square_cubic_branches,
    square_model_edge,
)
from attnspec.legacy_verdicts import CLAIM_HEADER, DOES_NOT_REPRODUCE, HOLDS
from attnspec.plotting.edge_formulas import edge_formula_plotted_rows, plot_edge_formulas
from attnspec.plotting.style import close
from attnspec.theory import bulk_edge, nonlinearity_coefficients

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
        monkeypatch.setattr(edge_formulas, name, forbidden)
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


def passing_check(**changes) -> EdgeFormulaCheck:
    values = dict(
        max_relative_difference=3e-16,
        max_root_relative_difference=2e-16,
        physical_roots_in_interval=True,
        min_other_distance=0.9,
        min_other_abs_imag=0.05,
        r_transform=RouteAgreement(5e-16, 1.0, 2.0, 25),
    )
    values.update(changes)
    return EdgeFormulaCheck(**values)


def test_judge_edge_formulas_passes_agreement_and_fails_each_violation():
    assert judge_edge_formulas(passing_check()) == HOLDS
    failing = [
        passing_check(max_relative_difference=1e-8),
        passing_check(max_root_relative_difference=1e-6),
        passing_check(physical_roots_in_interval=False),
        passing_check(min_other_distance=1e-12),
        passing_check(r_transform=RouteAgreement(1e-6, 1.0, 4.0, 25)),
    ]
    for check in failing:
        assert judge_edge_formulas(check) == DOES_NOT_REPRODUCE


def test_claim_b4_row_from_the_real_formulas():
    betas = [0.25, 1.0, 2.5]
    rows = edge_formula_rows(betas)
    check = edge_formula_check(rows, r_transform_agreement(betas, [0.5, 1.0, 2.0]))
    claim = edge_formula_claim(check, len(rows))
    assert claim.claim_id == "B.4"
    assert claim.verdict == HOLDS
    assert claim.value == max(row.relative_difference for row in rows)
    assert claim.tolerance == FORMULA_TOLERANCE
    assert len(claim.as_row()) == len(CLAIM_HEADER)
    assert claim.meets_condition() and claim.test.endswith("(no caveat)")
    assert "9 (beta, c) points" in claim.note


def test_square_cubic_branches_mark_the_physical_root():
    betas = np.array([0.1, 1.0, 2.0])
    branches = square_cubic_branches(betas)
    for i, beta in enumerate(betas):
        physical = branches["edges"][i, branches["physical_index"][i]]
        assert physical.real == pytest.approx(bulk_edge(beta, 1.0), rel=1e-12)
        assert physical.imag == 0


def sticking_rows(x_plus=bulk_edge):
    rows = []
    for c, beta in [(1.0, 0.5), (1.0, 1.0), (2.0, 1.0)]:
        for ell in (512, 1024):
            for k in (2, 3):
                edge = x_plus(beta, c)
                median = edge * (1 + 0.01 * k + 1.0 / ell)
                rows.append(
                    {
                        "ell": str(ell),
                        "c": repr(c),
                        "beta": repr(beta),
                        "k": str(k),
                        "median": repr(median),
                        "q10": repr(0.99 * median),
                        "q90": repr(1.02 * median),
                        "x_plus": repr(edge),
                        "relative_gap": repr(median / edge - 1),
                    }
                )
    return rows


def test_largest_ell_points_pick_k_2_at_the_largest_ell_of_each_c_beta():
    points = largest_ell_points(sticking_rows())
    assert list(points["c"]) == [1.0, 1.0, 2.0]
    assert list(points["beta"]) == [0.5, 1.0, 1.0]
    assert np.all(points["n_tokens"] == 1024)
    assert np.allclose(points["relative_gap"], 0.02 + 1 / 1024)
    assert len(simulated_point_rows(points)) == 3


def test_largest_ell_points_reject_another_c_convention():
    # c = d_qk / ell instead of ell / d_qk changes x_+ (papers.md section 3).
    with pytest.raises(ValueError, match="differs from the scalar formula"):
        largest_ell_points(sticking_rows(lambda beta, c: bulk_edge(beta, 1.0 / c)))


def test_figure_b4_draws_and_lists_every_series():
    curves = edge_curves(0.1, 2.0, 12, [0.5, 1.0, 2.0])
    markers = r_transform_points([0.5, 1.0], [0.5, 1.0, 2.0])
    branches = square_cubic_branches(curves["beta"])
    points = largest_ell_points(sticking_rows())
    close(plot_edge_formulas(curves, markers, branches, points))
    rows = list(edge_formula_plotted_rows(curves, markers, branches, points))
    # 2 panels x 3 c x 12 betas, 12 x 4 theta_1, 2 x 3 x 2 crosses, 2 x 3 x 3 points, 2 x 3 x 12.
    assert len(rows) == 72 + 12 + 12 + 18 + 72
