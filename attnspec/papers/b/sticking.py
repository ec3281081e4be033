"""Paper B, figures B1-B3 and table B-T1: the top singular values of A for one (ell, c, draw).

One draw shares its scores S = Q K^T / sqrt(d_qk) (Q, K iid N(0, 1), d_qk = ell / c; paper B
section 1) between every beta of the job. For each beta, with A = row-softmax(beta S):

- ell s_k(A)^2 for k = 1..n_values (k = 1 is the Perron value, ell s_1(A)^2 ~ ell; paper B's
  claim is ell s_k(A)^2 -> x_+ for k >= 2, uniformly over k <= k_ell sublinear);
- theta_max = max_ij |(sqrt(ell) A_perp)_ij|, A_perp = A - 1 1^T / ell: the largest entry acts as
  a rank-one spike with an outlier at K(1/theta)^2 when theta > 1/G* (papers.md section 3);
- the inverse participation ratios of the left and right singular vectors of A, k = 2..top_k;
- s_k(Y_lin)^2 for k = 1..top_k - 1, Y_lin = (beta S + sqrt(a) W) / sqrt(ell) built from the
  same S (paper A section 2): no Perron mode, so its k-th value is the Gaussian reference for
  ell s_{k+1}(A)^2.

S is formed in float32 and every softmax in float64 (SCORE_DTYPE). Only the needed leading values
are computed: dense Gram eigenvalues (subset, float64) for ell < DENSE_CROSSOVER, block Lanczos
above (:mod:`attnspec.spectra.leading`), where
A_perp and then Y_lin share one float32 ell x ell buffer. Memory above the crossover: K and S
while S is formed (Q is drawn in blocks of rows, :mod:`attnspec.models.blocked_scores`), then
S, the buffer and the Krylov basis.
"""

import logging
import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

from attnspec.models.blocked_scores import QUERY_BLOCK_ROWS, sample_scores
from attnspec.models.gaussian_equivalent import linear_model
from attnspec.papers.progress import Stopwatch
from attnspec.seeding import rng_for
from attnspec.spectra.leading import (
    DENSE_CROSSOVER,
    leading_attention_values,
    leading_squared_singular_values,
    solve_dtype,
)
from attnspec.spectra.localisation import inverse_participation_ratio

LOG = logging.getLogger(__name__)
# S in float32 (SGEMM, about twice the DGEMM rate), every softmax in float64. Relative error of
# ell s_k(A)^2 and s_k(Y_lin)^2 against the float64 path: at most SCORE_FLOAT32_BOUND
# (tests/papers/b/test_sticking_draw.py; the measurements, and why they depend on the CPU's SGEMM
# kernels, in docs/benchmark.md), far below the draw-to-draw spread and the 0.5 % margins.
SCORE_DTYPE = np.float32
SCORE_FLOAT32_BOUND = 1e-5
# Memory model (sticking_peak_mb), fitted to measured peaks (docs/benchmark.md): the job
# process's resident baseline, what scipy.linalg adds below DENSE_CROSSOVER, and the Krylov
# vectors used for A's ceil(sqrt(ell)) leading values per sqrt(ell).
_PROCESS_MB = 45
_DENSE_SOLVER_MB = 20
_KRYLOV_VECTORS_PER_ROOT = 12


def ceil_root(n: int, degree: int) -> int:
    """The least integer r >= 0 with r^degree >= n (exact: ceil(4096^(1/3)) is 16, not 17)."""
    root = max(0, round(n ** (1.0 / degree)))
    while root**degree < n:
        root += 1
    while root > 0 and (root - 1) ** degree >= n:
        root -= 1
    return root


def uniform_index_counts(n_tokens: int) -> dict[str, int]:
    """Paper B's sublinear index counts k_ell (figure B3): ceil(log ell), ceil(ell^(1/3)),
    ceil(ell^(1/2)), each at least 2 (the first non-Perron index)."""
    return {
        "log": max(2, math.ceil(math.log(n_tokens))),
        "cube_root": max(2, ceil_root(n_tokens, 3)),
        "square_root": max(2, ceil_root(n_tokens, 2)),
    }


def query_key_width(n_tokens: int, ratio: float) -> int:
    """d_qk = ell / c, which must be a whole number."""
    d_qk = n_tokens / ratio
    if d_qk < 1 or d_qk != round(d_qk):
        raise ValueError(f"ell / c = {n_tokens} / {ratio} is not a positive whole number")
    return int(round(d_qk))


