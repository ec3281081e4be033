"""All n squared singular values of the centred output and of its Gaussian equivalent (paper D).

Theorem 3.1 and appendix D.1 compare the n eigenvalues of MHA_perp MHA_perp^T with the n
eigenvalues of n^{-1} MHA^G MHA^G^T (same weights), zeros included: both laws converge to
pi(mu_VO, gamma_O), whose mean is gamma_O theta1 for Gaussian V/O. The Gram matrix is the smaller
of M M^T (n x n) and M^T M; the n - rank zeros are appended, never computed.

For rows D.1 a draw also gives the finite-size floor (a second Gaussian equivalent of the same
weights with independent noise, stream :data:`FLOOR_STREAM`) and Gaussian equivalents with other
coefficients (theta1', theta2') but the same S_r and noise W_r, recombined from the score term
(:func:`recombined_spectra`).
"""

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

from attnspec.multihead.output import (
    attention_output,
    gaussian_equivalent_output,
    score_term_output,
)
from attnspec.multihead.sampling import MultiHeadWeights, sample_weights
from attnspec.multihead.shapes import MultiHeadShape
from attnspec.seeding import rng_for
from attnspec.spectra.dense import squared_singular_values
from attnspec.theory.constants import nonlinearity_coefficients

FLOOR_STREAM = "floor-noise"
"""The random stream of the floor's noise W'_r (the Gaussian equivalent's own is "noise")."""


def row_spectrum(M: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """The n eigenvalues of scale * M M^T for M of shape (n, p), descending, zeros included.

    Computed from the smaller Gram matrix (n x n or p x p, one syrk and one syevd); when p < n the
    n - p zero eigenvalues are appended.
    """
    values = squared_singular_values(M)
    values *= scale
    return np.concatenate([values, np.zeros(M.shape[0] - values.size)])


def comparison_spectra(
    weights: MultiHeadWeights,
    beta: float,
    rng: np.random.Generator,
    *,
    noise: str = "projected",
) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues of MHA_perp MHA_perp^T and of n^{-1} MHA^G MHA^G^T, each n, descending.

    The Gaussian equivalent uses the same weights and noise from ``rng`` (see
    :func:`attnspec.multihead.output.gaussian_equivalent_output`).
    """
    n = weights.shape.n_tokens
    softmax = row_spectrum(attention_output(weights, beta))
    gaussian = row_spectrum(gaussian_equivalent_output(weights, beta, rng, noise=noise), 1.0 / n)
    return softmax, gaussian


def draw_comparison_spectra(
    shape: MultiHeadShape,
    beta: float,
    params: Mapping,
    draw: int,
    *,
    replicate: int = 0,
    sampler: str = "gaussian",
    noise: str = "projected",
) -> tuple[np.ndarray, np.ndarray]:
    """One seeded draw of :func:`comparison_spectra`: weights from :func:`sample_weights`
    ``(shape, params, draw)``, Gaussian-equivalent noise from stream "noise" of the same draw.
    """
    weights = sample_weights(shape, params, draw, replicate=replicate, sampler=sampler)
    noise_rng = rng_for(params, draw, "noise", replicate=replicate)
    return comparison_spectra(weights, beta, noise_rng, noise=noise)


class Coefficients(NamedTuple):
    """The variances of a Gaussian equivalent's two terms: Y_r = (sqrt(score) S_r + sqrt(noise)
    W_r) / sqrt(n); the paper's are score = theta2 and noise = theta1 - theta2."""

    score: float
    noise: float


def paper_coefficients(beta: float) -> Coefficients:
    """(theta2, theta1 - theta2) at ``beta`` (3.2)."""
    coefficients = nonlinearity_coefficients(beta)
    return Coefficients(coefficients.theta2, coefficients.a)


def gram_matrix(M: np.ndarray, other: np.ndarray | None = None) -> np.ndarray:
    """The smaller Gram matrix of M: M M^T if M has at most as many rows as columns, else M^T M;
    with ``other`` (the shape of M) the cross product M other^T, resp. M^T other."""
    other = M if other is None else other
    return M @ other.T if M.shape[0] <= M.shape[1] else M.T @ other


