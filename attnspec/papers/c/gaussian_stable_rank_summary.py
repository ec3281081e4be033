"""Derived stable-rank references of the Gaussian attention model (paper C, claims C.3, C.4).

A = row-softmax(beta Q K^T / sqrt(d)), Q, K in R^{n x d} iid N(0, 1) (papers.md section 1).
Given q_i, the scores of row i, z_ij = q_i . k_j / sqrt(d), are iid N(0, s_i) over the columns
j of the row (j <= i causal, every j bidirectional; k_i is independent of q_i), with
s_i = ||q_i||^2 / d ~ chi^2_d / d. So a row of i entries holds the normalised weights
w_j / sum w, w_j = exp(b Z_j) iid log-normal, b = beta sqrt(s_i), and (derived, docs/papers.md
paper C):

- **Rows.** rho_i(b) = E[sum_j w_j^2 / (sum_j w_j)^2] = i int_0^inf t L''(t) L(t)^(i-1) dt with
  L(t) = E exp(-t w) (from 1/x^2 = int t e^(-t x) dt); rho_1 = 1, i rho_i -> e^(b^2).
  E ||A||_F^2 = sum_i E_s rho_i (causal) or n E_s rho_n (bidirectional): exact up to quadrature.
- **Mean.** E A_ij = 1/i (exchangeable entries of a row): E A = C_n, the Cesaro matrix.
- **Norm.** ||A||^2 ~ lambda_max(E[A A^T]) = lambda_max(C C^T + diag(rho_i - 1/i)) (rows taken
  independent; a lower bound of E ||A||^2 by Jensen). Bidirectional: 1 + theta_1 / n +
  beta^4 / (2 d) (papers.md section 3).

The causal reference slope is the OLS slope of E ||A||_F^2 / lambda_max(E[A A^T]) on log n over
the simulated sizes: the finite-n counterpart of the heuristic e^(beta^2)/4 (papers.md
section 9), which the causal rows approach only as n -> infinity.
"""

from collections.abc import Sequence

import numpy as np
from scipy.sparse.linalg import LinearOperator, eigsh

Z_SPAN = 12.0
Z_STEP = 0.02
U_POINTS = 1500
S_NODES = 8
"""Quantile-midpoint nodes of s = chi^2_d / d (the s average changes E||A||_F^2 by ~1e-3)."""


def lognormal_row_moments(i_max: int, b: float) -> np.ndarray:
    """rho_i(b) = E[sum w^2 / (sum w)^2] over i iid w = exp(b Z), for i = 1..i_max.

    rho_i = i int t^2 L''(t) L(t)^(i-1) d(log t), with L(t) = E e^(-t w) and
    t^2 L''(t) = E[(t w)^2 e^(-t w)] by quadrature over Z on [-12, 12] (step 0.02) and over
    log t on a uniform grid wide enough that the integrand vanishes at both ends.
    """
    from scipy import stats  # lazy: jobs that never call it skip the import

    if i_max < 1:
        raise ValueError(f"i_max must be >= 1, got {i_max}")
    if not (np.isfinite(b) and 0 < b <= 4):
        raise ValueError(f"b must be in (0, 4], got {b!r}")
    z = np.arange(-Z_SPAN, Z_SPAN + Z_STEP / 2, Z_STEP)
    weights = stats.norm.pdf(z) * Z_STEP
    weights /= weights.sum()
    log_w = b * z
    log_t = np.linspace(-b * Z_SPAN - 12.0, 11.0 * b + 5.0, U_POINTS)
    tw = np.exp(log_t[:, None] + log_w[None, :])
    decay = np.exp(-tw)
    laplace = decay @ weights
    second = (tw**2 * decay) @ weights
    step = log_t[1] - log_t[0]
    with np.errstate(divide="ignore"):
        log_laplace = np.log(laplace)
    rho = np.empty(i_max)
    rho[0] = 1.0
    rows = np.arange(2, i_max + 1)
    for start in range(0, rows.size, 512):
        block = rows[start : start + 512]
        powers = np.exp(np.outer(block - 1, log_laplace))
        rho[block - 1] = block * (powers @ second) * step
    return rho


