"""Scores S = Q K^T / sqrt(d_qk) drawn and multiplied in blocks of query rows (papers A, B).

The blocked form of :func:`attnspec.models.sampling.sample_queries_keys` followed by
:func:`attnspec.models.sampling.score_matrix`: Q is never held whole, and S may be formed in
float32 (SGEMM) from the float64 draws. The block size is a cache choice, not a parameter of the
law (docs/benchmark.md).
"""

import numpy as np

from attnspec.validation import check_count, check_fits_in_memory, check_rng

# Rows of Q drawn (and multiplied by K^T) per block while S is formed.
QUERY_BLOCK_ROWS = 1024


def sample_scores(
    keys_rng: np.random.Generator,
    queries_rng: np.random.Generator,
    n_tokens: int,
    d_qk: int,
    *,
    dtype: type = np.float64,
) -> np.ndarray:
    """S = Q K^T / sqrt(d_qk), Q, K iid N(0, 1) of shape (ell, d_qk) (papers A, B, section 1).

    K and Q are drawn in float64 from ``keys_rng`` and ``queries_rng`` in blocks of rows (the
    same numbers as one (ell, d_qk) draw each, into one reused float64 block) and stored in
    ``dtype`` (float64 or float32); Q is never held whole. With ``dtype=np.float32`` the product
    runs in float32 (SGEMM) on the rounded draws.
    """
    keys_rng = check_rng(keys_rng, "keys_rng")
    queries_rng = check_rng(queries_rng, "queries_rng")
    n_tokens = check_count(n_tokens, "n_tokens", 1)
    d_qk = check_count(d_qk, "d_qk", 1)
    if np.dtype(dtype) not in (np.float64, np.float32):
        raise ValueError(f"dtype must be float64 or float32, got {np.dtype(dtype).name}")
    dtype = np.dtype(dtype).type
    n_bytes = np.dtype(dtype).itemsize * n_tokens * (n_tokens + d_qk)
    check_fits_in_memory(n_bytes, "n_tokens and d_qk (S and K)")
    rows_per_block = min(QUERY_BLOCK_ROWS, n_tokens)
    draws = np.empty((rows_per_block, d_qk))
    keys = np.empty((n_tokens, d_qk), dtype)
    for r0 in range(0, n_tokens, rows_per_block):
        block = keys[r0 : r0 + rows_per_block]
        block[...] = keys_rng.standard_normal(out=draws[: block.shape[0]])
    scores = np.empty((n_tokens, n_tokens), dtype)
    queries = draws if dtype == np.float64 else np.empty((rows_per_block, d_qk), dtype)
    for r0 in range(0, n_tokens, rows_per_block):
        block = scores[r0 : r0 + rows_per_block]
        rows = queries[: block.shape[0]]
        rows[...] = queries_rng.standard_normal(out=draws[: block.shape[0]])
        np.matmul(rows, keys.T, out=block)
    scores *= dtype(1.0 / np.sqrt(d_qk))
    return scores
