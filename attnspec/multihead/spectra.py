"""All n squared singular values of the centred output and of its Gaussian equivalent (paper D).

Theorem 3.1 and appendix D.1 compare the n eigenvalues of MHA_perp MHA_perp^T with the n
eigenvalues of n^{-1} MHA^G MHA^G^T (same weights), zeros included: both laws converge to
pi(mu_VO, gamma_O), whose mean is gamma_O theta1 for Gaussian V/O. The Gram matrix is the smaller
of M M^T (n x n) and M^T M; the n - rank zeros are appended, never computed.
"""

from collections.abc import Mapping

import numpy as np

from attnspec.multihead.output import attention_output, gaussian_equivalent_output
from attnspec.multihead.sampling import MultiHeadWeights, sample_weights
from attnspec.multihead.shapes import MultiHeadShape
from attnspec.seeding import rng_for
from attnspec.spectra.dense import squared_singular_values


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
