"""One paper B sticking draw: replicates, the streams of replicate 0, the float32 path against
the float64 path and the dense float64 solve, and the memory model against measured peaks."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest

from attnspec.models.blocked_scores import sample_scores
from attnspec.models.gaussian_equivalent import linear_model
from attnspec.models.softmax import row_softmax
from attnspec.papers.b.sticking import (
    SCORE_FLOAT32_BOUND,
    draw_parameters,
    spike_strength,
    sticking_draw,
    sticking_job_mem_mb,
    sticking_peak_mb,
)
from attnspec.seeding import rng_for
from attnspec.spectra.dense import squared_singular_values, top_squared_singular_values_dense
from attnspec.spectra.leading import DENSE_CROSSOVER, LANCZOS_TOLERANCE, leading_attention_values
from attnspec.spectra.localisation import inverse_participation_ratio

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


def test_the_float32_path_stays_within_its_bound_of_the_dense_float64_solve():
    # ell = 2048 (above DENSE_CROSSOVER: block Lanczos on float32 A_perp and Y_lin), where the
    # dense float64 solve of the same streams is affordable: ell s_k(A)^2 for k <= ceil(sqrt(ell))
    # and s_k(Y_lin)^2 within SCORE_FLOAT32_BOUND, theta_max too. The IPRs of the singular
    # vectors: a vector whose value has converged to the relative residual LANCZOS_TOLERANCE is
    # off by at most that over its relative gap to the neighbouring values (Davis-Kahan), and
    # its IPR (a sum of fourth powers) by four times that: rtol max(1e-4, 4 tol / gap).
    ell, job = 2048, {"betas": [0.5, 1.0, 1.5], "n_values": 46, "top_k": 6}
    assert ell >= DENSE_CROSSOVER
    single = sticking_draw(ell, 1.0, 0, **job)
    params = draw_parameters(ell, ell)
    S = sample_scores(rng_for(params, 0, "keys"), rng_for(params, 0, "queries"), ell, ell)
    for j, beta in enumerate(job["betas"]):
        A = row_softmax(S, scale=beta)
        np.testing.assert_allclose(
            single["attention"][j], ell * squared_singular_values(A)[:46], rtol=SCORE_FLOAT32_BOUND
        )
        assert single["theta_max"][j] == pytest.approx(spike_strength(A), rel=SCORE_FLOAT32_BOUND)
        values, left, right = top_squared_singular_values_dense(A, 7, return_vectors=True)
        gaps = np.minimum(np.abs(np.diff(values))[:-1], np.abs(np.diff(values))[1:]) / values[1:6]
        rtol = np.maximum(1e-4, 4 * LANCZOS_TOLERANCE / gaps)
        for key, vectors in (("ipr_left", left), ("ipr_right", right)):
            expected = inverse_participation_ratio(vectors[:, 1:6])
            assert np.all(np.abs(single[key][j] - expected) <= rtol * expected), (beta, key)
        noise = rng_for(params, 0, f"noise/linear/beta={beta!r}")
        linear = squared_singular_values(linear_model(S, beta, noise))[:5]
        np.testing.assert_allclose(single["linear"][j], linear, rtol=SCORE_FLOAT32_BOUND)


def peak_rss_mb(n_tokens, ratio):
    """Peak RSS (MB) of a fresh single-threaded process running one draw at beta = 1 as the
    rule's job does (Snakemake's script preamble unpickles snakemake.iocontainers objects): its
    VmHWM (ru_maxrss would include the forked copy of this test process before exec)."""
    code = (
        "import snakemake.iocontainers; "
        "from attnspec.papers.b.sticking import ceil_root, sticking_draw; "
        f"sticking_draw({n_tokens}, {ratio}, 0, betas=[1.0], "
        f"n_values=max(6, ceil_root({n_tokens}, 2)), top_k=6); "
        "print(open('/proc/self/status').read())"
    )
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    status = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    return int(re.search(r"VmHWM:\s+(\d+) kB", status)[1]) * 1024 / 1e6


@pytest.mark.parametrize(("n_tokens", "ratio"), [(512, 1.0), (1536, 1.0), (2048, 1.0), (2048, 0.5)])
def test_the_memory_model_is_within_20_percent_of_the_measured_peak(n_tokens, ratio):
    measured = peak_rss_mb(n_tokens, ratio)
    assert sticking_peak_mb(n_tokens, ratio) == pytest.approx(measured, rel=0.2)
    assert sticking_job_mem_mb(n_tokens, ratio) >= measured


def test_the_memory_model_stays_below_2_2_ell_squared_float64_at_paper_sizes():
    for ell in (8192, 16384, 32768):
        assert sticking_peak_mb(ell, 1.0) * 1e6 <= 2.2 * ell**2 * 8
    assert sticking_job_mem_mb(32768, 1.0) < 13_000


def test_the_float32_lanczos_path_reruns_bit_identically():
    job = {"betas": [1.0], "n_values": 40, "top_k": 6}
    first, again = (sticking_draw(DENSE_CROSSOVER, 1.0, 2, **job) for _ in range(2))
    for key, value in first.items():
        assert np.array_equal(value, again[key]), key


@pytest.mark.slow
@pytest.mark.parametrize("beta", [0.5, 1.0, 1.5, 2.0])
def test_the_float32_lanczos_values_of_a_meet_the_contract_at_ell_4096(beta):
    # The accuracy contract of the block Lanczos route (attnspec.spectra.lanczos): ell s_k(A)^2,
    # k <= ceil(sqrt(ell)), from float32 S, the float64 softmax stored in float32 and float32
    # products, within SCORE_FLOAT32_BOUND of the dense float64 solve of the same streams.
    # Changed after seeing results (stops 28 and 29, said in their notes): the total error is
    # asserted at 0.5 of the bound (was 0.3, set from one CPU's 2.5e-6 at beta = 2; another
    # CPU's SGEMM kernels gave 3.8e-6). Stop 29 measured where it comes from: the rounding of
    # float32 S (3.9e-6 at beta = 2 with a dense solve of the same float32 S) and not the
    # Lanczos (2.5e-7 against that dense solve), so the Lanczos part is asserted on its own
    # at issue 21's margin of 0.26 of the bound.
    ell, k = 4096, 64
    params = draw_parameters(ell, ell)

    def scores(dtype):
        keys, queries = rng_for(params, 0, "keys"), rng_for(params, 0, "queries")
        return sample_scores(keys, queries, ell, ell, dtype=dtype)

    def dense(S):
        return ell * squared_singular_values(row_softmax(S.astype(np.float64), scale=beta))[:k]

    single = scores(np.float32)
    same_scores = dense(single)
    values = leading_attention_values(single, beta, k, out=np.empty_like(single)).values
    del single
    exact = dense(scores(np.float64))
    lanczos_error = np.max(np.abs(ell * values - same_scores) / same_scores)
    error = np.max(np.abs(ell * values - exact) / exact)
    assert lanczos_error <= 0.26 * SCORE_FLOAT32_BOUND, lanczos_error
    assert error <= 0.5 * SCORE_FLOAT32_BOUND, error
