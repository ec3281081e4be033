"""Every public entry point of attnspec.theory returns a correct finite value or raises one
ValueError that names the argument and the range it supports (issue 12, item 7)."""

import math

import numpy as np
import pytest

from attnspec.theory import (
    MarchenkoPasturSurrogate,
    NuInfinity,
    SymmetrisedLinearModel,
    bulk_density,
    bulk_edge,
    edge_large_beta,
    edge_small_beta,
    finite_deformed_mp_edge,
    mp_edge,
    nonlinearity_coefficients,
    population_law,
)
from attnspec.theory.constants import nonlinearity_ratio
from attnspec.theory.cumulative import SqrtEdgeCumulative
from attnspec.theory.edge import edge_cubic_coefficients, edge_cubic_roots
from attnspec.theory.marchenko_pastur import MarchenkoPastur, marchenko_pastur_stieltjes
from attnspec.validation import check_parameters

NAN, INF = float("nan"), float("inf")
BETA_RANGE = r"beta \(inverse temperature\) must be (0 or )?in \[1e-150, 26\.6\]"
RATIO_RANGE = r"ratio c = ell / d_qk must be in \[1e-08, 1e\+08\]"
BAD_BETAS = [NAN, INF, -INF, -1.0, 1e-300, 1e-151, 26.61, 27.0, 1e300]
BAD_RATIOS = [NAN, INF, -INF, 0.0, -2.0, 1e-300, 9e-9, 1.1e8, 1e300]
NOT_NUMBERS = ["abc", None, [1.0, 2.0], 1j]


# --- beta and ratio, for every function that takes them --------------------------------------

BETA_FUNCTIONS = {
    "bulk_edge": lambda beta: bulk_edge(beta, 1.0),
    "mp_edge": mp_edge,
    "edge_small_beta": edge_small_beta,
    "edge_large_beta": edge_large_beta,
    "nonlinearity_coefficients": nonlinearity_coefficients,
    "nonlinearity_ratio": nonlinearity_ratio,
    "edge_cubic_coefficients": lambda beta: edge_cubic_coefficients(beta, 1.0),
    "edge_cubic_roots": lambda beta: edge_cubic_roots(beta, 1.0),
    "population_law": lambda beta: population_law(beta, 1.0),
    "MarchenkoPasturSurrogate": MarchenkoPasturSurrogate,
    "NuInfinity": lambda beta: NuInfinity(beta, 1.0),
    "bulk_density": lambda beta: bulk_density([1.0], beta, 1.0),
    "SymmetrisedLinearModel": lambda beta: SymmetrisedLinearModel(beta, 1.0),
    "check_parameters": lambda beta: check_parameters(beta, 1.0),
}
VECTORISED = {"mp_edge", "edge_small_beta", "edge_large_beta"}
RATIO_FUNCTIONS = {
    "bulk_edge": lambda c: bulk_edge(1.0, c),
    "edge_cubic_coefficients": lambda c: edge_cubic_coefficients(1.0, c),
    "edge_cubic_roots": lambda c: edge_cubic_roots(1.0, c),
    "population_law": lambda c: population_law(1.0, c),
    "NuInfinity": lambda c: NuInfinity(1.0, c),
    "bulk_density": lambda c: bulk_density([1.0], 1.0, c),
    "SymmetrisedLinearModel": lambda c: SymmetrisedLinearModel(1.0, c),
    "from_coefficients": lambda c: SymmetrisedLinearModel.from_coefficients(1.0, 1.0, c),
    "MarchenkoPastur": MarchenkoPastur,
    "marchenko_pastur_stieltjes": lambda c: marchenko_pastur_stieltjes(1.0 + 1j, c),
    "check_parameters": lambda c: check_parameters(1.0, c),
}
# Narrower beta ranges, each stated in the message.
NARROWER = {
    "edge_cubic_coefficients": r"must be in \[1e-100, 18\] for the stationary cubic",
    "edge_cubic_roots": r"must be in \[1e-100, 18\] for the stationary cubic",
    "NuInfinity": r"must be in \[1e-06, 26\.6\] for nu_inf",
    "bulk_density": r"must be in \[1e-06, 26\.6\] for nu_inf",
    "SymmetrisedLinearModel": r"must be in \[1e-06, 26\.6\] for the R-transform model",
}


