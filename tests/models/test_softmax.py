"""Row softmax: stochastic rows, exact causal zeros, stability at large beta, blockwise = naive."""

import numpy as np
import pytest
from scipy.special import softmax

import attnspec.models.softmax as softmax_module
from attnspec.models.softmax import row_softmax


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of a few rows, so that several blocks (and block edges) are exercised."""
    monkeypatch.setattr(softmax_module, "_BLOCK_BYTES", 8 * 3 * 40)


def naive(scores, scale, causal):
    logits = scale * scores
    if causal:
        logits = np.where(np.tril(np.ones(scores.shape, bool)), logits, -np.inf)
    return softmax(logits, axis=1)


@pytest.mark.parametrize("mask", ["bidirectional", "causal"])
@pytest.mark.parametrize("shape", [(40, 40), (25, 40), (40, 25)])
def test_matches_the_naive_softmax_across_block_edges(small_blocks, mask, shape):
    scores = np.random.default_rng(0).standard_normal(shape)
    result = row_softmax(scores, mask=mask, scale=1.7)
    np.testing.assert_allclose(result, naive(scores, 1.7, mask == "causal"), rtol=1e-13, atol=0)


@pytest.mark.parametrize("mask", ["bidirectional", "causal"])
def test_rows_sum_to_one_and_are_non_negative(mask):
    result = row_softmax(np.random.default_rng(1).standard_normal((300, 300)), mask=mask)
    np.testing.assert_allclose(result.sum(axis=1), 1.0, rtol=0, atol=1e-14)
    assert result.min() >= 0.0


def test_causal_is_exactly_lower_triangular_and_its_first_row_is_a_point_mass(small_blocks):
    result = row_softmax(np.random.default_rng(2).standard_normal((40, 40)), mask="causal")
    assert np.all(np.triu(result, k=1) == 0.0)
    assert result[0, 0] == 1.0
    assert np.all(result[np.tril_indices(40)] > 0.0)


@pytest.mark.parametrize("mask", ["bidirectional", "causal"])
def test_no_overflow_or_nan_at_beta_50(mask):
    scores = 5.0 * np.random.default_rng(3).standard_normal((200, 200))
    with np.errstate(over="raise", invalid="raise", divide="raise", under="ignore"):
        result = row_softmax(scores, mask=mask, scale=50.0)
    assert np.all(np.isfinite(result))
    np.testing.assert_allclose(result.sum(axis=1), 1.0, rtol=0, atol=1e-14)
    # At beta = 50 each row is essentially a point mass on its (allowed) maximum.
    allowed = np.where(np.tril(np.ones((200, 200), bool)), scores, -np.inf)
    arg = np.argmax(allowed if mask == "causal" else scores, axis=1)
    assert np.all(result[np.arange(200), arg] > 0.5)


def test_in_place_overwrites_the_scores_and_returns_them(small_blocks):
    scores = np.random.default_rng(4).standard_normal((40, 40))
    expected = naive(scores, 1.0, causal=False)
    result = row_softmax(scores, out=scores)
    assert result is scores
    np.testing.assert_allclose(scores, expected, rtol=1e-13)


def test_bad_arguments_are_refused():
    scores = np.zeros((4, 4))
    with pytest.raises(ValueError, match="mask"):
        row_softmax(scores, mask="sliding")
    with pytest.raises(ValueError, match="overlap"):
        row_softmax(scores, out=scores.reshape(-1)[::-1].reshape(4, 4))
    with pytest.raises(ValueError, match="float64 or float32"):
        row_softmax(scores.astype(np.float16))
    with pytest.raises(ValueError, match="float64"):
        row_softmax(scores.astype(np.float32), out=scores.astype(np.float32))


def test_float32_scores_are_converted_exactly_and_the_softmax_runs_in_float64(small_blocks):
    scores = np.random.default_rng(5).standard_normal((70, 90)).astype(np.float32)
    result = row_softmax(scores, scale=1.3)
    assert result.dtype == np.float64
    assert np.array_equal(result, row_softmax(scores.astype(np.float64), scale=1.3))
