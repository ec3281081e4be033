"""The samplers, softmax, spectra and canonical model return a correct finite value or raise one
ValueError naming the argument and what is allowed (as the theory does): NaN, inf, complex,
empty, a negative or boolean beta, a beta whose scores overflow, a non-positive tolerance, sizes
whose arrays would not fit in memory; integer (and, for the attention matrix, float32) inputs
give the float64 result."""

import numpy as np
import pytest

from attnspec.models.canonical import canonical_scores, diagonal_softmax, haar_orthogonal
from attnspec.models.sampling import attention_matrix, remove_perron, sample_queries_keys
from attnspec.models.softmax import row_softmax
from attnspec.multihead.sampling import orthonormal_input, sample_weights
from attnspec.multihead.shapes import MultiHeadShape
from attnspec.spectra.dense import bulk_squared_singular_values, squared_singular_values
from attnspec.spectra.lanczos import (
    top_nonperron_squared_singular_values,
    top_squared_singular_values,
)

RNG = np.random.default_rng(0)
Q, K = sample_queries_keys(RNG, 8, 8)
S = Q @ K.T
A = attention_matrix(Q, K, 1.0)


def canonical(**changes):
    """canonical_scores with valid arguments, ``changes`` applied."""
    arguments = dict(n=16, spikes=2, kappa=2.0, placement="spread", profile="iid", bulk_scale=1.0)
    return canonical_scores(**(arguments | dict(rng=RNG) | changes))


BEYOND_MEMORY = " of memory, more than this machine has; allowed: sizes whose arrays fit in memory"


def with_nan(array):
    copy = np.array(array, dtype=np.float64)
    copy[1, 1] = np.nan
    return copy


CASES = [
    ("beta NaN", lambda: attention_matrix(Q, K, float("nan")), "beta must be a finite number > 0"),
    ("beta < 0", lambda: attention_matrix(Q, K, -1.0), "beta must be a finite number > 0"),
    ("beta True", lambda: attention_matrix(Q, K, True), "beta must be a finite number > 0"),
    ("Q NaN", lambda: attention_matrix(with_nan(Q), K, 1.0), "Q must hold finite real numbers"),
    ("Q complex", lambda: attention_matrix(Q + 1j, K, 1.0), "Q must hold finite real numbers"),
    ("Q empty", lambda: attention_matrix(Q[:0], K[:0], 1.0), "Q must be a 2-D array"),
    ("widths", lambda: attention_matrix(Q, K[:, :4], 1.0), "Q and K must have the same width"),
    ("scores NaN", lambda: row_softmax(with_nan(S)), "scores must be finite: row 1"),
    ("scores inf", lambda: row_softmax(S * np.inf), "scores must be finite: row 0"),
    ("scores empty", lambda: row_softmax(S[:0]), "scores must have at least one row"),
    ("scale NaN", lambda: row_softmax(S, scale=float("nan")), "scale must be a finite number > 0"),
    ("rng 42", lambda: sample_queries_keys(42, 8, 8), "rng must be a numpy.random.Generator"),
    ("haar rng 7", lambda: haar_orthogonal(4, 7), "rng must be a numpy.random.Generator"),
    ("input rng 7", lambda: orthonormal_input(7, 4, 8), "rng must be a numpy.random.Generator"),
    ("n_tokens 0", lambda: sample_queries_keys(RNG, 0, 8), "n_tokens must be an integer >= 1"),
    ("n_tokens 2.0", lambda: sample_queries_keys(RNG, 2.0, 8), "n_tokens must be an integer >= 1"),
    ("d_qk -1", lambda: sample_queries_keys(RNG, 4, -1), "d_qk must be an integer >= 1"),
    (
        "tol 0",
        lambda: top_nonperron_squared_singular_values(A, 2, tol=0),
        "tol must be a finite number > 0",
    ),
    (
        "tol NaN",
        lambda: top_squared_singular_values(A, 2, tol=float("nan")),
        "tol must be a finite number > 0",
    ),
    ("A NaN", lambda: top_nonperron_squared_singular_values(with_nan(A), 2), "A must hold finite"),
    ("M NaN", lambda: top_squared_singular_values(with_nan(A), 2), "M must hold finite"),
    ("k 0", lambda: top_squared_singular_values(A, 0), "k must be an integer with 1 <= k < n"),
    ("k 2.0", lambda: top_squared_singular_values(A, 2.0), "k must be an integer with 1 <= k < n"),
    ("dense NaN", lambda: squared_singular_values(with_nan(A)), "M must hold finite real numbers"),
    ("sigma NaN", lambda: diagonal_softmax(np.array([1.0, np.nan])), "sigma must hold finite"),
    ("sigma empty", lambda: diagonal_softmax(np.array([])), "sigma must be a non-empty 1-D array"),
    (
        "beta 1e308",
        lambda: attention_matrix(Q, K, 1e308),
        "beta must be a finite number in (0, 6.07e+306] for these Q and K",
    ),
    ("Q K^T overflow", lambda: attention_matrix(Q * 1e307, K, 1.0), "Q and K: entries up to"),
    (
        "out float32",
        lambda: attention_matrix(Q, K, 1.0, out=np.empty((8, 8), np.float32)),
        "out must be a float64 array of shape (8, 8)",
    ),
    (
        "A empty",
        lambda: remove_perron(np.zeros((0, 0))),
        "A must be a square 2-D array with at least 1 row, got shape (0, 0)",
    ),
    ("kappa NaN", lambda: canonical(kappa=float("nan")), "kappa must be a finite number >= 0"),
    ("kappa True", lambda: canonical(kappa=True), "kappa must be a finite number >= 0"),
    ("spikes > n", lambda: canonical(spikes=17), "spikes must be an integer in [0, 16]"),
    ("bulk_scale 0", lambda: canonical(bulk_scale=0.0), "bulk_scale must be a finite number > 0"),
    ("n 2.5", lambda: canonical(n=2.5), "n must be an integer >= 1"),
    (
        "Q, K beyond memory",
        lambda: sample_queries_keys(RNG, 10**6, 10**6),
        "n_tokens = 1000000, d_qk = 1000000: Q, K would need 1.6e+04 GB" + BEYOND_MEMORY,
    ),
    (
        "A beyond memory",
        lambda: attention_matrix(np.ones((10**6, 1)), np.ones((10**6, 1)), 1.0),
        "Q and K of shapes (1000000, 1), (1000000, 1): A would need 8e+03 GB" + BEYOND_MEMORY,
    ),
    (
        "haar beyond memory",
        lambda: haar_orthogonal(10**6, RNG),
        "n = 1000000: a Gaussian n x n matrix and its QR factor would need 1.6e+04 GB",
    ),
    (
        "X beyond memory",
        lambda: orthonormal_input(RNG, 10**6, 10**6),
        "n_tokens = 1000000, d_model = 1000000: X and its draw would need 1.6e+04 GB",
    ),
    (
        "sigma beyond memory",
        lambda: canonical(n=10**12, spikes=1),
        "n = 1000000000000: sigma and its bulk would need 2.4e+04 GB" + BEYOND_MEMORY,
    ),
    (
        "weights beyond memory",
        lambda: sample_weights(MultiHeadShape(10**6, 10**6, 64, 1024), {"draw": "x"}, 0),
        "d_k=1024, d_v=None, d_out=None, kv_heads=64, tied=False): the weights would need 1.05e+0",
    ),
]


