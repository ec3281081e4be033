"""nu_inf = rho ⊠ MP_1: density (two routes), support and gaps, cdf, quantile and moments."""

import time

import numpy as np
import pytest
from scipy.integrate import quad

from attnspec.theory import NuInfinity, SymmetrisedLinearModel, bulk_density, bulk_edge
from attnspec.theory.cumulative import SqrtEdgeCumulative
from attnspec.theory.edge import edge_cubic_roots

BETAS = [0.25, 0.5, 1.0, 1.5, 2.0]
RATIOS = [0.25, 0.5, 1.0, 2.0, 4.0]


def grid_off_edges(law, n=400):
    """Points of (0, 1.2 x_+) at least 1e-4 (relative) away from every support edge."""
    x = np.linspace(0, 1.2 * law.edge, n + 1)[1:]
    for lo, hi in law.support():
        for end in (lo, hi):
            x = x[np.abs(x - end) > 1e-4 * law.edge]
    return x


@pytest.mark.parametrize("c", RATIOS)
@pytest.mark.parametrize("beta", BETAS)
def test_density_routes_agree(beta, c):
    law = NuInfinity(beta, c)
    x = grid_off_edges(law)
    quartic = law.density(x)
    r_route = SymmetrisedLinearModel(beta, c).density(x)
    np.testing.assert_allclose(quartic, r_route, rtol=1e-8, atol=1e-10 * quartic.max())
    assert np.all(quartic[x > law.edge] == 0)
    assert np.all(quartic[x < 0.99 * law.edge] >= 0)


@pytest.mark.parametrize("c", RATIOS)
@pytest.mark.parametrize("beta", BETAS)
def test_total_mass_and_moments(beta, c):
    law = NuInfinity(beta, c)
    assert law.cdf(law.edge) == pytest.approx(1.0, abs=1e-10)
    assert law.cdf(2 * law.edge) == pytest.approx(1.0, abs=1e-10)
    assert law.cdf(0.0) == 0.0

    def moment(k):
        # Integrate in t = sqrt(x): the integrand 2 t^{2k+1} p(t^2) is bounded at 0.
        return sum(
            quad(
                lambda t: 2 * t ** (2 * k + 1) * law.density(t * t),
                np.sqrt(lo),
                np.sqrt(hi),
                limit=400,
                epsabs=0,
                epsrel=1e-11,
            )[0]
            for lo, hi in law.support()
        )

    assert moment(0) == pytest.approx(1.0, abs=1e-7)
    assert moment(1) == pytest.approx(law.mean, rel=1e-7)
    assert moment(2) == pytest.approx(law.second_moment, rel=1e-7)
    assert law.mean == pytest.approx(np.expm1(beta**2), rel=1e-14)
    assert law.second_moment == pytest.approx(2 * np.expm1(beta**2) ** 2 + beta**4 * c)


@pytest.mark.parametrize(("beta", "c"), [(1.0, 1.0), (0.5, 4.0), (2.0, 0.25), (0.25, 2.0)])
def test_cdf_matches_direct_quadrature_and_quantile_inverts_it(beta, c):
    law = NuInfinity(beta, c)
    x = np.linspace(0, law.edge, 12)[1:-1]
    direct = [
        quad(
            lambda t: 2 * t * law.density(t * t),
            0,
            np.sqrt(v),
            limit=400,
            points=[np.sqrt(e) for interval in law.support() for e in interval if e < v] or None,
            epsabs=1e-12,
        )[0]
        for v in x
    ]
    np.testing.assert_allclose(law.cdf(x), direct, atol=1e-9)
    q = np.linspace(0, 1, 21)
    quantiles = law.quantile(q)
    assert quantiles[0] == 0.0 and quantiles[-1] == pytest.approx(law.edge, rel=1e-12)
    assert np.all(np.diff(quantiles) >= 0)
    np.testing.assert_allclose(law.cdf(quantiles), q, atol=1e-10)


def test_internal_gap_at_small_beta_and_c_above_one():
    law = NuInfinity(0.5, 4.0)
    support = law.support()
    assert len(support) == 2
    (lo1, e1), (e2, x_plus) = support
    assert lo1 == 0 and 0 < e1 < e2 < x_plus == law.edge
    assert e1 == pytest.approx(0.10039954, rel=1e-7) and e2 == pytest.approx(0.17900787, rel=1e-7)
    gap = np.linspace(e1, e2, 50)[1:-1]
    assert np.all(law.density(gap) == 0)
    assert np.all(SymmetrisedLinearModel(0.5, 4.0).density(gap) < 1e-12)
    assert np.all(law._quartic_density(gap) == 0)  # without the support mask too
    inside = np.concatenate([np.linspace(0, e1, 30)[1:-1], np.linspace(e2, x_plus, 30)[1:-1]])
    assert np.all(law.density(inside) > 0)
    # The first component carries exactly the atom 1 - 1/c of rho; the whole law mass 1.
    assert law.cdf(e1) == pytest.approx(0.75, abs=1e-10)
    assert law.cdf(e2) == pytest.approx(0.75, abs=1e-10)
    assert law.cdf(x_plus) == pytest.approx(1.0, abs=1e-10)
    assert law.quantile(0.75) == pytest.approx(e1, rel=1e-9)


def test_no_gap_for_c_at_most_one_or_large_beta():
    assert len(NuInfinity(0.5, 1.0).support()) == 1
    assert len(NuInfinity(0.25, 0.5).support()) == 1
    assert len(NuInfinity(1.0, 4.0).support()) == 1
    assert len(NuInfinity(0.25, 2.0).support()) == 2


