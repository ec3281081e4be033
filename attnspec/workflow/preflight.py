"""Checks of the working directory before any job (workflow glue, not maths).

- The output folders (``figures/``, ``results/``, ``logs/``, ``benchmarks/``) must be writable
  and the disk must have room: otherwise one :class:`PreflightError` names the folder, instead of
  a job failing half-way with a traceback.
- A ``.npz`` under ``results/`` left corrupt or truncated by an earlier run (a killed job, a full
  disk, a copy gone wrong) is detected by reading its zip directory and checking every member's
  CRC, and removed, so that Snakemake recomputes it rather than a figure plotting from it.
- One Snakemake command per folder at a time: each holds an exclusive ``fcntl`` lock on
  ``.snakemake/attnspec-run.lock`` for its whole life (:func:`hold_run_lock`); a second command
  in the folder stops with one line naming the holder. The system releases the lock when the
  process ends, however it ends (``kill -9`` too). Snakemake's own lock is not enough: a second
  run stopped by it removes the first run's lock files on exit (Snakemake 9), and a killed run
  leaves them behind; holding ours, :func:`remove_stale_snakemake_locks` clears them (no live
  command can own them), so ``--unlock`` is never needed; the hidden temporary files a killed
  job was writing (:func:`attnspec.workflow.io.atomic_path`) are removed too
  (:func:`remove_partial_files`).
- SIGTERM ends the run and so frees the lock: Snakemake's handler runs in a thread of its own
  (:func:`handle_signal_in_a_thread`), not on top of the main thread, which may hold the lock
  that handler needs.
- A nested Snakemake that only reads the rules (the rule graph's dry run) works in a view of the
  folder (symlinks) without its outputs (:func:`link_sources`): jobs of the outer run delete and
  write those files while it builds its graph.
"""

import fcntl
import os
import shutil
import signal
import threading
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path

OUTPUT_FOLDERS = ("figures", "results", "logs", "benchmarks")


RUN_LOCK = Path(".snakemake") / "attnspec-run.lock"


class PreflightError(RuntimeError):
    """The working directory cannot hold the run's outputs; the message says why."""


def check_cores(cores: int | None) -> None:
    """PreflightError for ``--cores`` below 1 (Snakemake waits forever with 0 and runs on every
    core with -1); None (not given, e.g. a cluster run with --jobs) passes."""
    if cores is not None and cores < 1:
        raise PreflightError(
            f"attnspec: --cores {cores}: allowed: --cores N with N >= 1, or --cores all"
        )


def check_report_path(argv: Sequence[str]) -> None:
    """PreflightError naming ``--report``'s file (``--report F``, ``--report=F``, or
    report.html) when it is a folder or its folder is missing or not writable: Snakemake would
    build the report, then stop with a traceback when writing it."""
    path = _report_path(argv)
    if path is None:
        return
    folder = path.parent
    if path.is_dir():
        problem = f"a folder; give a file in it, e.g. --report {path / 'report.zip'}"
    elif not folder.is_dir():
        problem = f"its folder {folder} does not exist; create it first (mkdir -p {folder})"
    elif not os.access(folder, os.W_OK | os.X_OK):
        problem = f"its folder {folder} is not writable; give a file in a writable folder"
    else:
        return
    raise PreflightError(f"attnspec: --report {path}: {problem}")


def _report_path(argv: Sequence[str]) -> Path | None:
    """The file ``--report`` names in the command line ``argv`` (Snakemake's default
    report.html when it is given alone), or None."""
    for i, argument in enumerate(argv):
        if argument == "--":
            break
        if argument.startswith("--report="):
            return Path(argument.partition("=")[2])
        if argument == "--report":
            following = argv[i + 1] if i + 1 < len(argv) else "-"
            return Path("report.html" if following.startswith("-") else following)
    return None


def _lock_file(root: str | Path):
    """The run lock's file, opened; PreflightError naming it if it cannot be (a folder there, or
    ``.snakemake`` a file)."""
    path = Path(root) / RUN_LOCK
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return open(path, "a+", encoding="utf-8")  # noqa: SIM115 (held open for the run's life)
    except IsADirectoryError:
        raise PreflightError(
            f"attnspec: {RUN_LOCK} is a folder, where the run keeps its lock file: remove it "
            f"(rm -r {RUN_LOCK}); the next command makes the file"
        ) from None
    except OSError as error:
        raise PreflightError(
            f"attnspec: the run lock {RUN_LOCK} cannot be made ({error.strerror}: "
            f"{error.filename}); {RUN_LOCK.parent} must be a writable folder"
        ) from None


def _locked_by_another(handle) -> bool:
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    return False


def _refusal(handle) -> PreflightError:
    handle.seek(0)
    holder = handle.read().strip() or "another process"
    return PreflightError(
        f"attnspec: another Snakemake command is running in this folder ({holder}); wait for it "
        "to end or work in another clone (its lock goes when that process ends, also after "
        "kill -9: no --unlock needed)"
    )


def hold_run_lock(root: str | Path):
    """Take the folder's run lock for the life of this process and return its open file (keep
    a reference: closing it releases the lock); PreflightError if another command holds it."""
    handle = _lock_file(root)
    if _locked_by_another(handle):
        error = _refusal(handle)
        handle.close()
        raise error
    handle.seek(0)
    handle.truncate()
    started = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    handle.write(f"pid {os.getpid()}, started {started}\n")
    handle.flush()
    return handle


