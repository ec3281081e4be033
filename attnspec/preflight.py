"""Checks of the working directory before any job (workflow glue, not maths).

- The output folders (``figures/``, ``results/``, ``logs/``, ``benchmarks/``) must be writable
  and the disk must have room: otherwise one :class:`PreflightError` names the folder, instead of
  a job failing half-way with a traceback.
- A ``.npz`` under ``results/`` left corrupt or truncated by an earlier run (a killed job, a full
  disk, a copy gone wrong) is detected by reading its zip directory and checking every member's
  CRC, and removed, so that Snakemake recomputes it rather than a figure plotting from it.
"""

import os
import shutil
import zipfile
from pathlib import Path

OUTPUT_FOLDERS = ("figures", "results", "logs", "benchmarks")


class PreflightError(RuntimeError):
    """The working directory cannot hold the run's outputs; the message says why."""


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
    """Whether ``path`` is not a readable zip archive whose members all pass their CRC."""
    try:
        with zipfile.ZipFile(path) as archive:
            return archive.testzip() is not None
    except (zipfile.BadZipFile, OSError, EOFError):
        return True


def remove_corrupt_results(root: str | Path) -> list[Path]:
    """Remove every corrupt ``.npz`` under ``root/results`` and return their paths."""
    results = Path(root) / "results"
    removed = []
    if not results.is_dir():
        return removed
    for path in sorted(results.rglob("*.npz")):
        if path.name.startswith(".") or not path.is_file():
            continue  # a temporary file of a job still writing (attnspec.io.atomic_path)
        if is_corrupt_npz(path):
            path.unlink()
            removed.append(path)
    return removed
