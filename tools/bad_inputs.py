"""Bad inputs a new user might give, and what attnspec answers: the cases of
tests/product/test_bad_inputs.py and the table docs/bad-inputs.md.

Config, command-line and working-folder cases run ``snakemake -n`` in a copy of the repository
(a working-folder case first places a file, folder or symlink there, removed afterwards);
library cases call the function; CLI cases run ``attnspec``. Every case must stop before any job
with a non-zero status and one message that names the key or argument and what is allowed,
without a traceback, and leave results/ and figures/ untouched; cases that Snakemake itself
answers while it reads ``--configfile`` (before the workflow's code runs) are marked
``by="Snakemake"``: for them only the status, the untouched files and the content of Snakemake's
message are checked. A library case marked ``computes`` is an input the library once refused
with a confusing error and now takes: its call returns whether the value is the right one.

    python tools/bad_inputs.py            # print the table
    python tools/bad_inputs.py --write    # write docs/bad-inputs.md
"""

import copy
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TABLE = ROOT / "docs" / "bad-inputs.md"


@dataclass(frozen=True)
class Case:
    """One bad input: where it is given, what it is, and a fragment the answer must contain."""

    where: str
    input: str
    expect: str
    config: Callable[[dict], dict | str] | None = None
    args: tuple[str, ...] = ()
    call: Callable[[], object] | None = None
    cli: tuple[str, ...] = field(default=())
    default_preset: str | None = None  # text put in config/config.yaml, run without --configfile
    by: str = "attnspec"  # who answers: attnspec, or Snakemake itself before the workflow starts
    place: Callable[[Path], list[Path]] | None = None  # makes paths in the copy, removed after
    stdout: str | None = None  # a CLI case's standard output (e.g. /dev/full), else captured
    computes: bool = False  # the right answer is a value: call returns whether it is right


def _set(path: str, value):
    """A config change: ``path`` (dotted) set to ``value`` in a copy of the preset."""

    def change(config: dict) -> dict:
        config = copy.deepcopy(config)
        *parents, key = path.split(".")
        node = config
        for part in parents:
            node = node[part]
        node[key] = value
        return config

    return change


def _drop(path: str):
    def change(config: dict) -> dict:
        config = copy.deepcopy(config)
        *parents, key = path.split(".")
        node = config
        for part in parents:
            node = node[part]
        del node[key]
        return config

    return change


def _text(text: str):
    return lambda config: text


def _regular_file(relative: str):
    """A working-folder change: an empty file at ``relative`` (replacing a file there)."""

    def place(workdir: Path) -> list[Path]:
        path = workdir / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)
        path.write_text("")
        return [path]

    return place


def _folder(relative: str):
    """A working-folder change: an empty folder at ``relative`` (replacing a file there)."""

    def place(workdir: Path) -> list[Path]:
        path = workdir / relative
        path.unlink(missing_ok=True)
        path.mkdir(parents=True)
        return [path]

    return place


