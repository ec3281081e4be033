"""Which code produced an output: the package version and the git commit of the code.

Workflow glue (it asks git), not maths. The commit is the last one that touched the code and
presets (``CODE_PATHS``), so committing figures, the README or docs does not change it; uncommitted
changes to those paths are flagged. The config snapshot (``results/config.yaml``) carries the line
as its first comment and every caption ends with it (:func:`attnspec.workflow.io.rule_caption`).
"""

import subprocess
from pathlib import Path

from attnspec import __version__

CODE_PATHS = ("attnspec", "scripts", "workflow", "config", "Snakefile", "pyproject.toml")
PREFIX = "# produced by "


def code_commit(root: str | Path) -> str:
    """Short hash of the last commit touching the code under ``root``, with ``+changes`` when
    those paths differ from it; ``unknown`` outside a git checkout."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=root, capture_output=True, text=True, check=True
        ).stdout.strip()

    try:
        commit = git("log", "-1", "--format=%h", "--", *CODE_PATHS)
        dirty = git("status", "--porcelain", "--untracked-files=no", "--", *CODE_PATHS)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    if not commit:
        return "unknown"
    return f"{commit}+changes" if dirty else commit


def provenance_line(root: str | Path) -> str:
    """``attnspec <version>, code at commit <hash>``."""
    return f"attnspec {__version__}, code at commit {code_commit(root)}"


def read_provenance(snapshot_text: str) -> str:
    """The provenance line of a config snapshot ('' if it has none)."""
    first = snapshot_text.split("\n", 1)[0]
    return first.removeprefix(PREFIX) if first.startswith(PREFIX) else ""
