"""Paper A's stepwise models (figure A1): exact conditional covariance, normalisation, noise."""

import numpy as np
import pytest

from attnspec.distances import kolmogorov_distance
from attnspec.models import gaussian_equivalent
from attnspec.models.gaussian_equivalent import (
    STEPWISE_MODELS,
    attention_bulk_matrix,
    conditional_covariance,
    conditional_gaussian_model,
    linear_model,
    stepwise_matrix,
)
from attnspec.models.sampling import (
    attention_matrix,
    remove_perron,
    sample_queries_keys,
    score_matrix,
)
from attnspec.seeding import rng_for
from attnspec.spectra.dense import squared_singular_values
from attnspec.theory.constants import nonlinearity_coefficients

PARAMS = {"test": "gaussian_equivalent"}


def covariance_and_standard_error(rows):
    """Sample covariance of iid rows and the Monte-Carlo standard error of each entry."""
    centred = rows - rows.mean(axis=0)
    products = centred[:, :, None] * centred[:, None, :]
    return products.mean(axis=0), products.std(axis=0) / np.sqrt(rows.shape[0])


def test_sigma_f_is_the_exact_conditional_covariance_of_a_row_of_f_of_s():
    """Fixed K (6 keys, d_qk = 8), 400 000 fresh queries: the sample covariance of
    f(S_i.) = exp(beta S_i. - beta^2/2) - 1 must match Sigma_f within 5 Monte-Carlo standard
    errors entrywise (36 entries, each |z| > 5 with probability 6e-7), its mean diag(D0) - 1
    likewise. The linearisation Sigma_G is many standard errors off, so the test can fail."""
    beta, n_keys, d_qk, n_queries = 0.6, 6, 8, 400_000
    rng = np.random.default_rng(11)
    K = rng.standard_normal((n_keys, d_qk))
    scores = rng.standard_normal((n_queries, d_qk)) @ K.T / np.sqrt(d_qk)
    rows = np.expm1(beta * scores - beta**2 / 2)
    covariance, error = covariance_and_standard_error(rows)
    sigma_f = conditional_covariance(K, beta)
    assert np.all(np.abs(covariance - sigma_f) <= 5 * error)
    d0 = np.exp(beta**2 * (np.sum(K**2, axis=1) / d_qk - 1) / 2)
    mean_error = rows.std(axis=0) / np.sqrt(n_queries)
    assert np.all(np.abs(rows.mean(axis=0) - (d0 - 1)) <= 5 * mean_error)
    sigma_g = conditional_covariance(K, beta, linearised=True)
    assert np.max(np.abs(covariance - sigma_g) / error) > 20


def test_the_linearised_covariance_is_beta_squared_gram_plus_a():
    K = np.random.default_rng(12).standard_normal((7, 5))
    beta = 1.3
    expected = beta**2 * K @ K.T / 5 + nonlinearity_coefficients(beta).a * np.eye(7)
    np.testing.assert_allclose(conditional_covariance(K, beta, linearised=True), expected)


@pytest.mark.parametrize("linearised", [False, True])
def test_conditional_gaussian_rows_have_covariance_sigma_over_ell(linearised):
    """4000 independent 6 x 6 draws given one K: pooled rows times sqrt(ell) must have the
    covariance Sigma within 5 Monte-Carlo standard errors entrywise (and mean 0)."""
    beta, ell = 0.9, 6
    K = np.random.default_rng(13).standard_normal((ell, 4))
    rng = np.random.default_rng(14)
    rows = np.concatenate(
        [conditional_gaussian_model(K, beta, rng, linearised=linearised) for _ in range(4000)]
    )
    rows *= np.sqrt(ell)
    covariance, error = covariance_and_standard_error(rows)
    sigma = conditional_covariance(K, beta, linearised=linearised)
    assert np.all(np.abs(covariance - sigma) <= 5 * error)
    assert np.all(np.abs(rows.mean(axis=0)) <= 5 * rows.std(axis=0) / np.sqrt(rows.shape[0]))


