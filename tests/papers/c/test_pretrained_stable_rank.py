"""Figure C7's maths: the stable rank of both masks on the same scores, against independent
computations (explicit masked softmax, full SVD, the Cesaro matrix's closed form), and the slope
of the heads' median on log n."""

import numpy as np
import pytest

from attnspec.models.softmax import MASKS
from attnspec.papers.c.pretrained import head_diagnostics, mask_stable_ranks
from attnspec.papers.c.pretrained_stable_rank import model_stable_ranks, passage_stable_ranks
from attnspec.papers.c.pretrained_stable_rank_summary import (
    constant_score_stable_rank,
    log_slopes,
    median_slope,
)

BIDIRECTIONAL, CAUSAL = MASKS.index("bidirectional"), MASKS.index("causal")


def explicit_stable_rank(scores: np.ndarray, causal: bool) -> float:
    """exp(S - row max) with the entries j > i set to 0 when causal, rows normalised; then
    ||A||_F^2 / s_1(A)^2 from a full SVD."""
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    if causal:
        weights = np.tril(weights)
    attention = weights / weights.sum(axis=1, keepdims=True)
    values = np.linalg.svd(attention, compute_uv=False)
    return float(np.sum(values**2) / values[0] ** 2)


def test_both_masks_match_an_explicit_masked_softmax_of_the_same_scores():
    rng = np.random.default_rng(3)
    queries, keys = 1.5 * rng.standard_normal((2, 40, 8))
    scores = queries @ keys.T / np.sqrt(8)
    ranks = mask_stable_ranks(queries, keys)
    assert ranks[BIDIRECTIONAL] == pytest.approx(explicit_stable_rank(scores, False), rel=1e-10)
    assert ranks[CAUSAL] == pytest.approx(explicit_stable_rank(scores, True), rel=1e-10)
    # the masks differ on these scores (the test could not pass by computing one mask twice)
    assert abs(ranks[BIDIRECTIONAL] - ranks[CAUSAL]) > 0.05


@pytest.mark.parametrize("n", [2, 7, 64])
def test_constant_scores_give_the_cesaro_matrix_and_the_uniform_matrix(n):
    """Q K^T = 0: causal A is the Cesaro matrix C_n (C_ij = 1/i, j <= i), whose ||C||_F^2 is the
    harmonic number H_n; bidirectional A = 1 1^T / n has stable rank 1."""
    cesaro = np.tril(np.ones((n, n))) / np.arange(1, n + 1)[:, None]
    harmonic = np.sum(1.0 / np.arange(1, n + 1))
    expected = harmonic / np.linalg.norm(cesaro, 2) ** 2
    zeros = np.zeros((n, 4))
    ranks = mask_stable_ranks(zeros, zeros)
    assert ranks[CAUSAL] == pytest.approx(expected, rel=1e-10)
    assert ranks[BIDIRECTIONAL] == pytest.approx(1.0, rel=1e-12)
    assert constant_score_stable_rank(n, "causal") == pytest.approx(expected, rel=1e-8)
    assert constant_score_stable_rank(n, "bidirectional") == pytest.approx(1.0, rel=1e-12)


def test_a_permutation_head_has_stable_rank_n_under_the_model_mask():
    """Scores that pick one key per query (a permutation P, scale >> 1): A -> P, srank -> n; the
    causal mask keeps only the rows whose key is at or before the query."""
    n = 6
    order = np.roll(np.arange(n), 1)  # query i attends to key i - 1 (query 0 to key n - 1)
    keys = 60.0 * np.eye(n)
    queries = keys[order]
    ranks = mask_stable_ranks(queries, keys)
    assert ranks[BIDIRECTIONAL] == pytest.approx(n, rel=1e-9)
    # causal: row 0 (its key n - 1 is masked) becomes e_1, rows i >= 1 pick key i - 1: A has the
    # columns e_0 + e_1, e_2, ..., e_{n-1}, 0 -> ||A||_F^2 = n, ||A||^2 = 2
    assert ranks[CAUSAL] == pytest.approx(n / 2, rel=1e-9)


