"""The layer output MHA(X), its centred form MHA_perp(X) and the Gaussian equivalent MHA^G(X).

Paper D, (2.1), (3.1)-(3.3): S_r = Q_r K_r^T / sqrt(d_K), A_r = row-softmax(beta S_r),
MHA(X) = [A_1 V_1, ..., A_h V_h] W^O; MHA_perp replaces A_r by A_r - 1 1^T / n;
MHA^G = [Y_1^G V_1, ..., Y_h^G V_h] W^O with Y_r^G = (sqrt(theta2) S_r + sqrt(theta1 - theta2) W_r)
/ sqrt(n), W_r iid N(0, 1) independent of the weights, theta1 = e^{beta^2} - 1, theta2 = beta^2.
Both are built from the same MultiHeadWeights; so is the score term M_S (MHA^G with
sqrt(theta2) S_r / sqrt(n) alone, at theta2 = 1), from which a Gaussian equivalent with other
coefficients and the same noise is recombined. Theorem 3.1 compares the squared singular values
of MHA_perp with those of n^{-1/2} MHA^G. Without a value projection V_r = sqrt(n / h) I_n (the
attention law's scaling, (C.10)); without an output projection W^O = I.

Head blocks are written into the n x (h d_V) concatenation, which W^O then multiplies in one
matrix product (per-head products with d_V-wide blocks are memory-bound); the softmax side holds
one n x n attention matrix at a time, the Gaussian side none (with the default noise).
"""

import numpy as np

from attnspec.models.sampling import attention_matrix, remove_perron
from attnspec.multihead.sampling import MultiHeadWeights
from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.validation import check_choice

NOISES = ("projected", "literal")


def centred_attention(Q: np.ndarray, K: np.ndarray, beta: float) -> np.ndarray:
    """A_r_perp = row-softmax(beta Q K^T / sqrt(d_K)) - 1 1^T / n: every row sums to 0 (3.1)."""
    A = attention_matrix(Q, K, beta)
    return remove_perron(A, out=A)


def _project(weights: MultiHeadWeights, blocks: np.ndarray) -> np.ndarray:
    """[B_1, ..., B_h] W^O in one matrix product (or the concatenation itself without W^O)."""
    return blocks if weights.output is None else blocks @ weights.output


def attention_output(weights: MultiHeadWeights, beta: float, *, centred: bool = True) -> np.ndarray:
    """MHA_perp(X) = [A_1_perp V_1, ..., A_h_perp V_h] W^O (3.1), or MHA(X) (2.1) if not centred.

    A_r_perp V_r = A_r V_r - 1 (1^T V_r) / n, so A_r_perp is never formed when V_r exists.

    Returns
    -------
    ndarray, shape (n, output width), float64
    """
    shape = weights.shape
    n, width = shape.n_tokens, shape.value_width
    blocks = np.empty((n, shape.heads * width))
    buffer = np.empty((n, n))
    for head in range(shape.heads):
        A = attention_matrix(weights.query(head), weights.key(head), beta, out=buffer)
        V = weights.value(head)
        block = blocks[:, head * width : (head + 1) * width]
        if V is None:
            if centred:
                remove_perron(A, out=A)
            np.multiply(A, np.sqrt(n / shape.heads), out=block)
        else:
            np.matmul(A, V, out=block)
            if centred:
                block -= V.mean(axis=0)
    return _project(weights, blocks)


def gaussian_equivalent_output(
    weights: MultiHeadWeights,
    beta: float,
    rng: np.random.Generator,
    *,
    noise: str = "projected",
) -> np.ndarray:
    """MHA^G(X) = [Y_1^G V_1, ..., Y_h^G V_h] W^O (3.3) from the same weights as MHA_perp.

    Y_r^G V_r = (sqrt(theta2) Q_r (K_r^T V_r) / sqrt(d_K) + sqrt(theta1 - theta2) W_r V_r)
    / sqrt(n). ``noise="literal"`` draws each W_r (n x n, iid N(0, 1)); ``"projected"`` draws
    W_r V_r in law: with V_r = U_r R_r (QR, R_r of shape (min(n, d_V), d_V)), W_r V_r =
    (W_r U_r) R_r and W_r U_r is iid N(0, 1) of shape (n, min(n, d_V)), independent across heads
    and of the weights, so only n min(n, d_V) normals are drawn per head. The two give the same
    law of MHA^G; without a value projection both draw W_r.

    Parameters
    ----------
    weights : MultiHeadWeights
    beta : float
        Inverse temperature > 0.
    rng : numpy.random.Generator
        Source of the noise W_r (draws are consumed head by head, in order).
    noise : {"projected", "literal"}

    Returns
    -------
    ndarray, shape (n, output width), float64
        MHA^G(X); its squared singular values divided by n are the comparison spectrum.
    """
    check_choice(noise, "noise", NOISES)
    coefficients = nonlinearity_coefficients(beta)
    linear, nonlinear = np.sqrt(coefficients.theta2), np.sqrt(coefficients.a)
    shape = weights.shape
    n, d_k, width = shape.n_tokens, shape.d_k, shape.value_width
    blocks = np.empty((n, shape.heads * width))
    for head in range(shape.heads):
        Q, K, V = weights.query(head), weights.key(head), weights.value(head)
        block = blocks[:, head * width : (head + 1) * width]
        if V is None:
            np.matmul(Q, K.T, out=block)
            block *= linear / np.sqrt(d_k)
            block += nonlinear * rng.standard_normal((n, n))
            block *= np.sqrt(1.0 / shape.heads)
        else:
            np.matmul(Q, K.T @ V, out=block)
            block *= linear / np.sqrt(d_k)
            if noise == "literal":
                block += nonlinear * (rng.standard_normal((n, n)) @ V)
            else:
                upper = np.linalg.qr(V, mode="r")
                block += nonlinear * (rng.standard_normal((n, upper.shape[0])) @ upper)
            block *= 1.0 / np.sqrt(n)
    return _project(weights, blocks)


def score_term_output(weights: MultiHeadWeights) -> np.ndarray:
    """M_S = [Z_1 V_1, ..., Z_h V_h] W^O with Z_r = S_r / sqrt(n): the score term of (3.3).

    Y_r^G is linear in its two coefficients, so MHA^G = sqrt(theta2) M_S + sqrt(theta1 - theta2)
    M_W with M_W the same product with W_r / sqrt(n) in place of Z_r: a Gaussian equivalent with
    other coefficients but the same S_r and the same noise W_r is a combination of M_S and
    MHA^G (:func:`attnspec.multihead.spectra.recombined_spectra`). Without a value projection
    Z_r V_r = S_r / sqrt(h), as in :func:`gaussian_equivalent_output`.

    Returns
    -------
    ndarray, shape (n, output width), float64
    """
    shape = weights.shape
    n, d_k, width = shape.n_tokens, shape.d_k, shape.value_width
    blocks = np.empty((n, shape.heads * width))
    for head in range(shape.heads):
        Q, K, V = weights.query(head), weights.key(head), weights.value(head)
        block = blocks[:, head * width : (head + 1) * width]
        if V is None:
            np.matmul(Q, K.T, out=block)
            block *= 1.0 / np.sqrt(d_k * shape.heads)
        else:
            np.matmul(Q, K.T @ V, out=block)
            block *= 1.0 / np.sqrt(d_k * n)
    return _project(weights, blocks)
