"""Figure B7's maths (attnspec.papers.b.visibility_summary): the extreme-value model of theta_max =
max_ij |(sqrt(ell) A_perp)_ij| against a direct Monte Carlo of softmax attention, the critical
size ell*(beta) against its defining equation and its large-beta asymptote, and ValueErrors."""

import numpy as np
import pytest

from attnspec.papers.b.visibility_summary import (
    SMALLEST_SIZE,
    critical_size,
    critical_sizes,
    spike_quantile,
    spike_threshold,
    supercritical_fraction,
    typical_spike,
)
from attnspec.seeding import rng_for
from attnspec.theory.r_transform import SymmetrisedLinearModel

MONTE_CARLO_SIZE = 128
MONTE_CARLO_DRAWS = 200
BETAS = (0.5, 1.0, 1.5, 2.0)
PROBABILITIES = (0.1, 0.5, 0.9)
MODEL_TOLERANCE = 0.12
"""Relative distance allowed between the model's quantiles of theta_max and the Monte Carlo's
at ell = 128 (measured 3-10 %, the model low: it neglects the spread of |q_i|^2 / d_qk; the
Monte Carlo quantiles' own error is about 2-3 %)."""


@pytest.fixture(scope="module")
def monte_carlo():
    """theta_max of MONTE_CARLO_DRAWS draws of A = row-softmax(beta Q K^T / sqrt(d_qk)), c = 1,
    computed directly (float64, every entry), for each beta of BETAS."""
    ell = MONTE_CARLO_SIZE
    theta = {beta: [] for beta in BETAS}
    for draw in range(MONTE_CARLO_DRAWS):
        rng = rng_for({"test": "visibility", "n_tokens": ell}, draw)
        q, k = rng.standard_normal((2, ell, ell))
        scores = q @ k.T / np.sqrt(ell)
        for beta in BETAS:
            z = beta * scores
            a = np.exp(z - z.max(axis=1, keepdims=True))
            a /= a.sum(axis=1, keepdims=True)
            theta[beta].append(np.sqrt(ell) * np.abs(a - 1.0 / ell).max())
    return {beta: np.asarray(values) for beta, values in theta.items()}


@pytest.mark.parametrize("beta", BETAS)
def test_the_model_quantiles_of_theta_max_match_a_direct_monte_carlo(monte_carlo, beta):
    measured = np.quantile(monte_carlo[beta], PROBABILITIES)
    model = [spike_quantile(MONTE_CARLO_SIZE, beta, p)[()] for p in PROBABILITIES]
    np.testing.assert_allclose(model, measured, rtol=MODEL_TOLERANCE)


def test_the_model_is_not_loose_enough_to_pass_a_wrong_beta(monte_carlo):
    """The tolerance distinguishes beta from beta * 1.2 (a test that can fail)."""
    measured = np.median(monte_carlo[1.0])
    wrong = typical_spike(MONTE_CARLO_SIZE, 1.2)[()]
    assert abs(wrong / measured - 1) > MODEL_TOLERANCE


def test_the_quantiles_are_ordered_and_bounded_by_sqrt_ell():
    ell = np.geomspace(2, 1e12, 40)
    low, median, high = (spike_quantile(ell, 1.5, p) for p in PROBABILITIES)
    assert np.all(low < median) and np.all(median < high)
    assert np.all(high < np.sqrt(ell)) and np.all(low >= 0) and np.all(median[1:] > 0)
    assert np.array_equal(typical_spike(ell, 1.5), median)


