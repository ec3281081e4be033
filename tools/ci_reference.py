"""Regenerate tests/reference/ci-preset/: the CI preset's outputs, which every pull request's tests
compare by tolerance (attnspec.workflow.drift) with what the code under review makes.

    python tools/ci_reference.py --write

Copies the repository's tracked files to a temporary directory, runs the CI preset there exactly
as the end-to-end tests' ``ci_clone`` fixture does (tests/conftest.py: ``snakemake all --cores 2
--configfile config/ci.yaml``, one BLAS thread) and replaces tests/reference/ci-preset/ with the
figures/ files of the kinds drift compares (.csv, .md, .tex, .png, .pdf) that the run wrote. Takes a
few minutes.
"""

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REFERENCE = REPO / "tests" / "reference" / "ci-preset"
USAGE = "usage: python tools/ci_reference.py --write"

sys.path.insert(0, str(REPO / "tests"))
# The fixture's own copy and invocation (importing conftest also sets its one-thread BLAS env).
from conftest import snakemake_ci, tracked_copy  # noqa: E402

from attnspec.workflow.drift import COMPARED  # noqa: E402


def run_ci_preset(workdir: Path) -> list[Path]:
    """Run the CI preset in a tracked copy at ``workdir``; the outputs of the kinds drift compares
    that the run wrote, relative to figures/ (committed outputs of other targets, such as
    figures/claims-replicates.*, keep their older copy times and stay out)."""
    tracked_copy(workdir)
    started = time.time()
    try:
        snakemake_ci(workdir, "all", "--cores", "2")
    except AssertionError as error:  # conftest.run's failure, with Snakemake's output
        raise RuntimeError(f"the CI preset failed: {error}") from None
    figures = workdir / "figures"
    return sorted(
        p.relative_to(figures)
        for p in figures.rglob("*")
        if p.is_file() and p.suffix in COMPARED and p.stat().st_mtime >= started
    )


def write_reference() -> tuple[int, int]:
    """Replace REFERENCE with a fresh CI-preset run's outputs; (files, bytes) written."""
    with tempfile.TemporaryDirectory(prefix="ci-reference-") as scratch:
        workdir = Path(scratch)
        outputs = run_ci_preset(workdir)
        shutil.rmtree(REFERENCE, ignore_errors=True)
        for relative in outputs:
            target = REFERENCE / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(workdir / "figures" / relative, target)
    return len(outputs), sum((REFERENCE / p).stat().st_size for p in outputs)


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if argv != ["--write"]:
        print(f"{USAGE} (got {' '.join(argv) or 'no arguments'})", file=sys.stderr)
        return 2
    try:
        files, size = write_reference()
    except (RuntimeError, OSError, subprocess.SubprocessError) as error:
        print(f"ci_reference: error: {error}", file=sys.stderr)
        return 1
    print(f"wrote {files} files ({size / 1e6:.1f} MB) to {REFERENCE.relative_to(REPO)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
