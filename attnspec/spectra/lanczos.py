"""Leading squared singular values by block Lanczos on the normal operator (papers A, B).

The k largest eigenvalues of H = M^T M, for M = sqrt(ell) A_perp = sqrt(ell) (A - 1 1^T / ell)
(never formed: M v = sqrt(ell) (A v - (sum_i v_i / ell) 1), M^T w = sqrt(ell) (A^T w -
(sum_i w_i / ell) 1)), for A = A_perp + 1 1^T / ell given A_perp, or for a dense M itself, by
block Lanczos with full reorthogonalisation and Rayleigh-Ritz. The basis grows as needed (no cap
below the whole space). Blocks of 16 vectors: a narrow block's product is memory-bound, so 16
vectors cost about four single products, while wider blocks need more vectors, more
reorthogonalisation (O(m^2 n)) and larger Rayleigh-Ritz problems. The normal product runs in one
pass over slices of the operand's rows (both products on a slice still in cache). Float32
operands (products in float32, basis and Rayleigh-Ritz in float64) halve the time per product
and the operand's memory. The measurements behind these choices (against ARPACK, PROPACK, full
and Gram solves, randomised block Krylov, thick restart, other block widths) are in
docs/benchmark.md.
"""

from collections.abc import Callable

import numpy as np

from attnspec.validation import all_finite, check_positive

# Vectors per Lanczos block (module doc).
_BLOCK_SIZE = 16
# The convergence test (an m x m eigh) runs when the basis has grown by this factor.
_CHECK_GROWTH = 1.1
# Rows of the operand per slice of the fused normal product (_normal_product).
_OPERAND_ROWS = 128
# A second whole Gram-Schmidt pass runs when the first shrank a column below this fraction.
_REORTHOGONALISE_BELOW = 0.5


def bulk_operator(A: np.ndarray):
    """M = sqrt(ell) A_perp = sqrt(ell) (A - 1 1^T / ell) as a LinearOperator (papers A, B).

    matvec/matmat: M V = sqrt(ell) (A V - 1 (1^T V) / ell); rmatvec/rmatmat:
    M^T W = sqrt(ell) (A^T W - 1 (1^T W) / ell). No ell x ell array besides A is allocated.
    Blocks are multiplied as (V^T A^T)^T: with V^T C-ordered (a transposed view of rows),
    OpenBLAS runs this product with few columns up to twice as fast as A @ V.
    """
    from scipy.sparse.linalg import LinearOperator  # scipy.sparse only where it is used

    ell = A.shape[0]
    if A.shape != (ell, ell):
        raise ValueError("A must be square")
    scale = np.sqrt(ell)

    def apply(right_factor, x):
        rows = x.T
        out = rows @ right_factor
        out -= rows.sum(axis=-1, keepdims=True) / ell
        out *= scale
        return out.T

    return LinearOperator(
        (ell, ell),
        matvec=lambda x: apply(A.T, x),
        rmatvec=lambda x: apply(A, x),
        matmat=lambda x: apply(A.T, x),
        rmatmat=lambda x: apply(A, x),
        dtype=np.float64,
    )


