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
above (:func:`leading_attention_values`, :func:`leading_squared_singular_values`), where
A_perp and then Y_lin share one float32 ell x ell buffer. Memory above the crossover: K and S
while S is formed (Q is drawn in blocks of rows), then S, the buffer and the Krylov basis.
"""

import logging
import math
from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

from attnspec.models.gaussian_equivalent import linear_model
from attnspec.models.sampling import perp_attention
from attnspec.models.softmax import row_softmax
from attnspec.papers.progress import Stopwatch
from attnspec.seeding import rng_for
from attnspec.spectra.lanczos import (
    top_squared_singular_values,
    top_squared_singular_values_from_perp,
)
from attnspec.spectra.localisation import inverse_participation_ratio

LOG = logging.getLogger(__name__)

# Below this ell the k = ceil(sqrt(ell)) leading values (with vectors) of A and the top values of
# Y_lin come at least as fast from float64 Gram matrices as from float32 block Lanczos. CPU of a
# whole draw (c = 1, 3 betas, top 5 of Y_lin), single-threaded, dense / Lanczos: 0.81 / 0.83 s
# at ell = 1024, 2.54 / 1.65 s at 1536, 5.9 / 2.64 s at 2048 (the dense route grows like ell^3).
DENSE_CROSSOVER = 1536
# Relative accuracy asked of the Lanczos values. The figures resolve relative gaps of 1e-3 and
# more, the verdicts' margins are 0.5 % of x_+ (paper B's rows in attnspec.papers.b.declared_tests),
# and with float32 products the values are good to ~1e-6 anyway. Against 1e-8, 1e-6 used
# 8-9 % fewer Krylov vectors at ell = 2048 and 4096 and moved no value by more than 7e-9.
LANCZOS_TOLERANCE = 1e-6
# S is formed in float32 (SGEMM, about twice the DGEMM rate) from the float64 draws of Q and K;
# every softmax runs in float64. Above DENSE_CROSSOVER A_perp and Y_lin are stored in float32
# too and their Lanczos products run in float32. Relative error of ell s_k(A)^2 and s_k(Y_lin)^2
# against float64: at most SCORE_FLOAT32_BOUND (tests/test_sticking_draw.py, at ell = 2048
# against the dense float64 solve). Measured, largest over k <= ceil(sqrt(ell)), at beta = 0.5,
# 1, 1.5: ell = 2048 (draws 0, 1) 5.8e-8, 5.1e-7, 2.2e-6; ell = 8192 (draw 0, against float64
# Lanczos) 5.0e-8, 1.0e-6, 2.1e-6; Y_lin under 5e-8. Draw-to-draw spreads: 0.5 %, 8.5 %, 47 %.
# Nearly all of it is the rounding of float32 S, which depends on the CPU's SGEMM kernels: at
# ell = 4096, beta = 2, a dense float64 solve of the same float32 S is 3.9e-6 off, the float32
# Lanczos 2.5e-7 off that solve (2026-12-03).
SCORE_DTYPE = np.float32
SCORE_FLOAT32_BOUND = 1e-5
# Rows of Q drawn (and multiplied by K^T) per block while S is formed. SGEMM of a block of rows
# against K^T at ell = 8192, one thread, against square SGEMM (2048): 0.95 for 256 rows, 1.0
# for 512, 1.01 for 1024 and 2048 (1 % to 3 % noise).
_QUERY_BLOCK_ROWS = 1024
# Memory model (sticking_peak_mb). Peak resident memory of a draw's job process at small ell
# (interpreter, numpy, Snakemake's script preamble, attnspec): 45 MB, and 63 MB when the dense
# solver's scipy.linalg is loaded (ell < DENSE_CROSSOVER). Krylov vectors used for A's leading
# ceil(sqrt(ell)) values (largest over beta = 0.5, 1, 1.5; Y_lin's top 5 used fewer): 528 at
# ell = 2048, 736 at 4096, 1008 at 8192, i.e. 11-12 sqrt(ell).
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
    measured on this machine (tests/test_sticking_draw.py, tools/benchmark.py).

    The job's process (_PROCESS_MB, plus _DENSE_SOLVER_MB below DENSE_CROSSOVER) and the larger
    of forming S (K and S in SCORE_DTYPE, a block of Q) and the solves: above DENSE_CROSSOVER
    S, the A_perp / Y_lin buffer and the Krylov basis (m ell float64 and its float32 copy for
    the Gram-Schmidt passes, twice while they grow, and three m x m copies in Rayleigh-Ritz,
    m = _KRYLOV_VECTORS_PER_ROOT sqrt(ell)); below it S, A and its Gram matrix in float64.
    """
    d_qk = query_key_width(n_tokens, ratio)
    ell, item = int(n_tokens), np.dtype(SCORE_DTYPE).itemsize
    forming = ell * d_qk * item + ell * ell * item + _QUERY_BLOCK_ROWS * d_qk * (item + 8)
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


