"""One paper B sticking draw: replicates, the streams of replicate 0, agreement with a dense
float64 reference built from the same streams."""

import numpy as np
import pytest

from attnspec.experiments.sticking import SCORE_FLOAT32_BOUND, draw_parameters, sticking_draw
from attnspec.models.gaussian_equivalent import linear_model
from attnspec.models.softmax import row_softmax
from attnspec.seeding import rng_for

RANDOM_OUTPUTS = ("attention", "linear", "theta_max", "ipr_left", "ipr_right")


def small_draw(replicate=None, n_tokens=96, ratio=2.0, draw=1):
    extra = {} if replicate is None else {"replicate": replicate}
    return sticking_draw(n_tokens, ratio, draw, betas=[0.5, 1.0], n_values=10, top_k=4, **extra)


def reference_draw(n_tokens, ratio, draw, betas, n_values, top_k):
    """The draw recomputed the plain way: Q and K whole from the replicate-0 streams, dense SVDs."""
    d_qk = round(n_tokens / ratio)
    params = draw_parameters(n_tokens, d_qk)
    K = rng_for(params, draw, "keys").standard_normal((n_tokens, d_qk))
    Q = rng_for(params, draw, "queries").standard_normal((n_tokens, d_qk))
    S = Q @ K.T / np.sqrt(d_qk)
    attention, linear = [], []
    for beta in betas:
        A = row_softmax(S, scale=beta)
        attention.append(n_tokens * np.linalg.svd(A, compute_uv=False)[:n_values] ** 2)
        noise = rng_for(params, draw, f"noise/linear/beta={float(beta)!r}")
        Y = linear_model(S, beta, noise)
        linear.append(np.linalg.svd(Y, compute_uv=False)[: top_k - 1] ** 2)
    return np.array(attention), np.array(linear)


def test_replicate_0_is_the_default_and_uses_the_unkeyed_streams():
    default, zero = small_draw(), small_draw(replicate=0)
    for key, value in default.items():
        assert np.array_equal(value, zero[key]), key
    attention, linear = reference_draw(96, 2.0, 1, [0.5, 1.0], 10, 4)
    exact = sticking_draw(
        96, 2.0, 1, betas=[0.5, 1.0], n_values=10, top_k=4, score_dtype=np.float64
    )
    for draw, rtol in ((exact, 1e-9), (zero, SCORE_FLOAT32_BOUND)):
        np.testing.assert_allclose(draw["attention"], attention, rtol=rtol)
        np.testing.assert_allclose(draw["linear"], linear, rtol=rtol)


def test_a_replicate_changes_every_random_output_and_reruns_bit_identically():
    zero, one, again = small_draw(replicate=0), small_draw(replicate=1), small_draw(replicate=1)
    for key, value in one.items():
        assert np.array_equal(value, again[key]), key
    for key in RANDOM_OUTPUTS:
        assert np.all(one[key] != zero[key]), key
    with pytest.raises(ValueError, match="replicate"):
        small_draw(replicate=-1)
