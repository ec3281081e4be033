"""Stepwise Gaussian-equivalent models of paper A's figure A1, from sqrt(ell) A_perp to Y_lin.

With S = Q K^T / sqrt(d_qk), f(x) = e^{beta x - beta^2/2} - 1 and a = e^{beta^2} - 1 - beta^2:
sqrt(ell) A_perp -> Y = e^{beta S - beta^2/2} / sqrt(ell) (row normaliser replaced by its mean
ell e^{beta^2/2}) -> Y_f = f(S) / sqrt(ell) -> Y_Q (rows iid N(0, Sigma_f / ell) given K)
-> Y_Q^lin (rows iid N(0, Sigma_G / ell)) -> Y_lin = (beta S + sqrt(a) W) / sqrt(ell).
Every model is ell x ell, normalised so that its bulk squared singular values are O(1).
"""

from collections.abc import Callable

import numpy as np

from attnspec.models.sampling import attention_matrix, remove_perron, score_matrix
from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.validation import (
    EXP_ARGUMENT_MAX,
    check_finite_output,
    check_matrix,
    check_positive,
)

# Rows of Gaussian noise drawn per block, so that no ell x ell noise matrix is allocated.
_NOISE_BLOCK_ROWS = 256


def attention_bulk_matrix(Q: np.ndarray, K: np.ndarray, beta: float) -> np.ndarray:
    """sqrt(ell) A_perp = sqrt(ell) (A - 1 1^T / ell), A = row-softmax(beta Q K^T / sqrt(d_qk)).

    Paper A, figure A1 first panel (the paper scales by sqrt(d); equal when ell = d).
    Built in a single ell x ell buffer.
    """
    out = attention_matrix(Q, K, beta)
    remove_perron(out, out=out)
    out *= np.sqrt(out.shape[0])
    return out


def mean_normaliser_model(
    S: np.ndarray, beta: float, *, out: np.ndarray | None = None
) -> np.ndarray:
    """Y = exp(beta S - beta^2/2) / sqrt(ell): the softmax with its row sum replaced by its mean.

    E sum_j e^{beta S_ij} = ell e^{beta^2/2}, so sqrt(ell) A ~ Y (paper A, figure A1, Y).
    Y keeps its mean 1 1^T / sqrt(ell), a spike of squared singular value about ell.
    ``out=S`` overwrites the scores. Supported: beta > 0 with beta max S_ij - beta^2/2 < 709
    (finite entries); ValueError otherwise.
    """
    beta = check_positive(beta, "beta")
    check_matrix(S, "S", square=True, min_rows=2)
    out = np.multiply(S, beta, out=out)
    out -= 0.5 * beta * beta
    with np.errstate(over="ignore"):
        np.exp(out, out=out)
    out *= 1.0 / np.sqrt(S.shape[0])
    return check_finite_output(out, "Y = exp(beta S - beta^2/2)", beta, "beta max S_ij - beta^2/2")


def entrywise_model(S: np.ndarray, beta: float, *, out: np.ndarray | None = None) -> np.ndarray:
    """Y_f = f(S) / sqrt(ell), f(x) = e^{beta x - beta^2/2} - 1 entrywise (paper A, figure A1).

    f is centred (E f(x) = 0 for x ~ N(0, 1)), E f^2 = theta1 = e^{beta^2} - 1.
    ``out=S`` overwrites the scores. Supported: beta > 0 with beta max S_ij - beta^2/2 < 709.
    """
    beta = check_positive(beta, "beta")
    check_matrix(S, "S", square=True, min_rows=2)
    out = np.multiply(S, beta, out=out)
    out -= 0.5 * beta * beta
    with np.errstate(over="ignore"):
        np.expm1(out, out=out)
    out *= 1.0 / np.sqrt(S.shape[0])
    return check_finite_output(
        out, "f(S) = expm1(beta S - beta^2/2)", beta, "beta max S_ij - beta^2/2"
    )


def conditional_covariance(K: np.ndarray, beta: float, *, linearised: bool = False) -> np.ndarray:
    """Covariance of a row of f(S) given K: Sigma_f = D0 (exp∘(beta^2 G) - 1 1^T) D0 (paper B).

    G = K K^T / d_qk, D0 = diag(exp(beta^2 (G_ii - 1) / 2)), exp∘ entrywise. This is exact:
    given K, row i of S is N(0, G), E e^{beta S_ij - beta^2/2} = (D0)_jj and
    Cov(f(S_ij), f(S_ij')) = (D0)_jj (D0)_j'j' (e^{beta^2 G_jj'} - 1). (The conditional mean
    of a row, diag(D0) - 1, is not zero; the Gaussian models Y_Q, Y_Q^lin are centred.)
    ``linearised=True`` gives Sigma_G = beta^2 G + a I (paper A, section 2), the covariance of a
    row of beta S + sqrt(a) W.

    Parameters
    ----------
    K : ndarray, shape (ell, d_qk), ell >= 2, finite
    beta : float
        > 0, with beta^2 max_ij G_ij < 709 (Sigma_f; Sigma_G needs e^{beta^2} finite, beta < 26.6)
        so that every entry is a finite float64; ValueError otherwise.

    Returns
    -------
    ndarray, shape (ell, ell), symmetric positive semi-definite
    """
    beta = check_positive(beta, "beta")
    K = check_matrix(K, "K", min_rows=2)
    out = K @ K.T
    out *= beta * beta / K.shape[1]
    if linearised:
        out[np.diag_indices_from(out)] += nonlinearity_coefficients(beta).a
        return check_finite_output(out, "Sigma_G = beta^2 G + a I", beta, "e^{beta^2} finite")
    if np.max(out) >= EXP_ARGUMENT_MAX:
        raise ValueError(
            f"beta = {beta!r}: Sigma_f = D0 (exp(beta^2 G) - 1) D0 overflows float64 "
            f"(beta^2 max G_ij = {np.max(out):.4g}); supported: beta^2 max_ij G_ij < "
            f"{EXP_ARGUMENT_MAX:g}"
        )
    d0 = np.exp(0.5 * (np.diagonal(out) - beta * beta))
    np.expm1(out, out=out)
    out *= d0[:, None]
    out *= d0[None, :]
    return check_finite_output(out, "Sigma_f", beta, f"beta^2 max_ij G_ij < {EXP_ARGUMENT_MAX:g}")


