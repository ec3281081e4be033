"""The drift check a run prints at its end: the outputs it wrote, compared by
:mod:`attnspec.workflow.drift`'s tolerances with the committed ones of the same preset (git's
``HEAD:figures/`` for the default and paper presets, ``tests/reference/ci-preset/`` for the CI
preset), so that a rerun on another CPU says at once whether anything moved beyond last-bit
noise.
"""

import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

import yaml

from attnspec.workflow.drift import COMPARED, compare_files

REPORT = Path("logs") / "drift.txt"
CI_REFERENCE = Path("tests") / "reference" / "ci-preset"


def preset_of(checked: Mapping, root: Path) -> str | None:
    """``config``, ``ci`` or ``paper``: the preset file under ``root/config`` whose settings the
    checked config equals (``replicate`` included), or None for any other configuration."""
    for name in ("config", "ci", "paper"):
        path = root / "config" / f"{name}.yaml"
        if path.is_file() and yaml.safe_load(path.read_text(encoding="utf-8")) == dict(checked):
            return name
    return None


def written_outputs(figures: Path, since: float) -> list[Path]:
    """The outputs of the kinds drift compares under ``figures`` written at or after ``since``
    (a POSIX time), relative to ``figures``."""
    return sorted(
        p.relative_to(figures)
        for p in figures.rglob("*")
        if p.is_file() and p.suffix in COMPARED and p.stat().st_mtime >= since
    )


def _git_tree(root: Path, folder: str, into: Path) -> bool:
    """Extract ``HEAD:<folder>`` of the git checkout at ``root`` into ``into``; False when
    ``root`` is not a git checkout or has no commit."""
    try:
        archive = subprocess.run(
            ["git", "archive", "--format=tar", "HEAD", folder],
            cwd=root,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return False
    import io
    import tarfile

    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return True


def check_rerun(root: Path, checked: Mapping, since: float) -> tuple[str, list[str]]:
    """(summary line, difference lines) for the outputs under ``root/figures`` written since
    ``since`` against the committed ones of the run's preset."""
    root = Path(root)
    figures = root / "figures"
    written = written_outputs(figures, since) if figures.is_dir() else []
    if not written:
        return "drift check: this run rewrote no committed output", []
    preset = preset_of(checked, root)
    if preset is None:
        return (
            "drift check skipped: no committed outputs of this configuration (the default, "
            "paper and CI presets have them)",
            [],
        )
    with tempfile.TemporaryDirectory(prefix="attnspec-committed-") as scratch:
        if preset == "ci":
            committed, source = root / CI_REFERENCE, str(CI_REFERENCE)
        else:
            if not _git_tree(root, "figures", Path(scratch)):
                return "drift check skipped: not a git checkout, no committed outputs", []
            committed, source = Path(scratch) / "figures", "git HEAD:figures/"
        compared = [p for p in written if (committed / p).is_file()]
        found = compare_files(committed, figures, compared)
    new = len(written) - len(compared)
    extra = f"; {new} not committed" if new else ""
    if not found:
        return (
            f"drift check: {len(compared)} rewritten outputs match {source} within the "
            f"tolerances of attnspec/workflow/drift.py{extra}",
            [],
        )
    return (
        f"drift check: {len(found)} differences beyond tolerance in the {len(compared)} "
        f"rewritten outputs against {source}{extra}; listed in {REPORT}",
        found,
    )


def report_rerun(root: Path, checked: Mapping, since: float) -> str:
    """Run :func:`check_rerun`, write its lines to ``root/logs/drift.txt`` and return the
    summary line (the run's last words); any error becomes a line, never a traceback."""
    try:
        summary, found = check_rerun(root, checked, since)
    except (OSError, ValueError) as error:
        return f"drift check failed: {error}"
    report = Path(root) / REPORT
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text("\n".join([summary, *found]) + "\n", encoding="utf-8")
    return summary
