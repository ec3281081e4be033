"""Paper D layer shapes and weights: sharing schemes, fan-in scales, literal X, seeding."""

import numpy as np
import pytest

from attnspec.distances import kolmogorov_distance
from attnspec.multihead import MultiHeadShape, draw_comparison_spectra, sample_weights
from attnspec.multihead.sampling import orthonormal_input
from attnspec.seeding import rng_for

PARAMS = {"test": "multihead-sampling"}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_tokens": 10, "d_model": 8, "heads": 2, "d_k": 4}, "d_model must be >= n_tokens"),
        ({"n_tokens": 8, "d_model": 8, "heads": 4, "d_k": 4, "kv_heads": 3}, "must divide"),
        ({"n_tokens": 8, "d_model": 8, "heads": 2, "d_k": 4, "d_v": 5, "tied": True}, "d_v = d_k"),
        ({"n_tokens": 8, "d_model": 8, "heads": 2, "d_k": 4, "d_out": 5}, "d_out needs d_v"),
        ({"n_tokens": 8, "d_model": 8, "heads": 0, "d_k": 4}, "heads must be an integer >= 1"),
        ({"n_tokens": 8, "d_model": 8, "heads": 2, "d_k": 2.5}, "d_k must be an integer"),
    ],
)
def test_bad_shapes_raise_naming_the_argument(kwargs, message):
    with pytest.raises(ValueError, match=message):
        MultiHeadShape(**kwargs)


def test_ratios_and_sharing_names():
    shape = MultiHeadShape(512, 768, 12, 64, 64, 768)
    assert (shape.gamma_k, shape.gamma_v, shape.gamma_o) == (1.5, 1.5, 1.5)
    assert shape.sharing == "none"
    assert MultiHeadShape(64, 64, 8, 8, 8, 64, kv_heads=1).sharing == "MQA"
    assert MultiHeadShape(64, 64, 8, 8, 8, 64, kv_heads=4).sharing == "GQA"
    assert MultiHeadShape(64, 64, 8, 8, 8, 64, tied=True).sharing == "K=V"
    grouped = MultiHeadShape(64, 64, 8, 8, 8, 64, kv_heads=2)
    assert [grouped.kv_group(r) for r in range(8)] == [0, 0, 0, 0, 1, 1, 1, 1]


@pytest.mark.parametrize("sampler", ["gaussian", "literal"])
def test_grouped_heads_share_identical_key_and_value_arrays(sampler):
    shape = MultiHeadShape(24, 40, 6, 5, 7, 9, kv_heads=2)
    w = sample_weights(shape, PARAMS, 0, sampler=sampler)
    assert w.keys.shape == (2, 24, 5) and w.values.shape == (2, 24, 7)
    for r in range(6):
        for s in range(6):
            same = shape.kv_group(r) == shape.kv_group(s)
            assert np.shares_memory(w.key(r), w.key(s)) == same
            assert np.array_equal(w.key(r), w.key(s)) == same
            assert np.array_equal(w.value(r), w.value(s)) == same
    # Queries are never shared.
    assert not np.array_equal(w.query(0), w.query(1))


def test_multi_query_uses_one_key_value_pair_for_every_head():
    shape = MultiHeadShape(16, 16, 5, 4, 4, 8, kv_heads=1)
    w = sample_weights(shape, PARAMS, 3)
    assert all(np.array_equal(w.key(r), w.key(0)) for r in range(5))
    assert all(np.array_equal(w.value(r), w.value(0)) for r in range(5))
    assert not np.array_equal(w.key(0), w.value(0))


@pytest.mark.parametrize("sampler", ["gaussian", "literal"])
def test_tied_values_are_the_keys_of_each_head_and_heads_are_independent(sampler):
    shape = MultiHeadShape(16, 24, 4, 6, 6, 10, tied=True)
    w = sample_weights(shape, PARAMS, 1, sampler=sampler)
    assert w.values is w.keys
    for r in range(4):
        assert np.array_equal(w.value(r), w.key(r))
    assert not np.array_equal(w.key(0), w.key(1))


def test_independent_heads_have_distinct_keys_values_and_output_rows():
    shape = MultiHeadShape(16, 16, 3, 4, 5, 6)
    w = sample_weights(shape, PARAMS, 0)
    assert w.output.shape == (15, 6)
    assert np.array_equal(w.output_rows(1), w.output[5:10])
    assert not np.array_equal(w.key(0), w.key(1)) and not np.array_equal(w.value(0), w.value(2))