def conditional_gaussian_model(
    K: np.ndarray, beta: float, rng: np.random.Generator, *, linearised: bool = False
) -> np.ndarray:
    """Y_Q (or Y_Q^lin): ell x ell, rows iid N(0, Sigma / ell) given K (paper A, figure A1).

    Sigma = Sigma_f, or Sigma_G if ``linearised`` (see :func:`conditional_covariance`).
    Sampled as Y = Z L^T / sqrt(ell), Z iid N(0, 1), L = V diag(sqrt(max(w, 0))) from the
    eigendecomposition Sigma = V diag(w) V^T (rounding-level negative eigenvalues clipped).
    Z is drawn in blocks of rows (the same numbers as one ell x ell draw). Supported beta: as
    :func:`conditional_covariance`.
    """
    ell = K.shape[0]
    w, factor = np.linalg.eigh(conditional_covariance(K, beta, linearised=linearised))
    factor *= np.sqrt(np.clip(w, 0.0, None) / ell)
    out = np.empty((ell, ell))
    for r0 in range(0, ell, _NOISE_BLOCK_ROWS):
        block = out[r0 : r0 + _NOISE_BLOCK_ROWS]
        np.matmul(rng.standard_normal(block.shape), factor.T, out=block)
    return out


def linear_model(
    S: np.ndarray, beta: float, rng: np.random.Generator, *, out: np.ndarray | None = None
) -> np.ndarray:
    """Y_lin = Y_f^lin = (beta S + sqrt(a) W) / sqrt(ell), W iid N(0, 1) (paper A, section 2).

    a = e^{beta^2} - 1 - beta^2. W is drawn in blocks of rows (the same numbers as one
    ell x ell draw), so no second ell x ell matrix is allocated; ``out=S`` works in place.
    Supported: beta > 0 with e^{beta^2} finite (beta < 26.6); ValueError otherwise.
    """
    beta = check_positive(beta, "beta")
    check_matrix(S, "S", square=True, min_rows=2)
    if beta * beta >= EXP_ARGUMENT_MAX:
        raise ValueError(
            f"beta = {beta!r}: the noise variance a = e^(beta^2) - 1 - beta^2 overflows float64; "
            f"supported: beta^2 < {EXP_ARGUMENT_MAX:g}"
        )
    n_rows = S.shape[0]
    out = np.multiply(S, beta, out=out)
    noise_scale = np.sqrt(nonlinearity_coefficients(beta).a)
    noise = np.empty((min(_NOISE_BLOCK_ROWS, n_rows), S.shape[1]))  # reused: no page faults
    for r0 in range(0, n_rows, _NOISE_BLOCK_ROWS):
        block = out[r0 : r0 + _NOISE_BLOCK_ROWS]
        draws = rng.standard_normal(out=noise[: block.shape[0]])
        draws *= noise_scale
        block += draws
    out *= 1.0 / np.sqrt(n_rows)
    return out


def _attention(Q, K, beta, rng):
    return attention_bulk_matrix(Q, K, beta)


def _mean_normaliser(Q, K, beta, rng):
    scores = score_matrix(Q, K)
    return mean_normaliser_model(scores, beta, out=scores)


def _entrywise(Q, K, beta, rng):
    scores = score_matrix(Q, K)
    return entrywise_model(scores, beta, out=scores)


def _conditional_gaussian(Q, K, beta, rng):
    return conditional_gaussian_model(K, beta, rng)


def _conditional_gaussian_linear(Q, K, beta, rng):
    return conditional_gaussian_model(K, beta, rng, linearised=True)


def _linear(Q, K, beta, rng):
    scores = score_matrix(Q, K)
    return linear_model(scores, beta, rng, out=scores)


STEPWISE_MODELS: dict[str, Callable[..., np.ndarray]] = {
    "attention": _attention,
    "mean_normaliser": _mean_normaliser,
    "entrywise": _entrywise,
    "conditional_gaussian": _conditional_gaussian,
    "conditional_gaussian_linear": _conditional_gaussian_linear,
    "linear": _linear,
}
"""Paper A's figure A1 models in order, name -> builder(Q, K, beta, rng) -> ell x ell matrix."""


def stepwise_matrix(
    name: str, Q: np.ndarray, K: np.ndarray, beta: float, rng: np.random.Generator
) -> np.ndarray:
    """One stepwise model of paper A's figure A1 for one draw (Q, K) (see STEPWISE_MODELS).

    Use the same Q, K for every model of a draw; ``rng`` supplies the extra Gaussian noise of
    the conditional-Gaussian and linear models (unused by the others).
    """
    if name not in STEPWISE_MODELS:
        raise ValueError(f"unknown stepwise model {name!r}; known: {tuple(STEPWISE_MODELS)}")
    return STEPWISE_MODELS[name](Q, K, beta, rng)
