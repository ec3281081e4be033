"""Committed outputs survive a failing job and come back when changed (issue 32, items 1, 2, 6).

In a copy where target D2 of the CI preset has run, its outputs committed to the copy's own git,
each case below reruns D2: a result of paperD_heads with every float NaN, with an extra pickled
member, with one member cut to 5 values, a folder where D2-heads.png is written, and the
committed CSV cut to its header. After each, `git status figures/` lists nothing deleted and
nothing rewritten from bad data (the folder the user made aside), and a committed file that
changed is restored. In the same partly built copy, `redo paperD_heads` runs that rule's jobs
and figure D2, nothing of the work not yet done.
"""

import shutil
import subprocess

import numpy as np
import pytest
from conftest import planned_rules, run, snakemake_ci, tool, tracked_copy

pytestmark = pytest.mark.slow  # every test copies the repository and starts Snakemake

HEADS = "results/paperD/heads/h1/draws2.npz"
FIGURE = "figures/paperD/D2-heads"


def git(root, *args) -> str:
    command = ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A copy of the repository where `snakemake D2` (CI preset) has run, committed."""
    root = tracked_copy(tmp_path_factory.mktemp("built") / "clone")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "sources and committed outputs")
    snakemake_ci(root, "D2", "--cores", "1")
    git(root, "add", "-A", "figures")
    git(root, "commit", "-qm", "D2 of the CI preset")
    return root


@pytest.fixture
def clone(built, tmp_path):
    copy = tmp_path / "clone"
    shutil.copytree(built, copy, symlinks=True)
    return copy


def rerun_d2(root, *options) -> subprocess.CompletedProcess:
    command = [tool("snakemake"), "D2", *options, "--cores", "1", "--configfile", "config/ci.yaml"]
    result = run(command, cwd=root, check=False)
    result.said = result.stdout + result.stderr
    return result


def rewrite_heads(root, change) -> None:
    """Rewrite the result of paperD_heads at h = 1 with ``change(arrays)`` (newer than D2)."""
    with np.load(root / HEADS) as data:
        arrays = {key: data[key] for key in data.files}
    np.savez(root / HEADS, **change(arrays))


def figures_status(root) -> str:
    return git(root, "status", "--porcelain", "figures")


def nan_floats(arrays):
    return {k: np.full_like(v, np.nan) if v.dtype.kind == "f" else v for k, v in arrays.items()}


def with_pickled_member(arrays):
    return {**arrays, "extra": np.array([{"a": 1}], dtype=object)}


def cut_to_five(arrays):
    return {**arrays, "output/gaussian": arrays["output/gaussian"].ravel()[:5]}


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        (nan_floats, "member 'attention/softmax' holds NaN or infinity"),
        (with_pickled_member, "member 'extra' holds pickled Python objects"),
        (cut_to_five, r"member 'output/gaussian' has shape (5,); declared (draws, n)"),
    ],
    ids=["all-nan", "pickled-member", "cut-to-five"],
)
def test_a_bad_result_is_refused_and_every_committed_file_kept(clone, change, refusal):
    rewrite_heads(clone, change)
    result = rerun_d2(clone)
    assert figures_status(clone) == ""
    assert result.returncode != 0
    assert f"{HEADS}: {refusal}" in result.said
    assert "remove it and run the command again" in result.said
    (clone / HEADS).unlink()  # as the message says: the next run recomputes it and redoes D2
    again = rerun_d2(clone)
    assert again.returncode == 0, again.said
    assert planned_rules(again.said) == {"paperD_heads", "paperD_D2_figure", "D2"}
    assert figures_status(clone) == ""


def test_a_folder_in_place_of_the_png_stops_the_job_and_keeps_the_others(clone):
    png = clone / f"{FIGURE}.png"
    png.unlink()
    png.mkdir()
    (png / "notes.txt").write_text("mine")
    result = rerun_d2(clone, "--forcerun", "paperD_D2_figure")
    status = figures_status(clone)
    assert f"{FIGURE}.csv" not in status and f"{FIGURE}.md" not in status
    assert f" D {FIGURE}.png" in status.splitlines()  # the user's folder, which stays
    assert (png / "notes.txt").read_text() == "mine"
    assert result.returncode != 0
    assert f"{FIGURE}.png is a folder, where this job writes a file: move it away" in result.said


def test_a_committed_csv_cut_to_its_header_is_restored(clone):
    csv = clone / f"{FIGURE}.csv"
    csv.write_text(csv.read_text().splitlines()[0] + "\n")
    result = rerun_d2(clone)
    assert figures_status(clone) == ""
    assert result.returncode == 0, result.said
    assert f"{FIGURE}.csv has changed since a run of this folder published it" in result.said
    assert planned_rules(result.said) == {"paperD_D2_figure", "D2"}


def test_redo_runs_one_rule_and_what_depends_on_it_not_the_missing_work(clone):
    """`--forcerun paperD_heads D2` reads D2 as a second rule and plans target all, every job
    this partly built copy misses; redo plans the two jobs of paperD_heads and figure D2."""
    trap = run(
        [tool("snakemake"), "--forcerun", "paperD_heads", "D2", "-n"]
        + ["--configfile", "config/ci.yaml"],
        cwd=clone,
    )
    assert "paperB_sticking_batch" in planned_rules(trap.stdout)
    redo = run(
        [tool("python"), "-m", "attnspec.workflow.redo", "paperD_heads"]
        + ["--", "--cores", "1", "--configfile", "config/ci.yaml"],
        cwd=clone,
    )
    assert "redo paperD_heads: 3 jobs (paperD_heads 2, paperD_D2_figure 1)" in redo.stderr
    assert "not redone, as they also wait for work not done yet" in redo.stderr
    assert planned_rules(redo.stdout + redo.stderr) == {"paperD_heads", "paperD_D2_figure"}
    assert figures_status(clone) == ""
