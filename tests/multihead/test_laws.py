"""Paper D limit laws: reduction to paper A's nu_inf, the paper's closed-form moments, mass,
moments by quadrature of the density, cdf/quantile, atoms, edges and bad inputs."""

import numpy as np
import pytest

from attnspec.multihead import (
    MultiHeadLaw,
    MultiHeadShape,
    TiedKeyValueLaw,
    limit_law,
    limit_mean,
)
from attnspec.theory import NuInfinity

MULTIHEAD_BETA = r"beta \(inverse temperature\) must be in \[0.05, 4\] for MultiHeadLaw"

E = np.e


def theta(beta):
    return np.expm1(beta**2), beta**2


@pytest.mark.parametrize(
    ("beta", "c"), [(1.0, 1.0), (1.0, 0.5), (0.5, 4.0), (2.0, 0.25), (0.25, 2.0), (1.5, 4.0)]
)
def test_one_head_without_projections_is_paper_a_nu_inf(beta, c):
    """h = 1, no V/O: rho_{gamma_K} ⊠ MP_1 with gamma_K = d_K / n = 1 / c is NuInfinity(beta, c)
    (different code: quartic root selection and the edge cubic); (0.5, 4) has an internal gap."""
    law, reference = MultiHeadLaw(beta, 1, 1.0 / c), NuInfinity(beta, c)
    np.testing.assert_allclose(law.support(), reference.support(), rtol=1e-12, atol=1e-14)
    assert law.edge == pytest.approx(reference.edge, rel=1e-12)
    assert law.atom == 0.0
    assert law.mean == pytest.approx(reference.mean, rel=1e-13)
    assert law.second_moment == pytest.approx(reference.second_moment, rel=1e-12)
    x = np.linspace(0, 1.1 * reference.edge, 300)[1:]
    density = reference.density(x)
    np.testing.assert_allclose(law.density(x), density, rtol=0, atol=1e-9 * density.max())
    points = np.linspace(0, reference.edge, 9)
    np.testing.assert_allclose(law.cdf(points), reference.cdf(points), atol=1e-10)


@pytest.mark.parametrize(("beta", "h", "gamma_k"), [(1.0, 1, 1.0), (1.0, 4, 2.0), (0.5, 12, 1.5)])
def test_attention_law_moments_are_c11_and_c61(beta, h, gamma_k):
    """(C.11): m1 = theta1, m2 = (1 + 1/h) theta1^2 + theta2^2 / gamma_K; (C.6.1): normalised
    m3 = 1 + 3 (1/h + c^2/gamma_K) + 1/h^2 + 3 c^2 / (gamma_K h) + c^3 / gamma_K^2 with
    c = theta2 / theta1."""
    theta1, theta2 = theta(beta)
    c = theta2 / theta1
    law = MultiHeadLaw(beta, h, gamma_k)
    m = law.moments(3)
    assert m[0] == pytest.approx(theta1, rel=1e-13)
    assert m[1] == pytest.approx((1 + 1 / h) * theta1**2 + theta2**2 / gamma_k, rel=1e-12)
    m3 = 1 + 3 * (1 / h + c**2 / gamma_k) + 1 / h**2 + 3 * c**2 / (gamma_k * h) + c**3 / gamma_k**2
    assert law.normalised_moments(3)[2] == pytest.approx(m3, rel=1e-12)


@pytest.mark.parametrize(
    ("beta", "h", "gamma_k", "gamma_v", "gamma_o"),
    [
        (1.0, 12, 1.5, 1.5, 1.5),
        (1.0, 16, 1.0, 1.0, 1.0),
        (0.7, 4, 0.5, 2.0, 0.8),
        (1.3, 71, 2.2, 3, 5),
    ],
)
def test_output_law_moments_are_c16(beta, h, gamma_k, gamma_v, gamma_o):
    """(C.15)-(C.16): mean gamma_O theta1 and m2 / m1^2 - 1 = 1/h + 1/gamma_V + 1/gamma_O
    + theta2^2 / (gamma_K theta1^2); without W^O (proposition C.5, section C.4): mean
    gamma_V theta1 and the same without 1/gamma_O."""
    theta1, theta2 = theta(beta)
    attention = theta2**2 / (gamma_k * theta1**2)
    full = MultiHeadLaw(beta, h, gamma_k, gamma_v, gamma_o)
    assert full.mean == pytest.approx(gamma_o * theta1, rel=1e-13)
    variance = 1 / h + 1 / gamma_v + 1 / gamma_o + attention
    assert full.normalised_moments(2)[1] - 1 == pytest.approx(variance, rel=1e-12)
    values = MultiHeadLaw(beta, h, gamma_k, gamma_v)
    assert values.mean == pytest.approx(gamma_v * theta1, rel=1e-13)
    assert values.normalised_moments(2)[1] - 1 == pytest.approx(1 / h + 1 / gamma_v + attention)