@pytest.mark.parametrize("beta", BAD_BETAS + NOT_NUMBERS, ids=repr)
@pytest.mark.parametrize("name", sorted(BETA_FUNCTIONS))
def test_bad_beta_is_refused_naming_beta_and_its_range(name, beta):
    if isinstance(beta, list) and name in VECTORISED:
        beta = [1.0, NAN]  # a list is valid input there: make one entry bad
    numeric = isinstance(beta, float) or (isinstance(beta, list) and name in VECTORISED)
    expected = BETA_RANGE if numeric else r"beta \(inverse temperature\) must be"
    with pytest.raises(ValueError, match=expected):
        BETA_FUNCTIONS[name](beta)


@pytest.mark.parametrize(
    ("name", "beta"),
    [("edge_cubic_roots", 18.5), ("edge_cubic_roots", 1e-101)]
    + [("edge_cubic_coefficients", 19.0), ("edge_cubic_coefficients", 1e-120)]
    + [(name, beta) for name in ("NuInfinity", "bulk_density") for beta in (1e-7, 1e-100)]
    + [("SymmetrisedLinearModel", 9e-7), ("SymmetrisedLinearModel", 1e-150)],
)
def test_narrower_beta_ranges_are_stated(name, beta):
    with pytest.raises(ValueError, match=NARROWER[name]):
        BETA_FUNCTIONS[name](beta)


@pytest.mark.parametrize("name", sorted(set(BETA_FUNCTIONS) - {"bulk_edge", "mp_edge"}))
def test_beta_zero_is_degenerate_or_zero(name):
    allowed = {"edge_small_beta": 0.0, "nonlinearity_coefficients": (0.0, 0.0, 0.0, 0.0)}
    if name in allowed:
        assert BETA_FUNCTIONS[name](0.0) == allowed[name]
    else:
        with pytest.raises(ValueError, match="degenerate"):
            BETA_FUNCTIONS[name](0.0)


@pytest.mark.parametrize("ratio", BAD_RATIOS + ["abc", None], ids=repr)
@pytest.mark.parametrize("name", sorted(RATIO_FUNCTIONS))
def test_bad_ratio_is_refused_naming_the_ratio_and_its_range(name, ratio):
    expected = "ratio c = ell / d_qk must be a real number" if ratio in ("abc", None) else None
    with pytest.raises(ValueError, match=expected or RATIO_RANGE):
        RATIO_FUNCTIONS[name](ratio)


def test_vectorised_beta_names_the_first_bad_entry():
    with pytest.raises(ValueError, match=r"got nan"):
        mp_edge([1.0, NAN])
    with pytest.raises(ValueError, match=r"got 27\.0"):
        edge_small_beta(np.array([[0.5, 27.0]]))
    with pytest.raises(ValueError, match="beta"):
        edge_large_beta(["a", "b"])


# --- correct finite values at the ends of the supported ranges ---------------------------------


@pytest.mark.parametrize("beta", [19.0, 20.0, 22.0, 24.0, 26.0, 26.5, 26.6])
def test_bulk_edge_is_finite_and_matches_its_large_beta_expansion(beta):
    # OverflowError for 19 <= beta <= 26, ZeroDivisionError at 26.5 before.
    x = bulk_edge(beta, 1.0)
    assert math.isfinite(x)
    assert x == pytest.approx(edge_large_beta(beta), rel=4e-16)
    assert x > mp_edge(beta) * (1 - 1e-15)
    assert SymmetrisedLinearModel(beta).edge == pytest.approx(x, rel=1e-12)


