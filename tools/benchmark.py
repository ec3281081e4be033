"""Benchmark the sampling and spectra paths against the naive way, each case in its own process.

Every case runs as ``python tools/benchmark.py --case NAME`` in a fresh child process; the parent
measures its whole-process wall time and CPU time (user + sys, os.wait4), and the child prints
a JSON line with its peak RSS (VmHWM), its own phase timings and results, so values are compared
across processes. Ratios are taken within one run, on CPU time (the machine is shared; wall
time and the load average before and after each case are recorded too):

0. the machine's floors, one thread: DGEMM and SGEMM GFLOP/s, exp and standard_normal ns per
   float64 element, memory read bandwidth.
1. all squared singular values of sqrt(ell) A at ell = 4096: Gram eigenvalues (ours) against
   numpy.linalg.svd(A) with vectors; target >= 5x, max abs difference <= 1e-10 x_+ (x_+ = 9.53).
2. top 10 non-Perron squared singular values of sqrt(ell) A_perp at ell = 8192: block Lanczos
   against numpy.linalg.svd(sqrt(ell) A_perp) with vectors (>= 20x) and against our dense Gram
   path (>= 3x); equal to 1e-8 relative.
3. building A at ell = d_qk = 4096: softmax time <= matmul time / 2, and peak memory
   <= 3 ell^2 8 bytes (Q, K and A); the peak is shown raw and above a baseline process that
   imports the same modules and warms the BLAS.
4. one paper B sticking draw at ell = 8192 (c = 1, betas 0.5, 1, 1.5, ceil(sqrt(ell)) values of
   A, top 5 of Y_lin): the library's sticking_draw against the old way (everything float64, A
   and Y_lin by float64 block Lanczos), each part (S by GEMM, softmax, A's Lanczos, building
   Y_lin, Y_lin's Lanczos) as CPU seconds and as a multiple of its floor; target <= 0.6x the old
   CPU, values within SCORE_FLOAT32_BOUND of the old ones.
5. one sticking draw at ell = 16384 to the end (time, peak memory against the model
   sticking_peak_mb); with --huge also ell = 32768 (about 10 GB, 20-30 min).
6. a paper A draw at ell = 250 (attnspec.papers.spectra): 10 processes x 1 draw against
   1 process x 10 draws; and the import cost of a sticking job's script.

Usage: python tools/benchmark.py [--small] [--huge] [--repeat 1] [--threads 1]
           [--json docs/benchmark.json] [--markdown docs/benchmark.md]
Writes nothing unless --json / --markdown is given; --markdown replaces only the block between
``<!-- benchmark:start -->`` and ``<!-- benchmark:end -->`` of a page that has one (the rest of
docs/benchmark.md is written by hand). Not a test: the naive SVD at ell = 8192 takes
minutes and the whole run about 20 min. --repeat N keeps each case's fastest (CPU) run.
"""

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

X_PLUS = 9.53  # right edge of nu_inf at beta = 1, c = 1 (papers.md section 2)
SIZES = {
    "full": {
        "all": 4096,
        "top": 8192,
        "build": 4096,
        "draw": 8192,
        "large_draw": 16384,
        "huge_draw": 32768,
        "batch_ell": 250,
        "batch_draws": 10,
    },
    "small": {
        "all": 512,
        "top": 1024,
        "build": 512,
        "draw": 2048,
        "large_draw": 2048,
        "huge_draw": 2048,
        "batch_ell": 100,
        "batch_draws": 4,
    },
}
TOP_K = 10
BETA = 1.0
DRAW_BETAS = (0.5, 1.0, 1.5)
DRAW_TOP_K = 6
OLD_LANCZOS_TOLERANCE = 1e-8  # the sticking draws' Lanczos tolerance before issue 11
# Imports of a sticking job's script (scripts/paperB_sticking_draw.py) and of what it pulls in.
SCRIPT_IMPORTS = ("attnspec.papers.progress", "attnspec.papers.b.sticking", "attnspec.workflow.io")
IMPORT_CASES = {
    "numpy": ("numpy",),
    "sticking job script": SCRIPT_IMPORTS,
    "attnspec.papers.b.sticking": ("attnspec.papers.b.sticking",),
    "attnspec.models.gaussian_equivalent": ("attnspec.models.gaussian_equivalent",),
    "attnspec.theory": ("attnspec.theory",),
    "scipy.optimize": ("scipy.optimize",),
    "attnspec.spectra.lanczos": ("attnspec.spectra.lanczos",),
}
MIB = 2.0**20
# Krylov vectors of the sticking draw's Lanczos solves at ell = 8192 (betas 0.5, 1, 1.5) before
# issue 21 (block 16): the per-step floors at that ell charge the Lanczos parts for this work,
# whatever block or method the library now uses (issue 21's definition of the floors).
REFERENCE_VECTORS = {
    8192: {"attention_lanczos": (912, 1008, 736), "linear_lanczos": (432, 480, 480)}
}


