"""Leading squared singular values by the faster of two routes: dense Gram eigenvalues below a
size, block Lanczos above (papers A, B).

Below DENSE_CROSSOVER the k = ceil(sqrt(ell)) leading values (with vectors) come at least as
fast from a float64 Gram matrix (:mod:`attnspec.spectra.dense`, subset of eigenvalues) as from
block Lanczos (:mod:`attnspec.spectra.lanczos`); the dense route grows like ell^3 and loses
above it. Lanczos is asked for relative accuracy LANCZOS_TOLERANCE: far below what any figure
or verdict resolves, and float32 operands are good to about 1e-6 anyway. The measurements that
set both are in docs/benchmark.md.
"""

from typing import NamedTuple

import numpy as np

from attnspec.models.sampling import perp_attention
from attnspec.models.softmax import row_softmax
from attnspec.spectra.lanczos import (
    top_squared_singular_values,
    top_squared_singular_values_from_perp,
)
from attnspec.validation import check_count

DENSE_CROSSOVER = 1536
LANCZOS_TOLERANCE = 1e-6


def _square_size(matrix, name: str) -> int:
    """n for an n x n array (its entries are checked by the route that solves it)."""
    shape = np.shape(matrix)
    if len(shape) != 2 or shape[0] != shape[1] or shape[0] < 1:
        raise ValueError(f"{name} must be a square 2-D array, got shape {shape}")
    return shape[0]


def solve_dtype(n: int, dtype) -> type:
    """The dtype an n x n operand of :func:`leading_squared_singular_values` is built in:
    float64 for the dense route (n < DENSE_CROSSOVER), ``dtype`` for Lanczos."""
    return np.float64 if n < DENSE_CROSSOVER else dtype


def leading_squared_singular_values(M: np.ndarray, k: int) -> np.ndarray:
    """s_1(M)^2 >= ... >= s_k(M)^2 of a square M, never a full SVD: dense Gram eigenvalues
    (subset) when n < DENSE_CROSSOVER, block Lanczos (relative accuracy LANCZOS_TOLERANCE,
    products in M's dtype) otherwise."""
    if _square_size(M, "M") < DENSE_CROSSOVER:
        from attnspec.spectra.dense import top_squared_singular_values_dense  # scipy.linalg

        return top_squared_singular_values_dense(M, k)
    return top_squared_singular_values(M, k, tol=LANCZOS_TOLERANCE)


class LeadingAttention(NamedTuple):
    """What :func:`leading_attention_values` leaves: the matrix it built (A, or A_perp when
    ``centred``), s_1(A)^2 >= ... >= s_k(A)^2 and A's unit singular vectors (ell x k)."""

    matrix: np.ndarray
    centred: bool
    values: np.ndarray
    left: np.ndarray
    right: np.ndarray


def leading_attention_values(
    scores: np.ndarray, beta: float, k: int, *, out: np.ndarray
) -> LeadingAttention:
    """The k leading s_i(A)^2, with vectors, of A = row-softmax(beta S), built in ``out``.

    ell < DENSE_CROSSOVER: A in ``out`` (float64), dense Gram eigenvalues (subset; scipy.linalg
    is imported only then, 0.2 s of a process's start-up). Above: A_perp = A - 1 1^T / ell
    (softmax in float64, stored in ``out``'s dtype, float64 or float32) and block Lanczos on
    A = A_perp + 1 1^T / ell (relative accuracy LANCZOS_TOLERANCE, products in ``out``'s dtype).
    """
    ell = _square_size(scores, "scores")
    k = check_count(k, "k", 1, ell)
    if ell < DENSE_CROSSOVER:
        from attnspec.spectra.dense import top_squared_singular_values_dense  # scipy.linalg

        if out.shape != scores.shape or out.dtype != np.float64:
            raise ValueError(f"out must be a float64 array of shape {scores.shape} below ell = "
                             f"{DENSE_CROSSOVER}, got {out.dtype.name} {out.shape}")  # fmt: skip
        attention = row_softmax(scores, scale=beta, out=out)
        values = top_squared_singular_values_dense(attention, k, return_vectors=True)
        return LeadingAttention(attention, False, *values)
    perp = perp_attention(scores, beta, out=out)
    values = top_squared_singular_values_from_perp(
        perp, k, return_vectors=True, tol=LANCZOS_TOLERANCE
    )
    return LeadingAttention(perp, True, *values)