@pytest.mark.parametrize("h", [1, 2, 8])
def test_section_c4_comparison_of_independent_and_tied_values(h):
    """Section C.4 at beta = 1, d_V = d_K = n (gamma_V = gamma_K = h), no W^O: independent
    m1 = h (e - 1), normalised m2 = 1 + (2 + (e - 1)^-2) / h; tied m1 = h e, normalised
    m2 = 1 + (2 + 2/e + 2/e^2) / h."""
    independent = MultiHeadLaw(1.0, h, float(h), float(h))
    assert independent.mean == pytest.approx(h * (E - 1), rel=1e-13)
    assert independent.normalised_moments(2)[1] == pytest.approx(1 + (2 + (E - 1) ** -2) / h)
    tied = TiedKeyValueLaw(1.0, h, float(h))
    assert tied.mean == pytest.approx(h * E, rel=1e-13)
    assert tied.normalised_moments(2)[1] == pytest.approx(1 + (2 + 2 / E + 2 / E**2) / h)


@pytest.mark.parametrize(
    ("beta", "h", "gamma_k", "gamma_o"), [(1.0, 32, 1.0, 1.0), (0.5, 4, 2.5, 0.7)]
)
def test_tied_means_are_c20_and_section_5_3(beta, h, gamma_k, gamma_o):
    """(C.20): ||Z_KV||_F^2 / n -> gamma_K theta1 + h theta2; with W^O (section 5.3):
    m = gamma_O (theta1 + h theta2 / gamma_K); atoms 1 - min(1, gamma_K[, gamma_O])."""
    theta1, theta2 = theta(beta)
    no_output = TiedKeyValueLaw(beta, h, gamma_k)
    assert no_output.moments(1)[0] == pytest.approx(gamma_k * theta1 + h * theta2, rel=1e-13)
    assert no_output.atom == pytest.approx(max(0.0, 1 - gamma_k))
    output = TiedKeyValueLaw(beta, h, gamma_k, gamma_o)
    assert output.moments(1)[0] == pytest.approx(gamma_o * (theta1 + h * theta2 / gamma_k))
    assert output.atom == pytest.approx(1 - min(1.0, gamma_k, gamma_o))


def quadrature_moments(law, powers, nodes=400):
    """int x^k p(x) dx over the support by Gauss-Legendre in theta: x = lo + (hi - lo) u with
    u = sin^2(theta/2) (square-root edges), or x = hi u^3 on an interval from 0 (where p may
    blow up like x^{-1/2} or x^{-2/3}): independent of the laws' cdf code."""
    t, weights = np.polynomial.legendre.leggauss(nodes)
    theta_ = 0.5 * np.pi * (t + 1)
    weights = 0.5 * np.pi * weights
    u, du = np.sin(theta_ / 2) ** 2, 0.5 * np.sin(theta_)
    out = np.zeros(len(powers))
    for lo, hi in law.support():
        if lo == 0:
            x, dx = hi * u**3, 3 * hi * u**2 * du
        else:
            x, dx = lo + (hi - lo) * u, (hi - lo) * du
        p = law.density(x)
        out += [np.sum(weights * dx * p * x**k) for k in powers]
    return out


@pytest.mark.parametrize(
    "law",
    [
        MultiHeadLaw(1.0, 12, 1.5, 1.5, 1.5),
        MultiHeadLaw(1.0, 16, 1.0, 1.0, 1.0),
        MultiHeadLaw(1.0, 4, 2.0, 0.7, 0.4),
        MultiHeadLaw(0.5, 2, 0.25, 3.0, 3.0),
        TiedKeyValueLaw(1.0, 32, 1.0, 1.0),
        TiedKeyValueLaw(1.0, 16, 0.5, 2.0),
        TiedKeyValueLaw(0.5, 8, 0.25),
    ],
    ids=["BERT", "ModernBERT", "atoms", "gap", "Kayyam", "tied-atom", "tied-no-output"],
)
def test_density_carries_the_mass_and_moments_of_the_series(law):
    """The density (continuation of the Cauchy transform) integrates to 1 - atom and its first
    three moments equal those of the S-transform series: two independent computations."""
    mass, *moments = quadrature_moments(law, [0, 1, 2, 3])
    assert mass + law.atom == pytest.approx(1.0, abs=1e-7)
    np.testing.assert_allclose(moments, law.moments(3), rtol=1e-6)