def _attention(n_tokens):
    """A = row-softmax(Q K^T / sqrt(ell)) at beta = 1, d_qk = ell, from a fixed seed."""
    from attnspec.models.sampling import attention_matrix, sample_queries_keys
    from attnspec.seeding import rng_for

    rng = rng_for({"benchmark": "attention", "n_tokens": n_tokens}, 0)
    Q, K = sample_queries_keys(rng, n_tokens, n_tokens)
    A = attention_matrix(Q, K, BETA)
    del Q, K
    return A


def _timed(function):
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


def _cpu_best(function, repeats):
    """The least CPU time (process_time) of ``repeats`` calls."""
    best = math.inf
    for _ in range(repeats):
        start = time.process_time()
        function()
        best = min(best, time.process_time() - start)
    return best


# --- cases: each returns a JSON-ready dict -------------------------------------------------


def case_floors(sizes):
    """The machine's floors on one thread: GEMM rates, exp, normal draws, read bandwidth."""
    n = 2048 if sizes is SIZES["small"] else 4096
    rng = np.random.default_rng(0)
    out = {}
    for name, dtype in (("dgemm_gflops", np.float64), ("sgemm_gflops", np.float32)):
        a = rng.standard_normal((n, n)).astype(dtype)
        b, c = a.copy(), np.empty_like(a)
        out[name] = 2 * n**3 / _cpu_best(lambda a=a, b=b, c=c: np.matmul(a, b, out=c), 3) / 1e9
    x = rng.standard_normal(1 << 23)
    y = np.empty_like(x)
    out["exp_ns"] = _cpu_best(lambda: np.exp(x, out=y), 5) / x.size * 1e9
    out["normal_ns"] = _cpu_best(lambda: rng.standard_normal(out=y), 5) / y.size * 1e9
    big = np.ones(1 << 27)  # 1 GiB
    out["read_gbs"] = big.nbytes / _cpu_best(big.sum, 3) / 1e9
    return out


def case_baseline(sizes):
    """Import what case_build imports and warm the BLAS (its buffers count towards RSS)."""
    import attnspec.models.sampling  # noqa: F401
    import attnspec.models.softmax  # noqa: F401

    warm = np.ones((1024, 1024))
    warm @ warm
    return {}


def case_build(sizes):
    """Q, K, then A in one buffer: the matmul, then the in-place scaled softmax (as in
    attention_matrix), timed separately."""
    from attnspec.models.sampling import sample_queries_keys
    from attnspec.models.softmax import row_softmax

    n = sizes["build"]
    (Q, K), sample_s = _timed(lambda: sample_queries_keys(np.random.default_rng(0), n, n))
    buffer, matmul_s = _timed(lambda: np.matmul(Q, K.T))
    _, softmax_s = _timed(lambda: row_softmax(buffer, scale=BETA / np.sqrt(n), out=buffer))
    return {"ell": n, "sample_s": sample_s, "matmul_s": matmul_s, "softmax_s": softmax_s}


def case_all_ours(sizes):
    from attnspec.spectra.dense import squared_singular_values

    n = sizes["all"]
    A, setup_s = _timed(lambda: _attention(n))
    values, spectral_s = _timed(lambda: n * squared_singular_values(A))
    return {"ell": n, "setup_s": setup_s, "spectral_s": spectral_s, "values": values.tolist()}


def case_all_naive(sizes):
    n = sizes["all"]
    A, setup_s = _timed(lambda: _attention(n))
    values, spectral_s = _timed(lambda: n * np.linalg.svd(A)[1] ** 2)
    return {"ell": n, "setup_s": setup_s, "spectral_s": spectral_s, "values": values.tolist()}


def case_top_lanczos(sizes):
    from attnspec.spectra.lanczos import top_nonperron_squared_singular_values

    n = sizes["top"]
    A, setup_s = _timed(lambda: _attention(n))
    values, spectral_s = _timed(lambda: top_nonperron_squared_singular_values(A, TOP_K))
    return {"ell": n, "setup_s": setup_s, "spectral_s": spectral_s, "values": values.tolist()}


def case_top_dense(sizes):
    from attnspec.spectra.dense import bulk_squared_singular_values

    n = sizes["top"]
    A, setup_s = _timed(lambda: _attention(n))
    values, spectral_s = _timed(lambda: bulk_squared_singular_values(A)[:TOP_K])
    return {"ell": n, "setup_s": setup_s, "spectral_s": spectral_s, "values": values.tolist()}


def case_top_naive(sizes):
    from attnspec.models.sampling import remove_perron

    n = sizes["top"]
    A, setup_s = _timed(lambda: _attention(n))

    def naive():
        bulk = remove_perron(A, out=A)
        bulk *= np.sqrt(n)
        return np.linalg.svd(bulk)[1][:TOP_K] ** 2

    values, spectral_s = _timed(naive)
    return {"ell": n, "setup_s": setup_s, "spectral_s": spectral_s, "values": values.tolist()}


