"""Shared fixtures: the repository root and a runner for the workflow's command-line tools.

The test folders are packages (an ``__init__.py`` each, ``tests/`` itself none): pytest puts
``tests/`` on ``sys.path``, so test modules import this module and ``figure_checks`` by name, a
test module of another folder as ``<folder>.<module>``, and two folders may hold modules of one
name."""

import os

# The unit tests use small matrices, for which one BLAS thread is several times faster than two
# on a loaded 2-core machine (and deterministic). Set before any test module imports numpy.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
import contextlib
import fcntl
import functools
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from attnspec.papers.outputs import Figure, Table, names_of
from attnspec.papers.registry import ROOMS

REPO = Path(__file__).resolve().parents[1]
# The figures and tables of each paper (papers.md, section 6), as named under figures/paper<X>/:
# the rooms' outputs lists (attnspec/papers/<room>/outputs.py).
FIGURES = {room.upper(): names_of(room.upper(), Figure) for room in ROOMS}
TABLES = {room.upper(): names_of(room.upper(), Table) for room in ROOMS}
BIN = Path(sys.executable).parent


def tool(name: str) -> str:
    """Path of a console script installed beside this Python (snakemake, snakefmt, ruff)."""
    candidate = BIN / name
    return str(candidate) if candidate.exists() else shutil.which(name) or name


@contextlib.contextmanager
def one_snakemake_at_a_time(folder):
    """In the repository itself, wait until no other test's Snakemake command runs there: the
    workflow refuses a second command in one folder, and pytest-xdist runs tests in two processes.
    Any other folder is one test's copy, or the CI run's, whose tests share one process."""
    if Path(folder).resolve() != REPO:
        yield
        return
    lock = REPO / ".snakemake" / "tests.lock"
    lock.parent.mkdir(exist_ok=True)
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file closes
        yield


def run(args, cwd=REPO, check=True, env=None, timeout=1800) -> subprocess.CompletedProcess:
    """Run a command, capturing text output; on failure show it in the assertion."""
    full_env = dict(os.environ, **(env or {}))
    snakemake = Path(args[0]).name == "snakemake"
    with one_snakemake_at_a_time(cwd) if snakemake else contextlib.nullcontext():
        result = subprocess.run(
            args, cwd=cwd, capture_output=True, text=True, env=full_env, timeout=timeout
        )
    if check:
        assert result.returncode == 0, f"{args} failed:\n{result.stdout}\n{result.stderr}"
    return result


def tracked_copy(destination: Path) -> Path:
    """Copy the repository's tracked and untracked-but-not-ignored files (a fresh clone)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for relative in filter(None, listed.split("\0")):
        source = REPO / relative
        if source.is_file():
            target = destination / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO


def snakemake_ci(workdir: Path, *args: str) -> subprocess.CompletedProcess:
    """Run snakemake on the CI preset in ``workdir`` (targets and flags before --configfile)."""
    return run([tool("snakemake"), *args, "--configfile", "config/ci.yaml"], cwd=workdir)


def planned_rules(dry_run_output: str) -> set[str]:
    """Rule names in the "Job stats" table of a dry run."""
    table = dry_run_output.split("Job stats:")[1].split("total")[0]
    return set(re.findall(r"^(\w+)\s+\d+\s*$", table, flags=re.M))


@pytest.fixture(scope="session")
def ci_clone(tmp_path_factory) -> Path:
    """A fresh copy with the committed figures present, run on the CI preset with 2 cores.

    Shared by every end-to-end test module (the run takes a few minutes).
    """
    workdir = tracked_copy(tmp_path_factory.mktemp("clone"))
    # The worst case for a clone: committed outputs newer than every source. Snakemake must
    # still plan every job (results/ is missing, and every figure depends on the config snapshot).
    newest = max(p.stat().st_mtime for p in workdir.rglob("*") if p.is_file())
    for path in (workdir / "figures").rglob("*"):
        if path.is_file():
            os.utime(path, (newest + 10, newest + 10))
    planned = planned_rules(snakemake_ci(workdir, "all", "-n", "--cores", "2").stdout)
    everything = planned_rules(snakemake_ci(workdir, "all", "-n", "-F", "--cores", "2").stdout)
    assert planned == everything, f"committed copies made Snakemake skip {everything - planned}"
    snakemake_ci(workdir, "all", "--cores", "2")
    return workdir


CI_RUN = "the CI preset's run"


@functools.cache
def reads_the_ci_run(path: str) -> bool:
    """Whether the test module ``path`` (relative to the repository) uses the ci_clone fixture."""
    return "ci_clone" in (REPO / path).read_text(encoding="utf-8")


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist
def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's ``--dist loadfile`` (pyproject.toml), with the modules that read the CI
    preset's run as one unit: a unit runs in one worker, in collection order, so the run is made
    once (a session fixture is made once per worker) and the Snakemake commands in it never
    overlap. That unit is handed out first: it is the longest. Every other module is a unit of
    its own, so its module-scoped fixtures are made once."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class OneCIRun(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return CI_RUN if reads_the_ci_run(path) else path

        def _assign_work_unit(self, node) -> None:
            if CI_RUN in self.workqueue:
                self.workqueue.move_to_end(CI_RUN, last=False)
            super()._assign_work_unit(node)

    return OneCIRun(config, log)


@pytest.fixture(autouse=True)
def figures_pass_the_craft_checks(request):
    """Every figure a figure test leaves open is checked once it ends by
    :func:`attnspec.plotting.craft.craft_problems` (print width, fonts >= 6 pt, no overlapping
    text, no text over a legend or off the canvas, no empty panel, readable log axes: issue 20's
    machine checks of craft), :func:`attnspec.plotting.craft.convention_problems` (no
    suptitle, one letter per panel) and :func:`attnspec.plotting.craft.layering_problems` (no
    text over data, no hidden line, no two series in near colours); then the figures close.
    Figures any other test leaves open (the craft checks' own tests leave defective ones) close
    unchecked, whatever order tests run in."""
    yield
    if "figures" not in request.node.module.__name__:
        pyplot = sys.modules.get("matplotlib.pyplot")
        if pyplot is not None:
            pyplot.close("all")
        return
    from matplotlib import pyplot as plt

    from attnspec.plotting.craft import convention_problems, craft_problems, layering_problems

    found = {}
    for number in plt.get_fignums():
        figure = plt.figure(number)
        found[number] = (
            craft_problems(figure) + convention_problems(figure) + layering_problems(figure)
        )
    found = {number: problems for number, problems in found.items() if problems}
    plt.close("all")
    assert not found, f"figures a figure editor would reject: {found}"
