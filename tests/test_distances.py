"""Kolmogorov and Wasserstein-1 distances on cases with known answers, against scipy, and the
Kolmogorov distance between two laws (the unit of paper A's margins)."""

import numpy as np
import pytest
from scipy import stats

from attnspec.distances import kolmogorov_distance, law_kolmogorov_distance, wasserstein1
from attnspec.theory import MarchenkoPasturSurrogate, NuInfinity

N = 4000


@pytest.fixture
def sample():
    return np.random.default_rng(0).standard_normal(N)


def test_kolmogorov_one_sample_matches_scipy_and_detects_a_shift(sample):
    own = kolmogorov_distance(sample, stats.norm.cdf)
    assert own == pytest.approx(stats.ks_1samp(sample, stats.norm.cdf).statistic, abs=1e-14)
    assert own < 1.95 / np.sqrt(N)  # the level-1e-3 critical value
    shifted = kolmogorov_distance(sample + 0.5, stats.norm.cdf)
    # sup |Phi(x - 0.5) - Phi(x)| = 2 Phi(0.25) - 1 = 0.197.
    assert shifted == pytest.approx(2 * stats.norm.cdf(0.25) - 1, abs=0.03)


def test_kolmogorov_two_sample_matches_scipy(sample):
    other = np.random.default_rng(1).standard_normal(N // 2) + 0.1
    expected = stats.ks_2samp(sample, other).statistic
    assert kolmogorov_distance(sample, other) == pytest.approx(expected, abs=1e-14)
    assert kolmogorov_distance(sample, sample) == 0.0
    # Ties across the two samples: the supremum is taken after all tied points.
    assert kolmogorov_distance([0.0, 1.0], [1.0, 2.0]) == 0.5


def test_wasserstein_two_sample_matches_scipy_and_a_shift(sample):
    other = np.random.default_rng(2).standard_normal(N // 2)
    expected = stats.wasserstein_distance(sample, other)
    assert wasserstein1(sample, other) == pytest.approx(expected, rel=1e-12)
    assert wasserstein1(sample, sample + 0.7) == pytest.approx(0.7, rel=1e-12)


def test_wasserstein_one_sample_against_the_exact_uniform_integral():
    x = np.sort(np.random.default_rng(3).uniform(size=500))
    # int_{(i-1)/n}^{i/n} |x_i - t| dt in closed form.
    lower, upper = np.arange(500) / 500, np.arange(1, 501) / 500
    inside = (x > lower) & (x < upper)
    exact = np.where(
        inside,
        ((x - lower) ** 2 + (upper - x) ** 2) / 2,
        np.abs((lower + upper) / 2 - x) / 500,
    ).sum()
    assert wasserstein1(x, lambda t: t) == pytest.approx(exact, rel=1e-4)


def test_wasserstein_one_sample_is_small_for_its_own_law_and_the_shift_for_a_shifted_one(sample):
    own = wasserstein1(sample, stats.norm.ppf)
    assert own < 0.05  # E W1 ~ 1/sqrt(N) up to a constant for the normal law
    assert wasserstein1(sample, lambda t: stats.norm.ppf(t) + 3.0) == pytest.approx(3.0, abs=own)


def test_empty_or_non_finite_samples_are_refused():
    with pytest.raises(ValueError):
        kolmogorov_distance([], stats.norm.cdf)
    with pytest.raises(ValueError):
        wasserstein1([0.0, np.nan], [1.0])


class _Uniform:
    """The uniform law on [0, top] with the cdf and support() a law of the library has."""

    def __init__(self, top):
        self.top = top

    def cdf(self, x):
        return np.clip(np.asarray(x) / self.top, 0.0, 1.0)

    def support(self):
        return [(0.0, self.top)]


def test_law_distance_of_two_uniform_laws_is_known_in_closed_form():
    # sup |x - x/2| on [0, 1] (then 1 - x/2 on [1, 2]) = 1/2 at x = 1, a support endpoint.
    assert law_kolmogorov_distance(_Uniform(1.0), _Uniform(2.0)) == pytest.approx(0.5, abs=1e-12)
    assert law_kolmogorov_distance(_Uniform(3.0), _Uniform(3.0)) == 0.0


def test_law_distance_of_nu_inf_and_mp_is_symmetric_shrinks_with_beta_and_bounds_the_data():
    """KS(nu_inf, MP) is the unit of paper A's margins: from theory, and (triangle inequality)
    an upper bound of KS(x, MP) - KS(x, nu_inf) for any sample x."""
    distances = [
        law_kolmogorov_distance(NuInfinity(beta, 1.0), MarchenkoPasturSurrogate(beta))
        for beta in (0.5, 1.0, 1.5)
    ]
    assert distances[0] > distances[1] > distances[2] > 0
    assert law_kolmogorov_distance(
        MarchenkoPasturSurrogate(1.0), NuInfinity(1.0, 1.0)
    ) == pytest.approx(distances[1], abs=1e-15)
    # a finer grid moves the value by far less than any margin built on it (0.25 x 0.048)
    fine = law_kolmogorov_distance(
        NuInfinity(1.0, 1.0), MarchenkoPasturSurrogate(1.0), points=800_001
    )
    assert abs(fine - distances[1]) < 1e-6
    sample = NuInfinity(1.0, 1.0).quantile((np.arange(500) + 0.5) / 500)
    separation = kolmogorov_distance(
        sample, MarchenkoPasturSurrogate(1.0).cdf
    ) - kolmogorov_distance(sample, NuInfinity(1.0, 1.0).cdf)
    assert separation <= distances[1] + 1e-12


def test_law_distance_needs_a_grid():
    with pytest.raises(ValueError, match="points"):
        law_kolmogorov_distance(_Uniform(1.0), _Uniform(2.0), points=1)


def test_law_distance_refined_on_the_even_grid():
    """grid="even" with refine (paper D's settings): the grid value, then a bounded search
    between the best point's neighbours; the maximum of |x / 3 - x^2 / 9| on [0, 3] at 1.5 is
    off the 4-point grid."""

    class _Square(_Uniform):
        def cdf(self, x):
            return np.clip(np.asarray(x) / self.top, 0.0, 1.0) ** 2

    coarse = law_kolmogorov_distance(_Uniform(3.0), _Square(3.0), points=4, grid="even")
    refined = law_kolmogorov_distance(
        _Uniform(3.0), _Square(3.0), points=4, grid="even", refine=True
    )
    assert coarse == pytest.approx(2 / 9, abs=1e-15)
    assert refined == pytest.approx(0.25, abs=1e-12)
    with pytest.raises(ValueError, match="grid must be one of"):
        law_kolmogorov_distance(_Uniform(1.0), _Uniform(2.0), grid="odd")