def step_floors():
    """The floors a step's own floor needs, measured here and now (one thread, this process):
    square SGEMM GFLOP/s (2048), exp and standard_normal ns per float64 element (2^22), read
    GB/s (64 MiB, twice the last-level cache)."""
    square = np.ones((2048, 2048), np.float32)
    product = np.empty_like(square)
    x = np.random.default_rng(0).standard_normal(1 << 22)
    y = np.empty_like(x)
    rng = np.random.default_rng(1)
    return {
        "sgemm_gflops": 2
        * 2048**3
        / _cpu_best(lambda: np.matmul(square, square, out=product), 3)
        / 1e9,
        "exp_ns": _cpu_best(lambda: np.exp(x, out=y), 3) / x.size * 1e9,
        "normal_ns": _cpu_best(lambda: rng.standard_normal(out=y), 3) / y.size * 1e9,
        "read_gbs": (1 << 26) / _cpu_best(np.ones(1 << 23).sum, 3) / 1e9,
    }


class PartTimer:
    """CPU seconds per named part of a draw, and the Krylov vectors of each Lanczos call.

    With ``floors``, the floors (:func:`step_floors`) are measured right before and right after
    each part, in the same process; their mean is the part's floor rate (``step_floors``), and
    their CPU time is kept apart (``floor_seconds``)."""

    def __init__(self, floors=False):
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.vectors: dict[str, list[int]] = {}
        self.step_floors: dict[str, list[dict]] = {}
        self.floor_seconds = 0.0
        self._floors = floors
        self._part: list[str] = []

    def _measure(self):
        start = time.process_time()
        floors = step_floors()
        self.floor_seconds += time.process_time() - start
        return floors

    def wrap(self, part, function):
        def timed(*args, **kwargs):
            before = self._measure() if self._floors else None
            self._part.append(part)
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[part] = self.seconds.get(part, 0.0) + time.process_time() - start
                self.calls[part] = self.calls.get(part, 0) + 1
                self._part.pop()
                if before is not None:
                    after = self._measure()
                    self.step_floors.setdefault(part, []).append(
                        {key: (before[key] + after[key]) / 2 for key in before}
                    )

        return timed

    def count_vectors(self, block_lanczos):
        """Wrap attnspec.spectra.lanczos._block_lanczos: vectors m = rows passed to H."""

        def counted(normal_rows, *args, **kwargs):
            used = [0]

            def rows_counted(rows):
                used[0] += rows.shape[0]
                return normal_rows(rows)

            try:
                return block_lanczos(rows_counted, *args, **kwargs)
            finally:
                part = self._part[-1] if self._part else "other"
                self.vectors.setdefault(part, []).append(used[0])

        return counted


def _draw_job(n_tokens):
    from attnspec.papers.b.sticking import ceil_root

    return {"betas": DRAW_BETAS, "n_values": ceil_root(n_tokens, 2), "top_k": DRAW_TOP_K}


def _draw_summary(n_tokens, result, timer, total):
    return {
        "ell": n_tokens,
        "cpu_s": total - timer.floor_seconds,
        "parts_s": timer.seconds,
        "calls": timer.calls,
        "vectors": timer.vectors,
        "step_floors": timer.step_floors,
        "floor_cpu_s": timer.floor_seconds,
        "attention": np.asarray(result["attention"]).tolist(),
        "linear": np.asarray(result["linear"]).tolist(),
    }


def _new_draw(n_tokens):
    """The library's sticking_draw, its parts timed through the module's own names."""
    from attnspec.papers.b import sticking
    from attnspec.spectra import lanczos

    timer = PartTimer(floors=True)
    for name, part in (
        ("sample_scores", "scores"),
        ("perp_attention", "softmax"),
        ("top_squared_singular_values_from_perp", "attention_lanczos"),
        ("linear_model", "linear_build"),
        ("leading_squared_singular_values", "linear_lanczos"),
    ):
        setattr(sticking, name, timer.wrap(part, getattr(sticking, name)))
    lanczos._block_lanczos = timer.count_vectors(lanczos._block_lanczos)
    start = time.process_time()
    result = sticking.sticking_draw(n_tokens, 1.0, 0, **_draw_job(n_tokens))
    return _draw_summary(n_tokens, result, timer, time.process_time() - start)


def case_draw_new(sizes):
    return _new_draw(sizes["draw"])


def case_draw_large(sizes):
    return _new_draw(sizes["large_draw"])


def case_draw_huge(sizes):
    return _new_draw(sizes["huge_draw"])


def _old_orthonormalise(block, basis, recent, rounded=None):
    """The block Lanczos reorthogonalisation before issue 11: two whole classical Gram-Schmidt
    passes, each followed by a QR (BCGS2); the first pass's coefficients fill the projected
    matrix (``rounded``, the library's float32 basis copy, is unused: the old path is float64)."""
    coefficients = basis @ block
    block -= basis.T @ coefficients
    q, r = np.linalg.qr(block)
    q -= basis.T @ (basis @ q)
    q, r2 = np.linalg.qr(q)
    return q, r2 @ r, coefficients


