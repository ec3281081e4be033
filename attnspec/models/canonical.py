"""Paper C's canonical score model S = diag(sigma) and the explicit row softmax of a diagonal.

Canonical model (papers.md section 5, reconstructed): the score matrix S = U Sigma V^T is replaced
by its singular-value representative Sigma = diag(sigma), n x n, with r spikes
sigma_p = kappa log n at explicit positions p and a bulk profile of O(1) values on the other
n - r positions: ``zeros``; ``iid`` (beta xi_i, xi_i iid N(0, 1)); ``gaussian``
(beta s_k(Q K^T / sqrt(d_qk)) / sqrt(m), the singular values of a Gaussian score matrix with
Q, K in R^{m x d_qk} iid N(0, 1), m = n - r, d_qk = round(m / c), normalised so that the mean
squared value is beta^2; placed in descending order, as in Sigma).

Row softmax of a diagonal matrix is explicit. With m_i = n - 1 (bidirectional) or i - 1 (causal,
rows i = 1..n, columns j <= i) and Z_i = e^{sigma_i} + m_i:

    A_ii = d_i = e^{sigma_i} / Z_i,    A_ij = a_i = 1 / Z_i  (j != i, j in the row's support),

so A = diag(d - a) + diag(a) J with J = 1 1^T (bidirectional) or the lower-triangular ones
(causal): a diagonal plus a row-scaled rank-one (or cumulative-sum) part. Products with A and A^T
cost O(n), ||A||_F^2 = sum_i d_i^2 + m_i a_i^2 is exact, and the distribution function of the
singular values is an O(n) inertia count (:meth:`DiagonalSoftmax.squared_singular_value_counts`).

The isotropic model the canonical one stands for is S = U Sigma V^T with U, V Haar on O(n)
(:func:`isotropic_scores`).

Bidirectional limit (derived, docs/papers.md paper C): the stable rank tends to r + 1 for
kappa > 1, approached like (r + 1) / (1 + sqrt(r / n)) because the r spike rows couple to the
n - r nearly uniform rows through the Perron direction
(:func:`bidirectional_norm_squared_approximation`).
"""

from dataclasses import dataclass

import numpy as np
from scipy.sparse.linalg import LinearOperator, eigsh

from attnspec.models.sampling import haar_orthonormal
from attnspec.models.softmax import MASKS
from attnspec.validation import (
    check_choice,
    check_count,
    check_fits_in_memory,
    check_nonnegative,
    check_positive,
    check_rng,
    check_vector,
)

BULK_PROFILES = ("zeros", "iid", "gaussian")
SPIKE_PLACEMENTS = ("spread", "end", "start")


def spike_positions(n: int, spikes: int, placement: str) -> np.ndarray:
    """Zero-based rows of the r spikes (papers.md section 5: positions matter for causal).

    ``spread``: p_k = floor((k + 1/2) n / r), k = 0..r-1 (evenly through the sequence, away from
    the first rows, which the causal mask already concentrates); ``end``: the last r rows;
    ``start``: the first r rows (Sigma's own order, sigma_1 >= sigma_2 >= ...).
    """
    check_choice(placement, "placement", SPIKE_PLACEMENTS)
    if not 0 <= spikes <= n:
        raise ValueError(f"need 0 <= spikes <= n, got {spikes} spikes for n = {n}")
    if placement == "spread":
        return ((np.arange(spikes) + 0.5) * n / max(spikes, 1)).astype(np.int64)
    if placement == "end":
        return np.arange(n - spikes, n, dtype=np.int64)
    return np.arange(spikes, dtype=np.int64)