def whole_width_step(ratios, largest: int = 1 << 20) -> int:
    """The smallest ell >= 1 with ell / c a whole number for every c of ``ratios`` (every
    multiple of it is one too): the step of a search over sizes (attnspec.workflow.memorycheck).
    ValueError if no ell up to ``largest`` is."""
    step = 1
    for ratio in ratios:
        own = next(
            (ell for ell in range(1, largest + 1) if (ell / ratio) == round(ell / ratio) >= 1),
            None,
        )
        if own is None:
            raise ValueError(f"ratios: no ell up to {largest} makes ell / {ratio} whole")
        step = math.lcm(step, own)
    return step


class StickingJob(NamedTuple):
    """What one (ell, c) job computes per draw: which betas and how many values of A."""

    betas: tuple[float, ...]
    n_values: int  # leading values of A, Perron included
    top_k: int  # B1's largest k (vectors and Y_lin values for k = 2..top_k)
    draws: int


def sticking_jobs(sticking: Mapping, ratio_scan: Mapping) -> dict[tuple[int, float], StickingJob]:
    """The simulation jobs of B1-B3 and B-T1, keyed by (ell, c), from the config sections.

    ``sticking`` (c = 1): n_tokens, betas, draws, top_k; its jobs compute
    max(top_k, ceil(sqrt(ell))) values of A for B3. ``ratio_scan``: n_tokens, betas, ratios,
    draws; its jobs compute top_k values. A point in both gets the union of the betas, the
    larger number of values and of draws.
    """
    top_k = int(sticking["top_k"])
    wanted = [
        (int(ell), 1.0, sticking["betas"], max(top_k, ceil_root(int(ell), 2)), sticking["draws"])
        for ell in sticking["n_tokens"]
    ] + [
        (int(ell), float(c), ratio_scan["betas"], top_k, ratio_scan["draws"])
        for c in ratio_scan["ratios"]
        for ell in ratio_scan["n_tokens"]
    ]
    jobs: dict[tuple[int, float], StickingJob] = {}
    for ell, c, betas, n_values, draws in wanted:
        query_key_width(ell, c)
        if n_values >= ell:
            raise ValueError(f"ell = {ell} is too small for {n_values} leading values")
        old = jobs.get((ell, c), StickingJob((), 0, top_k, 0))
        jobs[(ell, c)] = StickingJob(
            betas=tuple(sorted(set(old.betas) | {float(b) for b in betas})),
            n_values=max(old.n_values, n_values),
            top_k=top_k,
            draws=max(old.draws, int(draws)),
        )
    return jobs


def sticking_peak_mb(n_tokens: int, ratio: float) -> float:
    """Peak resident memory of one sticking draw at (ell, c), in MB (1e6 bytes): a model
    measured on this machine (tests/papers/b/test_sticking_draw.py, tools/benchmark.py).

    The job's process (_PROCESS_MB, plus _DENSE_SOLVER_MB below DENSE_CROSSOVER) and the larger
    of forming S (K and S in SCORE_DTYPE, a block of Q) and the solves: above DENSE_CROSSOVER
    S, the A_perp / Y_lin buffer and the Krylov basis (m ell float64 and its float32 copy for
    the Gram-Schmidt passes, twice while they grow, and three m x m copies in Rayleigh-Ritz,
    m = _KRYLOV_VECTORS_PER_ROOT sqrt(ell)); below it S, A and its Gram matrix in float64.
    """
    d_qk = query_key_width(n_tokens, ratio)
    ell, item = int(n_tokens), np.dtype(SCORE_DTYPE).itemsize
    forming = ell * d_qk * item + ell * ell * item + QUERY_BLOCK_ROWS * d_qk * (item + 8)
    if ell < DENSE_CROSSOVER:
        return _PROCESS_MB + _DENSE_SOLVER_MB + max(forming, ell * ell * (item + 8 + 8)) / 1e6
    vectors = min(ell, _KRYLOV_VECTORS_PER_ROOT * ceil_root(ell, 2))
    solving = 2 * ell * ell * item + 2 * vectors * ell * (8 + item) + 3 * vectors**2 * 8
    return _PROCESS_MB + max(forming, solving) / 1e6


def sticking_job_mem_mb(n_tokens: int, ratio: float) -> int:
    """Memory (MB) to reserve for a sticking draw's script: 1.2 x :func:`sticking_peak_mb`,
    rounded up (the model is within 20 % of the measured peaks). Batched draws run one after
    the other and need the same."""
    return math.ceil(1.2 * sticking_peak_mb(n_tokens, ratio))


