"""Spectra of the random attention model and its Gaussian equivalents.

A draw is keyed by (n_tokens, d_qk, beta, sampler[, d_model]), its index and the workflow's
replicate, so any draw of any figure can be regenerated alone (:func:`model_spectrum`), and a
batch of draws (:func:`model_spectra`, one job per parameter point) holds exactly the numbers
of the draws computed one by one. Models: the names of
:data:`attnspec.models.gaussian_equivalent.STEPWISE_MODELS` ("attention" is sqrt(ell) A_perp,
"linear" is Y_lin; paper A, section 2).
"""

import logging

import numpy as np

from attnspec.models.gaussian_equivalent import STEPWISE_MODELS, stepwise_matrix
from attnspec.models.sampling import sample_queries_keys
from attnspec.papers.progress import Stopwatch
from attnspec.seeding import rng_for
from attnspec.spectra.dense import squared_singular_values

LOG = logging.getLogger(__name__)


def draw_parameters(n_tokens: int, d_qk: int, beta: float, sampler: str, d_model: int) -> dict:
    """The parameters that key a draw's random stream (d_model only matters for ``literal``)."""
    params = {"n_tokens": int(n_tokens), "d_qk": int(d_qk), "beta": float(beta), "sampler": sampler}
    if sampler == "literal":
        params["d_model"] = int(d_model)
    return params


def model_spectrum(
    model: str, draw: int, *, n_tokens, d_qk, beta, sampler, d_model, replicate: int = 0
) -> np.ndarray:
    """Squared singular values (descending) of one model matrix for one draw.

    Q, K come from the stream ``queries_keys`` of the draw, so every model of a draw sees the
    same scores; the model's own Gaussian noise comes from the stream ``noise/<model>``; both
    are re-keyed by ``replicate`` (:func:`attnspec.seeding.rng_for`).
    """
    if model not in STEPWISE_MODELS:
        raise ValueError(f"model must be one of {tuple(STEPWISE_MODELS)}, got {model!r}")
    clock = Stopwatch()
    params = draw_parameters(n_tokens, d_qk, beta, sampler, d_model)
    queries, keys = sample_queries_keys(
        rng_for(params, draw, stream="queries_keys", replicate=replicate),
        n_tokens,
        d_qk,
        sampler=sampler,
        d_model=d_model,
    )
    noise = rng_for(params, draw, f"noise/{model}", replicate=replicate)
    matrix = stepwise_matrix(model, queries, keys, beta, noise)
    LOG.info("%s matrix %d x %d built in %.2f s", model, *matrix.shape, clock.lap())
    values = squared_singular_values(matrix)
    LOG.info("squared singular values in %.2f s", clock.lap())
    return values


def model_spectra(
    model: str, draws: int, *, n_tokens, d_qk, beta, sampler, d_model, replicate: int = 0
) -> np.ndarray:
    """Draws 0..draws-1 of :func:`model_spectrum` at one parameter point, shape (draws, m).

    Each row is bit-identical to the draw computed alone: every draw has its own streams.
    """
    if isinstance(draws, bool) or not isinstance(draws, int | np.integer) or draws < 1:
        raise ValueError(f"draws must be a positive integer, got {draws!r}")
    clock = Stopwatch()
    rows = []
    for draw in range(draws):
        rows.append(
            model_spectrum(
                model,
                draw,
                n_tokens=n_tokens,
                d_qk=d_qk,
                beta=beta,
                sampler=sampler,
                d_model=d_model,
                replicate=replicate,
            )
        )
        LOG.info(
            "draw %d of %d, %s, ell = %d, d_qk = %d, beta = %s: largest %.6g, %.2f s",
            draw + 1,
            draws,
            model,
            n_tokens,
            d_qk,
            beta,
            rows[-1][0],
            clock.lap(),
        )
    LOG.info("%d draws in %.2f s", draws, clock.total())
    return np.stack(rows)
