"""R-transform route: K(G), critical point, Tracy–Widom scale, spike outliers."""

import numpy as np
import pytest

from attnspec.theory import (
    NuInfinity,
    SymmetrisedLinearModel,
    bulk_edge,
    nonlinearity_coefficients,
)
from attnspec.theory.r_transform import TRACY_WIDOM_1_MEAN


@pytest.mark.parametrize("c", [0.25, 1.0, 4.0])
@pytest.mark.parametrize("beta", [0.25, 1.0, 2.0])
def test_transforms_and_critical_point(beta, c):
    model = SymmetrisedLinearModel(beta, c)
    _, _, a, b = nonlinearity_coefficients(beta)
    G = np.array([0.05, 0.1 - 0.2j])
    np.testing.assert_allclose(model.r_transform(G), a * G + b * G / (1 - c * b * G * G))
    np.testing.assert_allclose(model.inverse_cauchy(G), 1 / G + model.r_transform(G))
    g_star = model.critical_point
    assert 0 < g_star < 1 / np.sqrt(c * b)
    h = 1e-5 * g_star
    k = model.inverse_cauchy(np.array([g_star - h, g_star, g_star + h]))
    assert abs(k[2] - k[0]) / (2 * h) < 1e-6 * k[1] / g_star  # K'(G*) = 0
    assert k[0] > k[1] and k[2] > k[1]  # a minimum on the real segment
    assert model.edge == pytest.approx(k[1] ** 2, rel=1e-14)
    assert model.edge == pytest.approx(bulk_edge(beta, c), rel=1e-9)
    second = (k[2] - 2 * k[1] + k[0]) / h**2
    assert model.tracy_widom_scale == pytest.approx(
        np.sqrt(model.edge) * second ** (1 / 3), rel=1e-4
    )


@pytest.mark.parametrize("c", [0.5, 1.0, 2.0])
def test_cauchy_transform_solves_k_of_g(c):
    model = SymmetrisedLinearModel(1.0, c)
    s = np.linspace(0.1, 1.2 * np.sqrt(model.edge), 50)
    G = model.cauchy(s)
    np.testing.assert_allclose(model.inverse_cauchy(G), s, rtol=1e-9)
    assert np.all(G.imag <= 1e-12)
    # Far outside the support G(s) is real and ~ 1/s.
    far = model.cauchy(np.array([1e3 * np.sqrt(model.edge)]))
    assert far.imag[0] == pytest.approx(0, abs=1e-15) and far.real[0] * 1e3 * np.sqrt(
        model.edge
    ) == pytest.approx(1, rel=1e-4)


def test_ginibre_limit_gives_edge_four_and_tw_scale():
    for b in [1e-8, 1e-12]:
        model = SymmetrisedLinearModel.from_coefficients(1.0, b)
        assert model.edge == pytest.approx(4.0, rel=1e-7)
        assert model.tracy_widom_scale == pytest.approx(2 ** (4 / 3), rel=1e-7)
        x = np.linspace(0.1, 3.9, 20)
        mp1 = np.sqrt(x * (4 - x)) / (2 * np.pi * x)
        np.testing.assert_allclose(model.density(x), mp1, rtol=1e-6)
    with pytest.raises(ValueError, match="b > 0"):
        SymmetrisedLinearModel.from_coefficients(1.0, 0.0)


def test_spike_outlier_threshold():
    model = SymmetrisedLinearModel(1.0)
    threshold = 1 / model.critical_point
    theta = np.array([0.5 * threshold, threshold, threshold * (1 + 1e-6), 2 * threshold, 10.0])
    outliers = model.spike_outlier(theta)
    assert np.isnan(outliers[0]) and np.isnan(outliers[1])
    assert outliers[2] == pytest.approx(model.edge, rel=1e-9)
    assert outliers[3] > outliers[2] and outliers[4] > outliers[3]
    # Large spikes: K(1/theta) ~ theta + (a + b)/theta, so the outlier ~ theta^2 + 2 theta1.
    big = model.spike_outlier(1e4)
    assert big == pytest.approx(1e8 + 2 * np.expm1(1.0), rel=1e-9)


def test_tracy_widom_mean_and_validation():
    assert TRACY_WIDOM_1_MEAN == pytest.approx(-1.2065335745820, abs=1e-13)
    with pytest.raises(ValueError, match="beta"):
        SymmetrisedLinearModel(-0.5)
    with pytest.raises(ValueError, match="ratio"):
        SymmetrisedLinearModel(1.0, -1.0)


@pytest.mark.parametrize("c", [0.5, 1.0, 2.0, 10.0])
@pytest.mark.parametrize("beta", [0.05, 0.5, 1.0, 2.0])
def test_moments_support_and_cdf_are_nu_infs(beta, c):
    """The R-transform route's moments (free cumulants), gaps (critical points of K) and cdf
    (its own density integrated) against the quartic route's; (0.05, 2) and (0.05 ... 1, 10)
    have an internal gap."""
    model, law = SymmetrisedLinearModel(beta, c), NuInfinity(beta, c)
    assert model.atom == 0.0
    assert model.mean == pytest.approx(law.mean, rel=1e-12)
    assert model.second_moment == pytest.approx(law.second_moment, rel=1e-12)
    support, expected = model.support(), law.support()
    assert len(support) == len(expected)
    assert np.allclose(support, expected, rtol=1e-12, atol=0.0)
    x = np.linspace(0.0, 1.1 * law.edge, 201)
    assert np.max(np.abs(model.cdf(x) - law.cdf(x))) < 1e-12
    q = np.array([0.1, 0.5, 0.95])
    assert np.allclose(model.quantile(q), law.quantile(q), rtol=1e-10, atol=0.0)


def test_second_moment_overflow_is_refused():
    with pytest.raises(ValueError, match="second moment .* overflows float64"):
        _ = SymmetrisedLinearModel(19.0).second_moment
