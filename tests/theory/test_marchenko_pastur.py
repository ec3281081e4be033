"""Marchenko–Pastur Stieltjes transform, the general MP law and the iid-scores surrogate."""

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.optimize import brentq

from attnspec.theory import MarchenkoPasturSurrogate, mp_edge, nonlinearity_coefficients
from attnspec.theory.marchenko_pastur import MarchenkoPastur, marchenko_pastur_stieltjes

RATIOS = [0.25, 0.5, 1.0, 2.0, 4.0]


@pytest.mark.parametrize("c", RATIOS)
def test_stieltjes_solves_quadratic_and_matches_integral(c):
    law = MarchenkoPastur(c)
    lo, hi = law.support()[0]
    w = np.array([3 + 1j, -2 + 0.5j, 0.5 - 2j, 50.0, -3.0])
    G = marchenko_pastur_stieltjes(w, c)
    np.testing.assert_allclose(c * w * G**2 - (w + c - 1) * G + 1, 0, atol=1e-13)
    for point, value in zip(w, G, strict=True):
        real = quad(lambda t, p=point: (law.density(t) / (p - t)).real, lo, hi, limit=200)[0]
        imag = quad(lambda t, p=point: (law.density(t) / (p - t)).imag, lo, hi, limit=200)[0]
        expected = real + 1j * imag + law.atom / point
        assert abs(value - expected) < 1e-9


@pytest.mark.parametrize("c", RATIOS)
def test_stieltjes_branch_at_infinity_and_on_the_cut(c):
    w = np.array([1e6, -1e6, 1e6j])
    np.testing.assert_allclose(marchenko_pastur_stieltjes(w, c) * w, 1, rtol=1e-5)
    lo, hi = MarchenkoPastur(c).support()[0]
    inside = np.linspace(lo, hi, 7)[1:-1]
    G = marchenko_pastur_stieltjes(inside, c)
    np.testing.assert_allclose(-G.imag / np.pi, MarchenkoPastur(c).density(inside), rtol=1e-12)


def test_stieltjes_atom_residue_for_c_above_one():
    eps = 1e-9
    assert abs(marchenko_pastur_stieltjes(eps, 4.0) * eps - 0.75) < 1e-8
    assert abs(marchenko_pastur_stieltjes(eps, 0.5) * eps) < 1e-8


@pytest.mark.parametrize("c", RATIOS)
def test_general_law_cdf_quantile_and_moments(c):
    law = MarchenkoPastur(c, scale=2.0, shift=0.3)
    lo, hi = law.support()[0]
    x = np.linspace(0.0, hi + 1, 13)
    expected = [
        law.atom * (v >= 0.3) + quad(law.density, lo, min(max(v, lo), hi), limit=200)[0] for v in x
    ]
    np.testing.assert_allclose(law.cdf(x), expected, atol=1e-10)
    q = np.linspace(law.atom + 1e-3, 1, 9)
    np.testing.assert_allclose(law.cdf(law.quantile(q)), q, atol=1e-12)
    mass = quad(law.density, lo, hi, limit=200)[0] + law.atom
    mean = quad(lambda t: t * law.density(t), lo, hi, limit=200)[0] + law.atom * 0.3
    second = quad(lambda t: t * t * law.density(t), lo, hi, limit=200)[0] + law.atom * 0.09
    assert mass == pytest.approx(1, abs=1e-10)
    assert mean == pytest.approx(law.mean, rel=1e-9)
    assert second == pytest.approx(law.second_moment, rel=1e-9)


@pytest.mark.parametrize("beta", [0.5, 1.0, 1.5, 2.0])
def test_surrogate_is_a_probability_law_with_mean_theta1(beta):
    theta1 = nonlinearity_coefficients(beta).theta1
    law = MarchenkoPasturSurrogate(beta)
    assert law.edge == pytest.approx(4 * theta1, rel=1e-15)
    assert law.edge == pytest.approx(mp_edge(beta), rel=1e-15)
    x = np.linspace(0, law.edge, 9)[1:-1]
    closed = np.sqrt(x * (4 * theta1 - x)) / (2 * np.pi * theta1 * x)
    np.testing.assert_allclose(law.density(x), closed, rtol=1e-13)
    phi = np.arcsin(np.sqrt(x / (4 * theta1)))
    np.testing.assert_allclose(law.cdf(x), (2 * phi + np.sin(2 * phi)) / np.pi, atol=1e-14)
    mass = quad(law.density, 0, law.edge, limit=200)[0]
    mean = quad(lambda t: t * law.density(t), 0, law.edge, limit=200)[0]
    second = quad(lambda t: t * t * law.density(t), 0, law.edge, limit=200)[0]
    assert mass == pytest.approx(1, abs=1e-8)
    assert law.cdf(law.edge) == 1.0
    assert mean == pytest.approx(theta1, rel=1e-8) and law.mean == pytest.approx(theta1)
    assert second == pytest.approx(2 * theta1**2, rel=1e-8)
    assert law.second_moment == pytest.approx(2 * theta1**2)
    psi = brentq(lambda v: v + np.sin(v) - np.pi / 2, 0, np.pi, xtol=1e-15)  # median: 2 phi
    assert law.quantile(0.5) == pytest.approx(4 * theta1 * np.sin(psi / 2) ** 2, rel=1e-12)


def test_mp_edge_values_and_validation():
    assert mp_edge(0.0) == 0.0
    assert mp_edge(1.0) == pytest.approx(4 * (np.e - 1), rel=1e-15)
    np.testing.assert_allclose(mp_edge([0.5, 2.0]), 4 * np.expm1([0.25, 4.0]))
    with pytest.raises(ValueError, match="beta"):
        mp_edge(-1.0)
    with pytest.raises(ValueError, match="degenerate"):
        MarchenkoPasturSurrogate(0.0)
    with pytest.raises(ValueError, match="ratio"):
        marchenko_pastur_stieltjes(1.0, 0.0)
    with pytest.raises(ValueError, match="quantile"):
        MarchenkoPasturSurrogate(1.0).quantile(1.5)
