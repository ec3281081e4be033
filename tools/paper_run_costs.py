"""Per-rule CPU, wall and peak memory of a whole run of a preset, into docs/paper-run.json.

    python tools/paper_run_costs.py RUN_FOLDER [--configfile config/paper.yaml]
                                   [--store data/store] [--output docs/paper-run.json]

The run's jobs are those a dry run of the preset plans from scratch (``-F``) in RUN_FOLDER, the
clone the run was made in. A job whose output has records in the store (RUN_FOLDER/<store>) is
costed by them: what computing its draws cost, on whichever machine and session made them (a
job that reused them took seconds). Every other job is costed by its benchmark file in
RUN_FOLDER/benchmarks: Snakemake's measurement, with the CPU time scaled to the job's exit
(attnspec.workflow.costs.cpu_seconds_at_exit). Target rules (no benchmark file declared) do no
work of their own; any other job with neither is listed as not measured.
docs/cluster.md shows the result (tools/readme_blocks.py).
"""

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attnspec.workflow.costs import JobCost, costs_by_rule, cpu_seconds_at_exit  # noqa: E402
from attnspec.workflow.redo import Job, planned_jobs  # noqa: E402
from attnspec.workflow.store import entry_paths  # noqa: E402

OUTPUT = ROOT / "docs" / "paper-run.json"


def dry_run(folder: Path, configfile: str) -> list[Job]:
    """Every job ``snakemake -n -F`` plans in ``folder``, as
    :func:`attnspec.workflow.redo.planned_jobs` reads a dry run."""
    result = subprocess.run(
        [Path(sys.executable).parent / "snakemake", "-n", "-F", "--cores", "1"]
        + ["--configfile", configfile],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.exit(f"the dry run in {folder} failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    return planned_jobs(result.stdout)


def store_costs(store: Path) -> dict[Path, tuple[float, float, float]]:
    """(CPU s, wall s, peak MB) of every stored job output by its entry (the record's path
    without suffix, :func:`attnspec.workflow.store.entry_paths`); a job that keeps several
    draws (a folder of parts) sums its parts' CPU and wall time and keeps their largest peak."""
    costs: dict[Path, list[float]] = {}
    for path in store.rglob("*.json"):
        record = json.loads(path.read_text(encoding="utf-8"))
        npz, _ = entry_paths(store, record["output"])
        entry = costs.setdefault(npz.with_suffix(""), [0.0, 0.0, 0.0])
        entry[0] += record["cpu_s"]
        entry[1] += record["wall_s"]
        entry[2] = max(entry[2], record["peak_mb"])
    return {key: tuple(value) for key, value in costs.items()}


def benchmark_cost(path: Path) -> tuple[float, float, float] | None:
    """(CPU s at exit, wall s, peak MB) from a benchmark file, None if it is missing."""
    if not path.is_file():
        return None
    with open(path, newline="", encoding="utf-8") as handle:
        row = next(csv.DictReader(handle, delimiter="\t"))
    wall = float(row["s"])
    cpu = float(row["cpu_time"]) if row["cpu_time"] != "NA" else 0.0
    peak = float(row["max_rss"]) if row["max_rss"] != "NA" else 0.0
    return cpu_seconds_at_exit(cpu, wall), wall, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="the clone the run was made in")
    parser.add_argument("--configfile", default="config/paper.yaml")
    parser.add_argument("--store", default="data/store")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()
    store = args.folder / args.store
    stored = store_costs(store)
    costed, missing = [], []
    for job in dry_run(args.folder, args.configfile):
        rule, outputs, benchmark = job.rule, job.outputs, job.benchmark
        entries = [entry_paths(store, out)[0].with_suffix("") for out in outputs]
        cost = next((stored[entry] for entry in entries if entry in stored), None)
        name = outputs[0] if outputs else rule
        if cost is not None:
            costed.append(JobCost(rule, name, *cost, "store"))
            continue
        if benchmark is None:
            continue  # a target rule (all, a paper's target): no work of its own
        measured = benchmark_cost(args.folder / benchmark)
        if measured is None:
            missing.append(f"{rule}: {name}")
        else:
            costed.append(JobCost(rule, name, *measured, "benchmark"))
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=args.folder, capture_output=True, text=True
    ).stdout.strip()
    report = {
        "preset": args.configfile,
        "commit": commit,
        "jobs": len(costed) + len(missing),
        "not_measured": missing,
        "cpu_s": round(sum(job.cpu_s for job in costed), 1),
        "wall_s": round(sum(job.wall_s for job in costed), 1),
        "peak_mb": round(max((job.peak_mb for job in costed), default=0.0), 1),
        "rules": costs_by_rule(costed),
    }
    args.output.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"{args.output}: {report['jobs']} jobs, {report['cpu_s'] / 3600:.2f} core-hours")


if __name__ == "__main__":
    main()
