"""Dense squared singular values (Gram eigenvalues) against the SVD; rank-one interlacing."""

import numpy as np
import pytest

from attnspec.models.sampling import attention_matrix, remove_perron, sample_queries_keys
from attnspec.spectra.dense import bulk_squared_singular_values, squared_singular_values

X_PLUS = 9.53  # right edge of nu_inf at beta = 1, c = 1 (papers.md section 2)


def attention(n_tokens, d_qk, beta=1.0, seed=0, mask="bidirectional"):
    Q, K = sample_queries_keys(np.random.default_rng(seed), n_tokens, d_qk)
    return attention_matrix(Q, K, beta, mask=mask)


def test_matches_the_full_svd_to_1e_10_x_plus_on_the_scaled_bulk():
    A = attention(500, 500)
    M = np.sqrt(500) * remove_perron(A)
    reference = np.linalg.svd(M)[1] ** 2
    values = squared_singular_values(M)
    assert np.all(np.diff(values) <= 0) and values.min() >= 0
    assert np.max(np.abs(values - reference)) <= 1e-10 * X_PLUS
    # With the Perron value (about ell) included, the absolute error is still tiny.
    with_perron = squared_singular_values(np.sqrt(500) * A)
    assert np.max(np.abs(with_perron - np.linalg.svd(np.sqrt(500) * A)[1] ** 2)) <= 1e-10 * X_PLUS


@pytest.mark.parametrize("shape", [(30, 70), (70, 30)])
def test_rectangular_matrices_use_the_smaller_gram_matrix(shape):
    M = np.random.default_rng(1).standard_normal(shape)
    values = squared_singular_values(M)
    assert values.shape == (30,)
    np.testing.assert_allclose(values, np.linalg.svd(M, compute_uv=False) ** 2, rtol=1e-12)


@pytest.mark.parametrize("mask", ["bidirectional", "causal"])
def test_bulk_values_equal_those_of_sqrt_ell_a_perp_formed_explicitly(mask):
    A = attention(300, 150, beta=1.5, mask=mask)
    reference = squared_singular_values(np.sqrt(300) * remove_perron(A))
    np.testing.assert_allclose(bulk_squared_singular_values(A), reference, rtol=0, atol=1e-11)
    np.testing.assert_allclose(
        bulk_squared_singular_values(A, n_removed=3), reference[3:], rtol=0, atol=1e-11
    )


def test_bulk_values_hold_for_a_matrix_that_is_not_row_stochastic():
    M = np.random.default_rng(2).standard_normal((80, 80))
    reference = squared_singular_values(np.sqrt(80) * (M - 1 / 80))
    np.testing.assert_allclose(bulk_squared_singular_values(M), reference, rtol=0, atol=1e-9)


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
def test_rank_one_interlacing_between_a_and_a_perp(beta):
    """s_{k+1}(A_perp) <= s_k(A) <= s_{k-1}(A_perp) (papers.md section 1), k >= 2."""
    A = attention(120, 120, beta=beta, seed=3)
    s = np.sqrt(squared_singular_values(A))
    s_perp = np.sqrt(squared_singular_values(remove_perron(A)))
    k = np.arange(1, 119)  # zero-based index of s_{k+1}
    slack = 1e-12
    assert np.all(s_perp[k + 1] <= s[k] + slack)
    assert np.all(s[k] <= s_perp[k - 1] + slack)
    assert s[0] >= 1 - 1e-12  # the Perron value: A 1 = 1