@pytest.mark.parametrize(("case", "call", "message"), CASES, ids=[c[0] for c in CASES])
def test_bad_arguments_raise_one_value_error_naming_them(case, call, message):
    with pytest.raises(ValueError) as raised:
        call()
    assert message in str(raised.value)


def test_integer_and_float32_queries_and_keys_give_the_float64_attention_matrix():
    """Before, int inputs were refused as 'scores' and float32 ones as 'out': arguments the
    caller never passed."""
    integers = np.arange(24).reshape(8, 3) % 5
    expected = attention_matrix(integers.astype(np.float64), integers.T[::-1].T * 1.0, 0.5)
    assert np.array_equal(attention_matrix(integers, integers.T[::-1].T, 0.5), expected)
    single = attention_matrix(Q.astype(np.float32), K.astype(np.float32), 1.0)
    assert single.dtype == np.float64
    wide = Q.astype(np.float32).astype(np.float64), K.astype(np.float32).astype(np.float64)
    assert np.array_equal(single, attention_matrix(*wide, 1.0))


def test_an_integer_matrix_gives_the_float64_spectrum():
    """Before, bulk_squared_singular_values raised numpy's UFuncTypeError on an int matrix."""
    counts = np.arange(36).reshape(6, 6) % 7
    assert np.array_equal(
        bulk_squared_singular_values(counts, 1), bulk_squared_singular_values(counts * 1.0, 1)
    )


def test_canonical_scores_read_integer_arguments_as_floats():
    """The checks added to canonical_scores convert kappa, bulk_scale and gaussian_ratio to float
    without changing a draw."""
    first, second = (
        canonical(
            profile="gaussian",
            kappa=kappa,
            bulk_scale=scale,
            gaussian_ratio=ratio,
            rng=np.random.default_rng(5),
        )
        for kappa, scale, ratio in ((2, 1, 2), (2.0, 1.0, 2.0))
    )
    assert np.array_equal(first, second) and np.all(np.isfinite(first))


def test_float32_scores_and_the_causal_mask_still_work():
    causal = row_softmax(S.astype(np.float32), mask="causal")
    assert np.allclose(causal.sum(axis=1), 1.0) and np.all(np.triu(causal, k=1) == 0)
