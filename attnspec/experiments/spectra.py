"""Spectra of the random attention model and its Gaussian equivalents, one draw at a time.

A draw is keyed by (n_tokens, d_qk, beta, sampler[, d_model]) and its index, so any draw of any
figure can be regenerated alone, and figures that need the same spectrum share one job.
Models: the names of :data:`attnspec.models.gaussian_equivalent.STEPWISE_MODELS` ("attention" is
sqrt(ell) A_perp, "linear" is Y_lin; paper A, section 2).
"""

import logging

from attnspec.experiments.progress import Stopwatch
from attnspec.models.gaussian_equivalent import stepwise_matrix
from attnspec.models.sampling import sample_queries_keys
from attnspec.seeding import rng_for
from attnspec.spectra.dense import squared_singular_values

LOG = logging.getLogger(__name__)


def draw_parameters(n_tokens: int, d_qk: int, beta: float, sampler: str, d_model: int) -> dict:
    """The parameters that key a draw's random stream (d_model only matters for ``literal``)."""
    params = {"n_tokens": int(n_tokens), "d_qk": int(d_qk), "beta": float(beta), "sampler": sampler}
    if sampler == "literal":
        params["d_model"] = int(d_model)
    return params


def model_spectrum(model: str, draw: int, *, n_tokens, d_qk, beta, sampler, d_model):
    """Squared singular values (descending) of one model matrix for one draw.

    Q, K come from the stream ``queries_keys`` of the draw, so every model of a draw sees the
    same scores; the model's own Gaussian noise comes from the stream ``noise/<model>``.
    """
    clock = Stopwatch()
    params = draw_parameters(n_tokens, d_qk, beta, sampler, d_model)
    queries, keys = sample_queries_keys(
        rng_for(params, draw, stream="queries_keys"),
        n_tokens,
        d_qk,
        sampler=sampler,
        d_model=d_model,
    )
    matrix = stepwise_matrix(model, queries, keys, beta, rng_for(params, draw, f"noise/{model}"))
    LOG.info("%s matrix %d x %d built in %.2f s", model, *matrix.shape, clock.lap())
    values = squared_singular_values(matrix)
    LOG.info("squared singular values in %.2f s", clock.lap())
    return values
