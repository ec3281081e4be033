"""Figures B5 and B6 (paper B, claim B.3): the conditional covariance given K and its edges.

Given K in R^{ell x d_qk} (iid N(0, 1)), a row of f(S), f(x) = e^{beta x - beta^2/2} - 1, has
covariance Sigma_f = D0 (exp∘(beta^2 K K^T / d_qk) - 1 1^T) D0 with
D0 = diag(exp(beta^2 (|k_i|^2 / d_qk - 1) / 2)) (a diagonally conjugated inner-product kernel);
its linearisation is Sigma_G = beta^2 K K^T / d_qk + a I
(:func:`attnspec.models.gaussian_equivalent.conditional_covariance`). Both spectra tend to
rho = a + b MP_c, c = ell / d_qk (no population outlier), and the finite deformed-MP edges
E_ell(Sigma) = inf_{u > ||Sigma||} u^2 (1/ell) tr (u I - Sigma)^{-1}
(:func:`attnspec.theory.deformed_mp.finite_deformed_mp_edge`) tend to x_+ (papers.md section 4).
"""

import logging

import numpy as np
import scipy.linalg

from attnspec.models.gaussian_equivalent import conditional_covariance
from attnspec.models.sampling import sample_queries_keys
from attnspec.papers.progress import Stopwatch
from attnspec.papers.spectra import draw_parameters
from attnspec.seeding import rng_for
from attnspec.theory.deformed_mp import finite_deformed_mp_edge

LOG = logging.getLogger(__name__)

# The two covariances, name -> linearised flag of conditional_covariance.
COVARIANCES = {"sigma_f": False, "sigma_g": True}
COVARIANCE_LABELS = {"sigma_f": "Sigma_f", "sigma_g": "Sigma_G"}


def key_dimension(n_tokens: int, ratio: float) -> int:
    """d_qk = round(ell / c), at least 1."""
    return max(1, round(n_tokens / ratio))


def covariance_eigenvalues(keys: np.ndarray, beta: float, *, linearised: bool) -> np.ndarray:
    """Eigenvalues (ascending) of Sigma_f, or of Sigma_G if ``linearised``, given K.

    One ell x ell matrix is formed and overwritten by LAPACK (syevr, no eigenvectors).
    """
    sigma = conditional_covariance(keys, beta, linearised=linearised)
    # sigma is symmetric: its transpose is the Fortran-ordered view LAPACK may overwrite.
    return scipy.linalg.eigvalsh(sigma.T, overwrite_a=True, check_finite=False, driver="evr")


def conditional_draw(
    n_tokens: int, d_qk: int, beta: float, draw: int, *, replicate: int = 0
) -> dict[str, np.ndarray]:
    """Spectra of Sigma_f and Sigma_G for one draw of K and their finite edges E_ell.

    K is the key matrix of the attention draw with the same (ell, d_qk, beta, draw, replicate)
    (stream ``queries_keys`` of :func:`attnspec.papers.spectra.draw_parameters`, Gaussian
    sampler), so Sigma_f is the conditional covariance of that very draw. Replicate 0 is the
    workflow's default streams.

    Returns
    -------
    dict with scalars ``n_tokens``, ``d_qk``, ``draw``; ``eigenvalues_<name>`` (ascending,
    shape (ell,)) and ``edge_<name>`` (scalar E_ell) for name in ``sigma_f``, ``sigma_g``.
    """
    clock = Stopwatch()
    params = draw_parameters(n_tokens, d_qk, beta, "gaussian", None)
    # Q is drawn (first) to keep the stream aligned with the attention draw, then dropped.
    stream = rng_for(params, draw, "queries_keys", replicate=replicate)
    keys = sample_queries_keys(stream, n_tokens, d_qk)[1]
    LOG.info("K (%d x %d) sampled in %.2f s", n_tokens, d_qk, clock.lap())
    result = {"n_tokens": np.int64(n_tokens), "d_qk": np.int64(d_qk), "draw": np.int64(draw)}
    for i, (name, linearised) in enumerate(COVARIANCES.items()):
        eigenvalues = covariance_eigenvalues(keys, beta, linearised=linearised)
        result[f"eigenvalues_{name}"] = eigenvalues
        result[f"edge_{name}"] = np.float64(finite_deformed_mp_edge(eigenvalues))
        LOG.info(
            "covariance %d of %d, %s: eigenvalues and E_ell = %.8g, %.2f s",
            i + 1,
            len(COVARIANCES),
            COVARIANCE_LABELS[name],
            result[f"edge_{name}"],
            clock.lap(),
        )
    return result
