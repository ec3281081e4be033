"""Kolmogorov and Wasserstein-1 distances on cases with known answers, and against scipy."""

import numpy as np
import pytest
from scipy import stats

from attnspec.distances import kolmogorov_distance, wasserstein1

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
