"""Estimate the core-hours of a preset from the per-job benchmark files of a measured run.

Reads the jobs of the measured presets and of the target preset from Snakemake dry runs
(``snakemake -n -F --configfile <preset>``: each job's rule, wildcards, benchmark file, inputs
and mem_mb), reads the measured run's benchmark files (``benchmarks/**/*.tsv``), fits each kind
of job's CPU time against its size (attnspec.workflow.costs: t = t0 + a m x^p, p not below the
rule's complexity) and prints, as Markdown: per-rule and per-paper core-hours of the target preset,
the largest single jobs (time, memory) and a SLURM runtime per rule (safety factor x the
rule's largest predicted job).

Usage (from the repository root, after a run of the measured preset):

    python tools/estimate_core_hours.py [--target config/paper.yaml]
        [--measured config/config.yaml [PRESET ...]] [--safety 3] [--min-runtime 10]

Several measured presets pool their benchmark files: the default preset's sticking draws stop
at ell = 4096, so a fit of paper B's ell = 32768 draws also wants a few larger draws of the
paper preset measured (docs/cluster.md).

Writes nothing. Runs three short Snakemake commands: two dry runs and --list-rules, whose wall
time is taken as the start-up cost of Snakemake, paid twice by every cluster job.
"""

import argparse
import csv
import re
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

from attnspec.workflow.costs import (
    CostModel,
    cpu_seconds_at_exit,
    fit_cost_model,
    nearest_measured,
    runtime_minutes,
)

REPO = Path(__file__).resolve().parents[1]
SNAKEMAKE = Path(sys.executable).parent / "snakemake"

# Wildcards giving a job's size x (ell or n) and its multiplier m (independent repetitions in
# one job); wildcards that do not change the cost (draw index, temperature, the results root of
# a workflow replicate).
SIZE_WILDCARDS = ("n_tokens", "tokens")
MULTIPLIER_WILDCARDS = ("draws", "passages")
COST_FREE_WILDCARDS = ("draw", "beta", "results")
# Rules whose work grows linearly in x (structured O(n) products and inertia counts, the
# per-token forward pass); every other rule with a size is taken as dense: ell^3 time (matrix
# products, eigensolvers) and ell^2 memory.
LINEAR_RULES = {
    "paperC_C2_counts",
    "paperC_C3_stable_rank",
    "paperC_C4_survival",
    "paperC_pretrained_queries_keys",
}
DENSE_TIME_EXPONENT = 3.0
DENSE_MEMORY_EXPONENT = 2.0
# Each SLURM job starts Snakemake twice (the plugin's batch step, then the job under srun).
STARTUPS_PER_JOB = 2
# Rules without a size wildcard whose size is set by the config: (x, m) of their one job.
CONFIG_SIZES = {
    "paperC_C1_spectra": lambda config: (
        config["paperC"]["canonical"]["spectra"]["n_tokens"],
        len(config["paperC"]["canonical"]["spectra"]["profiles"]),
    ),
    "paperC_C2_counts": lambda config: (
        sum(config["paperC"]["canonical"]["bulk"]["n_tokens"]),
        config["paperC"]["canonical"]["bulk"]["draws"]
        * len(config["paperC"]["canonical"]["bulk"]["profiles"])
        * config["paperC"]["canonical"]["bulk"]["grid_points"],
    ),
}


@dataclass
class Job:
    """One job of a dry run."""

    rule: str
    wildcards: dict[str, str] = field(default_factory=dict)
    benchmark: str | None = None
    inputs: int = 0
    mem_mb: int | None = None


@dataclass(frozen=True)
class Measurement:
    """A benchmark file's mean over its rows: CPU seconds (at exit) and peak RSS in MiB."""

    cpu_seconds: float
    max_rss_mb: float