@pytest.mark.parametrize("beta", [1e-150, 1e-100, 1e-20, 1e-8])
@pytest.mark.parametrize("c", [1e-8, 0.25, 1.0, 4.0, 1e8])
def test_bulk_edge_at_tiny_beta_is_the_product_of_two_gaussian_matrices(beta, c):
    # ZeroDivisionError at beta = 1e-300 before (now refused); a / b -> 0 leaves the edge of
    # MP_c ⊠ MP_1 scaled by b: g solves c (1 - c) g^2 + (1 + 2c) g - 1 = 0, x / b = w(g)^2 g.
    g = 2 / ((1 + 2 * c) + math.sqrt((1 + 2 * c) ** 2 + 4 * c * (1 - c)))
    w = 1 / g + 1 / (1 - c * g)
    x = bulk_edge(beta, c)
    assert x == pytest.approx(beta * beta * w * w * g, rel=max(4e-16, 2 * beta**2))


@pytest.mark.parametrize("c", [1e-8, 1e-3, 1.0, 1e3, 1e8])
@pytest.mark.parametrize("beta", [1e-6, 1e-3, 1.0, 5.0, 18.0, 26.6])
def test_edge_routes_agree_over_the_whole_range(beta, c):
    # brentq's "function value is NaN" from beta = 27 and at ratio 1e300 before (now refused).
    x = bulk_edge(beta, c)
    assert math.isfinite(x) and x > 0
    assert SymmetrisedLinearModel(beta, c).edge == pytest.approx(x, rel=1e-10)
    if beta <= 18:
        cubic = edge_cubic_roots(beta, c)
        assert np.all(np.isfinite(cubic.roots)) and np.all(np.isfinite(cubic.edges))
        assert cubic.edges[cubic.physical_index].real == x
        assert np.all(np.isfinite(edge_cubic_coefficients(beta, c)))


@pytest.mark.parametrize("beta", [26.0, 26.5, 26.6])
def test_mp_edge_is_finite_up_to_the_range_end(beta):
    # inf for beta >= 27 before (now refused).
    assert mp_edge(beta) == pytest.approx(4 * math.expm1(beta * beta), rel=1e-15)
    assert math.isfinite(MarchenkoPasturSurrogate(beta).edge)


@pytest.mark.parametrize(("beta", "c"), [(26.6, 1e-8), (26.6, 1e8), (1e-6, 1e-8), (1e-6, 1e8)])
def test_nu_infinity_at_the_corners_of_its_range(beta, c):
    law = NuInfinity(beta, c)
    assert law.cdf(law.edge) == pytest.approx(1.0, abs=1e-12)
    assert law.mean == pytest.approx(math.expm1(beta * beta), rel=1e-14)
    x = np.linspace(0, law.edge, 101)[1:-1]
    assert np.all(np.isfinite(law.density(x))) and np.all(law.density(x) >= 0)
    quantiles = law.quantile(np.linspace(0, 1, 11))
    assert np.all(np.diff(quantiles) >= 0) and quantiles[-1] == pytest.approx(law.edge)


def test_nu_infinity_density_keeps_its_square_root_law_below_the_quartics_reach():
    # The quartic's y^2 terms underflow below y = x / theta1 ~ 1e-160 (density was 0 there).
    law = NuInfinity(1.0, 1.0)
    x = np.array([1e-80, 1e-150, 1e-250, 1e-300, 5e-324])
    root = np.sqrt(x) * law.density(x)
    np.testing.assert_allclose(root, root[0], rtol=1e-12)
    assert np.sqrt(1e-20) * law.density(1e-20) == pytest.approx(root[0], rel=1e-9)


def test_second_moments_overflow_with_a_value_error():
    assert math.isfinite(NuInfinity(18.0).second_moment)
    for law in (NuInfinity(19.0), population_law(19.0), MarchenkoPasturSurrogate(19.0)):
        with pytest.raises(ValueError, match="second moment"):
            _ = law.second_moment


# --- arrays: x, q, w, G, s, theta ------------------------------------------------------------

LAWS = {
    "NuInfinity": lambda: NuInfinity(1.0, 4.0),
    "MarchenkoPastur": lambda: MarchenkoPastur(4.0, scale=2.0, shift=0.3),
    "MarchenkoPasturSurrogate": lambda: MarchenkoPasturSurrogate(1.0),
    "SymmetrisedLinearModel": lambda: SymmetrisedLinearModel(1.0, 4.0),
}