@pytest.mark.parametrize(
    "law",
    [MultiHeadLaw(1.0, 4, 2.0, 0.7, 0.4), MultiHeadLaw(0.5, 2, 0.25, 3.0, 3.0)],
    ids=["atoms", "gap"],
)
def test_cdf_quantile_atom_and_edge(law):
    assert law.cdf(np.array([-1.0, 0.0]))[1] == pytest.approx(law.atom)
    assert law.cdf(np.array([-1.0]))[0] == 0.0
    assert law.cdf(np.array([law.edge, 2 * law.edge])) == pytest.approx([1.0, 1.0], abs=1e-10)
    levels = np.linspace(law.atom, 1, 13)[1:-1]
    np.testing.assert_allclose(law.cdf(law.quantile(levels)), levels, atol=1e-9)
    assert np.all(law.quantile(np.array([0.0, law.atom])) == 0.0)
    top = law.support()[-1]
    assert law.density(np.array([top[1] * (1 - 1e-4)]))[0] > 0
    assert law.density(np.array([top[1] * (1 + 1e-4)]))[0] == 0
    for (_, upper), (lower, _) in zip(law.support()[:-1], law.support()[1:], strict=True):
        middle = 0.5 * (upper + lower)  # inside a gap
        assert law.density(np.array([middle]))[0] == 0
        assert law.cdf(np.array([upper])) == pytest.approx(law.cdf(np.array([lower])), abs=1e-12)


def test_across_head_sharing_keeps_the_law_and_tying_changes_it():
    """Untied K/V shared across heads has the independent heads' law (corollary C.4 allows any
    across-head dependence; C.10 uses only each head's key law); tying changes the mean by the
    factor 1 + h theta2 / (gamma_K theta1) (section 5.3)."""
    shapes = [MultiHeadShape(2048, 2048, 32, 64, 64, 2048, kv_heads=k) for k in (32, 8, 1)]
    laws = [limit_law(shape, 1.0) for shape in shapes]
    x = np.linspace(0, laws[0].edge, 50)[1:]
    for other in laws[1:]:
        np.testing.assert_array_equal(other.density(x), laws[0].density(x))
    tied = limit_law(MultiHeadShape(2048, 2048, 32, 64, 64, 2048, tied=True), 1.0)
    assert isinstance(tied, TiedKeyValueLaw)
    assert tied.mean / laws[0].mean == pytest.approx(1 + 32 / (1.0 * (E - 1)))


@pytest.mark.parametrize(
    "shape",
    [
        MultiHeadShape(512, 768, 12, 64, 64, 768),
        MultiHeadShape(261, 1024, 16, 64, 64, 1024),
        MultiHeadShape(2048, 2048, 32, 64, 64, 2048, tied=True),
        MultiHeadShape(256, 256, 8, 16, 16),
        MultiHeadShape(256, 256, 8, 16, 16, tied=True),
        MultiHeadShape(256, 256, 8, 16),
    ],
)
def test_limit_mean_is_the_laws_mean(shape):
    assert limit_mean(shape, 1.0) == pytest.approx(limit_law(shape, 1.0).mean, rel=1e-14)


def test_paper_table_d2_limiting_means():
    """Appendix D.1: (d_O / n)(e - 1) for independent K/V and MQA, (d_O / n)(e - 1 + n / d_K)
    for K = V."""
    bert = MultiHeadShape(512, 768, 12, 64, 64, 768)
    falcon = MultiHeadShape(2048, 4544, 71, 64, 64, 4544, kv_heads=1)
    kayyam = MultiHeadShape(2048, 2048, 32, 64, 64, 2048, tied=True)
    assert limit_mean(bert, 1.0) == pytest.approx(768 / 512 * (E - 1))
    assert limit_mean(falcon, 1.0) == pytest.approx(4544 / 2048 * (E - 1))
    assert limit_mean(kayyam, 1.0) == pytest.approx(E - 1 + 2048 / 64)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: MultiHeadLaw(0.0, 4, 1.0), MULTIHEAD_BETA),
        (lambda: MultiHeadLaw(9.0, 4, 1.0), MULTIHEAD_BETA),
        (lambda: MultiHeadLaw(1.0, 0, 1.0), "heads must be an integer"),
        (lambda: MultiHeadLaw(1.0, 2.5, 1.0), "heads must be an integer"),
        (lambda: MultiHeadLaw(1.0, 4, -1.0), "gamma_k must lie in"),
        (lambda: MultiHeadLaw(1.0, 4, 1.0, gamma_o=1.0), "gamma_o needs gamma_v"),
        (lambda: MultiHeadLaw(1.0, 4, 1.0, float("nan")), "gamma_v must lie in"),
        (lambda: TiedKeyValueLaw(1.0, 4, 1.0, 1e9), "gamma_o must lie in"),
        (lambda: MultiHeadLaw(1.0, 4, 1.0).moments(13), "order must lie in"),
        (lambda: MultiHeadLaw(1.0, 4, 1.0).quantile(np.array([1.5])), "quantile levels"),
    ],
)
def test_bad_inputs_raise_value_errors_naming_the_argument(build, message):
    with pytest.raises(ValueError, match=message):
        build()
