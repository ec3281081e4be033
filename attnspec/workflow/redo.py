"""Redo one rule's jobs and what depends on them, and nothing else: ``redo RULE``.

    .venv/bin/python -m attnspec.workflow.redo RULE [TARGET ...] [-- SNAKEMAKE-OPTION ...]

``snakemake --forcerun RULE`` alone plans every job its targets still miss (in a folder where
only part of the workflow has run, e.g. paper B's largest draws), and ``--forcerun`` reads every
word after it as a rule, so a target written after it is lost (``--forcerun paperD_heads D2``
plans target ``all``). This helper asks Snakemake first for the dry run of ``--forcerun RULE``
on the targets (default: ``all``), keeps RULE's jobs and the jobs that depend on them, leaves
out any of those that also wait for a job not among them (that work is not done yet; a run of
their target does it), and then runs Snakemake on the outputs of the jobs kept, RULE forced.
Options after ``--`` go to both Snakemake commands (e.g. ``--configfile config/ci.yaml``);
``--cores all`` unless they set the cores.
"""

import re
import subprocess
import sys
from dataclasses import dataclass

USAGE = "usage: python -m attnspec.workflow.redo RULE [TARGET ...] [-- SNAKEMAKE-OPTION ...]"


class RedoError(RuntimeError):
    """The redo cannot be planned; the message says why."""


@dataclass(frozen=True)
class Job:
    """One job of a dry run: its rule, input and output files, and its benchmark file (None
    for a rule that declares none, such as a target)."""

    rule: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    benchmark: str | None = None


_JOB = re.compile(r"^(?:local)?rule (\w+):$")
_FIELD = re.compile(r"^    (input|output|benchmark): (.*)$")


def planned_jobs(dry_run: str) -> list[Job]:
    """The jobs a Snakemake dry run prints (``rule NAME:`` with its indented fields)."""
    jobs, current = [], None
    for line in dry_run.splitlines():
        started = _JOB.match(line)
        if started:
            current = {"rule": started[1], "input": "", "output": "", "benchmark": None}
            jobs.append(current)
            continue
        field = _FIELD.match(line) if current is not None else None
        if field:
            current[field[1]] = field[2]
        elif current is not None and not line.startswith("    "):
            current = None

    def files(text):  # each file as printed, less the flags Snakemake appends, e.g. " (update)"
        return tuple(re.sub(r" \(\w+\)$", "", f) for f in text.split(", ") if f)

    return [Job(j["rule"], files(j["input"]), files(j["output"]), j["benchmark"]) for j in jobs]


def redo_plan(jobs: list[Job], rule: str) -> tuple[list[Job], list[Job]]:
    """(kept, left): of the ``jobs`` planned with ``--forcerun rule``, ``rule``'s own and every
    job that reads their outputs, directly or not (kept), except those that also read an output
    of a planned job outside that set, and what depends on them (left). A planned job without
    outputs (a target such as ``all``) is neither."""
    producer = {output: job for job in jobs for output in job.outputs}
    chosen = {job for job in jobs if job.rule == rule}
    grew = True
    while grew:
        grew = False
        for job in jobs:
            if (
                job not in chosen
                and job.outputs
                and any(producer.get(f) in chosen for f in job.inputs)
            ):
                chosen.add(job)
                grew = True
    left = set()
    moved = True
    while moved:
        moved = False
        for job in chosen - left:
            waits = [producer[f] for f in job.inputs if f in producer]
            if any(p not in chosen or p in left for p in waits):
                left.add(job)
                moved = True
    order = {job: i for i, job in enumerate(jobs)}
    return (
        sorted(chosen - left, key=order.get),
        sorted(left, key=order.get),
    )


def _snakemake(args: list[str], capture: bool) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "snakemake", *args]
    return subprocess.run(command, capture_output=capture, text=True, check=False)


def _counts(jobs: list[Job]) -> str:
    counts: dict[str, int] = {}
    for job in jobs:
        counts[job.rule] = counts.get(job.rule, 0) + 1
    return ", ".join(f"{rule} {n}" for rule, n in counts.items())


def parse_arguments(argv: list[str]) -> tuple[str, list[str], list[str]]:
    """(rule, targets, Snakemake options) from the command line; RedoError if malformed."""
    words, options = argv, []
    if "--" in argv:
        words, options = argv[: argv.index("--")], argv[argv.index("--") + 1 :]
    if not words or words[0].startswith("-"):
        raise RedoError(f"{USAGE} (got {' '.join(argv) or 'no arguments'})")
    if not any(re.fullmatch(r"--cores(=.*)?|--jobs(=.*)?|-[cj]\d*", o) for o in options):
        options = ["--cores", "all", *options]
    return words[0], words[1:] or ["all"], options


def redo(argv: list[str]) -> int:
    """Plan and run the redo; its messages go to stderr, Snakemake's own output as it runs."""
    rule, targets, options = parse_arguments(argv)
    dry = _snakemake([*targets, "--forcerun", rule, "--dry-run", *options], capture=True)
    if dry.returncode != 0:
        last = [line for line in dry.stderr.splitlines() + dry.stdout.splitlines() if line]
        raise RedoError("the dry run failed; Snakemake said:\n" + "\n".join(last[-8:]))
    jobs = planned_jobs(dry.stdout + "\n" + dry.stderr)
    kept, left = redo_plan(jobs, rule)
    if not any(job.rule == rule for job in jobs):
        raise RedoError(
            f"rule {rule!r} has no job among those of {' '.join(targets)} "
            "(`.venv/bin/snakemake --list-rules` lists the rules)"
        )
    if not any(job.rule == rule for job in kept):
        raise RedoError(
            f"the jobs of rule {rule!r} wait for work not done yet: run their target first "
            f"(`.venv/bin/snakemake --cores all {' '.join(targets)}`)"
        )
    print(f"redo {rule}: {len(kept)} jobs ({_counts(kept)})", file=sys.stderr)
    if left:
        print(
            f"redo {rule}: not redone, as they also wait for work not done yet (a run of "
            f"their target does it): {_counts(left)}",
            file=sys.stderr,
        )
    outputs = [f for job in kept for f in job.outputs]
    return _snakemake([*outputs, "--forcerun", rule, *options], capture=False).returncode


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    try:
        return redo(argv)
    except (RedoError, OSError) as error:
        print(f"redo: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
