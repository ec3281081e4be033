"""Square-model (c = 1) edge expansions against the exact cubic (papers.md section 2)."""

import numpy as np
import pytest

from attnspec.theory import bulk_edge, edge_large_beta, edge_small_beta, nonlinearity_coefficients


@pytest.mark.parametrize("beta", [0.02, 0.03, 0.05])
def test_small_beta_coefficients(beta):
    x = bulk_edge(beta, 1.0)
    b2 = beta * beta
    # Each coefficient, with the next term's size as tolerance.
    assert x / b2 == pytest.approx(27 / 4, abs=2 * b2)
    assert (x - 27 / 4 * b2) / b2**2 == pytest.approx(3 / 2, abs=b2)
    assert (x - 27 / 4 * b2 - 3 / 2 * b2**2) / b2**3 == pytest.approx(5 / 9, abs=b2)
    # The remainder is 925/5832 beta^8 + 9721/262440 beta^10 + ...
    remainder = (x - edge_small_beta(beta)) / b2**4
    assert remainder == pytest.approx(925 / 5832 + 9721 / 262440 * b2, abs=0.05 * b2)


def test_small_beta_expansion_converges():
    betas = np.array([0.4, 0.2, 0.1, 0.05])
    exact = np.array([bulk_edge(beta, 1.0) for beta in betas])
    relative = np.abs(edge_small_beta(betas) / exact - 1)
    assert np.all(np.diff(relative) < 0)
    np.testing.assert_allclose(relative / betas**6, 925 / 5832 / (27 / 4), rtol=0.15)


@pytest.mark.parametrize("beta", [2.0, 2.5, 3.0])
def test_large_beta_expansion(beta):
    theta1, _, a, b = nonlinearity_coefficients(beta)
    x = bulk_edge(beta, 1.0)
    assert x > 4 * theta1
    assert (x - 4 * theta1) / (4 * b * b / a) == pytest.approx(1.0, abs=3 * (b / a) ** 2)
    # Next term: -8 beta^8 / a^3 (the delta^3 term vanishes), so the remainder is tiny.
    remainder = x - edge_large_beta(beta)
    assert remainder == pytest.approx(-8 * b**4 / a**3, rel=0.06, abs=1e-13 * x)


def test_large_beta_leading_gap_shrinks():
    betas = np.array([1.5, 2.0, 2.5, 3.0])
    gaps = np.array([bulk_edge(beta, 1.0) for beta in betas]) - 4 * np.expm1(betas**2)
    assert np.all(np.diff(gaps) < 0) and gaps[-1] < 0.05


def test_vectorised_and_validation():
    betas = np.array([[0.1, 0.2], [0.3, 0.4]])
    assert edge_small_beta(betas).shape == (2, 2)
    assert edge_large_beta(betas).shape == (2, 2)
    assert isinstance(edge_small_beta(0.1), float) and edge_small_beta(0.0) == 0.0
    assert edge_large_beta(2.0) == pytest.approx(
        4 * np.expm1(4.0) + 64 / (np.expm1(4.0) - 4), rel=1e-14
    )
    with pytest.raises(ValueError, match="beta"):
        edge_large_beta(0.0)
    with pytest.raises(ValueError, match="beta"):
        edge_small_beta(-1.0)
