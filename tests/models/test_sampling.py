"""Sampling Q, K (fast Gaussian and literal X W), scores, attention and the Perron removal."""

import numpy as np
import pytest
from scipy.special import softmax

from attnspec.distances import kolmogorov_distance
from attnspec.models.sampling import (
    attention_matrix,
    perp_attention,
    remove_perron,
    sample_queries_keys,
    score_matrix,
)
from attnspec.seeding import rng_for
from attnspec.spectra.dense import bulk_squared_singular_values

PARAMS = {"test": "sampling"}


def bulk_spectra(sampler, n_draws, n_tokens=300, d_qk=300, d_model=600, beta=1.0):
    """Bulk squared singular values of sqrt(ell) A_perp, one row per draw."""
    rows = []
    for draw in range(n_draws):
        rng = rng_for({**PARAMS, "sampler": sampler, "d_qk": d_qk}, draw)
        Q, K = sample_queries_keys(rng, n_tokens, d_qk, sampler=sampler, d_model=d_model)
        rows.append(bulk_squared_singular_values(attention_matrix(Q, K, beta), n_removed=1))
    return np.array(rows)


def same_law(first, second):
    """Per-draw bulk moments m1, m2 and pooled spectra of two samplers agree (see below).

    Moments of each draw are iid across draws: their means must agree within 4.5 standard
    errors (two-sided p ~ 1e-4 even with t tails at 22 degrees of freedom). The pooled spectra
    must be within the iid two-sample KS critical value at level 1e-3, 1.95 sqrt(2 / n): draws
    are independent and eigenvalues within a draw are more rigid than iid points, so this
    bound is conservative.
    """
    for power in (1, 2):
        a, b = np.mean(first**power, axis=1), np.mean(second**power, axis=1)
        standard_error = np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
        if abs(a.mean() - b.mean()) > 4.5 * standard_error:
            return False
    return kolmogorov_distance(first, second) <= 1.95 * np.sqrt(2 / first.size)


def test_literal_and_gaussian_samplers_give_the_same_bulk_law():
    """ell = 300, d = 600 (gamma = 1/2), d_qk = 300 (c = 1), beta = 1, 12 draws each.

    The same test tells c = 1 from c = 2 (m2 = 2 theta1^2 + beta^4 c moves by 1, about
    6 standard errors), so it can fail.
    """
    gaussian = bulk_spectra("gaussian", 12)
    assert same_law(gaussian, bulk_spectra("literal", 12))
    assert not same_law(gaussian, bulk_spectra("gaussian", 12, d_qk=150))


def test_literal_queries_and_keys_have_unit_variance_and_orthogonal_token_rows():
    # E Q Q^T = d_qk X X^T = d_qk I: rows of Q are uncorrelated with unit-variance entries.
    Q, K = sample_queries_keys(rng_for(PARAMS, 0), 50, 400, sampler="literal", d_model=80)
    for M in (Q, K):
        gram = M @ M.T / 400
        np.testing.assert_allclose(np.diagonal(gram), 1.0, atol=6 * np.sqrt(2 / 400))
        off_diagonal = gram[~np.eye(50, dtype=bool)]
        assert np.abs(off_diagonal).max() <= 6 / np.sqrt(400)


def test_samplers_refuse_more_tokens_than_the_embedding_width():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="orthonormal rows"):
        sample_queries_keys(rng, 10, 4, sampler="literal", d_model=8)
    with pytest.raises(ValueError, match="orthonormal rows"):
        sample_queries_keys(rng, 10, 4, d_model=8)
    with pytest.raises(ValueError, match="d_model"):
        sample_queries_keys(rng, 10, 4, sampler="literal")
    with pytest.raises(ValueError, match="sampler"):
        sample_queries_keys(rng, 10, 4, sampler="orthogonal")


@pytest.mark.parametrize("sampler", ["gaussian", "literal"])
def test_the_same_parameters_and_draw_give_bit_identical_queries_and_keys(sampler):
    def draw(index):
        return sample_queries_keys(rng_for(PARAMS, index), 30, 20, sampler=sampler, d_model=40)

    first, again, other = draw(5), draw(5), draw(6)
    assert all(np.array_equal(x, y) for x, y in zip(first, again, strict=True))
    assert not np.array_equal(first[0], other[0])


@pytest.mark.parametrize("mask", ["bidirectional", "causal"])
def test_attention_matrix_is_the_softmax_of_the_scaled_scores(mask):
    Q, K = sample_queries_keys(np.random.default_rng(1), 60, 20)
    logits = 1.5 * Q @ K.T / np.sqrt(20)
    if mask == "causal":
        logits[np.triu_indices(60, k=1)] = -np.inf
    buffer = np.empty((60, 60))
    A = attention_matrix(Q, K, 1.5, mask=mask, out=buffer)
    assert A is buffer
    np.testing.assert_allclose(A, softmax(logits, axis=1), rtol=1e-12, atol=0)
    np.testing.assert_allclose(score_matrix(Q, K), Q @ K.T / np.sqrt(20), rtol=1e-13)


def test_remove_perron_subtracts_u_u_transpose_in_place():
    Q, K = sample_queries_keys(np.random.default_rng(2), 40, 40)
    A = attention_matrix(Q, K, 1.0)
    expected = A - np.full((40, 40), 1 / 40)
    result = remove_perron(A, out=A)
    assert result is A
    np.testing.assert_allclose(A, expected, rtol=0, atol=1e-16)
    # A 1 = 1 and A_perp = A (I - u u^T): 1 is in the kernel of A_perp.
    np.testing.assert_allclose(A @ np.ones(40), 0.0, atol=1e-14)


def test_perp_attention_is_the_centred_softmax_rounded_once_to_its_buffer(monkeypatch):
    monkeypatch.setattr("attnspec.models.sampling._BLOCK_BYTES", 8 * 70 * 3)  # 3-row blocks
    scores = np.random.default_rng(3).standard_normal((50, 70))
    for dtype in (np.float64, np.float32):
        rounded = scores.astype(dtype)
        expected = softmax(0.8 * rounded.astype(np.float64), axis=1) - 1 / 70
        out = np.empty(scores.shape, dtype)
        assert perp_attention(rounded, 0.8, out=out) is out
        # float64 arithmetic throughout, one rounding to the buffer's dtype at the end.
        ulp = np.finfo(dtype).eps * np.abs(expected)
        np.testing.assert_array_less(np.abs(out - expected), ulp + 1e-17)
    expected = softmax(0.8 * scores, axis=1) - 1 / 70
    in_place = scores.copy()
    perp_attention(in_place, 0.8, out=in_place)
    np.testing.assert_allclose(in_place, expected, rtol=0, atol=1e-17)
    with pytest.raises(ValueError, match="out"):
        perp_attention(scores, 0.8, out=np.empty((50, 70), np.float16))
