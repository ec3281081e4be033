"""Figure A6 (paper A, claim A.2): the Perron mode, s_1(A) -> 1, and the stable rank -> e^{beta^2}.

A = row-softmax(beta Q K^T / sqrt(d_qk)) is row-stochastic, so A u = u (u = 1/sqrt(ell)) and
s_1(A) >= 1. One power-iteration step from u gives ||A^T u||^2 = (1/ell) sum_j c_j^2 with column
sums c_j of mean 1 and variance theta1/ell (rows) + beta^4/(2 d_qk) (key norms), hence
(papers.md section 3, derived, beta <= 1)

    s_1(A)^2 ~ 1 + (e^{beta^2} - 1)/ell + beta^4/(2 d_qk),

so |s_1(A) - 1| ~ (theta1 + beta^4/2)/(2 ell) at c = ell/d_qk = 1. Since u^T A_perp u = 0,
||A||_F^2 = 1 + ||A_perp||_F^2 -> 1 + theta1 = e^{beta^2}, and the stable rank
||A||_F^2/||A||^2 -> e^{beta^2} (papers.md section 2).
"""

import logging
from collections.abc import Sequence

import numpy as np

from attnspec.models.sampling import attention_matrix, sample_queries_keys
from attnspec.papers.progress import Stopwatch
from attnspec.papers.spectra import draw_parameters
from attnspec.seeding import rng_for
from attnspec.theory.constants import nonlinearity_coefficients

LOG = logging.getLogger(__name__)


def perron_squared_prediction(n_tokens, d_qk, beta: float):
    """s_1(A)^2 ~ 1 + (e^{beta^2} - 1)/ell + beta^4/(2 d_qk) (papers.md section 3); vectorised."""
    n_tokens = np.asarray(n_tokens, dtype=np.float64)
    d_qk = np.asarray(d_qk, dtype=np.float64)
    return 1.0 + nonlinearity_coefficients(beta).theta1 / n_tokens + beta**4 / (2.0 * d_qk)


def leading_singular_value(A: np.ndarray) -> float:
    """s_1(A) = ||A||, by implicitly restarted Lanczos (ARPACK) on A^T A to machine precision.

    The fixed start vector u = 1/sqrt(ell) (A u = u for a row-stochastic A, so u is close to the
    leading right singular vector) and a seeded generator for ARPACK's restart vectors make the
    result reproducible; no vector is returned.
    """
    from scipy.sparse.linalg import svds  # lazy: only the simulation job needs ARPACK

    start = np.full(A.shape[0], 1.0 / np.sqrt(A.shape[0]))
    # A 4-vector Krylov space suffices: s_2(A)^2 / s_1(A)^2 ~ x_+ / ell is small, and each
    # restart costs 4 products instead of the default 20 (timing: docs/benchmark.md).
    return float(
        svds(
            A,
            k=1,
            ncv=4,
            v0=start,
            tol=0,
            return_singular_vectors=False,
            rng=np.random.default_rng(0),
        )[0]
    )


def perron_draw(n_tokens: int, beta: float, draw: int, *, replicate: int = 0) -> tuple:
    """(s_1(A), ||A||_F^2) of one draw at c = 1 (d_qk = ell), Gaussian sampler.

    The draw uses the stream ``queries_keys`` of
    :func:`attnspec.papers.spectra.draw_parameters` (re-keyed by ``replicate``), so it is
    the attention matrix of the spectrum rule's draw at the same parameters.
    """
    params = draw_parameters(n_tokens, n_tokens, beta, "gaussian", None)
    rng = rng_for(params, draw, "queries_keys", replicate=replicate)
    Q, K = sample_queries_keys(rng, n_tokens, n_tokens)
    A = attention_matrix(Q, K, beta)
    return leading_singular_value(A), float(np.vdot(A, A))


def perron_draws(
    n_tokens: int, beta: float, draws: int, *, replicate: int = 0
) -> dict[str, np.ndarray]:
    """:func:`perron_draw` for draws 0..draws-1: ``s1`` and ``frobenius_squared``, shape (draws,);
    each draw is the same whatever ``draws`` is."""
    s1 = np.empty(draws)
    frobenius_squared = np.empty(draws)
    clock = Stopwatch()
    for draw in range(draws):
        s1[draw], frobenius_squared[draw] = perron_draw(n_tokens, beta, draw, replicate=replicate)
        LOG.info(
            "draw %d of %d, ell = %d, beta = %s: s_1(A) - 1 = %.4g, %.2f s",
            draw + 1,
            draws,
            n_tokens,
            beta,
            s1[draw] - 1.0,
            clock.lap(),
        )
    LOG.info("%d draws in %.2f s", draws, clock.total())
    return {"s1": s1, "frobenius_squared": frobenius_squared}


def perron_sizes(
    n_tokens: Sequence[int], beta: float, draws: int, *, replicate: int = 0
) -> dict[str, np.ndarray]:
    """:func:`perron_draws` at every ell of ``n_tokens`` (one job per beta): ``n_tokens`` (L,),
    ``s1`` and ``frobenius_squared`` (L, draws)."""
    results = [perron_draws(int(n), beta, draws, replicate=replicate) for n in n_tokens]
    return {
        "n_tokens": np.asarray(n_tokens, dtype=np.int64),
        "s1": np.stack([r["s1"] for r in results]),
        "frobenius_squared": np.stack([r["frobenius_squared"] for r in results]),
    }
