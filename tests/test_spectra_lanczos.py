"""Block Lanczos top-k of sqrt(ell) A_perp against the dense route; the operator; vectors."""

import numpy as np
import pytest

from attnspec.models.sampling import attention_matrix, remove_perron, sample_queries_keys
from attnspec.spectra.dense import bulk_squared_singular_values, squared_singular_values
from attnspec.spectra.lanczos import (
    bulk_operator,
    top_nonperron_squared_singular_values,
    top_squared_singular_values,
)


def attention(n_tokens, d_qk, beta=1.0, seed=0, mask="bidirectional"):
    Q, K = sample_queries_keys(np.random.default_rng(seed), n_tokens, d_qk)
    return attention_matrix(Q, K, beta, mask=mask)


@pytest.mark.parametrize(
    ("n_tokens", "d_qk", "beta", "mask", "k"),
    [
        (1000, 1000, 1.0, "bidirectional", 10),
        (800, 400, 0.5, "bidirectional", 25),
        (600, 600, 2.0, "bidirectional", 10),
        (500, 500, 1.0, "causal", 5),
        (40, 40, 1.0, "bidirectional", 30),  # the Krylov basis fills the whole space
    ],
)
def test_top_k_equals_the_dense_values_to_1e_9_relative(n_tokens, d_qk, beta, mask, k):
    A = attention(n_tokens, d_qk, beta=beta, mask=mask)
    dense = bulk_squared_singular_values(A)[:k]
    np.testing.assert_allclose(top_nonperron_squared_singular_values(A, k), dense, rtol=1e-9)


def test_top_k_of_a_itself_includes_the_perron_value():
    A = attention(700, 700)
    dense = squared_singular_values(A)[:8]
    np.testing.assert_allclose(top_squared_singular_values(A, 8), dense, rtol=1e-9)


def test_singular_vectors_are_orthonormal_and_satisfy_m_v_equals_s_u():
    A = attention(600, 600, seed=1)
    values, left, right = top_nonperron_squared_singular_values(A, 6, return_vectors=True)
    M = np.sqrt(600) * remove_perron(A)
    np.testing.assert_allclose(M @ right, left * np.sqrt(values), atol=1e-10)
    np.testing.assert_allclose(M.T @ left, right * np.sqrt(values), atol=1e-5)
    np.testing.assert_allclose(right.T @ right, np.eye(6), atol=1e-12)
    np.testing.assert_allclose(left.T @ left, np.eye(6), atol=1e-5)
    # Right singular vectors of A_perp are orthogonal to its kernel vector 1 (up to the vector
    # accuracy, residual / gap).
    np.testing.assert_allclose(right.sum(axis=0) / np.sqrt(600), 0.0, atol=1e-5)


def test_results_are_bit_identical_across_calls():
    A = attention(400, 400, seed=2)
    assert np.array_equal(
        top_nonperron_squared_singular_values(A, 5), top_nonperron_squared_singular_values(A, 5)
    )


def test_the_operator_applies_a_perp_and_its_transpose_without_forming_it():
    A = attention(50, 20, seed=3)
    M = np.sqrt(50) * remove_perron(A)
    op = bulk_operator(A)
    x, X = (
        np.random.default_rng(4).standard_normal(50),
        np.random.default_rng(5).standard_normal((50, 3)),
    )
    np.testing.assert_allclose(op.matvec(x), M @ x, atol=1e-13)
    np.testing.assert_allclose(op.rmatvec(x), M.T @ x, atol=1e-13)
    np.testing.assert_allclose(op.matmat(X), M @ X, atol=1e-13)
    np.testing.assert_allclose(op.rmatmat(X), M.T @ X, atol=1e-13)


def test_bad_arguments_and_a_too_small_basis_are_refused():
    A = attention(200, 200, seed=6)
    with pytest.raises(ValueError, match="k"):
        top_nonperron_squared_singular_values(A, 200)
    with pytest.raises(ValueError, match="max_basis"):
        top_nonperron_squared_singular_values(A, 10, max_basis=10)
    with pytest.raises(RuntimeError, match="did not converge"):
        top_nonperron_squared_singular_values(A, 10, max_basis=40)
    with pytest.raises(ValueError, match="square"):
        bulk_operator(np.zeros((3, 4)))
