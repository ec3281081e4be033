"""All squared singular values of a dense matrix, as eigenvalues of its Gram matrix.

s_k(M)^2 = lambda_k(M M^T) (rows <= columns; else M^T M). The Gram matrix is formed by one
symmetric rank-k update (BLAS syrk) and its eigenvalues by LAPACK syevd without eigenvectors:
faster than an SVD without vectors (bidiagonal reduction) and than one with vectors (timings:
docs/benchmark.md, "Measurements behind settings"), at an absolute error of order
eps * s_1(M)^2 (not relative for the smallest values).
"""

import numpy as np
import scipy.linalg

from attnspec.validation import check_count, check_matrix


def _descending_eigenvalues(gram: np.ndarray) -> np.ndarray:
    """Eigenvalues of a symmetric matrix, descending, rounding-level negatives set to 0.

    numpy's LAPACK (syevd, no vectors; it copies ``gram`` once) rather than scipy's: numpy and
    scipy bundle separate OpenBLAS libraries whose idle threads spin, and alternating between
    them (numpy's matmul, scipy's eigvalsh) made small problems 5-20x slower on 2 busy cores.
    """
    values = np.linalg.eigvalsh(gram)
    np.clip(values, 0.0, None, out=values)
    return values[::-1].copy()


def squared_singular_values(M: np.ndarray) -> np.ndarray:
    """s_1(M)^2 >= ... >= s_r(M)^2, r = min(M.shape), as the eigenvalues of the Gram matrix.

    Parameters
    ----------
    M : ndarray, shape (m, n), float64, finite, m, n >= 1

    Returns
    -------
    ndarray, shape (min(m, n),)
        Descending, non-negative (absolute error about eps * s_1(M)^2 times a modest factor).
    """
    M = check_matrix(M, "M")
    gram = M @ M.T if M.shape[0] <= M.shape[1] else M.T @ M
    return _descending_eigenvalues(gram)


def bulk_squared_singular_values(A: np.ndarray, n_removed: int = 0) -> np.ndarray:
    """Squared singular values of sqrt(ell) A_perp, A_perp = A - u u^T, u = 1/sqrt(ell) (A, B).

    The Gram matrix of A_perp is formed without forming A_perp:
    A_perp A_perp^T = A A^T - r u^T - u r^T + u u^T with r = A u (for row-stochastic A, r = u
    and this is A A^T - u u^T). The ``n_removed`` largest values are dropped (paper A's
    figure A1 removes three).

    Parameters
    ----------
    A : ndarray, shape (ell, ell), float64
        Typically the attention matrix.
    n_removed : int
        Number of leading values to drop, 0 <= n_removed < ell.

    Returns
    -------
    ndarray, shape (ell - n_removed,)
        Descending; the smallest is 0 up to rounding (u is in the kernel of A_perp).
    """
    A = check_matrix(A, "A", square=True, min_rows=2)
    ell = A.shape[0]
    n_removed = check_count(n_removed, "n_removed", 0, ell - 1)
    # With u = 1/sqrt(ell): r u^T - u u^T / 2 = w 1^T and u r^T - u u^T / 2 = 1 w^T,
    # w = (row sums - 1/2) / ell; subtracted in place by broadcasting.
    w = (A.sum(axis=1) - 0.5) / ell
    gram = A @ A.T
    gram -= w[:, None]
    gram -= w[None, :]
    gram *= ell
    return _descending_eigenvalues(gram)[n_removed:]


def top_squared_singular_values_dense(
    M: np.ndarray, k: int, *, return_vectors: bool = False
) -> np.ndarray | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The k largest s_i(M)^2 of a square M from its Gram matrix M M^T (LAPACK syevr, subset).

    Only the eigenvalues (and, if asked, eigenvectors) with indices n-k..n-1 are computed after
    the tridiagonal reduction of M M^T, which dominates (4/3 n^3); at n <= 2048 this is faster
    than block Lanczos for k ~ sqrt(n) (paper B, figure B3). Absolute error ~ eps s_1(M)^2.

    Parameters
    ----------
    M : ndarray, shape (n, n), float64
    k : int
        Number of values, 1 <= k <= n.
    return_vectors : bool
        Also return the singular vectors: left = eigenvectors of M M^T,
        right = M^T left / s (unit).

    Returns
    -------
    values : ndarray, shape (k,)
        Descending, non-negative.
    left, right : ndarray, shape (n, k)
        Only with ``return_vectors``: M right[:, i] = sqrt(values[i]) left[:, i].
    """
    M = check_matrix(M, "M", square=True)
    n = M.shape[0]
    k = check_count(k, "k", 1, n)
    gram = M @ M.T
    # gram is symmetric, so its transpose is a Fortran-ordered view LAPACK can overwrite.
    subset = scipy.linalg.eigh(
        gram.T,
        subset_by_index=(n - k, n - 1),
        eigvals_only=not return_vectors,
        overwrite_a=True,
        check_finite=False,
        driver="evr",
    )
    values = np.clip(subset[0] if return_vectors else subset, 0.0, None)[::-1].copy()
    if not return_vectors:
        return values
    left = subset[1][:, ::-1].copy()
    right = M.T @ left
    right /= np.linalg.norm(right, axis=0)
    return values, left, right