def sample_scores(
    keys_rng: np.random.Generator,
    queries_rng: np.random.Generator,
    n_tokens: int,
    d_qk: int,
    *,
    dtype: type = np.float64,
) -> np.ndarray:
    """S = Q K^T / sqrt(d_qk), Q, K iid N(0, 1) of shape (ell, d_qk) (papers A, B, section 1).

    K and Q are drawn in float64 from ``keys_rng`` and ``queries_rng`` in blocks of rows (the
    same numbers as one (ell, d_qk) draw each, into one reused float64 block) and stored in
    ``dtype``; Q is never held whole. With ``dtype=np.float32`` the product runs in float32
    (SGEMM) on the rounded draws.
    """
    rows_per_block = min(_QUERY_BLOCK_ROWS, n_tokens)
    draws = np.empty((rows_per_block, d_qk))
    keys = np.empty((n_tokens, d_qk), dtype)
    for r0 in range(0, n_tokens, rows_per_block):
        block = keys[r0 : r0 + rows_per_block]
        block[...] = keys_rng.standard_normal(out=draws[: block.shape[0]])
    scores = np.empty((n_tokens, n_tokens), dtype)
    queries = draws if dtype == np.float64 else np.empty((rows_per_block, d_qk), dtype)
    for r0 in range(0, n_tokens, rows_per_block):
        block = scores[r0 : r0 + rows_per_block]
        rows = queries[: block.shape[0]]
        rows[...] = queries_rng.standard_normal(out=draws[: block.shape[0]])
        np.matmul(rows, keys.T, out=block)
    scores *= dtype(1.0 / np.sqrt(d_qk))
    return scores


def spike_strength(matrix: np.ndarray, *, centred: bool = False) -> float:
    """theta_max = max_ij |(sqrt(ell) A_perp)_ij| = sqrt(ell) max_ij |A_ij - 1/ell| (papers.md
    section 3), from the extreme entries (no copy) of A, or of A_perp if ``centred``."""
    ell = matrix.shape[0]
    mean = 0.0 if centred else 1.0 / ell
    return float(np.sqrt(ell) * max(matrix.max() - mean, mean - matrix.min()))


def leading_attention_values(scores: np.ndarray, beta: float, k: int, buffer: np.ndarray):
    """theta_max and s_1(A)^2 >= ... >= s_k(A)^2 with unit singular vectors of A =
    row-softmax(beta S), built in ``buffer``: (theta_max, values, left, right).

    ell < DENSE_CROSSOVER: A in a float64 buffer, dense Gram eigenvalues (subset; scipy.linalg
    is imported only then, 0.2 s of a job's start-up). Above: A_perp
    (softmax in float64, stored in the buffer's dtype) and block Lanczos on A = A_perp + 1 1^T
    / ell (relative accuracy LANCZOS_TOLERANCE, float32 products for a float32 buffer).
    """
    ell = scores.shape[0]
    if ell < DENSE_CROSSOVER:
        from attnspec.spectra.dense import top_squared_singular_values_dense  # scipy.linalg

        attention = row_softmax(scores, scale=beta, out=buffer)
        values = top_squared_singular_values_dense(attention, k, return_vectors=True)
        return spike_strength(attention), *values
    perp = perp_attention(scores, beta, out=buffer)
    return spike_strength(perp, centred=True), *top_squared_singular_values_from_perp(
        perp, k, return_vectors=True, tol=LANCZOS_TOLERANCE
    )


def leading_squared_singular_values(M: np.ndarray, k: int) -> np.ndarray:
    """s_1(M)^2 >= ... >= s_k(M)^2 of a square M, never a full SVD: dense Gram eigenvalues
    (subset) when ell < DENSE_CROSSOVER, block Lanczos (relative accuracy LANCZOS_TOLERANCE,
    products in M's dtype) otherwise."""
    if M.shape[0] < DENSE_CROSSOVER:
        from attnspec.spectra.dense import top_squared_singular_values_dense  # scipy.linalg

        return top_squared_singular_values_dense(M, k)
    return top_squared_singular_values(M, k, tol=LANCZOS_TOLERANCE)


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
    buffer = np.empty_like(scores, np.float64 if n_tokens < DENSE_CROSSOVER else score_dtype)
    for j, beta in enumerate(betas):
        theta, values, left, right = leading_attention_values(scores, beta, n_values, buffer)
        result["theta_max"][j] = theta
        result["attention"][j] = n_tokens * values
        result["ipr_left"][j] = inverse_participation_ratio(left[:, 1:top_k])
        result["ipr_right"][j] = inverse_participation_ratio(right[:, 1:top_k])
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