def _orthonormalise(
    block: np.ndarray, basis: np.ndarray, recent: int, rounded: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q, R, C with block - basis^T C = Q R, Q orthonormal and orthogonal to the basis rows.

    block = H V_j has large components only along the ``recent`` last basis rows (the blocks the
    Lanczos recurrence couples); along older rows they are at rounding level. Block classical
    Gram-Schmidt against the recent rows, then one pass against the whole basis (twice for the
    recent rows, as in BCGS2, once for the rest), and a second whole pass only if the first
    removed a fair share of a column (Kahan-Parlett: lost orthogonality); then a QR. C = basis
    block, the projected matrix's column. Overwrites ``block``.

    ``rounded``: the basis rounded to float32, for whole passes in float32 (half the memory
    traffic, twice the rate). They remove components that the local pass has left at the level
    of the float32 products (relative 1e-7), so their own float32 error is 6e-8 of the block's
    norm: the basis stays orthogonal to about 1e-7, which moves the Ritz values by about that
    relative amount, as the float32 products already do.
    """
    lo = basis.shape[0] - recent
    local = basis[lo:] @ block
    block -= basis[lo:].T @ local
    norms = np.linalg.norm(block, axis=0)

    def whole_pass():
        if rounded is None:
            found = basis @ block
            block[...] -= basis.T @ found
            return found
        found = rounded @ block.astype(np.float32)
        block[...] -= rounded.T @ found
        return found.astype(np.float64)

    coefficients = whole_pass()
    if np.any(np.linalg.norm(block, axis=0) < _REORTHOGONALISE_BELOW * norms):
        coefficients += whole_pass()
    coefficients[lo:] += local
    q, r = np.linalg.qr(block)
    return q, r, coefficients


def _relative_error(theta, ritz, link, k) -> float:
    """The largest min(r_i, r_i^2 / gap_i) / theta_i over the k leading Ritz values.

    r_i = ||link ritz[last block, i]|| is the residual norm ||H x_i - theta_i x_i|| from the
    block Lanczos relation H V = V T + V_next link E_last^T; gap_i is the distance to the
    nearest other Ritz value. r bounds the error always, r^2 / gap (Kato-Temple) once the
    neighbouring eigenvalues are resolved. The values are accepted when this is <= tol.
    """
    residual = np.linalg.norm(link @ ritz[-link.shape[1] :, :k], axis=0)
    gap = np.abs(theta[:k, None] - theta[None, :])
    gap[np.arange(k), np.arange(k)] = np.inf
    nearest = gap.min(axis=1)
    kato_temple = np.divide(residual**2, nearest, out=np.full(k, np.inf), where=nearest > 0)
    error = np.minimum(residual, kato_temple)
    scale = np.abs(theta[:k])
    relative = np.divide(error, scale, out=np.full(k, np.inf), where=scale > 0)
    return float(np.max(np.where(error == 0, 0.0, relative)))


def _next_check(m: int, width: int, error: float, previous: tuple[int, float] | None, tol):
    """Basis size of the next convergence test, after one at m vectors with ``error``.

    At most _CHECK_GROWTH m (a Rayleigh-Ritz costs O(m^3)); earlier when the errors of this
    test and the previous one, extrapolated log-linearly in m, reach tol sooner (at least one
    block later): near convergence a test costs less than the block products it saves.
    """
    latest = max(m + 1, int(_CHECK_GROWTH * m))
    if previous is None or not 0 < error < previous[1] or not np.isfinite(previous[1]):
        return latest
    per_vector = np.log(previous[1] / error) / (m - previous[0])
    predicted = m + int(np.ceil(np.log(error / tol) / per_vector))
    return max(m + width, min(latest, predicted))


def _grown(array: np.ndarray, rows: int, columns: int) -> np.ndarray:
    """A zero array of shape (rows, columns) holding ``array`` in its leading corner."""
    out = np.zeros((rows, columns), array.dtype)
    out[: array.shape[0], : array.shape[1]] = array
    return out


def _block_lanczos(
    normal_rows: Callable[[np.ndarray], np.ndarray],
    n: int,
    k: int,
    tol: float,
    max_basis: int | None,
    float32_passes: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Top k eigenpairs of a symmetric PSD H (n x n) given V^T -> (H V)^T on row blocks.

    Fixed start block (default_rng(0)), so results are reproducible bit for bit. The basis
    and the projected matrix grow as needed (doubling) up to ``max_basis`` vectors (default n:
    the whole space, where the Ritz values are exact), so memory follows the vectors used:
    m n + 2 m^2 float64 for m vectors (and m n float32 with ``float32_passes``: a float32 copy
    of the basis for the whole Gram-Schmidt passes, for products that are float32 anyway; see
    :func:`_orthonormalise`). Returns the descending Ritz values (clipped at 0) and the unit
    Ritz vectors as columns (n, k).
    """
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or not 1 <= k < n:
        raise ValueError(f"k must be an integer with 1 <= k < n = {n}, got k = {k!r}")
    tol = check_positive(tol, "tol")
    m_max = n if max_basis is None else min(n, max_basis)
    if m_max <= k:
        raise ValueError(f"max_basis = {m_max} must exceed k = {k}")
    width = min(_BLOCK_SIZE, m_max)
    capacity = min(m_max, max(4 * width, 2 * (k + 1)))
    basis = np.empty((capacity, n))  # rows: orthonormal Krylov basis vectors
    projected = np.zeros((capacity, capacity))  # T = basis H basis^T (block tridiagonal)
    basis[:width] = np.linalg.qr(np.random.default_rng(0).standard_normal((n, width)))[0].T
    rounded = np.empty((capacity, n), np.float32) if float32_passes else None
    m, next_check, previous = 0, k + 1, None
    while True:
        image = normal_rows(basis[m : m + width]).T  # H V, shape (n, width)
        if rounded is not None:
            rounded[m : m + width] = basis[m : m + width]
        m += width
        next_block, link, coefficients = _orthonormalise(
            image, basis[:m], min(m, 2 * width), None if rounded is None else rounded[:m]
        )
        projected[:m, m - width : m] = coefficients
        projected[m - width : m, :m] = coefficients.T
        if m >= next_check or m == m_max:
            theta, ritz = np.linalg.eigh(projected[:m, :m])
            theta, ritz = theta[::-1], ritz[:, ::-1]
            error = _relative_error(theta, ritz, link, k) if m > k else np.inf
            if m == n or error <= tol:
                break
            next_check = _next_check(m, width, error, previous, tol)
            previous = (m, error)
            if m == m_max:
                raise RuntimeError(f"Lanczos did not converge with a basis of {m_max} vectors")
        width = min(width, m_max - m)
        if m + width > capacity:
            capacity = min(m_max, 2 * capacity)
            basis = _grown(basis[:m], capacity, n)
            if rounded is not None:
                rounded = _grown(rounded[:m], capacity, n)
            projected = _grown(projected[:m, :m], capacity, capacity)
        basis[m : m + width] = next_block[:, :width].T
    return np.clip(theta[:k], 0.0, None), basis[:m].T @ ritz[:, :k]


def _with_vectors(values, right, apply):
    """(values, left, right) with left = M right / ||M right|| (unit columns)."""
    left = apply(right)
    left /= np.linalg.norm(left, axis=0)
    return values, left, right


def top_nonperron_squared_singular_values(
    A: np.ndarray,
    k: int,
    *,
    return_vectors: bool = False,
    tol: float = 1e-10,
    max_basis: int | None = None,
) -> np.ndarray | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The k largest squared singular values of sqrt(ell) A_perp, A_perp = A - 1 1^T / ell.

    Block Lanczos on H = M^T M, M = sqrt(ell) A_perp applied through :func:`bulk_operator`
    (A_perp is never formed). For row-stochastic A (papers A, B) these are the k leading
    non-Perron values, interlacing ell s_{i+1}(A)^2 (paper B's ell s_k(A)^2, k >= 2).
    A Ritz value theta_i is accepted when min(r_i, r_i^2 / gap_i) <= tol * theta_i (residual r_i,
    gap to the nearest other Ritz value); singular vectors are accurate to about r_i / gap_i.

    Parameters
    ----------
    A : ndarray, shape (ell, ell), float64
        Typically the attention matrix (only products with A and A^T are used).
    k : int
        Number of values, 1 <= k < ell.
    return_vectors : bool
        Also return the corresponding unit singular vectors of A_perp.
    tol : float
        Relative accuracy requested for the values.
    max_basis : int, optional
        Largest Krylov basis (default ell: the basis grows until the values converge, at worst
        to the whole space, where they are exact); ``RuntimeError`` if a smaller limit is
        reached before convergence.

    Returns
    -------
    values : ndarray, shape (k,)
        Descending squared singular values of sqrt(ell) A_perp.
    left, right : ndarray, shape (ell, k)
        Only with ``return_vectors``: sqrt(ell) A_perp right[:, i] = sqrt(values[i]) left[:, i].
    """
    _check_operand(A, "A")
    op = bulk_operator(A)
    values, right = _block_lanczos(
        lambda rows: op.rmatmat(op.matmat(rows.T)).T, op.shape[0], k, tol, max_basis
    )
    return _with_vectors(values, right, op.matmat) if return_vectors else values


def _normal_product(M: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """rows -> (rows @ M^T) @ M for float64 rows, in M's dtype, as one pass over M's rows.

    M's rows are taken _OPERAND_ROWS at a time: W = rows @ R^T, then out += W @ R while the
    slice R is still in cache, so M is read from memory once per block instead of twice and
    each slice's two products run at the rate of a small GEMM on cached data
    (docs/benchmark.md).
    The rows are rounded to M's dtype; the result is returned in float64.
    """

    def normal_rows(rows: np.ndarray) -> np.ndarray:
        block = rows.astype(M.dtype, copy=False)
        out = np.zeros((rows.shape[0], M.shape[1]), M.dtype)
        work = np.empty((rows.shape[0], min(_OPERAND_ROWS, M.shape[0])), M.dtype)
        for r0 in range(0, M.shape[0], _OPERAND_ROWS):
            part = M[r0 : r0 + _OPERAND_ROWS]
            out += np.matmul(block, part.T, out=work[:, : part.shape[0]]) @ part
        return out.astype(np.float64, copy=False)

    return normal_rows


def _products_in(dtype: np.dtype, product: Callable[[np.ndarray], np.ndarray]):
    """``product`` applied to float64 rows rounded to ``dtype``, its result back in float64."""
    if dtype == np.float64:
        return product
    return lambda rows: product(rows.astype(dtype)).astype(np.float64)


def _check_operand(M: np.ndarray, name: str) -> None:
    if M.ndim != 2 or M.dtype not in (np.float64, np.float32):
        raise ValueError(f"{name} must be a 2-D float64 or float32 array")
    if not all_finite(M):
        raise ValueError(f"{name} must hold finite numbers")


def top_squared_singular_values(
    M: np.ndarray,
    k: int,
    *,
    return_vectors: bool = False,
    tol: float = 1e-10,
    max_basis: int | None = None,
) -> np.ndarray | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The k largest squared singular values s_1(M)^2 >= ... >= s_k(M)^2 of M itself (paper B).

    Block Lanczos on H = M^T M, applied to row blocks as (V^T M^T) M in one pass over M's
    rows (:func:`_normal_product`), with the acceptance test of
    :func:`top_nonperron_squared_singular_values` and no Perron projection: for the attention
    matrix, ell times these are paper B's ell s_k(A)^2 with the Perron value ell s_1(A)^2 ~ ell
    first; for Y_lin, its top squared singular values. A float32 M has its products (and the
    whole Gram-Schmidt passes) in float32 (the Krylov basis and Rayleigh-Ritz stay float64),
    which limits the relative accuracy to about 1e-7 (for the attention matrix, whose Perron
    value dwarfs the rest, use :func:`top_squared_singular_values_from_perp`).

    Parameters
    ----------
    M : ndarray, shape (p, n), float64 or float32
    k : int
        Number of values, 1 <= k < n.
    return_vectors : bool
        Also return the corresponding unit singular vectors.
    tol : float
        Relative accuracy requested for the values (of the Lanczos relation; with float32
        products the rounding of M and of the products adds to it).
    max_basis : int, optional
        Largest Krylov basis (default n: the basis grows until the values converge, at worst
        to the whole space, where they are exact); ``RuntimeError`` if a smaller limit is
        reached before convergence.

    Returns
    -------
    values : ndarray, shape (k,)
        Descending squared singular values of M.
    left, right : ndarray, shape (p, k) and (n, k)
        Only with ``return_vectors``: M right[:, i] = sqrt(values[i]) left[:, i].
    """
    _check_operand(M, "M")
    values, right = _block_lanczos(
        _normal_product(M), M.shape[1], k, tol, max_basis, M.dtype == np.float32
    )
    if not return_vectors:
        return values
    return _with_vectors(values, right, _products_in(M.dtype, lambda x: M @ x))


def top_squared_singular_values_from_perp(
    perp: np.ndarray,
    k: int,
    *,
    return_vectors: bool = False,
    tol: float = 1e-10,
    max_basis: int | None = None,
) -> np.ndarray | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The k largest s_i(A)^2 of A = A_perp + 1 1^T / ell, given C = A_perp (papers A, B).

    For the attention matrix, ell times these are paper B's ell s_k(A)^2, Perron value first.
    Block Lanczos on H = A^T A applied as H v = C^T C v + r (1^T v) / ell + 1 (r^T v + 1^T v)
    / ell with r = C^T 1 (exact for any C; r is summed in float64): only C's products run in
    C's dtype. The Perron value s_1(A)^2 ~ 1 is carried by the float64 rank-one terms, so
    float32 rounding in C^T C v is relative to the bulk, s_2(A)^2 ~ x_+ / ell, not to s_1(A)^2:
    the measured errors are in docs/benchmark.md.

    Parameters
    ----------
    perp : ndarray, shape (ell, ell), float64 or float32
        C = A - 1 1^T / ell (see :func:`attnspec.models.sampling.perp_attention`).
    k, return_vectors, tol, max_basis
        As in :func:`top_squared_singular_values`.

    Returns
    -------
    values : ndarray, shape (k,)
        Descending s_i(A)^2.
    left, right : ndarray, shape (ell, k)
        Only with ``return_vectors``: A right[:, i] = sqrt(values[i]) left[:, i].
    """
    _check_operand(perp, "perp")
    ell = perp.shape[0]
    if perp.shape != (ell, ell):
        raise ValueError("perp must be square")
    column_sums = perp.sum(axis=0, dtype=np.float64)  # r = C^T 1
    gram_rows = _normal_product(perp)
    apply_perp = _products_in(perp.dtype, lambda x: perp @ x)

    def normal_rows(rows):
        sums = rows.sum(axis=1, keepdims=True)  # 1^T v for each row v
        out = gram_rows(rows)
        out += (sums / ell) * column_sums
        out += (rows @ column_sums[:, None] + sums) / ell
        return out

    values, right = _block_lanczos(normal_rows, ell, k, tol, max_basis, perp.dtype == np.float32)
    if not return_vectors:
        return values
    return _with_vectors(
        values, right, lambda x: apply_perp(x) + x.sum(axis=0, keepdims=True) / ell
    )
