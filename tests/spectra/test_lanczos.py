"""Block Lanczos top-k of sqrt(ell) A_perp against the dense route; the operator; vectors."""

import numpy as np
import pytest

from attnspec.models.sampling import attention_matrix, remove_perron, sample_queries_keys
from attnspec.spectra.dense import bulk_squared_singular_values, squared_singular_values
from attnspec.spectra.lanczos import (
    bulk_operator,
    top_nonperron_squared_singular_values,
    top_squared_singular_values,
    top_squared_singular_values_from_perp,
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


def test_the_basis_grows_past_the_old_cap_of_40_k_plus_400_vectors():
    # Squared singular values (1 - i / n)^2: the top two are 2 / n apart, and block Lanczos needs
    # about 900 vectors to resolve them, more than the old fixed cap 40 k + 400 = 480.
    n = 3000
    squares = np.linspace(1.0, 0.0, n) ** 2
    M = np.diag(np.sqrt(squares))
    np.testing.assert_allclose(top_squared_singular_values(M, 2), squares[:2], rtol=1e-12)
    with pytest.raises(RuntimeError, match="480 vectors"):
        top_squared_singular_values(M, 2, max_basis=480)


def test_float32_products_stay_within_1e_6_of_float64():
    A = attention(900, 900, seed=7)
    Y = np.random.default_rng(8).standard_normal((900, 900)) / 30
    for M in (Y, np.sqrt(900) * remove_perron(A)):
        exact = squared_singular_values(M)[:6]
        np.testing.assert_allclose(top_squared_singular_values(M, 6), exact, rtol=1e-9)
        single = top_squared_singular_values(M.astype(np.float32), 6)
        np.testing.assert_allclose(single, exact, rtol=1e-6)


@pytest.mark.parametrize("beta", [0.5, 1.0, 1.5])
def test_values_of_a_from_a_perp_equal_the_dense_ones_in_float64_and_float32(beta):
    A = attention(800, 800, beta=beta, seed=9)
    exact = squared_singular_values(A)[:12]
    perp = remove_perron(A)
    values, left, right = top_squared_singular_values_from_perp(perp, 12, return_vectors=True)
    np.testing.assert_allclose(values, exact, rtol=1e-9)
    np.testing.assert_allclose(A @ right, left * np.sqrt(values), atol=1e-10)
    np.testing.assert_allclose(right.T @ right, np.eye(12), atol=1e-12)
    # float32 A_perp: its rounding and the float32 products are relative to the bulk
    # (s_2(A)^2 ~ x_+ / ell), not to the Perron value s_1(A)^2 ~ 1, which the float64 rank-one
    # terms carry.
    single = top_squared_singular_values_from_perp(perp.astype(np.float32), 12)
    np.testing.assert_allclose(single, exact, rtol=1e-6)


def test_operands_must_be_float_matrices():
    with pytest.raises(ValueError, match="float64 or float32"):
        top_squared_singular_values(np.zeros((5, 5), dtype=np.float16), 2)
    with pytest.raises(ValueError, match="square"):
        top_squared_singular_values_from_perp(np.zeros((5, 6)), 2)


def _reflection(rng, n):
    """I - 2 w w^T for a random unit w, as a function applied to the rows of a matrix."""
    w = rng.standard_normal(n)
    w /= np.linalg.norm(w)
    return lambda X: X - 2.0 * np.outer(X @ w, w)


@pytest.mark.slow
def test_float32_values_at_a_clustered_square_root_edge_are_within_1e_5():
    # n = 4096, k = 64 (ceil(sqrt(n))): squared singular values with a square-root edge,
    # x_j = 9.5 (1 - (j / n)^(2/3)) (the density ~ sqrt(x_+ - x) of the attention bulk), the
    # leading ones in clusters of three 1e-7 (relative) apart, where the Kato-Temple bound does
    # not help inside a cluster. M = P diag(sqrt(x)) R (P, R reflections: dense, same values),
    # rounded to float32; the values are known exactly.
    n, k = 4096, 64
    rng = np.random.default_rng(10)
    x = 9.5 * (1.0 - (np.arange(n) / n) ** (2.0 / 3.0))
    x[: 3 * k] = np.repeat(x[: 3 * k : 3], 3) * np.tile([1.0, 1.0 - 1e-7, 1.0 - 2e-7], k)
    x = np.sort(x)[::-1]
    left, right = _reflection(rng, n), _reflection(rng, n)
    M = left(right(np.diag(np.sqrt(x))).T).T  # P D R with P, R symmetric reflections
    values = top_squared_singular_values(M.astype(np.float32), k, tol=1e-6)
    error = np.max(np.abs(values - x[:k]) / x[:k])
    assert error <= 1e-5 * 0.3, error