def case_draw_old(sizes):
    """The old way (before issue 11): S, A and Y_lin in float64, A's leading values by float64
    block Lanczos on A itself, two whole Gram-Schmidt passes per block, tolerance 1e-8 (the same
    streams as sticking_draw; the numbers of the code before issue 11, bit for bit)."""
    from attnspec.models.blocked_scores import sample_scores
    from attnspec.models.gaussian_equivalent import linear_model
    from attnspec.models.softmax import row_softmax
    from attnspec.papers.b import sticking
    from attnspec.seeding import rng_for
    from attnspec.spectra import lanczos
    from attnspec.spectra.localisation import inverse_participation_ratio

    n = sizes["draw"]
    job = _draw_job(n)
    timer = PartTimer()
    lanczos._block_lanczos = timer.count_vectors(lanczos._block_lanczos)
    lanczos._orthonormalise = _old_orthonormalise
    scores_of = timer.wrap("scores", sample_scores)
    softmax = timer.wrap("softmax", row_softmax)
    attention_lanczos = timer.wrap("attention_lanczos", lanczos.top_squared_singular_values)
    build = timer.wrap("linear_build", linear_model)
    linear_lanczos = timer.wrap("linear_lanczos", lanczos.top_squared_singular_values)
    tol = OLD_LANCZOS_TOLERANCE
    start = time.process_time()
    params = sticking.draw_parameters(n, n)
    scores = scores_of(rng_for(params, 0, "keys"), rng_for(params, 0, "queries"), n, n)
    buffer = np.empty_like(scores)
    result = {"attention": [], "linear": []}
    for beta in job["betas"]:
        A = softmax(scores, scale=beta, out=buffer)
        sticking.spike_strength(A)
        values, left, right = attention_lanczos(A, job["n_values"], return_vectors=True, tol=tol)
        inverse_participation_ratio(left[:, 1 : job["top_k"]])
        inverse_participation_ratio(right[:, 1 : job["top_k"]])
        result["attention"].append(n * values)
        noise = rng_for(params, 0, f"noise/linear/beta={float(beta)!r}")
        Y = build(scores, beta, noise, out=buffer)
        result["linear"].append(linear_lanczos(Y, job["top_k"] - 1, tol=tol))
    return _draw_summary(n, result, timer, time.process_time() - start)


def case_spectrum(sizes, first=0, count=1):
    """Paper A draws first..first+count-1 at ell = d_qk = batch_ell, beta = 1, by the library's
    spectrum function (attnspec.papers.spectra.model_spectrum), in this one process."""
    from attnspec.papers.spectra import model_spectrum

    n = sizes["batch_ell"]
    for draw in range(first, first + count):
        model_spectrum(
            "attention", draw, n_tokens=n, d_qk=n, beta=BETA, sampler="gaussian", d_model=None
        )
    return {"ell": n, "draws": count}


CASES = {
    "floors": case_floors,
    "baseline": case_baseline,
    "build": case_build,
    "all_ours": case_all_ours,
    "all_naive": case_all_naive,
    "top_lanczos": case_top_lanczos,
    "top_dense": case_top_dense,
    "top_naive": case_top_naive,
    "draw_old": case_draw_old,
    "draw_new": case_draw_new,
    "draw_large": case_draw_large,
    "draw_huge": case_draw_huge,
}


# --- the parent: child processes, floors, summaries ---------------------------------------


def child_env(threads):
    env = dict(os.environ)
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[variable] = str(threads)
    return env


def run_process(command, threads):
    """Run a command: wall s, CPU s (user + sys), peak RSS bytes, stdout, load before/after."""
    load_before = os.getloadavg()[0]
    start = time.perf_counter()
    child = subprocess.Popen(command, env=child_env(threads), stdout=subprocess.PIPE, text=True)
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"{command} failed with status {status}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss": usage.ru_maxrss * 1024,
        "load_before": load_before,
        "load_after": os.getloadavg()[0],
        "output": output,
    }


def peak_rss_of_this_process() -> int:
    """VmHWM in bytes: the peak RSS of this program since exec (ru_maxrss would also count the
    parent's pages the child held between fork and exec)."""
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmHWM:")[1].split()[0]) * 1024


def run_case(name, threads, small, extra=()):
    """One case in a child process; ``rss`` is the child's own peak (VmHWM)."""
    command = [sys.executable, __file__, "--case", name, *extra] + (["--small"] if small else [])
    run = run_process(command, threads)
    run["child"] = json.loads(run.pop("output").strip().splitlines()[-1])
    run["rss"] = run["child"].pop("vm_hwm")
    run["cpu"] -= run["child"].get("floor_cpu_s", 0.0)  # the draws' in-process floor timings
    return run


def run_imports(threads, repeat):
    """Whole-process CPU of `python -c "import ..."` per entry (fastest of ``repeat``), and of
    a bare interpreter."""
    out = {}
    for label, modules in {"(bare interpreter)": (), **IMPORT_CASES}.items():
        code = "; ".join(f"import {module}" for module in modules) or "pass"
        runs = [run_process([sys.executable, "-c", code], threads) for _ in range(repeat)]
        best = min(runs, key=lambda run: run["cpu"])
        out[label] = {key: best[key] for key in ("wall", "cpu")}
    return out