def _symlinks(*links: tuple[str, str]):
    """A working-folder change: symlinks (name, target), targets as written (may not exist)."""

    def place(workdir: Path) -> list[Path]:
        made = []
        for name, target in links:
            (workdir / name).symlink_to(target)
            made.append(workdir / name)
        return made

    return place


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _bomb(levels: int = 9) -> str:
    """YAML of ``levels`` + 1 anchored lists, each ten aliases of the one before: about
    10^(levels + 1) values once expanded, in a few hundred characters."""
    lists = ["&a0 [" + ", ".join(["1.0"] * 10) + "]"]
    lists += [f"&a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, levels + 1)]
    return "[" + ", ".join(lists) + "]"


def _square(n=6, seed=0):
    return np.random.default_rng(seed).standard_normal((n, n))


def _theory_cases() -> list[Case]:
    from attnspec.theory import (
        NuInfinity,
        bulk_density,
        bulk_edge,
        finite_deformed_mp_edge,
        mp_edge,
    )

    beta_range = "beta (inverse temperature) must be"
    return [
        Case("library", "bulk_edge(27)", beta_range, call=lambda: bulk_edge(27.0)),
        Case("library", "bulk_edge(1e-300)", beta_range, call=lambda: bulk_edge(1e-300)),
        Case(
            "library",
            "bulk_edge(1, ratio=1e300)",
            "ratio c = ell / d_qk must be in",
            call=lambda: bulk_edge(1.0, 1e300),
        ),
        Case(
            "library",
            "bulk_edge('abc')",
            "must be a real number, got 'abc'",
            call=lambda: bulk_edge("abc"),
        ),
        Case("library", "mp_edge(27)", beta_range, call=lambda: mp_edge(27.0)),
        Case(
            "library",
            "bulk_density(nan)",
            "x must be real numbers, not NaN",
            call=lambda: bulk_density(np.nan, 1.0),
        ),
        Case("library", "NuInfinity(beta=-1)", beta_range, call=lambda: NuInfinity(-1.0)),
        Case(
            "library",
            "NuInfinity(1, ratio=0)",
            "ratio c = ell / d_qk must be in",
            call=lambda: NuInfinity(1.0, 0.0),
        ),
        Case(
            "library",
            "NuInfinity(1).quantile(1.5)",
            "quantile levels q must lie in [0, 1]",
            call=lambda: NuInfinity(1.0).quantile(1.5),
        ),
        Case(
            "library",
            "finite_deformed_mp_edge([])",
            "eigenvalues must be a non-empty array",
            call=lambda: finite_deformed_mp_edge(np.array([])),
        ),
        Case(
            "library",
            "NuInfinity(True) (True read as beta = 1)",
            "beta (inverse temperature) must be a real number, got True",
            call=lambda: NuInfinity(True),
        ),
    ]


CLI_CASES = [
    Case(
        "CLI",
        "attnspec edge --beta inf",
        "argument --beta: beta (inverse temperature)",
        cli=("edge", "--beta", "inf"),
    ),
    Case(
        "CLI",
        "attnspec edge --beta 26.7",
        "argument --beta: beta (inverse temperature)",
        cli=("edge", "--beta", "26.7"),
    ),
    Case(
        "CLI",
        "attnspec edge --beta 1e-300",
        "argument --beta: beta (inverse temperature)",
        cli=("edge", "--beta", "1e-300"),
    ),
    Case(
        "CLI",
        "attnspec edge --beta abc",
        "must be a real number, got 'abc'",
        cli=("edge", "--beta", "abc"),
    ),
    Case(
        "CLI",
        "attnspec edge --beta 1 --ratio 0",
        "argument --ratio: ratio c",
        cli=("edge", "--beta", "1", "--ratio", "0"),
    ),
    Case(
        "CLI",
        "attnspec edge --beta 1 --beta 2",
        "--beta given twice; give it once",
        cli=("edge", "--beta", "1", "--beta", "2"),
    ),
    Case(
        "CLI",
        "attnspec edge --beta 1_0 (Python reads 10)",
        "write the number without '_'",
        cli=("edge", "--beta", "1_0"),
    ),
    Case(
        "CLI",
        "attnspec edge (no --beta)",
        "the following arguments are required: --beta",
        cli=("edge",),
    ),
    Case(
        "CLI",
        "attnspec edge --beta 1 > /dev/full (a full disk; was a 9-line traceback)",
        "attnspec edge: error: cannot write the result to standard output (No space left on",
        cli=("edge", "--beta", "1"),
        stdout="/dev/full",
    ),
]


def _library_cases() -> list[Case]:
    from attnspec.models.canonical import canonical_scores
    from attnspec.models.gaussian_equivalent import (
        conditional_covariance,
        entrywise_model,
        linear_model,
    )
    from attnspec.models.sampling import attention_matrix, remove_perron, sample_queries_keys
    from attnspec.spectra.dense import (
        bulk_squared_singular_values,
        squared_singular_values,
        top_squared_singular_values_dense,
    )

    rng = np.random.default_rng(0)
    keys = rng.standard_normal((6, 4))
    counts = np.arange(24).reshape(6, 4) % 5  # integer queries and keys
    kappa_nan = dict(spikes=1, kappa=float("nan"), placement="spread", profile="zeros")
    return [
        Case(
            "library",
            "conditional_covariance(K, beta=50)",
            "supported: beta^2 max_ij G_ij",
            call=lambda: conditional_covariance(keys, 50.0),
        ),
        Case(
            "library",
            "conditional_covariance(K, beta=50, linearised=True)",
            "beta (inverse temperature) must be 0 or in [1e-150, 26.6], got 50.0",
            call=lambda: conditional_covariance(keys, 50.0, linearised=True),
        ),
        Case(
            "library",
            "linear_model(S, beta=50)",
            "supported: beta^2 < 709",
            call=lambda: linear_model(_square(), 50.0, np.random.default_rng(1)),
        ),
        Case(
            "library",
            "entrywise_model(S, beta=inf)",
            "beta must be a finite number > 0",
            call=lambda: entrywise_model(_square(), float("inf")),
        ),
        Case(
            "library",
            "conditional_covariance(K with 0 rows, beta=1)",
            "K must be a 2-D array",
            call=lambda: conditional_covariance(np.zeros((0, 4)), 1.0),
        ),
        Case(
            "library",
            "bulk_squared_singular_values(A, n_removed=-1)",
            "n_removed must be an integer in [0, 5]",
            call=lambda: bulk_squared_singular_values(_square(), n_removed=-1),
        ),
        Case(
            "library",
            "bulk_squared_singular_values(A, n_removed=ell)",
            "n_removed must be an integer in [0, 5]",
            call=lambda: bulk_squared_singular_values(_square(), n_removed=6),
        ),
        Case(
            "library",
            "bulk_squared_singular_values(6 x 5 matrix)",
            "A must be square",
            call=lambda: bulk_squared_singular_values(np.ones((6, 5))),
        ),
        Case(
            "library",
            "squared_singular_values(1-D array)",
            "M must be a 2-D array",
            call=lambda: squared_singular_values(np.ones(5)),
        ),
        Case(
            "library",
            "squared_singular_values(matrix with NaN)",
            "M must hold finite real numbers",
            call=lambda: squared_singular_values(np.full((3, 3), np.nan)),
        ),
        Case(
            "library",
            "top_squared_singular_values_dense(M, k=0)",
            "k must be an integer in [1, 6]",
            call=lambda: top_squared_singular_values_dense(_square(), 0),
        ),
        Case(
            "library",
            "attention_matrix(Q, K, 1) with int Q and K (was refused as 'scores')",
            "computes A in float64, as from Q and K converted to float64",
            call=lambda: np.array_equal(
                attention_matrix(counts, counts, 1.0), attention_matrix(counts * 1.0, counts, 1.0)
            ),
            computes=True,
        ),
        Case(
            "library",
            "attention_matrix(Q, K, 1) with float32 Q and K (was refused as 'out')",
            "computes A in float64, as from Q and K converted to float64",
            call=lambda: np.array_equal(
                attention_matrix(keys.astype(np.float32), keys.astype(np.float32), 1.0),
                attention_matrix(*[keys.astype(np.float32).astype(np.float64)] * 2, 1.0),
            ),
            computes=True,
        ),
        Case(
            "library",
            "bulk_squared_singular_values(int matrix) (was numpy's UFuncTypeError)",
            "computes the values in float64, as from the matrix converted to float64",
            call=lambda: np.array_equal(
                bulk_squared_singular_values(counts @ counts.T),
                bulk_squared_singular_values(counts @ counts.T * 1.0),
            ),
            computes=True,
        ),
        Case(
            "library",
            "remove_perron(0 x 0 matrix) (was ZeroDivisionError)",
            "A must be a square 2-D array with at least 1 row, got shape (0, 0)",
            call=lambda: remove_perron(np.zeros((0, 0))),
        ),
        Case(
            "library",
            "attention_matrix(Q, K, 1e308) (scores overflow)",
            "beta must be a finite number in (0, ",
            call=lambda: attention_matrix(keys, keys, 1e308),
        ),
        Case(
            "library",
            "sample_queries_keys(rng, 10**6, 10**6) (beyond memory; was numpy's MemoryError)",
            "n_tokens = 1000000, d_qk = 1000000: Q, K would need 1.6e+04 GB of memory",
            call=lambda: sample_queries_keys(rng, 10**6, 10**6),
        ),
        Case(
            "library",
            "canonical_scores(8, ..., kappa=nan) (gave NaN spikes)",
            "kappa must be a finite number >= 0, got nan",
            call=lambda: canonical_scores(8, **kappa_nan, bulk_scale=1.0, rng=rng),
        ),
    ]


CONFIG_CASES = [
    Case(
        "config file",
        "a preset without paperB",
        "config key paperB: missing",
        config=_drop("paperB"),
    ),
    Case(
        "config file",
        "a preset without paperA.stepwise.n_tokens",
        "config key paperA.stepwise.n_tokens: missing",
        config=_drop("paperA.stepwise.n_tokens"),
    ),
    Case(
        "config file",
        "a preset without replicate",
        "config key replicate: missing",
        config=_drop("replicate"),
    ),
    Case(
        "config file",
        "paperA.stepwise.beta: .nan",
        "paperA.stepwise.beta: got nan",
        config=_set("paperA.stepwise.beta", float("nan")),
    ),
    Case(
        "config file",
        "paperA.stepwise.beta: .inf",
        "paperA.stepwise.beta: got inf",
        config=_set("paperA.stepwise.beta", float("inf")),
    ),
    Case(
        "config file",
        "paperB.sticking.betas: [.nan]",
        "paperB.sticking.betas[0]: got nan",
        config=_set("paperB.sticking.betas", [float("nan")]),
    ),
    Case(
        "config file",
        "paperB.conditional.ratio: .nan",
        "paperB.conditional.ratio: got nan",
        config=_set("paperB.conditional.ratio", float("nan")),
    ),
    Case(
        "config file",
        "paperA.stepwise.n_tokens: 150.0",
        "(write 150)",
        config=_set("paperA.stepwise.n_tokens", 150.0),
    ),
    Case(
        "config file",
        "paperA.stepwise.draws: 2.0",
        "paperA.stepwise.draws: got 2.0",
        config=_set("paperA.stepwise.draws", 2.0),
    ),
    Case(
        "config file",
        "paperA.stepwise.draws: true",
        "paperA.stepwise.draws: got True",
        config=_set("paperA.stepwise.draws", True),
    ),
    Case(
        "config file",
        "paperB.sticking.betas: [1.0, 1.0]",
        "duplicate value(s) ['1.0']",
        config=_set("paperB.sticking.betas", [1.0, 1.0]),
    ),
    Case(
        "config file",
        "paperA.linearisation.n_tokens: [100, 100, 200]",
        "paperA.linearisation.n_tokens: duplicate value(s)",
        config=_set("paperA.linearisation.n_tokens", [100, 100, 200]),
    ),
    Case(
        "config file",
        "paperB.sticking.betas: []",
        "paperB.sticking.betas: got 0 value(s)",
        config=_set("paperB.sticking.betas", []),
    ),
    Case(
        "config file",
        "paperB.sticking.betas: 1.0 (not a list)",
        "allowed: a list of at least 1 distinct values",
        config=_set("paperB.sticking.betas", 1.0),
    ),
    Case(
        "config file",
        "paperA.perron.betas: [0.5, 2.0] (a judged beta missing)",
        "config key paperA.perron.betas: got [0.5, 2.0]; allowed: a list containing [0.5, 1.0]",
        config=_set("paperA.perron.betas", [0.5, 2.0]),
    ),
    Case(
        "config file",
        "paperB.sticking.n_tokens: [256] (one size for a finite-size model)",
        "config key paperB.sticking.n_tokens: got 1 value(s) [256]; allowed: a list of at least 3",
        config=_set("paperB.sticking.n_tokens", [256]),
    ),
    Case(
        "config file",
        "paperA.perron.n_tokens: [256] (one size for a slope)",
        "config key paperA.perron.n_tokens: got 1 value(s) [256]; allowed: a list of at least 2",
        config=_set("paperA.perron.n_tokens", [256]),
    ),
    Case(
        "config file",
        "paperC.canonical.stable_rank.n_tokens: [256, 1024] (two sizes for a three-size slope)",
        "config key paperC.canonical.stable_rank.n_tokens: got 2 value(s) [256, 1024]; allowed: "
        "a list of at least 3",
        config=_set("paperC.canonical.stable_rank.n_tokens", [256, 1024]),
    ),
    Case(
        "config file",
        "paperA.stepwise.beta: -1",
        "paperA.stepwise.beta: got -1 (too small)",
        config=_set("paperA.stepwise.beta", -1),
    ),
    Case(
        "config file",
        "paperA.stepwise.beta: 11",
        "paperA.stepwise.beta: got 11 (too large)",
        config=_set("paperA.stepwise.beta", 11),
    ),
    Case(
        "config file",
        "paperA.stepwise.beta: 'one'",
        "paperA.stepwise.beta: got 'one'",
        config=_set("paperA.stepwise.beta", "one"),
    ),
    Case(
        "config file",
        "paperA.stepwise.sampler: orthogonal",
        "allowed: one of 'gaussian', 'literal'",
        config=_set("paperA.stepwise.sampler", "orthogonal"),
    ),
    Case(
        "config file",
        "an unknown top-level key",
        "unknown config key(s) paperZ at the top level",
        config=_set("paperZ", {}),
    ),
    Case(
        "config file",
        "an unknown nested key",
        "unknown config key(s) n_tokenz under",
        config=_set("paperA.stepwise.n_tokenz", 5),
    ),
    Case(
        "config file",
        "paperA.stepwise: [1, 2] (a list for a mapping)",
        "config key paperA.stepwise: got [1, 2]",
        config=_set("paperA.stepwise", [1, 2]),
    ),
    Case(
        "config file",
        "literal sampler with n_tokens > d_model",
        "n_tokens <= paperA.stepwise",
        config=lambda c: _set("paperA.stepwise.d_model", 100)(
            _set("paperA.stepwise.sampler", "literal")(c)
        ),
    ),
    Case(
        "config file",
        "paperA.edge_curve.beta_min >= beta_max",
        "beta_min < paperA.edge_curve",
        config=_set("paperA.edge_curve.beta_min", 3.0),
    ),
    Case(
        "config file",
        "paperA.stepwise.beta: 1e-300 (inside (0, 10], below the theory's range)",
        "config key paperA.stepwise.beta: got 1e-300 (too small); allowed: a finite number in "
        "[1e-150, 10]",
        config=_set("paperA.stepwise.beta", 1e-300),
    ),
    Case(
        "config file",
        "replicate: -1",
        "config key replicate: got -1 (too small)",
        config=_set("replicate", -1),
    ),
    Case(
        "config file",
        "replicate: 1.5",
        "config key replicate: got 1.5 (not an integer)",
        config=_set("replicate", 1.5),
    ),
    Case(
        "config file",
        "a YAML syntax error (--configfile)",
        "Config file is not valid JSON or YAML",
        config=_text("paperA:\n  stepwise: [1, 2\n"),
        by="Snakemake",
    ),
    Case(
        "config file",
        "a key given twice in one mapping (--configfile; YAML lets the last win)",
        "duplicate key 'replicate' (first at line",
        config=lambda preset: yaml.safe_dump(preset) + "replicate: 0\n",
    ),
    Case(
        "config file",
        "replicate: 010 (YAML 1.1 octal, read as 8)",
        "010 is read by YAML 1.1 as 8; write a plain decimal integer",
        config=lambda preset: yaml.safe_dump(preset).replace("replicate: 0", "replicate: 010"),
    ),
    Case(
        "config file",
        "replicate: 1:30 (YAML 1.1 base 60, read as 90)",
        "1:30 is read by YAML 1.1 as 90; write a plain decimal integer",
        config=lambda preset: yaml.safe_dump(preset).replace("replicate: 0", "replicate: 1:30"),
    ),
    Case(
        "config file",
        "paperC.pretrained.long_passages: 100 of 128 tokens (the corpus has 2)",
        "config key paperC.pretrained.long_passages.count: got 100; allowed: at most 2 (the",
        config=_set("paperC.pretrained.long_passages", {"tokens": 128, "count": 100}),
    ),
    Case(
        "config file",
        "paperB.sticking.top_k: 50 with n_tokens [16, 32, 64]",
        "config key paperB.sticking.top_k: got 50; allowed: top_k < every n_tokens",
        config=lambda preset: _set("paperB.sticking.top_k", 50)(
            _set("paperB.sticking.n_tokens", [16, 32, 64])(preset)
        ),
    ),
    Case(
        "config file",
        "paperB.sticking.betas: [0.5, 1.5] (a judged beta missing)",
        "config key paperB.sticking.betas: got [0.5, 1.5]; allowed: a list containing [0.5, 1.0]",
        config=_set("paperB.sticking.betas", [0.5, 1.5]),
    ),
    Case(
        "config file",
        "a tab-indented line in the default preset config/config.yaml",
        "config/config.yaml, line 3, column 1: invalid YAML",
        default_preset="replicate: 0\npaperA:\n\tstepwise: 1\n",
    ),
    Case(
        "config file",
        "a list instead of a mapping (--configfile)",
        "Config file must be given as JSON or YAML with keys at top level",
        config=_text("- 1\n- 2\n"),
        by="Snakemake",
    ),
    Case(
        "config file",
        "a list instead of a mapping in the default preset",
        "config/config.yaml: must be a mapping of config keys, got [1, 2]",
        default_preset="- 1\n- 2\n",
    ),
    Case(
        "config file",
        "an empty file (--configfile)",
        "Config file must be given as JSON or YAML with keys at top level",
        config=_text(""),
        by="Snakemake",
    ),
    Case(
        "config file",
        "paperC.canonical.survival.kappas: [3.0, 1.0] (decreasing)",
        "paperC.canonical.survival.kappas: got [3.0, 1.0]; allowed: a list of at least 2 "
        "distinct values, increasing",
        config=_set("paperC.canonical.survival.kappas", [3.0, 1.0]),
    ),
    Case(
        "config file",
        "paperC.canonical.survival.kappas: [1.0, 1.0]",
        "paperC.canonical.survival.kappas: duplicate value(s)",
        config=_set("paperC.canonical.survival.kappas", [1.0, 1.0]),
    ),
    Case(
        "config file",
        "paperB.sticking.n_tokens: [64, 128, 16384] with job_memory_limit_mb: 2000",
        "config key paperB.sticking.n_tokens: 16384 needs a job of",
        config=lambda preset: _set("job_memory_limit_mb", 2000)(
            _set("paperB.sticking.n_tokens", [64, 128, 16384])(preset)
        ),
    ),
    Case(
        "config file",
        "a YAML alias bomb (--configfile; ten lists of ten aliases: 10^10 values; hung)",
        "config file case.yaml: more than 100000 values once YAML aliases (*name) are expanded",
        config=lambda preset: yaml.safe_dump(preset).replace(
            "replicate: 0", f"replicate: {_bomb()}"
        ),
    ),
    Case(
        "config file",
        "paperB.sticking.betas: 3000 values without 0.5 (echoed in 23,801 characters)",
        "got [2.0, 1.9995, 1.999, ..., 0.501, 0.5005] (3000 values); allowed: a list containing",
        config=_set("paperB.sticking.betas", [round(2.0 - 0.0005 * i, 4) for i in range(3000)]),
    ),
    Case(
        "config file",
        "two YAML documents in the --configfile (--- between them)",
        "Config file is not valid JSON or YAML",
        config=lambda preset: yaml.safe_dump(preset) + "---\nreplicate: 1\n",
        by="Snakemake",
    ),
    Case(
        "config file",
        "a --configfile in UTF-16",
        "UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0",
        config=lambda preset: yaml.safe_dump(preset).encode("utf-16"),
        by="Snakemake",
    ),
    Case(
        "config file",
        "a --configfile that is a symlink loop",
        "Too many levels of symbolic links: 'loop.yaml'",
        args=("--configfile", "loop.yaml"),
        place=_symlinks(("loop.yaml", "loop2.yaml"), ("loop2.yaml", "loop.yaml")),
        by="Snakemake",
    ),
    Case(
        "config file",
        "a --configfile that is a folder",
        "IsADirectoryError: [Errno 21] Is a directory: 'config'",
        args=("--configfile", "config"),
        by="Snakemake",
    ),
    Case(
        "command line",
        "--cores 0 (Snakemake would wait forever)",
        "attnspec: --cores 0: allowed: --cores N with N >= 1, or --cores all",
        args=("--cores", "0"),
    ),
    Case(
        "command line",
        "--cores -1",
        "attnspec: --cores -1: allowed: --cores N with N >= 1, or --cores all",
        args=("--cores", "-1"),
    ),
    Case(
        "command line",
        "--resources mem_mb=1",
        "jobs that could not run (refused before any job): config key",
        args=("--resources", "mem_mb=1"),
    ),
    Case(
        "command line",
        "--resources mem_mb=600 (below the CI preset's jobs)",
        "more than --resources mem_mb=600",
        args=("--resources", "mem_mb=600"),
    ),
    Case(
        "command line",
        "--config job_memory_limit_mb=500",
        "config key job_memory_limit_mb: got 500",
        args=("--config", "job_memory_limit_mb=500"),
    ),
    Case(
        "command line",
        "--configfile config/missing.yaml (no such file)",
        "No such file or directory: 'config/missing.yaml'",
        args=("--configfile", "config/missing.yaml"),
        by="Snakemake",
    ),
    Case(
        "command line",
        "--config replicate=-1",
        "config key replicate: got -1",
        args=("--config", "replicate=-1"),
    ),
    Case(
        "command line",
        "--config replicate=x",
        "config key replicate: got 'x'",
        args=("--config", "replicate=x"),
    ),
    Case(
        "command line",
        "--config verify=paperB/sticking/ell32768-c1.0/draw77 (a draw not stored)",
        "config key verify: paperB/sticking/ell32768-c1.0/draw77 not in the store data/store",
        args=("--config", "verify=paperB/sticking/ell32768-c1.0/draw77"),
    ),
    Case(
        "command line",
        "--config paperQ=1",
        "unknown config key(s) paperQ",
        args=("--config", "paperQ=1"),
    ),
    Case(
        "command line",
        "--config 'paperA={stepwise: {beta: nan}}'",
        "paperA.stepwise.beta: got 'nan'",
        args=("--config", "paperA={stepwise: {beta: nan}}"),
    ),
    Case(
        "command line",
        "--config 'paperA={stepwise: {draws: 2.5}}'",
        "paperA.stepwise.draws: got '2.5' (not an integer)",
        args=("--config", "paperA={stepwise: {draws: 2.5}}"),
    ),
    Case(
        "command line",
        "--report missing/report.zip (no such folder; a traceback after building the report)",
        "attnspec: --report missing/report.zip: its folder missing does not exist; create it",
        args=("--report", "missing/report.zip"),
    ),
]

WORKING_FOLDER_CASES = [
    Case(
        "working folder",
        "results is a regular file (the preflight blamed permissions)",
        "attnspec: results is a file, not a folder; the run writes its outputs under results/",
        place=_regular_file("results"),
    ),
    Case(
        "working folder",
        "results is a symlink to a missing folder (a FileExistsError traceback in a job)",
        "attnspec: results is a symlink to scratch/results, which leads to no folder",
        place=_symlinks(("results", "scratch/results")),
    ),
    Case(
        "working folder",
        ".snakemake/attnspec-run.lock is a folder (a raw errno)",
        "attnspec: .snakemake/attnspec-run.lock is a folder, where the run keeps its lock file",
        place=_folder(".snakemake/attnspec-run.lock"),
    ),
]


def cases() -> list[Case]:
    """Every case: config and command line, the working folder, then library calls, then the
    attnspec CLI."""
    return CONFIG_CASES + WORKING_FOLDER_CASES + _library_cases() + _theory_cases() + CLI_CASES


@dataclass(frozen=True)
class Outcome:
    status: int
    message: str
    output: str


def _config_error(output: str) -> str:
    """The message: the lines of the workflow's ConfigError or PreflightError (between
    Snakemake's header and its location), else the line after Snakemake's WorkflowError, else
    the last exception line (``FileNotFoundError: ...`` of Snakemake's own traceback), else the
    last line."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"(Config|Preflight)Error in file", line):
            body = []
            for text in lines[i + 1 :]:
                if text.startswith("  File "):
                    break
                body.append(text)
            return "\n".join(body).strip()
        if line.startswith("WorkflowError:") and i + 1 < len(lines):
            return lines[i + 1].strip()
    raised = [line for line in lines if re.match(r"^\w+(Error|Exception): ", line)]
    if raised:
        return raised[-1].strip()
    return lines[-1].strip() if lines else ""


def run_workflow_case(case: Case, workdir: Path) -> Outcome:
    """``snakemake -n`` in ``workdir`` with the case's config file and arguments."""
    command = [str(BIN / "snakemake"), "-n", "--cores", "1"]
    preset_path = workdir / "config" / "config.yaml"
    saved = preset_path.read_text()
    if case.default_preset is not None:
        preset_path.write_text(case.default_preset)
    elif case.config is not None:
        preset = yaml.safe_load((workdir / "config" / "ci.yaml").read_text())
        changed = case.config(preset)
        path = workdir / "case.yaml"
        if isinstance(changed, bytes):
            path.write_bytes(changed)
        else:
            path.write_text(changed if isinstance(changed, str) else yaml.safe_dump(changed))
        command += ["--configfile", str(path)]
    elif "--configfile" not in case.args:
        command += ["--configfile", "config/ci.yaml"]
    command += list(case.args)
    placed = case.place(workdir) if case.place is not None else []
    try:
        result = subprocess.run(
            command, cwd=workdir, capture_output=True, text=True, env=dict(os.environ), check=False
        )
    finally:
        preset_path.write_text(saved)
        for path in placed:
            _remove(path)
    # paths inside the temporary copy read as relative ones (the table must not depend on it)
    output = (result.stdout + result.stderr).replace(f"{workdir.resolve()}/", "")
    return Outcome(result.returncode, _config_error(output), output)


def run_call_case(case: Case) -> Outcome:
    try:
        value = case.call()
    except ValueError as error:
        return Outcome(1, str(error), str(error))
    if case.computes:
        answer = case.expect if value is True else "computes a wrong value"
        return Outcome(0, answer, answer)
    return Outcome(0, "accepted", "accepted")


def run_cli_case(case: Case) -> Outcome:
    command = [str(BIN / "attnspec"), *case.cli]
    if case.stdout is None:
        result = subprocess.run(command, capture_output=True, text=True, check=False)
    else:
        with open(case.stdout, "w", encoding="utf-8") as stdout:
            result = subprocess.run(
                command, stdout=stdout, stderr=subprocess.PIPE, text=True, check=False
            )
    output = (result.stdout or "") + result.stderr
    return Outcome(result.returncode, output.strip(), output)


def run_case(case: Case, workdir: Path) -> Outcome:
    if case.call is not None:
        return run_call_case(case)
    if case.cli:
        return run_cli_case(case)
    return run_workflow_case(case, workdir)


def table(rows: list[tuple[Case, Outcome]]) -> str:
    """docs/bad-inputs.md: every case and the answer it gets."""

    def cell(text: str) -> str:
        return re.sub(r"\s+", " ", text).replace("|", "\\|")

    lines = [
        "# Bad inputs and what attnspec answers",
        "",
        "Generated by `tools/bad_inputs.py --write` from the cases of "
        "`tests/product/test_bad_inputs.py`"
        " (the test fails when this table differs from what the cases now give). Every case "
        "stops before any job, exits non-zero and leaves `results/` and `figures/` untouched; "
        "every case answered by attnspec also names the key or argument and what is allowed, "
        "without a traceback. A library row answered *computes* is an input the library once "
        "refused with a confusing error and now takes: the test checks the value.",
        "",
        f"{len(rows)} cases.",
        "",
        "Rows answered by *Snakemake* are checked by Snakemake itself while it reads "
        "`--configfile`, before the workflow's code runs: attnspec cannot word those messages "
        "(a missing file also prints Snakemake's traceback). Everything else is answered by "
        "attnspec.",
        "",
        "| # | where | input | answered by | answer |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {i} | {case.where} | {cell(case.input)} | {case.by} | {cell(outcome.message)} |"
        for i, (case, outcome) in enumerate(rows, start=1)
    ]
    lines += [
        "",
        "## Faults during a run",
        "",
        "These inputs reach a job (the CI preset's figure D2 in a committed copy); each is a test "
        "of `tests/product/test_committed_outputs.py` (named in the last column), which checks "
        "the answer "
        "and that `git status figures/` then shows no committed file deleted or rewritten from "
        "bad data.",
        "",
        "| # | where | input | answer | test |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {i} | {where} | {cell(given)} | {cell(answer)} | `{test}` |"
        for i, (where, given, answer, test) in enumerate(FAULTS, start=len(rows) + 1)
    ]
    return "\n".join(lines) + "\n"


# The faults of a run (issue 32): (where, input, answer, the test that checks it).
_REFUSED = "test_a_bad_result_is_refused_and_every_committed_file_kept"
FAULTS = (
    (
        "results file",
        "a paperD_heads result with every float NaN (then target D2)",
        "results/paperD/heads/h1/draws2.npz: member 'attention/softmax' holds NaN or infinity; "
        "allowed: finite numbers only (a result of rule paperD_heads); the file is refused: "
        "remove it and run the command again (figures/ untouched)",
        _REFUSED,
    ),
    (
        "results file",
        "the same file with an extra pickled object member",
        "...: member 'extra' holds pickled Python objects (dtype object); allowed: numeric and "
        "text arrays (a result of rule paperD_heads); the file is refused (figures/ untouched)",
        _REFUSED,
    ),
    (
        "results file",
        "one member cut to 5 values",
        "...: member 'output/gaussian' has shape (5,); declared (draws, n) (a result of rule "
        "paperD_heads); the file is refused (figures/ untouched)",
        _REFUSED,
    ),
    (
        "working folder",
        "a folder where figures/paperD/D2-heads.png is written",
        "figures/paperD/D2-heads.png is a folder, where this job writes a file: move it away "
        "and run the command again (the other committed files untouched)",
        "test_a_folder_in_place_of_the_png_stops_the_job_and_keeps_the_others",
    ),
    (
        "working folder",
        "committed figures/paperD/D2-heads.csv cut to its header",
        "figures/paperD/D2-heads.csv has changed since a run of this folder published it: a "
        "run of a target that includes it redoes its job, which restores it",
        "test_a_committed_csv_cut_to_its_header_is_restored",
    ),
    (
        "command line",
        "--forcerun paperD_heads D2 in a partly built folder",
        "Snakemake reads D2 as a rule name and runs target all (115 jobs here); "
        "python -m attnspec.workflow.redo paperD_heads runs 3 jobs and names those it leaves out",
        "test_redo_runs_one_rule_and_what_depends_on_it_not_the_missing_work",
    ),
)


def main() -> None:
    import tempfile

    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import tracked_copy

    with tempfile.TemporaryDirectory() as scratch:
        workdir = tracked_copy(Path(scratch) / "clone")
        rows = [(case, run_case(case, workdir)) for case in cases()]
    text = table(rows)
    if "--write" in sys.argv:
        TABLE.write_text(text, encoding="utf-8")
    else:
        print(text)


if __name__ == "__main__":
    main()