@pytest.mark.parametrize("name", sorted(LAWS))
def test_density_of_nan_is_refused_and_of_infinity_is_zero(name):
    # bulk_density mapped NaN x to 0 before.
    law = LAWS[name]()
    with pytest.raises(ValueError, match="x must be real numbers, not NaN"):
        law.density([1.0, NAN])
    with pytest.raises(ValueError, match="x must be real numbers"):
        law.density("abc")
    np.testing.assert_array_equal(law.density([-INF, INF, -1.0, 0.0, 1e300]), 0.0)


def test_bulk_density_of_nan_is_refused():
    with pytest.raises(ValueError, match="x must be real numbers, not NaN"):
        bulk_density([0.5, NAN], 1.0)


@pytest.mark.parametrize("name", ["NuInfinity", "MarchenkoPastur", "MarchenkoPasturSurrogate"])
def test_cdf_and_quantile_inputs(name):
    law = LAWS[name]()
    with pytest.raises(ValueError, match="x must be"):
        law.cdf([0.5, NAN])
    np.testing.assert_allclose(law.cdf([-INF, INF, 1e300, -1e300]), [0, 1, 1, 0], atol=1e-12)
    for q in ([NAN], [-0.1], [1.5], [INF]):
        with pytest.raises(ValueError, match=r"quantile levels q must"):
            law.quantile(q)


def test_marchenko_pastur_stieltjes_inputs():
    with pytest.raises(ValueError, match="w must be finite"):
        marchenko_pastur_stieltjes([1.0, NAN], 0.5)
    with pytest.raises(ValueError, match="w must be finite"):
        marchenko_pastur_stieltjes(complex(INF, 0), 0.5)
    for c in (1.0, 4.0):
        with pytest.raises(ValueError, match="w = 0 is a pole"):
            marchenko_pastur_stieltjes([1.0, 0.0], c)
    assert marchenko_pastur_stieltjes(0.0, 0.25) == pytest.approx(-1 / (1 - 0.25))
    far = np.array([1e150, -1e250, 1e300j])
    np.testing.assert_allclose(marchenko_pastur_stieltjes(far, 4.0) * far, 1.0, rtol=1e-15)


def test_marchenko_pastur_law_inputs():
    for scale in (0.0, -1.0, NAN, INF):
        with pytest.raises(ValueError, match="scale must be finite and > 0"):
            MarchenkoPastur(1.0, scale=scale)
    for shift in (NAN, INF):
        with pytest.raises(ValueError, match="shift must be finite"):
            MarchenkoPastur(1.0, shift=shift)
    with pytest.raises(ValueError, match="right edge .* overflows"):
        MarchenkoPastur(4.0, scale=1e308)
    with pytest.raises(ValueError, match="second moment overflows"):
        _ = MarchenkoPastur(1.0, scale=1e200).second_moment
    law = MarchenkoPastur(4.0, scale=2.0, shift=0.3)
    with pytest.raises(ValueError, match="pole of the atom"):
        law.stieltjes(0.3)
    with pytest.raises(ValueError, match="w must be finite"):
        law.stieltjes(NAN)
    assert law.stieltjes(1e300) == pytest.approx(1e-300, rel=1e-15)


def test_r_transform_model_array_inputs():
    model = SymmetrisedLinearModel(1.0, 4.0)
    _, _, _, b = nonlinearity_coefficients(1.0)
    pole = 1 / math.sqrt(4.0 * b)
    for method in (model.r_transform, model.inverse_cauchy):
        with pytest.raises(ValueError, match="G must be finite"):
            method([0.1, NAN])
        with pytest.raises(ValueError, match="G: .* is not finite there"):
            method(pole)
    with pytest.raises(ValueError, match=r"G: K\(G\) is not finite"):
        model.inverse_cauchy(0.0)
    assert model.r_transform(0.0) == 0.0
    for s in (NAN, INF):
        with pytest.raises(ValueError, match="s must be finite"):
            model.cauchy([1.0, s])
    far = np.array([1e8, -1e120, 1e300])
    np.testing.assert_allclose(model.cauchy(far) * far, 1.0, rtol=1e-12)
    assert np.isfinite(model.cauchy(0.0)) and model.cauchy(0.0).imag < 0