def handle_signal_in_a_thread(signum: int = signal.SIGTERM) -> None:
    """Run the Python handler now installed for ``signum`` in a thread of its own rather than in
    the main thread, wherever that was interrupted.

    Snakemake's SIGTERM handler takes its scheduler's lock, which the main thread holds while it
    records a finished job. Run there, the handler waited for itself for ever: after a SIGTERM
    to the process group had ended the jobs, Snakemake slept with no children and kept the
    folder's run lock. In a thread it waits until the main thread lets go, then stops the run as
    Snakemake means to (when the running jobs end: at once after a SIGTERM to the group)."""
    handler = signal.getsignal(signum)
    if callable(handler):

        def in_a_thread(*args):
            threading.Thread(target=handler, args=args, daemon=True).start()

        signal.signal(signum, in_a_thread)


def remove_stale_snakemake_locks(root: str | Path) -> list[Path]:
    """Remove Snakemake's lock files under ``root`` (``.snakemake/locks/*``) and return them.

    Call only while holding :func:`hold_run_lock`: every Snakemake command of this workflow holds
    it, so no live command owns these files (they are left by a killed run, or by a second run
    that removed and rewrote them wrongly)."""
    stale = sorted((Path(root) / ".snakemake" / "locks").glob("*"))
    for path in stale:
        path.unlink(missing_ok=True)
    return stale


def check_output_folders(root: str | Path, folders=OUTPUT_FOLDERS) -> None:
    """PreflightError naming the first of ``folders`` under ``root`` that is there but is not a
    folder: a file, or a symlink that leads to no folder (the jobs could not make their outputs
    under it). A symlink to a folder is fine."""
    for name in folders:
        path = Path(root) / name
        if path.is_dir() or not path.is_symlink() and not path.exists():
            continue
        if path.is_symlink():
            problem = f"a symlink to {os.readlink(path)}, which leads to no folder"
            fix = f"make {os.readlink(path)} a folder or remove the link"
        else:
            problem, fix = "a file, not a folder", "move the file away"
        raise PreflightError(
            f"attnspec: {name} is {problem}; the run writes its outputs under {name}/: {fix}"
        )


def check_writable(root: str | Path, folders=OUTPUT_FOLDERS) -> None:
    """Each existing folder (or, if missing, its parent) under ``root`` is writable."""
    root = Path(root)
    for name in folders:
        folder = root / name
        target = folder if folder.exists() else root
        if not os.access(target, os.W_OK | os.X_OK):
            raise PreflightError(
                f"{folder} is not writable (permissions of {target}); the run writes its outputs "
                "there: fix the permissions or run from a writable copy of the repository"
            )


def check_free_space(root: str | Path, needed_mb: int) -> None:
    """At least ``needed_mb`` MB free on the file system of ``root``."""
    free_mb = shutil.disk_usage(root).free // 1_000_000
    if free_mb < needed_mb:
        raise PreflightError(
            f"only {free_mb} MB free on the disk of {Path(root).resolve()}; the run needs about "
            f"{needed_mb} MB for results/, logs/ and figures/: free some space first"
        )


def is_corrupt_npz(path: str | Path) -> bool:
    """Whether ``path`` is not an ``.npz`` as numpy writes it: a readable zip archive whose
    members all pass their CRC, with at least one member, every member a ``.npy`` array whose
    header numpy reads (an empty or foreign zip is corrupt too)."""
    import numpy as np

    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            if not names or archive.testzip() is not None:
                return True
            for name in names:
                if not name.endswith(".npy"):
                    return True
                with archive.open(name) as member:
                    major, _ = np.lib.format.read_magic(member)
                    if major == 1:
                        np.lib.format.read_array_header_1_0(member)
                    else:
                        np.lib.format.read_array_header_2_0(member)
    except (zipfile.BadZipFile, OSError, EOFError, ValueError):
        return True
    return False


def remove_corrupt_results(root: str | Path) -> list[Path]:
    """Remove every corrupt ``.npz`` under ``root/results`` and return their paths."""
    results = Path(root) / "results"
    removed = []
    if not results.is_dir():
        return removed
    for path in sorted(results.rglob("*.npz")):
        if path.name.startswith(".") or not path.is_file():
            continue  # a temporary file of a job still writing (attnspec.workflow.io.atomic_path)
        if is_corrupt_npz(path):
            path.unlink()
            removed.append(path)
    return removed


def remove_partial_files(root: str | Path, folders=("figures", "results")) -> list[Path]:
    """Remove the temporary files of outputs being written when a job was killed (hidden files
    named as :func:`attnspec.workflow.io.atomic_path` names them) and return them. Call only while
    holding :func:`hold_run_lock` (no live job is writing them)."""
    from attnspec.workflow.io import is_partial_file

    removed = []
    for folder in folders:
        for path in sorted((Path(root) / folder).rglob(".*")):
            if path.is_file() and is_partial_file(path.name):
                path.unlink()
                removed.append(path)
    return removed


def link_sources(root: str | Path, into: str | Path) -> list[Path]:
    """Symlink every top-level entry of ``root`` into the folder ``into`` except the run's output
    folders and ``.snakemake``, and return the links: a view of the sources (rules, config,
    corpus, scripts) in which every output is missing."""
    skipped = {*OUTPUT_FOLDERS, ".snakemake"}
    links = []
    for entry in sorted(Path(root).iterdir()):
        if entry.name not in skipped:
            link = Path(into) / entry.name
            link.symlink_to(entry.resolve(), target_is_directory=entry.is_dir())
            links.append(link)
    return links