def run_batching(threads, small):
    """Paper A draws: ``batch_draws`` processes of one draw against one process of all."""
    sizes = SIZES["small" if small else "full"]
    draws = sizes["batch_draws"]
    per_process = [run_case("spectrum", threads, small, ["--first", str(d)]) for d in range(draws)]
    batched = run_case("spectrum", threads, small, ["--count", str(draws)])
    total = {key: sum(run[key] for run in per_process) for key in ("wall", "cpu")}
    return {"ell": sizes["batch_ell"], "draws": draws, "per_process": total, "batched": batched}


def lanczos_floor(n, vectors, floors, single):
    """Least seconds for the products of block Lanczos with m vectors on an n x n operand:
    2 products per vector (H = M^T M), 2 n^2 flops each at the GEMM rate, or 2 m / 16 passes
    over the operand at the read bandwidth, whichever is larger."""
    rate = floors["sgemm_gflops" if single else "dgemm_gflops"] * 1e9
    compute = 4.0 * n * n * vectors / rate
    memory = (2 * vectors / 16) * n * n * (4 if single else 8) / (floors["read_gbs"] * 1e9)
    return max(compute, memory)


def draw_floors(child, floors, single):
    """Floor of each part of a sticking draw (seconds), from the vectors its Lanczos calls used."""
    n = child["ell"]
    betas = child["calls"].get("linear_build", 1)
    element = 4 if single else 8
    softmax_memory = n * n * (element + element) / (floors["read_gbs"] * 1e9)
    return {
        "scores": 2.0 * n**3 / (floors["sgemm_gflops" if single else "dgemm_gflops"] * 1e9)
        + 2 * n * n * floors["normal_ns"] * 1e-9,
        "softmax": betas * max(n * n * floors["exp_ns"] * 1e-9, softmax_memory),
        "attention_lanczos": sum(
            lanczos_floor(n, m, floors, single) for m in child["vectors"]["attention_lanczos"]
        ),
        "linear_build": betas * n * n * floors["normal_ns"] * 1e-9,
        "linear_lanczos": sum(
            lanczos_floor(n, m, floors, single) for m in child["vectors"]["linear_lanczos"]
        ),
    }


def step_rows(child):
    """Rows (part, CPU s, floor s, ratio, vectors) of a draw whose floors were measured before
    and after each step in its own process (:class:`PartTimer` with floors), and the whole
    draw; Lanczos floors from REFERENCE_VECTORS at that ell, else from the vectors used."""
    n, rows = child["ell"], []
    reference = REFERENCE_VECTORS.get(n, {})
    total_floor = 0.0
    for part, label in DRAW_PARTS.items():
        floors = child["step_floors"][part]
        if part in ("attention_lanczos", "linear_lanczos"):
            counts = reference.get(part, child["vectors"][part])
            floor = sum(
                4.0 * n * n * m / (f["sgemm_gflops"] * 1e9)
                for m, f in zip(counts, floors, strict=True)
            )
        elif part == "scores":
            floor = sum(
                2.0 * n**3 / (f["sgemm_gflops"] * 1e9) + 2 * n * n * f["normal_ns"] * 1e-9
                for f in floors
            )
        elif part == "softmax":  # the exp rate or the memory traffic (float32 in and out)
            floor = sum(
                max(n * n * f["exp_ns"] * 1e-9, n * n * 8 / (f["read_gbs"] * 1e9)) for f in floors
            )
        else:
            floor = sum(n * n * f["normal_ns"] * 1e-9 for f in floors)
        total_floor += floor
        seconds = child["parts_s"][part]
        rows.append(
            {
                "ell": n,
                "part": label,
                "cpu_s": seconds,
                "floor_s": floor,
                "ratio": seconds / floor,
                "vectors": child["vectors"].get(part),
            }
        )
    rows.append(
        {
            "ell": n,
            "part": "whole draw (CPU inside sticking_draw)",
            "cpu_s": child["cpu_s"],
            "floor_s": total_floor,
            "ratio": child["cpu_s"] / total_floor,
            "vectors": None,
        }
    )
    return rows


DRAW_PARTS = {
    "scores": "S = Q K^T by GEMM (with the draws of Q, K)",
    "softmax": "softmax (3 betas)",
    "attention_lanczos": "leading ceil(sqrt(ell)) values of A, block Lanczos (3 betas)",
    "linear_build": "building Y_lin (3 draws of W)",
    "linear_lanczos": "top 5 of Y_lin, block Lanczos (3 betas)",
}


def draw_rows(runs, floors):
    """Rows (part, old s, old x floor, new s, new x floor, old vectors, new vectors)."""
    old, new = runs["draw_old"]["child"], runs["draw_new"]["child"]
    old_floor, new_floor = draw_floors(old, floors, False), draw_floors(new, floors, True)
    rows = []
    for part, label in DRAW_PARTS.items():
        rows.append(
            {
                "part": label,
                "old_s": old["parts_s"][part],
                "old_floor_ratio": old["parts_s"][part] / old_floor[part],
                "new_s": new["parts_s"][part],
                "new_floor_ratio": new["parts_s"][part] / new_floor[part],
                "old_vectors": old["vectors"].get(part),
                "new_vectors": new["vectors"].get(part),
            }
        )
    rows.append(
        {
            "part": "whole draw (CPU inside sticking_draw)",
            "old_s": old["cpu_s"],
            "old_floor_ratio": old["cpu_s"] / sum(old_floor.values()),
            "new_s": new["cpu_s"],
            "new_floor_ratio": new["cpu_s"] / sum(new_floor.values()),
            "old_vectors": None,
            "new_vectors": None,
        }
    )
    return rows


