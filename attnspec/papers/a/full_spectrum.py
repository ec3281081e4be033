"""Figure A2 (paper A, "Figure 2", reconstructed): the full sorted spectrum of sqrt(ell) A.

The squared singular values ell s_k(A)^2, k = 1..ell, of A = row-softmax(beta Q K^T / sqrt(d_qk)):
the Perron value ell s_1(A)^2 ~ ell + theta1 + ell beta^4/(2 d_qk) (papers.md section 3), then the
bulk, whose law tends to nu_inf with right edge x_+ > 4 theta1 (papers.md section 2). By rank-one
interlacing, s_{k+1}(A_perp) <= s_k(A) <= s_{k-1}(A_perp), the values k >= 2 of A are those of
A_perp = A - u u^T up to one index. Non-Perron values above x_+ come from two finite-size effects
(papers.md section 3): Tracy-Widom fluctuations of the edge, x_+ + gamma_TW ell^{-2/3} TW1, and
the log-normal tails of the entries, whose largest theta = max |(sqrt(ell) A_perp)_ij| acts as a
rank-one spike with an outlier at K(1/theta)^2 when theta > 1/G*. A spike's singular vectors
are localised; a delocalised (uniform random) unit vector has E IPR = 3/(ell + 2) ~ 3/ell.
"""

import logging
from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.models.sampling import attention_matrix, sample_queries_keys
from attnspec.papers.progress import Stopwatch
from attnspec.papers.spectra import draw_parameters
from attnspec.seeding import rng_for
from attnspec.spectra.dense import squared_singular_values
from attnspec.spectra.localisation import inverse_participation_ratio
from attnspec.theory.edge import bulk_edge

LOG = logging.getLogger(__name__)

# Leading non-Perron singular pairs computed first; doubled until one value is below x_+.
TOP_PAIRS = 8


def top_pairs_above(A: np.ndarray, threshold: float, first: int = TOP_PAIRS):
    """Leading squared singular values of sqrt(ell) A_perp with unit singular vectors.

    Block Lanczos for the ``first`` largest, doubling the number until the smallest returned
    value is <= ``threshold`` (or all ell - 1 non-Perron values are returned), so every value
    above the threshold is among them.

    Returns
    -------
    values : ndarray, shape (k,), descending
    left, right : ndarray, shape (ell, k)
    """
    # Lazy: block Lanczos needs scipy.sparse.linalg, which the figure job never uses.
    from attnspec.spectra.lanczos import top_nonperron_squared_singular_values

    k = min(first, A.shape[0] - 1)
    while True:
        values, left, right = top_nonperron_squared_singular_values(A, k, return_vectors=True)
        if values[-1] <= threshold or k == A.shape[0] - 1:
            return values, left, right
        k = min(2 * k, A.shape[0] - 1)


def full_spectrum_draw(
    draw: int, *, n_tokens: int, d_qk: int, beta: float, replicate: int = 0
) -> dict:
    """One draw of figure A2 (Gaussian sampler; the attention draw of
    :func:`attnspec.papers.spectra.model_spectrum` at the same parameters and replicate).

    Returns
    -------
    dict of arrays: ``squared_singular_values`` (ell s_k(A)^2, all k, descending),
    ``top_values`` / ``ipr_left`` / ``ipr_right`` (leading squared singular values of
    sqrt(ell) A_perp down to the first one <= x_+, and the IPR of their left and right singular
    vectors), ``largest_entry`` (theta = max |(sqrt(ell) A_perp)_ij|).
    """
    clock = Stopwatch()
    params = draw_parameters(n_tokens, d_qk, beta, "gaussian", None)
    rng = rng_for(params, draw, "queries_keys", replicate=replicate)
    Q, K = sample_queries_keys(rng, n_tokens, d_qk)
    A = attention_matrix(Q, K, beta)
    LOG.info("attention matrix %d x %d built in %.2f s", n_tokens, n_tokens, clock.lap())
    mean = 1.0 / n_tokens
    x_plus = bulk_edge(beta, n_tokens / d_qk)
    values, left, right = top_pairs_above(A, x_plus)
    LOG.info(
        "%d leading non-Perron pairs (down to x_+ = %.6g) by block Lanczos in %.2f s",
        values.size,
        x_plus,
        clock.lap(),
    )
    spectrum = n_tokens * squared_singular_values(A)
    LOG.info("all %d squared singular values in %.2f s", spectrum.size, clock.lap())
    return {
        "squared_singular_values": spectrum,
        "top_values": values,
        "ipr_left": inverse_participation_ratio(left),
        "ipr_right": inverse_participation_ratio(right),
        "largest_entry": np.float64(np.sqrt(n_tokens) * max(A.max() - mean, mean - A.min())),
    }


def full_spectrum_draws(
    draws: int, *, n_tokens: int, d_qk: int, beta: float, replicate: int = 0
) -> list[dict]:
    """Draws 0..draws-1 of :func:`full_spectrum_draw` (one job per parameter point); each is
    bit-identical to the draw computed alone."""
    if isinstance(draws, bool) or not isinstance(draws, int | np.integer) or draws < 1:
        raise ValueError(f"draws must be a positive integer, got {draws!r}")
    clock = Stopwatch()
    results = []
    for draw in range(draws):
        results.append(
            full_spectrum_draw(draw, n_tokens=n_tokens, d_qk=d_qk, beta=beta, replicate=replicate)
        )
        LOG.info(
            "draw %d of %d, ell = %d, beta = %s: Perron value %.6g, top non-Perron %.6g, %.2f s",
            draw + 1,
            draws,
            n_tokens,
            beta,
            results[-1]["squared_singular_values"][0],
            results[-1]["top_values"][0],
            clock.lap(),
        )
    LOG.info("%d draws in %.2f s", draws, clock.total())
    return results


def pack_draws(results: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """One flat dict ``"<draw>/<key>"`` of the per-draw dicts (arrays of varying length)."""
    return {f"{i}/{key}": value for i, draw in enumerate(results) for key, value in draw.items()}


def unpack_draws(packed: Mapping[str, np.ndarray]) -> list[dict]:
    """Inverse of :func:`pack_draws`: the per-draw dicts in draw order."""
    draws: dict[int, dict] = {}
    for name, value in packed.items():
        index, key = name.split("/", 1)
        draws.setdefault(int(index), {})[key] = value
    return [draws[i] for i in sorted(draws)]
