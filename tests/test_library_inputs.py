"""The samplers, softmax, spectra and canonical model return a correct finite value or raise one
ValueError naming the argument and what is allowed (as the theory does): NaN, inf, complex,
empty, a negative or boolean beta, a non-positive tolerance."""

import numpy as np
import pytest

from attnspec.models.canonical import diagonal_softmax, haar_orthogonal
from attnspec.models.sampling import attention_matrix, sample_queries_keys
from attnspec.models.softmax import row_softmax
from attnspec.multihead.sampling import orthonormal_input
from attnspec.spectra.dense import squared_singular_values
from attnspec.spectra.lanczos import (
    top_nonperron_squared_singular_values,
    top_squared_singular_values,
)

RNG = np.random.default_rng(0)
Q, K = sample_queries_keys(RNG, 8, 8)
S = Q @ K.T
A = attention_matrix(Q, K, 1.0)


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
]


@pytest.mark.parametrize(("case", "call", "message"), CASES, ids=[c[0] for c in CASES])
def test_bad_arguments_raise_one_value_error_naming_them(case, call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        call()


def test_float32_scores_and_the_causal_mask_still_work():
    causal = row_softmax(S.astype(np.float32), mask="causal")
    assert np.allclose(causal.sum(axis=1), 1.0) and np.all(np.triu(causal, k=1) == 0)
