"""Paper B's finite conditional deformed-MP edge E_ell(Sigma)."""

import numpy as np
import pytest

from attnspec.theory import bulk_edge, finite_deformed_mp_edge
from attnspec.theory.population import population_law


@pytest.mark.parametrize(("beta", "c"), [(1.0, 1.0), (0.5, 4.0), (1.0, 0.5), (1.5, 2.0)])
def test_edge_of_quantiles_of_rho_approaches_x_plus(beta, c):
    n = 20_000
    eigenvalues = population_law(beta, c).quantile((np.arange(n) + 0.5) / n)
    assert finite_deformed_mp_edge(eigenvalues) == pytest.approx(bulk_edge(beta, c), rel=2e-5)


def test_edge_of_a_wishart_sample_of_rho():
    rng = np.random.default_rng(7)
    beta, c, ell = 1.0, 0.5, 600
    d_qk = int(ell / c)
    keys = rng.standard_normal((ell, d_qk))
    sigma_g = beta**2 * keys @ keys.T / d_qk + (np.expm1(beta**2) - beta**2) * np.eye(ell)
    edge = finite_deformed_mp_edge(np.linalg.eigvalsh(sigma_g))
    assert edge == pytest.approx(bulk_edge(beta, c), rel=5e-3)


def test_point_mass_scaling_and_brute_force():
    assert finite_deformed_mp_edge(np.full(10, 2.5)) == pytest.approx(10.0, rel=1e-14)
    assert finite_deformed_mp_edge([0.0, 0.0]) == 0.0
    sigma = np.random.default_rng(1).gamma(2.0, size=300)
    edge = finite_deformed_mp_edge(sigma)
    assert finite_deformed_mp_edge(3 * sigma) == pytest.approx(3 * edge, rel=1e-12)

    def f(u):
        return u**2 * np.mean(1 / (u[:, None] - sigma[None, :]), axis=1)

    coarse = sigma.max() * (1 + np.geomspace(1e-6, 3, 2001))
    k = np.argmin(f(coarse))
    fine = np.linspace(coarse[k - 1], coarse[k + 1], 2001)
    brute = f(fine).min()
    assert edge <= brute * (1 + 1e-14) and edge == pytest.approx(brute, rel=1e-10)


def test_validation():
    with pytest.raises(ValueError, match="non-empty"):
        finite_deformed_mp_edge([])
    with pytest.raises(ValueError, match="finite"):
        finite_deformed_mp_edge([1.0, np.nan])
    with pytest.raises(ValueError, match="largest"):
        finite_deformed_mp_edge([-1.0, -2.0])
