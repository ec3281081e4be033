"""Localisation of singular vectors (paper B, figure B2): the inverse participation ratio.

IPR(v) = sum_i v_i^4 / (sum_i v_i^2)^2, between 1/ell (flat, |v_i| all equal) and 1 (one site).
"""

import numpy as np


def inverse_participation_ratio(vectors: np.ndarray) -> np.ndarray:
    """IPR(v) = sum_i v_i^4 / (sum_i v_i^2)^2 of each column (scale-invariant).

    Parameters
    ----------
    vectors : ndarray, shape (ell,) or (ell, k)
        One vector, or k vectors as columns (need not be normalised; none may be zero).

    Returns
    -------
    ndarray, shape () or (k,)
        1/ell for a delocalised (flat) vector, 1 for a vector supported on one site.
    """
    vectors = np.asarray(vectors, dtype=np.float64)
    squares = np.square(vectors)
    return np.sum(np.square(squares), axis=0) / np.square(np.sum(squares, axis=0))