def test_noise_drawn_in_blocks_equals_one_whole_draw(monkeypatch):
    monkeypatch.setattr(gaussian_equivalent, "_NOISE_BLOCK_ROWS", 64)
    ell, beta = 150, 1.2  # three noise blocks, the last one partial
    Q, K = sample_queries_keys(np.random.default_rng(15), ell, 50)
    S = score_matrix(Q, K)
    a = nonlinearity_coefficients(beta).a
    noise = np.random.default_rng(16).standard_normal((ell, ell))
    whole = (beta * S + np.sqrt(a) * noise) / np.sqrt(ell)
    blocks = linear_model(S, beta, np.random.default_rng(16))
    np.testing.assert_allclose(blocks, whole, rtol=1e-13, atol=1e-15)

    w, vectors = np.linalg.eigh(conditional_covariance(K, beta))
    factor = vectors * np.sqrt(np.clip(w, 0, None) / ell)
    whole = np.random.default_rng(17).standard_normal((ell, ell)) @ factor.T
    blocks = conditional_gaussian_model(K, beta, np.random.default_rng(17))
    np.testing.assert_allclose(blocks, whole, rtol=1e-10, atol=1e-13)


def test_registry_names_are_figure_a1_order():
    assert list(STEPWISE_MODELS) == [
        "attention",
        "mean_normaliser",
        "entrywise",
        "conditional_gaussian",
        "conditional_gaussian_linear",
        "linear",
    ]
    with pytest.raises(ValueError, match="unknown stepwise model"):
        stepwise_matrix("softmax", np.zeros((2, 2)), np.zeros((2, 2)), 1.0, None)


def test_every_model_has_mean_squared_singular_value_theta1():
    """||M||_F^2 / ell -> theta1 = e^{beta^2} - 1 for each model (e^{beta^2} for Y, which keeps
    its mean 1 1^T / sqrt(ell)); at ell = d_qk = 400, beta = 0.5 all are within 5 %."""
    beta, ell = 0.5, 400
    theta1 = nonlinearity_coefficients(beta).theta1
    Q, K = sample_queries_keys(rng_for(PARAMS, 0, "qk"), ell, ell)
    for name in STEPWISE_MODELS:
        M = stepwise_matrix(name, Q, K, beta, rng_for(PARAMS, 0, f"noise/{name}"))
        assert M.shape == (ell, ell) and np.all(np.isfinite(M))
        expected = theta1 + 1 if name == "mean_normaliser" else theta1
        assert np.sum(M**2) / ell == pytest.approx(expected, rel=0.05), name


def test_attention_model_is_sqrt_ell_a_perp():
    Q, K = sample_queries_keys(np.random.default_rng(18), 50, 30)
    expected = np.sqrt(50) * remove_perron(attention_matrix(Q, K, 1.0))
    np.testing.assert_allclose(attention_bulk_matrix(Q, K, 1.0), expected, rtol=1e-13)


def test_a_draw_of_every_model_regenerates_bit_for_bit_and_draws_differ():
    def build(name, draw):
        Q, K = sample_queries_keys(rng_for(PARAMS, draw, "qk"), 40, 40)
        return stepwise_matrix(name, Q, K, 1.0, rng_for(PARAMS, draw, f"noise/{name}"))

    for name in STEPWISE_MODELS:
        assert np.array_equal(build(name, 3), build(name, 3)), name
        assert not np.array_equal(build(name, 3), build(name, 4)), name


def test_linear_model_bulk_matches_nu_infinity():
    """Y_lin at ell = 400, beta = 1 (5 draws pooled) against nu_inf (paper A's Gaussian
    equivalence); KS below 0.03 (the iid critical value at level 1e-3 for 2000 points is
    0.044, and the pooled spectra are more rigid than iid points)."""
    nu_infinity = pytest.importorskip("attnspec.theory.nu_infinity")
    law = nu_infinity.NuInfinity(1.0, 1.0)
    values = []
    for draw in range(5):
        Q, K = sample_queries_keys(rng_for(PARAMS, draw, "qk"), 400, 400)
        values.append(
            squared_singular_values(
                stepwise_matrix("linear", Q, K, 1.0, rng_for(PARAMS, draw, "noise"))
            )
        )
    assert kolmogorov_distance(np.concatenate(values), law.cdf) < 0.03