def gaussian_score_singular_values(m: int, ratio: float, rng: np.random.Generator) -> np.ndarray:
    """s_k(Q K^T / sqrt(d_qk)) / sqrt(m), k = 1..m, descending; Q, K in R^{m x d_qk} iid N(0, 1).

    d_qk = max(1, round(m / ratio)). With thin QR factorisations Q = Q_1 R_Q, K = K_1 R_K the
    nonzero singular values are those of the d x d core R_Q R_K^T (d = min(m, d_qk)); the other
    m - d are exactly 0. The mean of the squares is (1/m^2) ||Q K^T||_F^2 / d_qk -> 1.
    """
    m, ratio = check_count(m, "m", 0), check_positive(ratio, "ratio")
    d_qk = max(1, round(m / ratio))
    check_fits_in_memory(16 * m * d_qk, f"m = {m}, ratio = {ratio:g}: Q and K of {m} x {d_qk}")
    Q = check_rng(rng).standard_normal((m, d_qk))
    K = rng.standard_normal((m, d_qk))
    core = np.linalg.qr(Q, mode="r") @ np.linalg.qr(K, mode="r").T
    values = np.zeros(m)
    top = np.linalg.svd(core, compute_uv=False)
    values[: top.size] = top[:m] / np.sqrt(d_qk * m)
    return values


def canonical_scores(
    n: int,
    *,
    spikes: int,
    kappa: float,
    placement: str,
    profile: str,
    bulk_scale: float,
    rng: np.random.Generator,
    gaussian_ratio: float = 1.0,
) -> np.ndarray:
    """The diagonal sigma of the canonical score model Sigma (see the module notes).

    Parameters
    ----------
    n : int
        Tokens (Sigma is n x n).
    spikes, kappa : int, float
        r spikes of value kappa log n at :func:`spike_positions` ``(n, r, placement)``.
    profile : {"zeros", "iid", "gaussian"}
        Bulk profile on the other n - r positions (in row order).
    bulk_scale : float
        beta, the scale of the bulk profile.
    rng : numpy.random.Generator
        Source of the bulk (unused by ``zeros``).
    gaussian_ratio : float
        c = m / d_qk of the ``gaussian`` profile's score matrix.

    Returns
    -------
    ndarray, shape (n,), float64
    """
    check_choice(profile, "profile", BULK_PROFILES)
    n, kappa = check_count(n, "n", 1), check_nonnegative(kappa, "kappa")
    spikes = check_count(spikes, "spikes", 0, n)
    bulk_scale, rng = check_positive(bulk_scale, "bulk_scale"), check_rng(rng)
    gaussian_ratio = check_positive(gaussian_ratio, "gaussian_ratio")
    m, n_bytes, sizes = n - spikes, 24 * n, f"n = {n}"
    if profile == "gaussian":
        n_bytes += 16 * m * max(1, round(m / gaussian_ratio))
        sizes += f", gaussian_ratio = {gaussian_ratio:g}"
    check_fits_in_memory(n_bytes, f"{sizes}: sigma and its bulk")
    positions = spike_positions(n, spikes, placement)
    if profile == "zeros":
        bulk = np.zeros(m)
    elif profile == "iid":
        bulk = bulk_scale * rng.standard_normal(m)
    else:
        bulk = bulk_scale * gaussian_score_singular_values(m, gaussian_ratio, rng)
    sigma = np.empty(n)
    is_spike = np.zeros(n, dtype=bool)
    is_spike[positions] = True
    sigma[is_spike] = kappa * np.log(n)
    sigma[~is_spike] = bulk
    return sigma