def spike_strength(matrix: np.ndarray, *, centred: bool = False) -> float:
    """theta_max = max_ij |(sqrt(ell) A_perp)_ij| = sqrt(ell) max_ij |A_ij - 1/ell| (papers.md
    section 3), from the extreme entries (no copy) of A, or of A_perp if ``centred``."""
    ell = matrix.shape[0]
    mean = 0.0 if centred else 1.0 / ell
    return float(np.sqrt(ell) * max(matrix.max() - mean, mean - matrix.min()))


def draw_parameters(n_tokens: int, d_qk: int) -> dict:
    """The parameters keying a sticking draw's random streams (beta is not one: the betas of a
    draw share Q and K)."""
    return {"experiment": "paperB/sticking", "n_tokens": int(n_tokens), "d_qk": int(d_qk)}


def sticking_draw(
    n_tokens: int,
    ratio: float,
    draw: int,
    *,
    betas: Sequence[float],
    n_values: int,
    top_k: int,
    replicate: int = 0,
    score_dtype: type = SCORE_DTYPE,
) -> dict[str, np.ndarray]:
    """Everything B1-B3 and B-T1 need from one draw at (ell, c), for every beta (module doc).

    Streams (:func:`attnspec.seeding.rng_for` with :func:`draw_parameters` and ``replicate``;
    replicate 0 is the workflow's default): ``keys``, ``queries``, and
    ``noise/linear/beta=<beta>`` for the W of Y_lin. ``score_dtype``: S (and, above
    DENSE_CROSSOVER, A_perp, Y_lin and their Lanczos products) in float32 (the default,
    within SCORE_FLOAT32_BOUND of the float64 path) or float64; softmaxes run in float64.

    Returns
    -------
    dict of arrays: scalars ``n_tokens``, ``ratio``, ``d_qk``, ``draw``; ``betas`` (B,);
    ``attention`` (B, n_values): ell s_k(A)^2, k = 1..n_values; ``linear`` (B, top_k - 1):
    s_k(Y_lin)^2; ``theta_max`` (B,); ``ipr_left``, ``ipr_right`` (B, top_k - 1): IPR of the
    singular vectors of A, k = 2..top_k.
    """
    if not 2 <= top_k <= n_values:
        raise ValueError(f"need 2 <= top_k <= n_values, got top_k={top_k}, n_values={n_values}")
    d_qk = query_key_width(n_tokens, ratio)
    params = draw_parameters(n_tokens, d_qk)
    clock = Stopwatch()

    def stream(name):
        return rng_for(params, draw, name, replicate=replicate)

    scores = sample_scores(stream("keys"), stream("queries"), n_tokens, d_qk, dtype=score_dtype)
    LOG.info("scores S (%d x %d, d_qk = %d) in %.2f s", n_tokens, n_tokens, d_qk, clock.lap())
    result = {
        "attention": np.empty((len(betas), n_values)),
        "linear": np.empty((len(betas), top_k - 1)),
        "theta_max": np.empty(len(betas)),
        "ipr_left": np.empty((len(betas), top_k - 1)),
        "ipr_right": np.empty((len(betas), top_k - 1)),
    }
    # A (or A_perp) and then Y_lin, for each beta: float64 for the dense solves.
    buffer = np.empty_like(scores, solve_dtype(n_tokens, score_dtype))
    for j, beta in enumerate(betas):
        leading = leading_attention_values(scores, beta, n_values, out=buffer)
        result["theta_max"][j] = spike_strength(leading.matrix, centred=leading.centred)
        result["attention"][j] = n_tokens * leading.values
        result["ipr_left"][j] = inverse_participation_ratio(leading.left[:, 1:top_k])
        result["ipr_right"][j] = inverse_participation_ratio(leading.right[:, 1:top_k])
        noise = stream(f"noise/linear/beta={float(beta)!r}")
        linear = linear_model(scores, beta, noise, out=buffer)
        result["linear"][j] = leading_squared_singular_values(linear, top_k - 1)
        LOG.info(
            "beta %d of %d, beta = %s: ell s_2(A)^2 = %.6g, theta_max = %.4g, "
            "s_1(Y_lin)^2 = %.6g, %.2f s",
            j + 1,
            len(betas),
            beta,
            result["attention"][j, 1],
            result["theta_max"][j],
            result["linear"][j, 0],
            clock.lap(),
        )
    return {
        "n_tokens": np.int64(n_tokens),
        "ratio": np.float64(ratio),
        "d_qk": np.int64(d_qk),
        "draw": np.int64(draw),
        "betas": np.asarray(betas, dtype=np.float64),
        **result,
    }