def comparisons(runs, sizes, batching):
    """The comparisons (ratios within this run) as rows of (quantity, value, target)."""
    from attnspec.papers.b.sticking import SCORE_FLOAT32_BOUND

    def ratio(slow, fast, key):
        return runs[slow][key] / runs[fast][key]

    def child_ratio(slow, fast, key):
        return runs[slow]["child"][key] / runs[fast]["child"][key]

    ours, naive = (np.array(runs[n]["child"]["values"]) for n in ("all_ours", "all_naive"))
    lanczos, dense, svd = (
        np.array(runs[n]["child"]["values"]) for n in ("top_lanczos", "top_dense", "top_naive")
    )
    build = runs["build"]["child"]
    arrays = 3 * sizes["build"] ** 2 * 8
    net = runs["build"]["rss"] - runs["baseline"]["rss"] + 1024**2 * 8  # the warm-up array
    old, new = runs["draw_old"]["child"], runs["draw_new"]["child"]

    def worst(key):
        a, b = np.array(old[key]), np.array(new[key])
        return float(np.max(np.abs(b - a) / np.abs(a)))

    return [
        (
            f"1. all values, ell={sizes['all']}: svd+vectors / ours, whole-process CPU",
            ratio("all_naive", "all_ours", "cpu"),
            ">= 5",
        ),
        (
            "   same, spectral step only (wall)",
            child_ratio("all_naive", "all_ours", "spectral_s"),
            ">= 5",
        ),
        ("   max |ours - svd| / x_+", np.max(np.abs(ours - naive)) / X_PLUS, "<= 1e-10"),
        (
            f"2. top {TOP_K}, ell={sizes['top']}: svd+vectors / Lanczos, whole-process CPU",
            ratio("top_naive", "top_lanczos", "cpu"),
            ">= 20",
        ),
        (
            "   same, spectral step only (wall)",
            child_ratio("top_naive", "top_lanczos", "spectral_s"),
            ">= 20",
        ),
        (
            "   dense Gram / Lanczos, whole-process CPU",
            ratio("top_dense", "top_lanczos", "cpu"),
            ">= 3",
        ),
        (
            "   same, spectral step only (wall)",
            child_ratio("top_dense", "top_lanczos", "spectral_s"),
            ">= 3",
        ),
        ("   max relative |Lanczos - svd|", np.max(np.abs(lanczos - svd) / svd), "<= 1e-8"),
        ("   max relative |Lanczos - dense|", np.max(np.abs(lanczos - dense) / dense), "<= 1e-8"),
        (
            f"3. build A, ell=d_qk={sizes['build']}: softmax / matmul (wall)",
            build["softmax_s"] / build["matmul_s"],
            "<= 0.5",
        ),
        ("   peak RSS / (3 ell^2 8 bytes), raw", runs["build"]["rss"] / arrays, "<= 1"),
        ("   peak RSS above the baseline / (3 ell^2 8 bytes)", net / arrays, "<= 1"),
        (
            f"4. sticking draw, ell={sizes['draw']}: new / old, whole-process CPU",
            ratio("draw_new", "draw_old", "cpu"),
            "<= 0.6",
        ),
        ("   same, CPU inside the draw", new["cpu_s"] / old["cpu_s"], "<= 0.6"),
        (
            "   max relative |new - old|, ell s_k(A)^2",
            worst("attention"),
            f"<= {SCORE_FLOAT32_BOUND:g}",
        ),
        (
            "   max relative |new - old|, s_k(Y_lin)^2",
            worst("linear"),
            f"<= {SCORE_FLOAT32_BOUND:g}",
        ),
        (
            "   peak RSS new / (ell^2 8 bytes); old",
            runs["draw_new"]["rss"] / (8 * sizes["draw"] ** 2),
            "<= 2.2",
        ),
        (
            "   peak RSS old / (ell^2 8 bytes)",
            runs["draw_old"]["rss"] / (8 * sizes["draw"] ** 2),
            "",
        ),
        (
            f"6. paper A draws, ell={batching['ell']}: {batching['draws']} processes x 1 / "
            f"1 x {batching['draws']}, CPU",
            batching["per_process"]["cpu"] / batching["batched"]["cpu"],
            "",
        ),
    ]


def large_draw_rows(runs):
    """Rows (ell, CPU s, wall s, peak MiB, model peak MiB) of the draws run to the end."""
    from attnspec.papers.b.sticking import sticking_peak_mb

    rows = []
    for name in ("draw_new", "draw_large", "draw_huge"):
        if name not in runs or (rows and runs[name]["child"]["ell"] == rows[-1]["ell"]):
            continue
        run, ell = runs[name], runs[name]["child"]["ell"]
        rows.append(
            {
                "ell": ell,
                "cpu_s": run["cpu"],
                "wall_s": run["wall"],
                "peak_mib": run["rss"] / MIB,
                "model_mib": sticking_peak_mb(ell, 1.0) * 1e6 / MIB,
                "peak_over_ell2_8B": run["rss"] / (8 * ell**2),
                "vectors": run["child"]["vectors"],
            }
        )
    return rows