@dataclass(frozen=True)
class DiagonalSoftmax:
    """A = row-softmax(diag(sigma)) under a mask, stored as its O(n) explicit parameters.

    ``diagonal`` d_i = A_ii = e^{sigma_i} / Z_i and ``off_diagonal`` a_i = 1 / Z_i, the common
    value of the row's other entries, Z_i = e^{sigma_i} + m_i (m_i = n - 1 bidirectional,
    i - 1 causal), both computed as exp(. - log Z_i) with log Z_i = logaddexp(sigma_i, log m_i),
    so no overflow for any finite sigma.
    """

    diagonal: np.ndarray
    off_diagonal: np.ndarray
    mask: str

    @property
    def n(self) -> int:
        return self.diagonal.size

    @property
    def row_support(self) -> np.ndarray:
        """m_i, the number of off-diagonal entries a_i in row i."""
        if self.mask == "bidirectional":
            return np.full(self.n, self.n - 1, dtype=np.float64)
        return np.arange(self.n, dtype=np.float64)

    def dense(self) -> np.ndarray:
        """The n x n matrix A (for checks and small n)."""
        out = np.repeat(self.off_diagonal[:, None], self.n, axis=1)
        if self.mask == "causal":
            out = np.tril(out)
        out[np.diag_indices(self.n)] = self.diagonal
        return out

    def matmat(self, x: np.ndarray) -> np.ndarray:
        """A x in O(n) per column: d_i x_i + a_i (sum over the row's support j != i of x_j)."""
        x = np.asarray(x, dtype=np.float64)
        column = x.ndim == 1
        x = x.reshape(self.n, -1)
        if self.mask == "bidirectional":
            others = x.sum(axis=0, keepdims=True) - x
        else:
            others = np.cumsum(x, axis=0) - x
        out = self.diagonal[:, None] * x + self.off_diagonal[:, None] * others
        return out[:, 0] if column else out

    def rmatmat(self, y: np.ndarray) -> np.ndarray:
        """A^T y in O(n) per column: d_j y_j + sum of a_i y_i over rows i != j holding j."""
        y = np.asarray(y, dtype=np.float64)
        column = y.ndim == 1
        y = y.reshape(self.n, -1)
        weighted = self.off_diagonal[:, None] * y
        if self.mask == "bidirectional":
            others = weighted.sum(axis=0, keepdims=True) - weighted
        else:
            others = np.cumsum(weighted[::-1], axis=0)[::-1] - weighted
        out = self.diagonal[:, None] * y + others
        return out[:, 0] if column else out

    def frobenius_squared(self) -> float:
        """||A||_F^2 = sum_i d_i^2 + m_i a_i^2 (exact; = H_n for the Cesaro matrix)."""
        return float(np.sum(self.diagonal**2 + self.row_support * self.off_diagonal**2))

    def top_squared_singular_values(
        self, k: int, *, tol: float = 1e-12, return_vectors: bool = False
    ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """s_1(A)^2 >= ... >= s_k(A)^2 by implicitly restarted Lanczos (ARPACK) on A^T A.

        With ``return_vectors`` also the unit right singular vectors, as columns (n, k).

        Products cost O(n) (:meth:`matmat`, :meth:`rmatmat`). The start vector is fixed
        (``default_rng(0)``, reproducible) and generic: 1/sqrt(n) is not, since for symmetric
        spike placements it is nearly orthogonal to some of the (nearly degenerate) spike modes.
        ARPACK's restart vectors come from a seeded generator too (by default scipy draws them
        from OS entropy, which made near-zero values differ between runs).
        """
        n = self.n
        if not 1 <= k < n:
            raise ValueError(f"need 1 <= k < n = {n}, got k = {k}")
        gram = LinearOperator(
            (n, n),
            matvec=lambda v: self.rmatmat(self.matmat(v)),
            matmat=lambda v: self.rmatmat(self.matmat(v)),
            dtype=np.float64,
        )
        start = np.random.default_rng(0).standard_normal(n)
        result = eigsh(
            gram,
            k=k,
            which="LA",
            v0=start,
            tol=tol,
            ncv=min(n, max(2 * k + 1, 40)),
            maxiter=100 * n,
            return_eigenvectors=return_vectors,
            rng=np.random.default_rng(0),
        )
        values, vectors = result if return_vectors else (result, None)
        order = np.argsort(values)[::-1]
        values = np.clip(values[order], 0.0, None)
        return (values, vectors[:, order]) if return_vectors else values

    def squared_singular_value_counts(self, thresholds: np.ndarray) -> np.ndarray:
        """N(t) = #{k : s_k(A)^2 < t} for each t > 0, exactly, in O(n) per threshold.

        Sylvester's law of inertia: N(t) is the number of negative eigenvalues of A A^T - t I,
        counted on a congruent matrix that is cheap to factor.

        Bidirectional: A = diag(delta) P + 1 1^T / n with delta = d - a, P = I - 1 1^T / n (row
        sums are 1 and the two terms have orthogonal row spaces), so
        A A^T = diag(delta^2) + W C W^T, W = [delta, 1], C = diag(-1/n, 1/n). With
        L = diag(delta^2 - t) (t != delta_i^2), the Haynsworth inertia additivity of the block
        matrix [[L, W], [W^T, -C^{-1}]] gives
        N(t) = #neg(L) + #neg(-C^{-1} - W^T L^{-1} W) - 1.

        Causal: (A A^T)_ik = a_max(i,k) for i != k (row k < i sums to 1 over j <= k, where row
        i is constant a_i), so A A^T = U Omega U^T + diag(e), U the upper-triangular ones,
        Omega_i = a_i - a_{i+1} (a_{n+1} = 0), e_i = d_i (d_i - a_i). With D = U^{-1}
        (bidiagonal), A A^T - t I = U T U^T, T = Omega + D diag(e - t) D^T tridiagonal, and
        N(t) is the number of negative pivots of T's LDL^T (a Sturm count).

        Parameters
        ----------
        thresholds : array_like, shape (p,)
            Positive thresholds t.

        Returns
        -------
        ndarray, shape (p,), int64
        """
        t = np.asarray(thresholds, dtype=np.float64)
        if np.any(t <= 0):
            raise ValueError("thresholds must be positive")
        if self.mask == "bidirectional":
            return self._bidirectional_counts(t)
        return self._causal_counts(t)

    def _bidirectional_counts(self, t: np.ndarray) -> np.ndarray:
        delta = self.diagonal - self.off_diagonal
        counts = np.empty(t.size, dtype=np.int64)
        for j, threshold in enumerate(t):
            shifted = delta**2 - threshold
            inverse = 1.0 / shifted
            s11 = self.n - np.sum(delta**2 * inverse)
            s12 = -np.sum(delta * inverse)
            s22 = -self.n - np.sum(inverse)
            det = s11 * s22 - s12 * s12
            schur_negative = 1 if det < 0 else (2 if s11 + s22 < 0 else 0)
            counts[j] = np.count_nonzero(shifted < 0) + schur_negative - 1
        return counts

    def _causal_counts(self, t: np.ndarray) -> np.ndarray:
        a = self.off_diagonal
        omega = a - np.append(a[1:], 0.0)
        e = self.diagonal * (self.diagonal - a)
        # T(t): diagonal omega_i + (e_i - t) + (e_{i+1} - t), last without the i+1 term;
        # off-diagonal (i, i+1): -(e_{i+1} - t).
        tiny = np.finfo(np.float64).tiny
        counts = np.zeros(t.size, dtype=np.int64)
        pivot = None
        for i in range(self.n):
            diag = omega[i] + (e[i] - t) + ((e[i + 1] - t) if i + 1 < self.n else 0.0)
            if pivot is None:
                pivot = diag
            else:
                coupling = e[i] - t
                pivot = diag - coupling * coupling / pivot
            pivot = np.where(pivot == 0.0, -tiny, pivot)
            counts += pivot < 0
        return counts


def diagonal_softmax(sigma: np.ndarray, mask: str = "bidirectional") -> DiagonalSoftmax:
    """Row softmax of diag(sigma) in closed form (papers.md section 5, :class:`DiagonalSoftmax`).

    Bidirectional: A_ii = e^{sigma_i} / (e^{sigma_i} + n - 1), A_ij = 1 / (e^{sigma_i} + n - 1);
    causal (j <= i): n - 1 replaced by i - 1 (row 1 is e_1).
    """
    check_choice(mask, "mask", MASKS)
    sigma = check_vector(sigma, "sigma")
    n = sigma.size
    support = np.full(n, n - 1.0) if mask == "bidirectional" else np.arange(n, dtype=np.float64)
    with np.errstate(divide="ignore"):
        log_normaliser = np.logaddexp(sigma, np.log(support))
    return DiagonalSoftmax(
        diagonal=np.exp(sigma - log_normaliser),
        off_diagonal=np.exp(-log_normaliser),
        mask=mask,
    )


def haar_orthogonal(n: int, rng: np.random.Generator) -> np.ndarray:
    """U Haar-distributed on O(n) (:func:`attnspec.models.sampling.haar_orthonormal`, n x n)."""
    n = check_count(n, "n", 1)
    check_fits_in_memory(16 * n * n, f"n = {n}: a Gaussian n x n matrix and its QR factor")
    return haar_orthonormal(rng, n, n)


def isotropic_scores(
    sigma: np.ndarray, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(S, U, V): S = U diag(sigma) V^T with U, V independent Haar on O(n) (U drawn first).

    Column p of V is the right singular direction of S that carries sigma_p (the spike p of
    the canonical model sits at row p of V = I)."""
    U = haar_orthogonal(sigma.size, rng)
    V = haar_orthogonal(sigma.size, rng)
    return (U * sigma) @ V.T, U, V


def bidirectional_norm_squared_approximation(n: int, spikes: int, spike_gap: float) -> float:
    """||A||^2 of the bidirectional canonical A with the bulk's O(1/n) part dropped (derived).

    A = diag(delta) P + 1 1^T / n (delta = d - a, P = I - 1 1^T / n), so
    A A^T = diag(delta^2) - delta delta^T / n + 1 1^T / n. With delta = delta_s on the r spike
    rows and 0 on the bulk, A A^T acts on span{s, q} (s: the unit indicator of the spike rows,
    q: of the other rows; 1 / sqrt(n) = sqrt(eps) s + sqrt(1 - eps) q, eps = r / n) as
    [[delta_s^2 (1 - eps) + eps, sqrt(eps (1 - eps))], [sqrt(eps (1 - eps)), 1 - eps]], and as
    delta_s^2 on the r - 1 spike directions orthogonal to s. Its top eigenvalue is
    1 + sqrt(r / n) - r / (2 n) + O(n^(-3/2)) when delta_s = 1: the spike rows couple to the
    uniform rows through the Perron direction. ``spike_gap`` is delta_s = A_pp - A_pq.
    """
    eps = spikes / n
    a = spike_gap**2 * (1.0 - eps) + eps
    c = 1.0 - eps
    b = np.sqrt(eps * (1.0 - eps))
    top = 0.5 * (a + c) + np.sqrt(0.25 * (a - c) ** 2 + b**2)
    return float(max(top, spike_gap**2))


def bidirectional_stable_rank_approximation(sigma: np.ndarray, positions) -> float:
    """||A||_F^2 / ||A||^2 of the bidirectional canonical A: ||A||_F^2 exact
    (= 1 + (1 - 1/n) sum_i delta_i^2), ||A||^2 from
    :func:`bidirectional_norm_squared_approximation` (error O(1/n)). With delta_s -> 1
    (kappa > 1) it tends to r + 1 like (r + 1) / (1 + sqrt(r / n)) (docs/papers.md, paper C)."""
    softmax = diagonal_softmax(sigma, "bidirectional")
    gap = softmax.diagonal - softmax.off_diagonal
    positions = np.asarray(positions)
    norm_squared = bidirectional_norm_squared_approximation(
        softmax.n, positions.size, float(np.mean(gap[positions]))
    )
    return softmax.frobenius_squared() / norm_squared
