"""Measure a whole run of a preset from a clean results/ and write docs/runtime.json.

    python tools/measure_run.py [--configfile config/config.yaml] [--cores 2] [--output FILE]
                                [TARGET ...]

Deletes results/, logs/ and benchmarks/ (every output is recomputed; figures/ is rewritten),
plans the run with a dry run (the job count), runs it under /usr/bin/time -v (wall time, CPU of
the whole process tree, peak memory of the largest single process) and sums the per-job
benchmark files by paper and by rule. The README's run-time figures are generated from the JSON
(tools/readme_blocks.py); a test checks that the README's job count is the dry run's.
"""

import argparse
import csv
import json
import re
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = Path(sys.executable).parent / "snakemake"
OUTPUT = ROOT / "docs" / "runtime.json"


def planned_jobs(configfile: str, targets: list[str]) -> int:
    """Jobs a dry run of the targets (default: all) plans from scratch, targets included
    (targets before --configfile, which takes several values)."""
    result = subprocess.run(
        [str(SNAKEMAKE), "-n", "-F", *targets, "--configfile", configfile],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    table = result.stdout.split("Job stats:")[1]
    return int(re.search(r"^total\s+(\d+)", table, flags=re.M)[1])


def time_report(text: str) -> dict:
    """Wall, user, system and CPU (user + system) seconds and peak MB from /usr/bin/time -v."""

    def field(label: str) -> str:
        return re.search(rf"{re.escape(label)}: (.+)", text)[1].strip()

    clock = [
        float(part) for part in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
    ]
    wall = sum(value * 60**i for i, value in enumerate(reversed(clock)))
    user, system = float(field("User time (seconds)")), float(field("System time (seconds)"))
    return {
        "wall_s": wall,
        "user_s": user,
        "system_s": system,
        "cpu_s": round(user + system, 1),
        "max_rss_mb": int(field("Maximum resident set size (kbytes)")) // 1000,
    }


def benchmark_totals(folder: Path) -> dict:
    """CPU seconds by paper (the benchmark files' cpu_time, which Snakemake samples, so short
    jobs are undercounted) and the job with the largest peak memory."""
    by_paper, peaks = defaultdict(float), {}
    for path in sorted(folder.rglob("*.tsv")):
        with open(path, encoding="utf-8") as handle:
            row = next(csv.DictReader(handle, delimiter="\t"))
        relative = path.relative_to(folder).as_posix()
        match = re.search(r"paper([ABCD])", relative)
        paper = match[1] if match else "shared"
        cpu = float(row["cpu_time"]) if row.get("cpu_time", "NA") != "NA" else 0.0
        by_paper[paper] += cpu
        rss = float(row["max_rss"]) if row.get("max_rss", "NA") != "NA" else 0.0
        peaks[relative] = rss
    largest = max(peaks, key=peaks.get) if peaks else ""
    return {
        "cpu_s_by_paper": {k: round(v, 1) for k, v in sorted(by_paper.items())},
        "largest_job": largest,
        "largest_job_rss_mb": round(peaks.get(largest, 0.0)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", default="config/config.yaml")
    parser.add_argument("--cores", default="2")
    parser.add_argument("--output", type=Path, default=OUTPUT, help="the JSON report")
    parser.add_argument("targets", nargs="*", help="Snakemake targets (default: all)")
    args = parser.parse_args()
    for name in ("results", "logs", "benchmarks"):
        shutil.rmtree(ROOT / name, ignore_errors=True)
    jobs = planned_jobs(args.configfile, args.targets)
    load = Path("/proc/loadavg").read_text().split()[:3]
    started = time.time()
    result = subprocess.run(
        [
            "/usr/bin/time",
            "-v",
            str(SNAKEMAKE),
            "--cores",
            args.cores,
            *args.targets,
            "--configfile",
            args.configfile,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        sys.exit(f"the run failed ({result.returncode}):\n{result.stderr[-3000:]}")
    measured = time_report(result.stderr)
    report = {
        "preset": args.configfile,
        "targets": args.targets or ["all"],
        "cores": int(args.cores),
        "jobs": jobs,
        "load_average_before": [float(x) for x in load],
        "finished_unix_time": round(started + measured["wall_s"]),
        **measured,
        **benchmark_totals(ROOT / "benchmarks"),
    }
    args.output.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