@pytest.mark.parametrize("ell", [10.0, 1e3, 1e8])
@pytest.mark.parametrize("probability", PROBABILITIES)
def test_the_quantile_inverts_the_law_of_the_largest_of_ell_squared_gaussians(ell, probability):
    """theta mapped back to M = max_ij (beta S_ij - beta^2/2), e^{-M} = (sqrt(ell) / (theta +
    1/sqrt(ell)) - 1) / (ell - 1), satisfies ell^2 log Phi((M + beta^2/2)/beta) = log p."""
    from scipy.special import log_ndtr

    beta = 1.5
    theta = spike_quantile(ell, beta, probability)[()]
    largest = -np.log((np.sqrt(ell) / (theta + 1 / np.sqrt(ell)) - 1) / (ell - 1))
    log_p = ell**2 * log_ndtr((largest + beta**2 / 2) / beta)
    assert log_p == pytest.approx(np.log(probability), rel=1e-6)


def test_the_threshold_is_one_over_the_edge_point():
    model = SymmetrisedLinearModel(1.0, 2.0)
    assert spike_threshold(1.0, 2.0) == 1.0 / model.critical_point


@pytest.mark.parametrize("beta", [1.0, 1.25, 1.5, 2.0])
def test_the_critical_size_solves_its_equation_and_is_the_last_crossing(beta):
    size = critical_size(beta)
    threshold = spike_threshold(beta)
    assert typical_spike(size, beta)[()] == pytest.approx(threshold, rel=1e-9)
    above = np.geomspace(size * 1.01, size * 1e6, 50)
    assert np.all(typical_spike(above, beta) < threshold)


def test_the_critical_size_grows_with_beta():
    betas = np.linspace(0.9, 3.0, 30)
    sizes = critical_sizes(betas)
    assert np.all(np.diff(sizes) > 0)


@pytest.mark.parametrize("beta", [2.5, 3.0])
def test_the_critical_size_approaches_its_large_beta_asymptote(beta):
    """log ell* ~ (2 beta + sqrt(3 beta^2 + 2 log G*))^2 (module docstring): within 6 %."""
    g = SymmetrisedLinearModel(beta).critical_point
    asymptote = (2 * beta + np.sqrt(3 * beta**2 + 2 * np.log(g))) ** 2
    assert np.log(critical_size(beta)) == pytest.approx(asymptote, rel=0.06)


def test_a_beta_whose_typical_spike_never_reaches_the_threshold_has_the_smallest_size():
    assert critical_size(0.5) == SMALLEST_SIZE
    assert np.all(typical_spike(np.geomspace(2, 1e6, 30), 0.5) < spike_threshold(0.5))


def test_the_quantiles_order_the_critical_sizes():
    low, median, high = (critical_size(1.5, 1.0, p) for p in PROBABILITIES)
    assert low < median < high


def test_the_supercritical_fraction_counts_draws_above_the_threshold():
    threshold = spike_threshold(1.0)
    theta = np.array([threshold * 0.5, threshold * 2, threshold * 3, threshold * 0.9])
    assert supercritical_fraction(theta, 1.0) == 0.5


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: spike_quantile(1.0, 1.0), "n_tokens"),
        (lambda: spike_quantile(np.inf, 1.0), "n_tokens"),
        (lambda: spike_quantile(1e200, 1.0), "n_tokens"),
        (lambda: spike_quantile(100, 0.0), "beta"),
        (lambda: spike_quantile(100, -1.0), "beta"),
        (lambda: spike_quantile(100, 1.0, 1.0), "probability"),
        (lambda: spike_quantile(100, 1.0, 0.0), "probability"),
        (lambda: critical_size(1.0, -2.0), "ratio"),
        (lambda: critical_size(np.nan), "beta"),
        (lambda: critical_size(6.5), "beta"),
        (lambda: critical_sizes([1.0, -1.0]), "beta"),
        (lambda: supercritical_fraction([], 1.0), "theta_max"),
        (lambda: supercritical_fraction([-1.0], 1.0), "theta_max"),
        (lambda: supercritical_fraction([np.nan], 1.0), "theta_max"),
    ],
)
def test_bad_arguments_raise_value_errors_naming_them(call, name):
    with pytest.raises(ValueError, match=name):
        call()
