"""Run a preset's largest job end to end in a fresh clone and write docs/largest-job.json.

    python tools/measure_largest_job.py [--configfile config/paper.yaml] [--target PATH]
    python tools/measure_largest_job.py --time-output FILE --clone DIR   # a run already made

The default target is the paper preset's largest job by the memory model: one ell = 32768
paper B sticking draw (c = 1, three betas). The job runs in a clone of this repository's HEAD
(``git clone``, so nothing of this checkout's results/ is used) with
``snakemake --configfile <preset> --cores 1 -- <target>`` under ``/usr/bin/time -v``: wall time,
CPU of the whole process tree, peak resident memory of the largest process; the memory
Snakemake reserved for the job comes from a forced dry run of the same target; the commit is
the clone's code commit as every caption gives it (attnspec.workflow.provenance.code_commit). With
--time-output the command is not run again: the report of an earlier run of exactly that
command in --clone is read instead.
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = Path(sys.executable).parent / "snakemake"
OUTPUT = ROOT / "docs" / "largest-job.json"
DEFAULT_TARGET = "results/paper-scale/paperB/sticking/ell32768-c1.0/draw0.npz"

sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))
from benchmark import machine  # noqa: E402
from measure_run import time_report  # noqa: E402

from attnspec.workflow.provenance import code_commit  # noqa: E402


def command(configfile: str, target: str, dry_run: bool = False) -> list[str]:
    return [
        str(SNAKEMAKE),
        *(["-n", "-f"] if dry_run else []),
        "--configfile",
        configfile,
        "--cores",
        "1",
        "--",
        target,
    ]


def reserved_mb(clone: Path, configfile: str, target: str) -> int:
    """The job's mem_mb as a forced dry run of the same target in the clone plans it."""
    result = subprocess.run(
        command(configfile, target, dry_run=True),
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(re.search(r"mem_mb=(\d+)", result.stdout)[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", default="config/paper.yaml")
    parser.add_argument("--target", default=DEFAULT_TARGET)
    parser.add_argument("--time-output", type=Path, help="/usr/bin/time -v report of a run made")
    parser.add_argument("--clone", type=Path, help="the clone that run used (with --time-output)")
    args = parser.parse_args()
    if (args.time_output is None) != (args.clone is None):
        sys.exit("--time-output and --clone go together")
    if args.clone is None:
        args.clone = Path(tempfile.mkdtemp(prefix="attnspec-largest-")) / "clone"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(args.clone)], check=True)
    reserved = reserved_mb(args.clone, args.configfile, args.target)
    if args.time_output is None:
        result = subprocess.run(
            ["/usr/bin/time", "-v", *command(args.configfile, args.target)],
            cwd=args.clone,
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            sys.exit(f"the job failed ({result.returncode}):\n{result.stderr[-3000:]}")
        report_text, finished = result.stderr, time.time()
    else:
        report_text = args.time_output.read_text(encoding="utf-8")
        finished = args.time_output.stat().st_mtime
    measured = time_report(report_text)
    commit = code_commit(args.clone)
    report = {
        "preset": args.configfile,
        "target": args.target,
        "commit": commit,
        "cores": 1,
        "machine": machine(),
        "finished": time.strftime("%Y-%m-%d %H:%M", time.gmtime(finished)),
        "reserved_mem_mb": reserved,
        **measured,
    }
    OUTPUT.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2, sort_keys=True))


if __name__ == "__main__":
    main()