def draw_step_rows(runs):
    """:func:`step_rows` of the new-path draws run (each ell once)."""
    rows, seen = [], set()
    for name in ("draw_new", "draw_large", "draw_huge"):
        if name in runs and runs[name]["child"]["ell"] not in seen:
            seen.add(runs[name]["child"]["ell"])
            rows += step_rows(runs[name]["child"])
    return rows


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]


def _vectors(counts):
    return "-" if not counts else ", ".join(str(m) for m in counts)


def markdown(summary) -> str:
    """The benchmark's results as Markdown (the generated block of docs/benchmark.md)."""
    floors = summary["floors"]
    lines = [
        f"Generated by `tools/benchmark.py` on {summary['date']} ({summary['machine']}), "
        f"{summary['threads']} BLAS thread(s) per process, fastest of {summary['repeat']} run(s) "
        f"per case. Load average (1 min) {summary['load'][0]:.1f} at the start, "
        f"{summary['load'][1]:.1f} at the end (the machine is shared; ratios use CPU time, "
        "user + sys of each whole process, unless marked wall).",
        "",
        "## Floors of this machine (one thread)",
        "",
    ]
    lines += _table(
        ["DGEMM GFLOP/s", "SGEMM GFLOP/s", "exp ns / float64", "normal draw ns", "read GB/s"],
        [
            [
                f"{floors['dgemm_gflops']:.1f}",
                f"{floors['sgemm_gflops']:.1f}",
                f"{floors['exp_ns']:.2f}",
                f"{floors['normal_ns']:.2f}",
                f"{floors['read_gbs']:.1f}",
            ]
        ],
    )
    ell = summary["sizes"]["draw"]
    lines += [
        "",
        f"## One paper B sticking draw, ell = {ell}, c = 1, betas 0.5, 1, 1.5",
        "",
        "Old: S, A and Y_lin in float64, A's values by float64 block Lanczos on A. New: "
        "`attnspec.papers.b.sticking.sticking_draw` (S in float32, softmax in float64, "
        "float32 Lanczos products). Floor of a part: S at the GEMM rate of its precision; "
        "softmax at the exp rate (or the memory traffic); a Lanczos solve at the GEMM rate "
        "for the 2 products per Krylov vector it used (or one read of the operand per block "
        "of 16); building Y_lin at the normal-draw rate.",
        "",
    ]
    lines += _table(
        ["part", "old CPU s", "old / floor", "new CPU s", "new / floor", "Krylov vectors old; new"],
        [
            [
                row["part"],
                f"{row['old_s']:.2f}",
                f"{row['old_floor_ratio']:.2f}",
                f"{row['new_s']:.2f}",
                f"{row['new_floor_ratio']:.2f}",
                f"{_vectors(row['old_vectors'])}; {_vectors(row['new_vectors'])}"
                if row["old_vectors"]
                else "",
            ]
            for row in summary["draw_parts"]
        ],
    )
    lines += ["", "## Comparisons (ratios within this run)", ""]
    lines += _table(
        ["quantity", "value", "target"],
        [[q, f"{v:.4g}", t] for q, v, t in summary["comparisons"]],
    )
    lines += ["", "## Sticking draws run to the end (new path, c = 1, 3 betas)", ""]
    lines += _table(
        ["ell", "CPU s", "wall s", "peak MiB", "model peak MiB", "peak / (ell^2 8 B)"],
        [
            [
                row["ell"],
                f"{row['cpu_s']:.1f}",
                f"{row['wall_s']:.1f}",
                f"{row['peak_mib']:.0f}",
                f"{row['model_mib']:.0f}",
                f"{row['peak_over_ell2_8B']:.2f}",
            ]
            for row in summary["large_draws"]
        ],
    )
    lines += [
        "",
        "## Sticking draws per step, floors measured in the draw's own process",
        "",
        "Each step's floor from the square-SGEMM, exp and normal-draw rates and the read "
        "bandwidth measured right before and after it in the same process (their mean), as "
        "defined above; the Lanczos floors count "
        f"2 products per Krylov vector for the vectors used before issue 21 at ell = "
        f"{', '.join(str(n) for n in REFERENCE_VECTORS)} (block 16), else for the vectors used.",
        "",
    ]
    lines += _table(
        ["ell", "part", "CPU s", "floor s", "CPU / floor", "Krylov vectors used"],
        [
            [
                row["ell"],
                row["part"],
                f"{row['cpu_s']:.2f}",
                f"{row['floor_s']:.2f}",
                f"{row['ratio']:.2f}",
                _vectors(row["vectors"]) if row["vectors"] else "",
            ]
            for row in summary["draw_steps"]
        ],
    )
    bare = summary["imports"]["(bare interpreter)"]["cpu"]
    lines += ["", "## Imports (a fresh process each)", ""]
    lines += _table(
        ["import", "CPU s", "CPU s above a bare interpreter", "wall s"],
        [
            [label, f"{run['cpu']:.3f}", f"{run['cpu'] - bare:.3f}", f"{run['wall']:.3f}"]
            for label, run in summary["imports"].items()
        ],
    )
    batching = summary["batching"]
    lines += [
        "",
        f"## Paper A draws at ell = {batching['ell']}: one process per draw against one batch",
        "",
    ]
    lines += _table(
        ["", "CPU s", "wall s"],
        [
            [
                f"{batching['draws']} processes x 1 draw",
                f"{batching['per_process']['cpu']:.2f}",
                f"{batching['per_process']['wall']:.2f}",
            ],
            [
                f"1 process x {batching['draws']} draws",
                f"{batching['batched']['cpu']:.2f}",
                f"{batching['batched']['wall']:.2f}",
            ],
        ],
    )
    lines += ["", "## Every case", ""]
    lines += _table(
        ["case", "wall s", "CPU s", "peak MiB", "load before", "load after"],
        [
            [
                name,
                f"{run['wall']:.2f}",
                f"{run['cpu']:.2f}",
                f"{run['rss'] / MIB:.0f}",
                f"{run['load_before']:.1f}",
                f"{run['load_after']:.1f}",
            ]
            for name, run in summary["runs"].items()
        ],
    )
    return "\n".join(lines) + "\n"


