"""Numerically stable row softmax, computed in float64 in place one block of rows at a time.

softmax(c s)_ij = exp(c s_ij - max_k c s_ik) / sum_j exp(c s_ij - max_k c s_ik); with the causal
mask the sums run over j <= i and entries j > i are exactly 0 (papers A, B: bidirectional;
paper C: both).
"""

import numpy as np

from attnspec.validation import check_choice, check_positive

MASKS = ("bidirectional", "causal")
_SCORE_DTYPES = (np.dtype(np.float64), np.dtype(np.float32))

# Rows per block are chosen so that a block of scores is about this many bytes (cache-sized).
_BLOCK_BYTES = 1 << 20


def row_softmax(
    scores: np.ndarray,
    *,
    mask: str = "bidirectional",
    scale: float = 1.0,
    out: np.ndarray | None = None,
) -> np.ndarray:
    """Row softmax of ``scale * scores``: rows non-negative, summing to 1.

    Stable: each row's maximum is subtracted before exponentiation, so no overflow for any
    finite input (e.g. beta = 50). Works in float64 on blocks of rows in place; no temporary
    of the size of ``scores`` is allocated, and ``out=scores`` overwrites float64 scores.

    Parameters
    ----------
    scores : ndarray, shape (n_rows, n_cols), float64 or float32
        Scores s (for attention, Q K^T, with ``scale = beta / sqrt(d_qk)``); float32 scores
        are converted block by block.
    mask : {"bidirectional", "causal"}
        ``"causal"`` gives row i zero probability on columns j > i (the causal mask is applied
        per block; no n_rows x n_cols index array is built).
    scale : float
        Multiplier c applied to the scores (inverse temperature).
    out : ndarray, shape (n_rows, n_cols), float64, optional
        Output buffer; may be ``scores`` itself, but must not overlap it otherwise.

    Returns
    -------
    ndarray
        ``out`` (newly allocated if not given), holding softmax(c s) row by row.
    """
    check_choice(mask, "mask", MASKS)
    if scores.ndim != 2 or scores.dtype not in _SCORE_DTYPES:
        raise ValueError("scores must be a 2-D float64 or float32 array")
    if 0 in scores.shape:
        raise ValueError(f"scores must have at least one row and column, got shape {scores.shape}")
    scale = check_positive(scale, "scale")
    if out is None:
        out = np.empty(scores.shape)
    elif out.shape != scores.shape or out.dtype != np.float64:
        raise ValueError("out must be a float64 array of the shape of scores")
    elif out is not scores and np.shares_memory(out, scores):
        raise ValueError("out must be scores itself or not overlap it")
    n_rows, n_cols = scores.shape
    rows_per_block = max(1, _BLOCK_BYTES // (8 * n_cols))
    for r0 in range(0, n_rows, rows_per_block):
        r1 = min(r0 + rows_per_block, n_rows)
        # Columns >= r1 are masked for every row of this block under the causal mask.
        width = min(r1, n_cols) if mask == "causal" else n_cols
        live = out[r0:r1, :width]
        np.multiply(scores[r0:r1, :width], scale, out=live, dtype=np.float64)
        if mask == "causal":
            out[r0:r1, width:] = 0.0
            if r0 < width:
                # Upper triangle (j > i) of the diagonal part of the block.
                live[:, r0:width][np.triu(np.ones((r1 - r0, width - r0), bool), k=1)] = -np.inf
        maxima = live.max(axis=1, keepdims=True)
        if not np.all(np.isfinite(maxima)):  # NaN or +inf in a row (or an overflowing scale)
            row = r0 + int(np.flatnonzero(~np.isfinite(maxima))[0])
            raise ValueError(f"scores must be finite: row {row} of scale * scores holds NaN or inf")
        live -= maxima
        np.exp(live, out=live)
        live /= live.sum(axis=1, keepdims=True)
    return out
