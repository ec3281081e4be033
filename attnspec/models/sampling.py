"""Random attention model (papers A, B, section 1): queries, keys, scores and the attention matrix.

S = Q K^T / sqrt(d_qk), A = row-softmax(beta S), A_perp = A - u u^T with u = 1 / sqrt(ell).
With X (ell x d) having orthonormal rows and W^Q, W^K iid N(0, 1), Q = X W^Q and K = X W^K
have iid N(0, 1) entries, so the fast sampler draws Q and K directly.
"""

import numpy as np

from attnspec.models.softmax import row_softmax
from attnspec.validation import (
    check_choice,
    check_count,
    check_fits_in_memory,
    check_matrix,
    check_positive,
    check_rng,
)

SAMPLERS = ("gaussian", "literal")
# Rows per block of perp_attention: a float64 block of about this many bytes (cache-sized).
_BLOCK_BYTES = 1 << 20
# Scores beta q_i . k_j / sqrt(d_qk) stay below this, half the float64 maximum: the softmax
# subtracts each row's maximum, which can double a score's size.
_SCORE_LIMIT = float(np.finfo(np.float64).max) / 2


def sample_queries_keys(
    rng: np.random.Generator,
    n_tokens: int,
    d_qk: int,
    *,
    sampler: str = "gaussian",
    d_model: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Queries and keys Q, K in R^{ell x d_qk} of the random attention model (papers A, B).

    ``"gaussian"``: Q, K iid N(0, 1) (Q drawn first). ``"literal"``: X = (Haar-orthonormal
    d x ell factor of the QR decomposition of a Gaussian matrix)^T, so X X^T = I_ell, then
    W^Q, W^K in R^{d x d_qk} iid N(0, 1), Q = X W^Q, K = X W^K. Both give the same law.

    Parameters
    ----------
    rng : numpy.random.Generator
        Source of randomness (see :func:`attnspec.seeding.rng_for`).
    n_tokens : int
        Number of tokens ell.
    d_qk : int
        Query/key width.
    sampler : {"gaussian", "literal"}
        Construction, as above.
    d_model : int, optional
        Embedding width d (required by ``"literal"``); ell <= d is required when given.

    Returns
    -------
    Q, K : ndarray, shape (n_tokens, d_qk), float64
    """
    rng = check_rng(rng)
    check_choice(sampler, "sampler", SAMPLERS)
    n_tokens, d_qk = check_count(n_tokens, "n_tokens", 1), check_count(d_qk, "d_qk", 1)
    if d_model is not None:
        d_model = check_count(d_model, "d_model", 1)
    if d_model is not None and n_tokens > d_model:
        raise ValueError(f"X needs orthonormal rows: n_tokens={n_tokens} > d_model={d_model}")
    if sampler == "gaussian":
        check_fits_in_memory(16 * n_tokens * d_qk, f"n_tokens = {n_tokens}, d_qk = {d_qk}: Q, K")
        return rng.standard_normal((n_tokens, d_qk)), rng.standard_normal((n_tokens, d_qk))
    if d_model is None:
        raise ValueError('sampler="literal" needs d_model')
    check_fits_in_memory(
        16 * (n_tokens * d_qk + d_model * (n_tokens + d_qk)),
        f"n_tokens = {n_tokens}, d_qk = {d_qk}, d_model = {d_model}: X, W^Q, W^K, Q, K",
    )
    x = haar_orthonormal(rng, d_model, n_tokens).T
    return x @ rng.standard_normal((d_model, d_qk)), x @ rng.standard_normal((d_model, d_qk))


def haar_orthonormal(rng: np.random.Generator, rows: int, cols: int) -> np.ndarray:
    """F in R^{rows x cols} (rows >= cols) with orthonormal columns, Haar-distributed: the Q of
    the thin QR of a rows x cols Gaussian matrix, columns multiplied by sign(diag R) (without
    the sign fix Q is not Haar; Mezzadri 2007)."""
    rows, cols = check_count(rows, "rows", 1), check_count(cols, "cols", 1)
    check_fits_in_memory(
        16 * rows * cols, f"rows = {rows}, cols = {cols}: a Gaussian matrix and its QR factor"
    )
    factor, upper = np.linalg.qr(check_rng(rng).standard_normal((rows, cols)))
    factor *= np.where(np.diagonal(upper) < 0, -1.0, 1.0)
    return factor


def score_matrix(Q: np.ndarray, K: np.ndarray, *, out: np.ndarray | None = None) -> np.ndarray:
    """S = Q K^T / sqrt(d_qk), shape (ell, ell); entries N(0, 1) marginally (papers A, B).

    ``out`` (float64, shape (ell, ell)) receives the result if given.
    """
    out = np.matmul(Q, K.T, out=out)
    out *= 1.0 / np.sqrt(Q.shape[1])
    return out


def attention_matrix(
    Q: np.ndarray,
    K: np.ndarray,
    beta: float,
    *,
    mask: str = "bidirectional",
    out: np.ndarray | None = None,
) -> np.ndarray:
    """A = row-softmax(beta Q K^T / sqrt(d_qk)), row-stochastic, shape (ell, ell) (papers A, B, C).

    Built in one ell x ell buffer: the product Q K^T is written into it, then scaled and
    softmaxed in place (see :func:`attnspec.models.softmax.row_softmax`).

    Parameters
    ----------
    Q, K : ndarray, shape (ell, d_qk), float64
    beta : float
        Inverse temperature.
    mask : {"bidirectional", "causal"}
    out : ndarray, shape (ell, ell), float64, optional
        Buffer for A.
    """
    beta = check_positive(beta, "beta")
    Q = np.asarray(check_matrix(Q, "Q"), dtype=np.float64)
    K = np.asarray(check_matrix(K, "K"), dtype=np.float64)
    if Q.shape[1] != K.shape[1]:
        raise ValueError(f"Q and K must have the same width d_qk, got {Q.shape} and {K.shape}")
    _check_scores_fit(Q, K, beta)
    shape = (Q.shape[0], K.shape[0])
    if out is None:
        check_fits_in_memory(8 * shape[0] * shape[1], f"Q and K of shapes {Q.shape}, {K.shape}: A")
    elif not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != np.float64:
        raise ValueError(f"out must be a float64 array of shape {shape} (rows of Q, rows of K)")
    out = np.matmul(Q, K.T, out=out)
    return row_softmax(out, mask=mask, scale=beta / np.sqrt(Q.shape[1]), out=out)


def _check_scores_fit(Q: np.ndarray, K: np.ndarray, beta: float) -> None:
    """ValueError unless every score beta q_i . k_j / sqrt(d_qk) stays below _SCORE_LIMIT: a
    score is at most beta sqrt(d_qk) max|Q| max|K| in size (and the product Q K^T, at most
    d_qk max|Q| max|K|, must fit too). Names Q and K, or beta and its largest value for them."""
    width = Q.shape[1]
    largest_q, largest_k = max(Q.max(), -Q.min()), max(K.max(), -K.min())
    entries = float(largest_q) * float(largest_k)
    if width * entries > _SCORE_LIMIT:
        raise ValueError(
            f"Q and K: entries up to {largest_q:.3g} and {largest_k:.3g} make Q K^T overflow "
            f"float64; allowed: d_qk max|Q| max|K| below {_SCORE_LIMIT:.3g}"
        )
    largest_beta = _SCORE_LIMIT / (np.sqrt(width) * entries) if entries > 0 else np.inf
    if beta > largest_beta:
        raise ValueError(
            f"beta must be a finite number in (0, {largest_beta:.3g}] for these Q and K (beta "
            f"sqrt(d_qk) max|Q| max|K| below {_SCORE_LIMIT:.3g}, or the scores overflow "
            f"float64), got {beta!r}"
        )


def perp_attention(scores: np.ndarray, beta: float, *, out: np.ndarray) -> np.ndarray:
    """A_perp = row-softmax(beta S) - 1 1^T / ell from scores S (papers A, B, section 1).

    The softmax and the subtraction run in float64 on blocks of rows (no ell x ell float64
    temporary); ``out`` (float64 or float32, shape of ``scores``, may be ``scores``) receives
    the result rounded once to its dtype. For row-stochastic A, A_perp 1 = 0.
    """
    n_rows, n_cols = scores.shape
    if out.shape != scores.shape or out.dtype not in (np.float64, np.float32):
        raise ValueError("out must be a float64 or float32 array of the shape of scores")
    rows_per_block = max(1, _BLOCK_BYTES // (8 * n_cols))
    work = np.empty((min(rows_per_block, n_rows), n_cols))
    for r0 in range(0, n_rows, rows_per_block):
        r1 = min(r0 + rows_per_block, n_rows)
        block = row_softmax(scores[r0:r1], scale=beta, out=work[: r1 - r0])
        block -= 1.0 / n_cols
        out[r0:r1] = block
    return out


def remove_perron(A: np.ndarray, *, out: np.ndarray | None = None) -> np.ndarray:
    """A_perp = A - u u^T = A - 1 1^T / ell with u = 1 / sqrt(ell) (papers A, B, section 1).

    For row-stochastic A, A u = u, so A_perp = A (I - u u^T). ``out=A`` works in place.
    """
    A = np.asarray(A)
    if A.ndim != 2 or A.shape[0] != A.shape[1] or A.shape[0] == 0:
        raise ValueError(f"A must be a square 2-D array with at least 1 row, got shape {A.shape}")
    if out is not None and (out.shape != A.shape or not np.issubdtype(out.dtype, np.floating)):
        raise ValueError(f"out must be a floating-point array of A's shape {A.shape}")
    return np.subtract(A, 1.0 / A.shape[0], out=out)