def test_projections_are_absent_when_not_asked_for():
    w = sample_weights(MultiHeadShape(8, 8, 2, 4), PARAMS, 0)
    assert w.values is None and w.output is None and w.value(0) is None


def test_fan_in_scales():
    """Q, K, V iid N(0, 1) (X X^T / d = I with variance 1/d weights); W^O variance 1/(h d_V).

    Each variance is estimated from N >= 12288 entries: relative sd sqrt(2/N) <= 1.3 %; the
    tolerance of 6 % is about 5 sd (fails if a 1/d or 1/(h d_V) factor is dropped or doubled).
    """
    shape = MultiHeadShape(64, 96, 4, 48, 32, 96)
    for sampler in ("gaussian", "literal"):
        w = sample_weights(shape, PARAMS, 0, sampler=sampler)
        for array in (w.queries, w.keys, w.values):
            assert array.var() == pytest.approx(1.0, rel=0.06)
            assert abs(array.mean()) < 0.05
    assert w.output.var() * (4 * 32) == pytest.approx(1.0, rel=0.06)


def test_literal_input_has_orthonormal_rows_scaled_by_sqrt_d():
    x = orthonormal_input(rng_for(PARAMS, 0, "input"), 30, 70)
    np.testing.assert_allclose(x @ x.T / 70, np.eye(30), atol=1e-12)


def spectra_of(sampler, draws, d_k=24):
    shape = MultiHeadShape(72, 120, 3, d_k, 24, 96)
    rows = [
        draw_comparison_spectra(shape, 1.0, {**PARAMS, "s": sampler, "k": d_k}, d, sampler=sampler)
        for d in range(draws)
    ]
    return np.array([r[0] for r in rows]), np.array([r[1] for r in rows])


def same_law(first, second):
    """Per-draw means of x and x^2 agree within 4.5 standard errors (two-sided p ~ 1e-4 even
    with t tails at 22 degrees of freedom) and the pooled spectra are within the iid two-sample
    KS critical value at level 1e-3, 1.95 sqrt(2 / N) (eigenvalues within a draw are more rigid
    than iid points, so this is conservative)."""
    for power in (1, 2):
        a, b = np.mean(first**power, axis=1), np.mean(second**power, axis=1)
        standard_error = np.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
        if abs(a.mean() - b.mean()) > 4.5 * standard_error:
            return False
    return kolmogorov_distance(first, second) <= 1.95 * np.sqrt(2 / first.size)


def test_literal_and_fast_samplers_give_the_same_spectra_in_law():
    """n = 72, d = 120, h = 3, d_K = d_V = 24, d_O = 96, beta = 1, 12 draws each; both the
    softmax and the Gaussian-equivalent spectra. The same test tells d_K = 24 from d_K = 6
    (gamma_K 1 -> 1/4: the normalised m_2 grows by about 1/3), so it can fail."""
    fast, literal = spectra_of("gaussian", 12), spectra_of("literal", 12)
    for k in (0, 1):
        assert same_law(fast[k], literal[k])
    narrower = spectra_of("gaussian", 12, d_k=6)
    assert not same_law(fast[0], narrower[0])


def test_draws_are_seeded_bit_identically_and_replicates_differ():
    shape = MultiHeadShape(32, 48, 4, 8, 8, 16, kv_heads=2)
    first = sample_weights(shape, PARAMS, 2)
    again = sample_weights(shape, PARAMS, 2)
    other = sample_weights(shape, PARAMS, 2, replicate=1)
    for name in ("queries", "keys", "values", "output"):
        assert np.array_equal(getattr(first, name), getattr(again, name))
        assert not np.array_equal(getattr(first, name), getattr(other, name))
    a = draw_comparison_spectra(shape, 1.0, PARAMS, 2)
    b = draw_comparison_spectra(shape, 1.0, PARAMS, 2)
    c = draw_comparison_spectra(shape, 1.0, PARAMS, 2, replicate=1)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not any(np.array_equal(x, y) for x, y in zip(a, c, strict=True))


def test_unknown_sampler_raises():
    with pytest.raises(ValueError, match="sampler must be one of"):
        sample_weights(MultiHeadShape(8, 8, 2, 4), PARAMS, 0, sampler="qr")
