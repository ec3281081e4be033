"""The right edge x_+: stationary cubic, min of u^2 G_rho(u) and R-transform agree."""

import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from attnspec.theory import SymmetrisedLinearModel, bulk_edge, mp_edge, nonlinearity_coefficients
from attnspec.theory.nu_infinity import edge_cubic_coefficients, edge_cubic_roots
from attnspec.theory.population import population_law

BETAS = [0.05, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0]
RATIOS = [0.25, 0.5, 1.0, 2.0, 4.0]


def edge_by_minimisation(beta, c):
    """x_+ = min over u > a + b (1 + sqrt c)^2 of u^2 G_rho(u), by bounded 1-D minimisation."""
    rho = population_law(beta, c)
    top = rho.edge
    result = minimize_scalar(
        lambda u: (u * u * rho.stieltjes(u)).real,
        bounds=(top * (1 + 1e-12), 10 * top),
        method="bounded",
        options={"xatol": 1e-15 * top, "maxiter": 2000},
    )
    return result.fun


@pytest.mark.parametrize("c", RATIOS)
@pytest.mark.parametrize("beta", BETAS)
def test_three_edge_routes_agree(beta, c):
    cubic = bulk_edge(beta, c)
    assert edge_by_minimisation(beta, c) == pytest.approx(cubic, rel=1e-9)
    assert SymmetrisedLinearModel(beta, c).edge == pytest.approx(cubic, rel=1e-9)


def test_common_mistake_inverted_ratio():
    # c = ell / d_qk: at beta = 1, c = 1/2 the edge is 7.98; c = d_qk / ell would give 10.90.
    assert bulk_edge(1.0, 0.5) == pytest.approx(7.98415, abs=1e-5)
    assert bulk_edge(1.0, 2.0) == pytest.approx(10.8975, abs=1e-4)


def test_edge_exceeds_marchenko_pastur_edge():
    betas = np.linspace(0.05, 3.0, 60)
    for c in RATIOS:
        edges = np.array([bulk_edge(beta, c) for beta in betas])
        assert np.all(edges > mp_edge(betas))
    # ... and the gap closes at large beta (within about 1 % at beta = 2, papers.md section 3).
    assert bulk_edge(2.0, 1.0) / mp_edge(2.0) - 1 < 0.012


@pytest.mark.parametrize("c", RATIOS)
@pytest.mark.parametrize("beta", [0.25, 1.0, 2.0])
def test_cubic_roots_and_physical_branch(beta, c):
    coefficients = edge_cubic_coefficients(beta, c)
    found = edge_cubic_roots(beta, c)
    assert found.roots.shape == (3,)
    np.testing.assert_allclose(np.polyval(coefficients, found.roots), 0, atol=1e-10)
    g = found.roots[found.physical_index]
    assert g.imag == 0 and 0 < g.real < 1 / (np.sqrt(c) * (1 + np.sqrt(c)))
    assert found.edges[found.physical_index].real == pytest.approx(bulk_edge(beta, c), rel=1e-14)
    others = np.delete(found.roots, found.physical_index)
    in_window = (others.imag == 0) & (others.real > 0)
    in_window &= others.real < 1 / (np.sqrt(c) * (1 + np.sqrt(c)))
    assert not in_window.any()


@pytest.mark.parametrize("beta", [0.1, 0.5, 1.0, 2.0])
def test_scalar_formula_reduces_to_square_model(beta):
    # Paper B claim B.4: at c = 1 the cubic is a g (1 - g)^2 + b (3g - 1) = 0, g in (0, 1/3).
    _, _, a, b = nonlinearity_coefficients(beta)
    roots = np.roots([a, -2 * a, a + 3 * b, -b])
    g = [r.real for r in roots if abs(r.imag) < 1e-12 and 0 < r.real < 1 / 3]
    assert len(g) == 1
    square = (a + b / (g[0] * (1 - g[0]))) ** 2 * g[0] / b
    assert bulk_edge(beta, 1.0) == pytest.approx(square, rel=1e-10)
    np.testing.assert_allclose(edge_cubic_coefficients(beta, 1.0) * b, [a, -2 * a, a + 3 * b, -b])


def test_beta_zero_and_validation():
    assert bulk_edge(0.0, 1.0) == 0.0
    assert bulk_edge(1e-6, 1.0) == pytest.approx(27 / 4 * 1e-12, rel=1e-9)
    with pytest.raises(ValueError, match="beta"):
        bulk_edge(-0.1, 1.0)
    with pytest.raises(ValueError, match="ratio"):
        bulk_edge(1.0, 0.0)
    with pytest.raises(ValueError, match="ratio"):
        bulk_edge(1.0, -2.0)
    with pytest.raises(ValueError, match="degenerate"):
        edge_cubic_roots(0.0, 1.0)