def gram_spectrum(gram: np.ndarray, rows: int, scale: float = 1.0) -> np.ndarray:
    """The ``rows`` eigenvalues of scale * M M^T from a Gram matrix of M (:func:`gram_matrix`),
    descending, rounding-level negatives set to 0, the missing zeros appended; the same
    operations as :func:`row_spectrum`, so the same numbers."""
    values = np.linalg.eigvalsh(gram)
    np.clip(values, 0.0, None, out=values)
    values = values[::-1].copy()
    values *= scale
    return np.concatenate([values, np.zeros(rows - values.size)])


def recombined_spectra(
    weights: MultiHeadWeights,
    gaussian: np.ndarray,
    gaussian_gram: np.ndarray,
    beta: float,
    wanted: Sequence[Coefficients],
) -> list[np.ndarray]:
    """The n eigenvalues of n^-1 M' M'^T for each coefficient pair of ``wanted``, M' the
    Gaussian equivalent with those coefficients, the same S_r and the same noise W_r as
    ``gaussian`` (MHA^G at ``beta``; ``gaussian_gram`` its :func:`gram_matrix`).

    MHA^G = a M_S + b M_W (a, b the square roots of :func:`paper_coefficients`, M_S the score
    term :func:`attnspec.multihead.output.score_term_output`), so M' = sqrt(score') M_S +
    sqrt(noise') M_W = c_S M_S + c_G MHA^G with c_G = sqrt(noise') / b, c_S = sqrt(score') -
    a c_G, and M' M'^T = c_S^2 G_SS + c_G^2 G_GG + c_S c_G (G_SG + G_SG^T): two products
    besides the Gaussian equivalent's own Gram matrix, then one eigvalsh per pair.
    """
    n = weights.shape.n_tokens
    paper = paper_coefficients(beta)
    score_output = score_term_output(weights)
    score_gram = gram_matrix(score_output)
    cross = gram_matrix(score_output, gaussian)
    del score_output
    cross += cross.T.copy()
    spectra = []
    for pair in wanted:
        c_gaussian = np.sqrt(pair.noise / paper.noise)
        c_score = np.sqrt(pair.score) - np.sqrt(paper.score) * c_gaussian
        gram = c_score * c_score * score_gram
        gram += c_gaussian * c_gaussian * gaussian_gram
        gram += c_score * c_gaussian * cross
        spectra.append(gram_spectrum(gram, n, 1.0 / n))
    return spectra


def draw_floor_comparison(
    shape: MultiHeadShape,
    beta: float,
    params: Mapping,
    draw: int,
    wanted: Mapping[str, Coefficients],
    *,
    replicate: int = 0,
) -> dict[str, np.ndarray]:
    """One seeded draw of :func:`draw_comparison_spectra` (the same weights, noise and numbers:
    ``softmax`` and ``gaussian``), with ``floor``: the eigenvalues of n^-1 MHA^G' MHA^G'^T,
    MHA^G' a second Gaussian equivalent of the same weights with noise W'_r from stream
    :data:`FLOOR_STREAM`, and under each name of ``wanted`` the Gaussian equivalent with those
    coefficients, the same S_r and the same noise W_r (:func:`recombined_spectra`)."""
    weights = sample_weights(shape, params, draw, replicate=replicate)
    n = shape.n_tokens
    record = {"softmax": row_spectrum(attention_output(weights, beta))}
    noise_rng = rng_for(params, draw, "noise", replicate=replicate)
    gaussian = gaussian_equivalent_output(weights, beta, noise_rng)
    gram = gram_matrix(gaussian)
    record["gaussian"] = gram_spectrum(gram, n, 1.0 / n)
    recombined = recombined_spectra(weights, gaussian, gram, beta, list(wanted.values()))
    del gaussian, gram
    floor_rng = rng_for(params, draw, FLOOR_STREAM, replicate=replicate)
    record["floor"] = row_spectrum(gaussian_equivalent_output(weights, beta, floor_rng), 1.0 / n)
    record.update(zip(wanted, recombined, strict=True))
    return record