def expected_row_norms(n: int, beta: float, d_qk: int) -> np.ndarray:
    """E ||row_i||^2 = E_s rho_i(beta sqrt(s)), s = chi^2_d / d, for rows of i = 1..n entries."""
    from scipy import stats  # lazy: jobs that never call it skip the import

    levels = (np.arange(S_NODES) + 0.5) / S_NODES
    nodes = stats.chi2.ppf(levels, d_qk) / d_qk
    return np.mean([lognormal_row_moments(n, beta * np.sqrt(s)) for s in nodes], axis=0)


def cesaro_gram_top(extra_diagonal: np.ndarray) -> float:
    """lambda_max(C C^T + diag(extra)), C the n x n Cesaro matrix (C_ij = 1/i, j <= i), by
    Lanczos with O(n) products (C x = cumsum(x) / i, C^T y = reversed cumsum of y / i)."""
    n = extra_diagonal.size
    rows = np.arange(1, n + 1, dtype=np.float64)

    def apply(x):
        x = np.asarray(x, dtype=np.float64).reshape(n, -1)
        c_t = np.cumsum((x / rows[:, None])[::-1], axis=0)[::-1]
        return np.cumsum(c_t, axis=0) / rows[:, None] + extra_diagonal[:, None] * x

    operator = LinearOperator((n, n), matvec=apply, matmat=apply, dtype=np.float64)
    start = np.random.default_rng(0).standard_normal(n)
    return float(
        eigsh(operator, k=1, which="LA", v0=start, tol=1e-12, rng=np.random.default_rng(0))[0][0]
    )


def causal_reference(n: int, beta: float, d_qk: int | None = None) -> dict[str, float]:
    """E ||A||_F^2, lambda_max(E[A A^T]) and their ratio for the causal Gaussian model."""
    d_qk = n if d_qk is None else int(d_qk)
    rho = expected_row_norms(n, beta, d_qk)
    frobenius = float(rho.sum())
    norm_squared = cesaro_gram_top(rho - 1.0 / np.arange(1, n + 1))
    return {
        "frobenius_squared": frobenius,
        "norm_squared": norm_squared,
        "stable_rank": frobenius / norm_squared,
    }


def bidirectional_reference(n: int, beta: float, d_qk: int | None = None) -> dict[str, float]:
    """E ||A||_F^2 = n E_s rho_n, ||A||^2 ~ 1 + (e^(beta^2) - 1)/n + beta^4/(2 d) and their
    ratio for the bidirectional Gaussian model (limit e^(beta^2))."""
    d_qk = n if d_qk is None else int(d_qk)
    frobenius = float(n * expected_row_norms(n, beta, d_qk)[-1])
    norm_squared = 1.0 + np.expm1(beta**2) / n + beta**4 / (2.0 * d_qk)
    return {
        "frobenius_squared": frobenius,
        "norm_squared": float(norm_squared),
        "stable_rank": frobenius / norm_squared,
    }


def reference_slope(n_tokens: Sequence[int], stable_ranks: Sequence[float]) -> float:
    """OLS slope of the reference stable rank on log n (each n once: the OLS slope over every
    (draw, n) of balanced draws has the same expectation)."""
    x = np.log(np.asarray(n_tokens, dtype=np.float64))
    y = np.asarray(stable_ranks, dtype=np.float64)
    if x.size < 2 or np.ptp(x) == 0:
        raise ValueError("a slope needs at least two distinct sizes")
    return float(np.polyfit(x, y, 1)[0])


def reference_table(n_tokens: Sequence[int], beta: float) -> dict[str, np.ndarray]:
    """Both masks' references at every n (d_qk = n), arrays keyed ``<mask>/<quantity>``, with
    ``n_tokens``, ``beta`` and ``causal/slope``."""
    out = {"n_tokens": np.asarray(n_tokens, dtype=np.int64), "beta": np.float64(beta)}
    for mask, reference in (
        ("bidirectional", bidirectional_reference),
        ("causal", causal_reference),
    ):
        values = [reference(int(n), beta) for n in n_tokens]
        for key in ("frobenius_squared", "norm_squared", "stable_rank"):
            out[f"{mask}/{key}"] = np.array([v[key] for v in values])
    out["causal/slope"] = np.float64(reference_slope(n_tokens, out["causal/stable_rank"]))
    return out