def test_spike_outlier_inputs():
    model = SymmetrisedLinearModel(1.0)
    for theta in (NAN, INF, -1.0):
        with pytest.raises(ValueError, match="theta"):
            model.spike_outlier(theta)
    with pytest.raises(ValueError, match=r"theta \(spike strength\): the outlier .* overflows"):
        model.spike_outlier(1e200)
    assert model.spike_outlier(1e150) == pytest.approx(1e300, rel=1e-12)
    assert np.isnan(model.spike_outlier(0.0))  # below the threshold 1/G*: no outlier


def test_from_coefficients_inputs():
    for a, b in [(NAN, 1.0), (-1.0, 1.0), (0.0, 1.0), (1.0, 0.0), (1.0, -1.0), (1.0, INF)]:
        with pytest.raises(ValueError, match="need finite a > 0 and b > 0"):
            SymmetrisedLinearModel.from_coefficients(a, b)
    for a, b in [(1e300, 1e300), (1.0, 1e-301), (1e-13, 1.0)]:
        with pytest.raises(ValueError, match=r"need a \+ b <= 1e\+300"):
            SymmetrisedLinearModel.from_coefficients(a, b)
    with pytest.raises(ValueError, match="a must be a real number"):
        SymmetrisedLinearModel.from_coefficients("x", 1.0)
    model = SymmetrisedLinearModel.from_coefficients(1e299, 1e299)
    assert model.edge == pytest.approx(1e299 * SymmetrisedLinearModel.from_coefficients(1, 1).edge)


@pytest.mark.parametrize(
    ("eigenvalues", "message"),
    [
        ([], "non-empty"),
        ([1.0, NAN], "finite"),
        ([1.0, INF], "finite"),
        ([-1.0, -2.0], "largest eigenvalue must be >= 0"),
        ([1e308, 1.0], r"largest eigenvalue must be <= 4e\+307"),
        ("abc", "eigenvalues must be real numbers"),
    ],
)
def test_deformed_mp_edge_inputs(eigenvalues, message):
    with pytest.raises(ValueError, match=message):
        finite_deformed_mp_edge(eigenvalues)


def test_deformed_mp_edge_is_homogeneous_down_to_subnormal_and_up_to_4e307():
    sigma = np.random.default_rng(3).gamma(2.0, size=200)
    edge = finite_deformed_mp_edge(sigma)
    for scale in (1e-300, 1e300 / sigma.max()):
        assert finite_deformed_mp_edge(scale * sigma) == pytest.approx(scale * edge, rel=1e-13)
    assert finite_deformed_mp_edge([4e307, 4e307]) == pytest.approx(1.6e308, rel=1e-15)


@pytest.mark.parametrize(
    "intervals",
    [[], [(1.0, 0.0)], [(0.0, 1.0), (0.5, 2.0)], [(-1.0, 1.0)], [(0.0, INF)], "abc", [(0, 1, 2)]],
    ids=repr,
)
def test_sqrt_edge_cumulative_refuses_bad_intervals(intervals):
    with pytest.raises(ValueError, match="intervals must be"):
        SqrtEdgeCumulative(np.ones_like, intervals)


@pytest.mark.parametrize("tolerance", [0.0, -1.0, 2.0, NAN, "x"], ids=repr)
def test_sqrt_edge_cumulative_refuses_bad_tolerance(tolerance):
    with pytest.raises(ValueError, match=r"tolerance must be a number in \(0, 1\)"):
        SqrtEdgeCumulative(np.ones_like, [(0.0, 1.0)], tolerance)


def test_sqrt_edge_cumulative_on_a_uniform_law():
    law = SqrtEdgeCumulative(np.ones_like, [(0.0, 0.25), (0.5, 1.25)])
    np.testing.assert_allclose(law.cdf([0.1, 0.25, 0.4, 1.0, INF]), [0.1, 0.25, 0.25, 0.75, 1.0])
    np.testing.assert_allclose(law.quantile([0.1, 0.25, 0.5, 1.0]), [0.1, 0.25, 0.75, 1.25])
    with pytest.raises(ValueError, match="x must be real numbers, not NaN"):
        law.cdf(NAN)