def test_passage_ranks_are_each_heads_and_equal_the_diagnostics_of_figure_c6():
    rng = np.random.default_rng(5)
    queries, keys = rng.standard_normal((2, 2, 3, 20, 8))
    ranks = passage_stable_ranks(queries, keys)
    assert ranks.shape == (2, 3, len(MASKS))
    for layer in range(2):
        for head in range(3):
            diagnostics = head_diagnostics(
                queries[layer, head], keys[layer, head], np.random.default_rng(0)
            )
            np.testing.assert_array_equal(ranks[layer, head], diagnostics["stable_rank"])


def test_model_stable_ranks_run_the_forward_pass_of_each_passage(monkeypatch):
    """Each passage goes through queries_keys once, in order, and its heads' ranks are stacked."""
    from attnspec.papers.c import pretrained_stable_rank
    from attnspec.pretrained.bert import BertConfig, QueriesKeys

    seen = []

    def fake_queries_keys(weights, config, token_ids):
        seen.append(tuple(token_ids))
        rng = np.random.default_rng(int(token_ids[0]))
        return QueriesKeys(*rng.standard_normal((2, 1, 2, len(token_ids), 4)))

    monkeypatch.setattr(pretrained_stable_rank, "queries_keys", fake_queries_keys)
    config = BertConfig(
        n_layers=1, n_heads=2, hidden_width=8, max_positions=16, layer_norm_eps=1e-12
    )
    passages = np.array([[1, 5, 6, 2], [3, 7, 8, 2]])
    ranks = model_stable_ranks({}, config, passages)
    assert seen == [(1, 5, 6, 2), (3, 7, 8, 2)]
    assert ranks.shape == (2, 1, 2, len(MASKS))
    expected = fake_queries_keys({}, config, passages[1])
    np.testing.assert_array_equal(ranks[1], passage_stable_ranks(expected.queries, expected.keys))


def test_log_slopes_recover_a_line_in_log_n_per_trailing_index():
    n = [16, 32, 64, 512]
    a, b = np.array([[1.0, 2.0]]), np.array([[0.25, -0.5]])
    values = a + b * np.log(n)[:, None, None]
    slopes, intercepts = log_slopes(n, values)
    np.testing.assert_allclose(slopes, b, rtol=1e-12)
    np.testing.assert_allclose(intercepts, a, rtol=1e-12)
    with pytest.raises(ValueError, match="two distinct lengths"):
        log_slopes([16, 16], values[:2])
    with pytest.raises(ValueError, match="one per n"):
        log_slopes(n, values[:3])


def test_median_slope_of_heads_on_a_common_line_has_a_zero_width_interval():
    n = [16, 64, 256]
    heads = 1.0 + 0.3 * np.log(n)[:, None] + np.zeros((3, 5))
    slope, intercept, low, high = median_slope(n, heads, 50, np.random.default_rng(0))
    assert (slope, low, high) == pytest.approx((0.3, 0.3, 0.3), rel=1e-12)
    assert intercept == pytest.approx(1.0, rel=1e-12)


def test_median_slope_interval_covers_the_heads_spread():
    """Heads with slopes 0, 0.1, ..., 0.4: the median's slope is 0.2 and resampling the heads
    moves it over [0, 0.4], never outside."""
    n = [16, 64, 256]
    heads = np.log(n)[:, None] * np.linspace(0.0, 0.4, 5)[None, :]
    slope, _, low, high = median_slope(n, heads, 400, np.random.default_rng(1))
    assert slope == pytest.approx(0.2, rel=1e-12)
    assert 0.0 <= low < slope < high <= 0.4
    with pytest.raises(ValueError, match="heads >= 2"):
        median_slope(n, heads[:, :1], 10, np.random.default_rng(1))