def dry_run_jobs(configfile: str, workdir: Path) -> list[Job]:
    """The jobs of ``snakemake -n -F --configfile configfile`` (all targets, nothing skipped)."""
    result = subprocess.run(
        [SNAKEMAKE, "-n", "-F", "--cores", "1", "--configfile", configfile],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.exit(f"dry run with {configfile} failed:\n{result.stdout}\n{result.stderr}")
    return parse_dry_run(result.stdout)


def parse_dry_run(text: str) -> list[Job]:
    """Jobs from a dry run's text: a "rule NAME:" line, then indented "key: value" lines."""
    jobs = []
    for line in text.splitlines():
        header = re.match(r"^(?:local)?rule (\w+):$", line)
        if header:
            jobs.append(Job(header[1]))
            continue
        entry = re.match(r"^    (\w+): (.*)$", line)
        if not entry or not jobs:
            continue
        key, value = entry[1], entry[2]
        if key == "wildcards":
            jobs[-1].wildcards = dict(item.split("=", 1) for item in value.split(", "))
        elif key == "benchmark":
            jobs[-1].benchmark = value
        elif key == "input":
            jobs[-1].inputs = len(value.split(", "))
        elif key == "resources":
            memory = re.search(r"\bmem_mb=(\d+)", value)
            jobs[-1].mem_mb = int(memory[1]) if memory else None
    return jobs


def startup_seconds(workdir: Path) -> float:
    """Wall time of ``snakemake --list-rules``: parsing the workflow, which every Snakemake
    process of a cluster job does before its job starts."""
    start = time.perf_counter()
    subprocess.run(
        [SNAKEMAKE, "--list-rules"], cwd=workdir, capture_output=True, check=True, text=True
    )
    return time.perf_counter() - start


def load_config(configfile: str, workdir: Path) -> dict:
    """The config Snakemake uses: config/config.yaml updated by ``configfile`` (recursively)."""

    def update(base: dict, extra: dict) -> dict:
        for key, value in extra.items():
            if isinstance(value, dict) and isinstance(base.get(key), dict):
                update(base[key], value)
            else:
                base[key] = value
        return base

    config = yaml.safe_load((workdir / "config" / "config.yaml").read_text())
    return update(config, yaml.safe_load((workdir / configfile).read_text()))


def read_benchmark(path: Path) -> Measurement:
    """Mean CPU seconds (corrected to the job's exit) and peak RSS over a benchmark file's rows."""
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    cpu = [cpu_seconds_at_exit(float(row["cpu_time"]), float(row["s"])) for row in rows]
    return Measurement(float(np.mean(cpu)), max(float(row["max_rss"]) for row in rows))


def describe(job: Job, config: dict) -> tuple[tuple, float, float]:
    """(kind, size x, multiplier m) of a job.

    The kind is (rule, features...): the wildcards that change the cost per unit of work, from
    the most to the least important (d_qk as the ratio c = ell / d_qk; the literal sampler as
    its kind and gamma = ell / d). Without a size wildcard the size comes from CONFIG_SIZES, or
    the job is an aggregation whose work grows with its number of input files.
    """
    wildcards = job.wildcards
    size_name = next((name for name in SIZE_WILDCARDS if name in wildcards), None)
    multiplier = float(
        np.prod([float(wildcards[name]) for name in MULTIPLIER_WILDCARDS if name in wildcards])
    )
    if size_name is not None:
        size = float(wildcards[size_name])
    elif job.rule in CONFIG_SIZES:
        size, config_multiplier = CONFIG_SIZES[job.rule](config)
        size, multiplier = float(size), multiplier * config_multiplier
    else:
        size, multiplier = 1.0, multiplier * max(1, job.inputs)
    features = []
    for name, value in wildcards.items():
        if name in SIZE_WILDCARDS + MULTIPLIER_WILDCARDS + COST_FREE_WILDCARDS:
            continue
        if name == "d_qk" and size_name:
            features.append(("c", round(size / float(value), 3)))
        elif name == "sampler" and value.startswith("literal-d") and size_name:
            features.append(("sampler", "literal"))
            features.append(("gamma", round(size / float(value.removeprefix("literal-d")), 3)))
        else:
            features.append((name, value))
    return (job.rule, *features), size, multiplier


def paper_of(job: Job) -> str:
    """Paper A, B or C of a job, from its rule name or its ``paper`` wildcard; else "shared"."""
    prefix = re.match(r"paper([A-Z])_", job.rule)
    return prefix[1] if prefix else job.wildcards.get("paper", "shared")


@dataclass(frozen=True)
class Fit:
    """Time and memory models of one measured kind (or of all kinds sharing a prefix)."""

    time: CostModel
    memory: CostModel
    sizes: tuple[float, ...]
    jobs: int


@dataclass
class Prediction:
    """A target job's predicted CPU seconds and peak RSS, and the measured kind it used."""

    job: Job
    size: float
    seconds: float
    rss_mb: float
    kind: tuple
    measured_kind: tuple


def measured_samples(presets: list[tuple[list[Job], dict]], root: Path) -> dict[tuple, list]:
    """kind -> [(size, multiplier, Measurement)] over the jobs of the measured presets (each
    job with its preset's config) that have a benchmark file; a file two presets share (the same
    job) counts once."""
    samples, seen = defaultdict(list), set()
    for jobs, config in presets:
        for job in jobs:
            if job.benchmark and job.benchmark not in seen and (root / job.benchmark).is_file():
                seen.add(job.benchmark)
                kind, size, multiplier = describe(job, config)
                samples[kind].append((size, multiplier, read_benchmark(root / job.benchmark)))
    return samples


def fit_kind(rule: str, samples: dict, prefix: tuple) -> Fit:
    """Fit the measured jobs whose kind starts with ``prefix``: time t0 + a m x^p with p at least
    the rule's complexity; memory r0 + b x^q with q = 2 (dense) or 1 (linear rules).

    One size alone does not separate t0 and r0 from the work: such a kind takes them from the
    rule's jobs of every kind, when those span several sizes.
    """
    rows = [
        row
        for kind, kind_rows in samples.items()
        if kind[: len(prefix)] == prefix
        for row in kind_rows
    ]
    sizes = [size for size, _, _ in rows]
    time_overhead = memory_overhead = None
    if len(set(sizes)) < 2 and len(prefix) > 1:
        whole_rule = fit_kind(rule, samples, prefix[:1])
        if len(whole_rule.sizes) >= 2:
            time_overhead = whole_rule.time.overhead
            memory_overhead = whole_rule.memory.overhead
    linear = rule in LINEAR_RULES
    time_exponent = 1.0 if linear else DENSE_TIME_EXPONENT
    memory_exponent = 1.0 if linear else DENSE_MEMORY_EXPONENT
    time_model = fit_cost_model(
        sizes,
        [multiplier for _, multiplier, _ in rows],
        [m.cpu_seconds for _, _, m in rows],
        min_exponent=time_exponent,
        overhead=time_overhead,
    )
    memory_model = fit_cost_model(
        sizes,
        np.ones(len(rows)),
        [m.max_rss_mb for _, _, m in rows],
        min_exponent=memory_exponent,
        max_exponent=memory_exponent,
        overhead=memory_overhead,
    )
    return Fit(time_model, memory_model, tuple(sorted(set(sizes))), len(rows))


def predict(targets: list[Job], config: dict, samples: dict) -> tuple[list, list, dict]:
    """Predictions for the target jobs, the jobs of kinds never measured, and the fits used."""
    fits, predictions, unmeasured = {}, [], []
    for job in targets:
        if job.benchmark is None:
            continue  # target rules (all, paperA, ...) do no work
        kind, size, multiplier = describe(job, config)
        prefix = nearest_measured(kind, samples)
        if prefix is None:
            unmeasured.append(job)
            continue
        if prefix not in fits:
            fits[prefix] = fit_kind(job.rule, samples, prefix)
        fit = fits[prefix]
        seconds = float(fit.time.predict(size, multiplier))
        rss = float(fit.memory.predict(size))
        predictions.append(Prediction(job, size, seconds, rss, kind, prefix))
    return predictions, unmeasured, fits


def hours(seconds: float) -> str:
    """Seconds as hours with two decimals."""
    return f"{seconds / 3600:.2f}"


def sizes_text(sizes) -> str:
    """Distinct sizes, the middle ones elided; "-" for jobs without a size."""
    values = sorted(set(sizes))
    if values == [1.0]:
        return "-"
    if len(values) > 4:
        values = values[:2] + ["..."] + values[-1:]
    return ", ".join(value if value == "..." else f"{value:g}" for value in values)


def format_kind(kind: tuple) -> str:
    """A kind as "rule name=value ..."."""
    return " ".join([kind[0]] + [f"{name}={value}" for name, value in kind[1:]])


def format_wildcards(job: Job) -> str:
    """A job's wildcards as "name=value ..."."""
    return " ".join(f"{name}={value}" for name, value in job.wildcards.items()) or "(one job)"


def rule_table(predictions: list[Prediction], safety: float, min_runtime: int) -> list[str]:
    """Per rule: jobs, core-hours, largest job and the SLURM runtime it suggests."""
    by_rule = defaultdict(list)
    for prediction in predictions:
        by_rule[prediction.job.rule].append(prediction)
    lines = [
        f"| rule | jobs | core-h | largest job min | runtime min ({safety:g} x largest) |",
        "|---|---|---|---|---|",
    ]
    for rule in sorted(by_rule):
        rows = by_rule[rule]
        largest = max(row.seconds for row in rows)
        lines.append(
            f"| {rule} | {len(rows)} | {hours(sum(row.seconds for row in rows))} | "
            f"{largest / 60:.1f} | {runtime_minutes(largest, safety, min_runtime)} |"
        )
    return lines


def kind_table(predictions: list[Prediction], fits: dict) -> list[str]:
    """Per measured kind: the fitted model, the sizes it was fitted on and those it predicts."""
    lines = [
        "| measured kind | jobs | sizes x measured | p | t0 s | a | sizes x predicted | "
        "target kinds borrowing it | core-h |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for prefix in sorted(fits, key=format_kind):
        fit = fits[prefix]
        rows = [row for row in predictions if row.measured_kind == prefix]
        borrowed = sorted({format_kind(row.kind) for row in rows if row.kind != prefix})
        exponent = "-" if fit.sizes == (1.0,) else f"{fit.time.exponent:g}"
        lines.append(
            f"| {format_kind(prefix)} | {fit.jobs} | {sizes_text(fit.sizes)} | "
            f"{exponent} | {fit.time.overhead:.2f} | {fit.time.coefficient:.3g} | "
            f"{sizes_text(row.size for row in rows)} | {'; '.join(borrowed) or '-'} | "
            f"{hours(sum(row.seconds for row in rows))} |"
        )
    return lines


def report(predictions, unmeasured, fits, startup, safety, min_runtime) -> str:
    """The Markdown report: per rule, per paper, largest jobs, fits, rules without measurements."""
    total = sum(p.seconds for p in predictions)
    lines = rule_table(predictions, safety, min_runtime)
    lines += ["", "| paper | jobs | core-h | share |", "|---|---|---|---|"]
    for paper in sorted({paper_of(p.job) for p in predictions}):
        rows = [p for p in predictions if paper_of(p.job) == paper]
        seconds = sum(p.seconds for p in rows)
        lines.append(f"| {paper} | {len(rows)} | {hours(seconds)} | {seconds / total:.1%} |")
    lines.append(f"| total | {len(predictions)} | {hours(total)} | 100% |")
    jobs = len(predictions) + len(unmeasured)
    startups = STARTUPS_PER_JOB * startup * jobs
    lines += [
        "",
        f"Snakemake start-up in each cluster job: {STARTUPS_PER_JOB} x {startup:.1f} s x {jobs} "
        f"jobs = {hours(startups)} core-h more; {hours(total + startups)} core-h in all.",
    ]
    slowest = max(predictions, key=lambda p: p.seconds)
    biggest = max(predictions, key=lambda p: (p.job.mem_mb or 0, p.rss_mb))
    for label, p in (("time", slowest), ("memory", biggest)):
        lines.append(
            f"Largest job by {label}: {p.job.rule} {format_wildcards(p.job)}: "
            f"{p.seconds / 60:.1f} min CPU, mem_mb={p.job.mem_mb} requested, "
            f"peak RSS predicted {p.rss_mb:.0f} MiB."
        )
    short = [p for p in predictions if p.job.mem_mb is not None and p.rss_mb > p.job.mem_mb]
    lines.append(
        f"Jobs whose predicted peak RSS exceeds their mem_mb: {len(short)}"
        + "".join(f"; {p.job.rule} {format_wildcards(p.job)}" for p in short[:5])
        + "."
    )
    if unmeasured:
        counts = defaultdict(int)
        for job in unmeasured:
            counts[job.rule] += 1
        listed = ", ".join(f"{rule} ({n})" for rule, n in sorted(counts.items()))
        lines.append(f"Never measured, not in the total: {listed}.")
    lines += ["", "Fits (t = t0 + a m x^p CPU seconds):", ""] + kind_table(predictions, fits)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default="config/paper.yaml", help="preset to estimate")
    parser.add_argument(
        "--measured",
        nargs="+",
        default=["config/config.yaml"],
        help="presets whose runs left the benchmarks (several: the union of their jobs)",
    )
    parser.add_argument("--workdir", type=Path, default=REPO, help="workflow directory")
    parser.add_argument("--safety", type=float, default=3.0, help="runtime safety factor")
    parser.add_argument("--min-runtime", type=int, default=10, help="shortest runtime, minutes")
    args = parser.parse_args()
    workdir = args.workdir.resolve()
    measured = [
        (dry_run_jobs(preset, workdir), load_config(preset, workdir)) for preset in args.measured
    ]
    targets = dry_run_jobs(args.target, workdir)
    samples = measured_samples(measured, workdir)
    predictions, unmeasured, fits = predict(targets, load_config(args.target, workdir), samples)
    startup = startup_seconds(workdir)
    print(
        f"Estimate for {args.target} from the benchmark files of {', '.join(args.measured)} "
        f"in {workdir}"
    )
    print()
    print(report(predictions, unmeasured, fits, startup, args.safety, args.min_runtime))


if __name__ == "__main__":
    main()