def test_density_shape_speed_and_edge_attribute():
    law = NuInfinity(1.0, 0.5)
    assert law.edge == bulk_edge(1.0, 0.5)
    x = np.linspace(-1.0, 12.0, 2000)
    law.density(x)
    start = time.perf_counter()
    p = law.density(x)
    assert time.perf_counter() - start < 0.1
    assert p.shape == x.shape and p.dtype == np.float64
    assert np.all(p[x <= 0] == 0) and np.all(p[x >= law.edge] == 0)
    np.testing.assert_array_equal(bulk_density(x.reshape(40, 50), 1.0, 0.5), p.reshape(40, 50))
    # p ~ x^{-1/2} at 0: sqrt(x) p(x) tends to a positive constant.
    small = np.array([1e-8, 1e-10])
    ratio = np.sqrt(small) * law.density(small)
    assert ratio[0] > 0 and ratio[1] == pytest.approx(ratio[0], rel=1e-3)


def test_validation():
    with pytest.raises(ValueError, match="beta"):
        NuInfinity(-1.0)
    with pytest.raises(ValueError, match="degenerate"):
        NuInfinity(0.0)
    with pytest.raises(ValueError, match="ratio"):
        NuInfinity(1.0, 0.0)
    with pytest.raises(ValueError, match="quantile"):
        NuInfinity(1.0).quantile([-0.1])


# beta at which the internal gap of nu_inf(beta, c) closes, by bisection on len(support())
# (80 steps on [1e-3, 4]); test_gap_opening_points checks that the support changes there.
GAP_OPENING = {
    1.05: 0.020271509515657975,
    1.5: 0.19067845666696717,
    2.3: 0.4459882429124776,
    2.88: 0.5987735484434257,
    4.0: 0.8342083812421407,
    16.0: 1.7124106718287986,
    100.0: 2.4130840265803175,
}
NEAR_GAP = [(0.45, 2.3), (0.6, 2.88)] + [
    (beta * (1 + offset), c)
    for c, beta in GAP_OPENING.items()
    for offset in (-1e-3, -1e-6, -1e-9, 0.0, 1e-9, 1e-6, 1e-3)
]


@pytest.mark.parametrize("c", sorted(GAP_OPENING))
def test_gap_opening_points(c):
    beta = GAP_OPENING[c]
    assert len(NuInfinity(beta * (1 - 1e-9), c).support()) == 2
    assert len(NuInfinity(beta * (1 + 1e-9), c).support()) == 1


@pytest.mark.parametrize(("beta", "c"), NEAR_GAP)
def test_cdf_converges_near_gap_opening(beta, c):
    # Once off by 1.9e-5 at (0.45, 2.3) and 4e-5 at (0.6, 2.88): one Chebyshev series of
    # degree <= 2048 could not resolve the complex edges 1e-5 from the real axis.
    law = NuInfinity(beta, c)
    support = law.support()
    assert law.cdf(law.edge) == pytest.approx(1.0, abs=1e-12)
    assert law.cdf(np.inf) == pytest.approx(1.0, abs=1e-12) and law.cdf(-np.inf) == 0.0
    if len(support) == 2:  # the first component carries the atom 1 - 1/c of rho
        assert law.cdf(support[0][1]) == pytest.approx(1 - 1 / c, abs=1e-12)
    # Against the closed form F = 1 + x p(x) - E_rho arg(u - X) / pi, off every edge.
    x = grid_off_edges(law, 600)
    x = x[law.density(x) > 0]
    np.testing.assert_allclose(law.cdf(x), law._closed_form_cdf(x), rtol=0, atol=1e-12)
    # Monotone, also through the cusp (the real part of the two other edges of the cubic).
    cubic = edge_cubic_roots(beta, c)
    cusp = np.delete(cubic.edges, cubic.physical_index).real.mean()
    fine = np.sort(
        np.concatenate(
            [
                np.linspace(0, 1.01 * law.edge, 20001),
                cusp * (1 + np.concatenate([-np.geomspace(1e-2, 1e-14, 500), [0.0]])),
                cusp * (1 + np.geomspace(1e-14, 1e-2, 500)),
            ]
        )
    )
    assert np.all(np.diff(law.cdf(fine)) >= 0)
    q = np.linspace(0, 1, 201)
    quantiles = law.quantile(q)
    assert np.all(np.diff(quantiles) >= 0)
    np.testing.assert_allclose(law.cdf(quantiles), q, rtol=0, atol=1e-12)
    # Levels exactly at panel boundaries (and at the end of the first component) map back.
    boundaries, levels = law._cumulative_law().interior_boundaries()
    np.testing.assert_allclose(law.quantile(levels), boundaries, rtol=1e-9)
    if len(support) == 2:
        assert law.quantile(law.cdf(support[0][1])) == pytest.approx(support[0][1], rel=1e-9)


def test_cdf_raises_when_the_integral_disagrees_with_the_closed_form(monkeypatch):
    law = NuInfinity(1.0, 1.0)
    exact = law.density
    monkeypatch.setattr(law, "density", lambda x: exact(x) * (1 + 1e-9))
    with pytest.raises(RuntimeError, match="closed-form"):
        law.cdf(1.0)


def test_panels_raise_on_an_unresolvable_density():
    with pytest.raises(RuntimeError, match="not resolved"):
        SqrtEdgeCumulative(lambda x: np.where(x > 0.3, 1.0, 0.5), [(0.0, 1.0)])
    with pytest.raises(RuntimeError, match="not finite"):
        SqrtEdgeCumulative(lambda x: np.where(x > 0.3, np.nan, 1.0), [(0.0, 1.0)])