def without_spectra(summary: dict) -> dict:
    """The summary without the cases' full value lists (compared above, not worth storing)."""
    runs = {
        name: run | {"child": {k: v for k, v in run["child"].items() if k != "values"}}
        for name, run in summary["runs"].items()
    }
    return summary | {"runs": runs}


def machine() -> str:
    """CPU model and core count."""
    model = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{model}, {os.cpu_count()} cores"


PAGE_TITLE = "# Benchmark: speed and memory against the naive way"
BLOCK_START, BLOCK_END = "<!-- benchmark:start -->\n", "<!-- benchmark:end -->"


def page_with_results(path: Path, text: str) -> str:
    """The page at ``path`` with its generated block replaced by ``text`` (the results); a new
    page, or one without the block, is the title and the block alone."""
    page = path.read_text(encoding="utf-8") if path.is_file() else ""
    if BLOCK_START not in page or BLOCK_END not in page:
        return f"{PAGE_TITLE}\n\n{BLOCK_START}{text}{BLOCK_END}\n"
    before, rest = page.split(BLOCK_START, 1)
    return before + BLOCK_START + text + BLOCK_END + rest.split(BLOCK_END, 1)[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=sorted(CASES) + ["spectrum"], help="internal")
    parser.add_argument("--first", type=int, default=0, help="internal (case spectrum)")
    parser.add_argument("--count", type=int, default=1, help="internal (case spectrum)")
    parser.add_argument("--threads", type=int, default=1, help="BLAS threads per case")
    parser.add_argument("--small", action="store_true", help="small sizes, a smoke run")
    parser.add_argument("--huge", action="store_true", help="also one draw at ell = 32768")
    parser.add_argument("--repeat", type=int, default=1, help="runs per case; the fastest counts")
    parser.add_argument("--json", type=Path, help="write the results as JSON here")
    parser.add_argument("--markdown", type=Path, help="write the results as Markdown here")
    args = parser.parse_args()
    sizes = SIZES["small" if args.small else "full"]
    if args.case == "spectrum":
        result = case_spectrum(sizes, args.first, args.count)
        print(json.dumps(result | {"vm_hwm": peak_rss_of_this_process()}))
        return
    if args.case:
        print(json.dumps(CASES[args.case](sizes) | {"vm_hwm": peak_rss_of_this_process()}))
        return
    load_start = os.getloadavg()[0]
    names = [name for name in CASES if args.huge or name != "draw_huge"]
    runs = {}
    print(f"{'case':<12} {'wall s':>9} {'CPU s':>9} {'peak MiB':>9} {'load':>5}")
    for _ in range(args.repeat):
        for name in names:
            run = run_case(name, args.threads, args.small)
            if name not in runs or run["cpu"] < runs[name]["cpu"]:
                runs[name] = run
            print(
                f"{name:<12} {run['wall']:9.2f} {run['cpu']:9.2f} {run['rss'] / MIB:9.1f} "
                f"{run['load_before']:5.1f}",
                flush=True,
            )
    imports = run_imports(args.threads, max(3, args.repeat))
    batching = run_batching(args.threads, args.small)
    floors = runs["floors"]["child"]
    summary = {
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "machine": machine(),
        "threads": args.threads,
        "repeat": args.repeat,
        "sizes": sizes,
        "load": [load_start, os.getloadavg()[0]],
        "uptime": subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip(),
        "floors": floors,
        "draw_parts": draw_rows(runs, floors),
        "comparisons": comparisons(runs, sizes, batching),
        "large_draws": large_draw_rows(runs),
        "draw_steps": draw_step_rows(runs),
        "imports": imports,
        "batching": batching,
        "runs": runs,
    }
    text = markdown(summary)
    print()
    print(text)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(without_spectra(summary), indent=1) + "\n")
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(page_with_results(args.markdown, text))


if __name__ == "__main__":
    main()
