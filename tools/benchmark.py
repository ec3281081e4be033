"""Benchmark the sampling and spectra paths against the naive way, each case in its own process.

Every case runs as ``python tools/benchmark.py --case NAME`` in a fresh child process; the parent
measures its whole-process wall time and peak RSS (os.wait4), and the child prints a JSON line
with its own phase timings and results, so values are compared across processes. Ratios are
taken within one run:

1. all squared singular values of sqrt(ell) A at ell = 4096: Gram eigenvalues (ours) against
   numpy.linalg.svd(A) with vectors; target >= 5x, max abs difference <= 1e-10 x_+ (x_+ = 9.53).
2. top 10 non-Perron squared singular values of sqrt(ell) A_perp at ell = 8192: block Lanczos
   against numpy.linalg.svd(sqrt(ell) A_perp) with vectors (>= 20x) and against our dense Gram
   path (>= 3x); equal to 1e-8 relative.
3. building A at ell = d_qk = 4096: softmax time <= matmul time / 2, and peak memory
   <= 3 ell^2 8 bytes (Q, K and A); the peak is shown raw and above a baseline process that
   imports the same modules and warms the BLAS.

Usage: python tools/benchmark.py [--threads 2] [--repeat 1] [--small] [--out results/bench.json]
Writes nothing unless --out is given. Not a test: the naive SVD at ell = 8192 takes minutes.
On a shared machine, --repeat N keeps each case's fastest run (the load is printed per run).
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

X_PLUS = 9.53  # right edge of nu_inf at beta = 1, c = 1 (papers.md section 2)
SIZES = {
    "full": {"all": 4096, "top": 8192, "build": 4096},
    "small": {"all": 512, "top": 1024, "build": 512},
}
TOP_K = 10
BETA = 1.0


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


CASES = {
    "baseline": case_baseline,
    "build": case_build,
    "all_ours": case_all_ours,
    "all_naive": case_all_naive,
    "top_lanczos": case_top_lanczos,
    "top_dense": case_top_dense,
    "top_naive": case_top_naive,
}


def run_child(name, threads, small):
    """Run one case in a child process: (wall seconds, peak RSS bytes, the child's JSON)."""
    env = dict(os.environ)
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[variable] = str(threads)
    command = [sys.executable, __file__, "--case", name] + (["--small"] if small else [])
    start = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise RuntimeError(f"case {name} failed with status {status}")
    return wall, usage.ru_maxrss * 1024, json.loads(output.strip().splitlines()[-1])


def summarise(runs, sizes):
    """The three comparisons (ratios within this run) as rows of (quantity, value, target)."""

    def ratio(slow, fast, key):
        return runs[slow][key] / runs[fast][key]

    for run in runs.values():
        run["spectral_s"] = run["child"].get("spectral_s")
    ours, naive = (np.array(runs[n]["child"]["values"]) for n in ("all_ours", "all_naive"))
    lanczos, dense, svd = (
        np.array(runs[n]["child"]["values"]) for n in ("top_lanczos", "top_dense", "top_naive")
    )
    build = runs["build"]["child"]
    mib = 2.0**20
    arrays = 3 * sizes["build"] ** 2 * 8
    net = runs["build"]["rss"] - runs["baseline"]["rss"] + 1024**2 * 8  # the warm-up array
    return [
        (
            f"1. all values, ell={sizes['all']}: svd+vectors / ours, whole process",
            ratio("all_naive", "all_ours", "wall"),
            ">= 5",
        ),
        ("   same, spectral step only", ratio("all_naive", "all_ours", "spectral_s"), ">= 5"),
        ("   max |ours - svd| / x_+", np.max(np.abs(ours - naive)) / X_PLUS, "<= 1e-10"),
        (
            f"2. top {TOP_K}, ell={sizes['top']}: svd+vectors / Lanczos, whole process",
            ratio("top_naive", "top_lanczos", "wall"),
            ">= 20",
        ),
        ("   same, spectral step only", ratio("top_naive", "top_lanczos", "spectral_s"), ">= 20"),
        (
            "   dense Gram / Lanczos, whole process",
            ratio("top_dense", "top_lanczos", "wall"),
            ">= 3",
        ),
        ("   same, spectral step only", ratio("top_dense", "top_lanczos", "spectral_s"), ">= 3"),
        ("   max relative |Lanczos - svd|", np.max(np.abs(lanczos - svd) / svd), "<= 1e-8"),
        ("   max relative |Lanczos - dense|", np.max(np.abs(lanczos - dense) / dense), "<= 1e-8"),
        (
            f"3. build A, ell=d_qk={sizes['build']}: softmax / matmul",
            build["softmax_s"] / build["matmul_s"],
            "<= 0.5",
        ),
        ("   peak RSS / (3 ell^2 8 bytes), raw", runs["build"]["rss"] / arrays, "<= 1"),
        ("   peak RSS above the baseline / (3 ell^2 8 bytes)", net / arrays, "<= 1"),
        ("   (3 ell^2 8 bytes, MiB)", arrays / mib, ""),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=sorted(CASES), help="run one case here (internal)")
    parser.add_argument("--threads", type=int, default=2, help="BLAS threads per case")
    parser.add_argument("--small", action="store_true", help="small sizes, a smoke run")
    parser.add_argument("--repeat", type=int, default=1, help="runs per case; the fastest counts")
    parser.add_argument("--out", type=Path, help="also write the results as JSON here")
    args = parser.parse_args()
    sizes = SIZES["small" if args.small else "full"]
    if args.case:
        print(json.dumps(CASES[args.case](sizes)))
        return
    runs = {}
    print(f"{'case':<12} {'wall s':>9} {'step s':>9} {'setup s':>9} {'peak MiB':>9} {'load':>5}")
    for _ in range(args.repeat):
        for name in CASES:
            load = os.getloadavg()[0]
            wall, rss, child = run_child(name, args.threads, args.small)
            if name not in runs or wall < runs[name]["wall"]:
                runs[name] = {"wall": wall, "rss": rss, "child": child, "load": load}
            step = child.get("spectral_s", child.get("softmax_s", float("nan")))
            setup = child.get("setup_s", child.get("matmul_s", float("nan")))
            print(
                f"{name:<12} {wall:9.2f} {step:9.3f} {setup:9.3f} {rss / 2**20:9.1f} {load:5.1f}",
                flush=True,
            )
    print("(build: 'step' is the softmax, 'setup' the matmul; load: 1-minute load average")
    print(f" before the case; comparisons use each case's fastest of {args.repeat} run(s))")
    rows = summarise(runs, sizes)
    print()
    for quantity, value, target in rows:
        print(f"{quantity:<62} {value:12.4g}  {target}")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        summary = {"threads": args.threads, "repeat": args.repeat, "sizes": sizes}
        summary |= {"runs": runs, "comparisons": rows}
        args.out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
