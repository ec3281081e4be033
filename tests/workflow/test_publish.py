"""Committed outputs are replaced only by complete, checked new ones (attnspec.workflow.publish):
a job writes them under results/staged/, swaps each in when all are written and checked, then
writes its receipt; a failing job leaves figures/ as it was; a receipt whose files changed since
is removed at the next start, so that the job runs again and restores them."""

import hashlib
import re
import subprocess
from types import SimpleNamespace

import pytest
from snakemake.iocontainers import Namedlist

from attnspec.workflow.publish import (
    PublishError,
    remove_outdated_receipts,
    remove_staged_leftovers,
    run_staged,
)

CSV, MD = "figures/paperD/D2-heads.csv", "figures/paperD/D2-heads.md"
RECEIPT = "results/published/paperD/D2-heads.sha256"
COMMITTED = {CSV: "kind,value\ndata,1\n", MD: "# D2, as committed\n"}


@pytest.fixture
def job(tmp_path, monkeypatch):
    """A figure job's ``snakemake`` object in a folder holding its committed outputs."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "figures" / "paperD").mkdir(parents=True)
    for path, text in COMMITTED.items():
        (tmp_path / path).write_text(text)
    output = Namedlist(fromdict={"plotted": CSV, "caption": MD, "published": RECEIPT})
    return SimpleNamespace(output=output, params=SimpleNamespace(bins=30))


def write(smk, csv="kind,value\ndata,2\n", md="# D2, new\n"):
    with open(smk.output.plotted, "w") as handle:
        handle.write(csv)
    with open(smk.output[1], "w") as handle:
        handle.write(md)


def committed_texts(root):
    return {path: (root / path).read_text() for path in COMMITTED}


def test_a_job_writes_staged_files_then_publishes_them_with_a_receipt(job, tmp_path):
    seen = {}

    def main(smk):
        seen.update(paths=list(smk.output), bins=smk.params.bins)
        assert committed_texts(tmp_path) == COMMITTED  # nothing published while it runs
        write(smk)

    run_staged(main, job)
    assert seen["paths"] == [f"results/staged/{CSV}", f"results/staged/{MD}", RECEIPT]
    assert seen["bins"] == 30
    assert committed_texts(tmp_path) == {CSV: "kind,value\ndata,2\n", MD: "# D2, new\n"}
    assert not [p for p in (tmp_path / "results" / "staged").rglob("*") if p.is_file()]
    check = subprocess.run(["sha256sum", "-c", RECEIPT], capture_output=True, text=True)
    assert check.returncode == 0 and check.stdout.count(": OK") == 2
    assert remove_outdated_receipts(tmp_path) == []


@pytest.mark.parametrize(
    ("csv", "problem"),
    [("kind,value\n", "has no row under its header"), ("", "is empty"), (None, "was not written")],
)
def test_an_incomplete_output_publishes_nothing(job, tmp_path, csv, problem):
    def main(smk):
        write(smk, csv=csv or "")
        if csv is None:
            (tmp_path / smk.output.plotted).unlink()

    with pytest.raises(PublishError, match=rf"results/staged/{CSV} \(the new {CSV}\) {problem}"):
        run_staged(main, job)
    assert committed_texts(tmp_path) == COMMITTED
    assert not (tmp_path / RECEIPT).exists()


def test_a_failing_job_publishes_nothing_and_leaves_nothing_staged(job, tmp_path):
    def main(smk):
        write(smk)
        raise ValueError("samples must be non-empty and finite")

    with pytest.raises(ValueError, match="finite"):
        run_staged(main, job)
    assert committed_texts(tmp_path) == COMMITTED
    assert remove_staged_leftovers(tmp_path) == []
    assert not (tmp_path / RECEIPT).exists()


def test_a_folder_in_place_of_an_output_stops_the_job_before_it_runs(job, tmp_path):
    (tmp_path / MD).unlink()
    (tmp_path / MD).mkdir()
    (tmp_path / MD / "notes.txt").write_text("mine")
    ran = []
    with pytest.raises(PublishError, match=rf"^{MD} is a folder, where this job writes a file"):
        run_staged(ran.append, job)
    assert ran == [] and (tmp_path / MD / "notes.txt").read_text() == "mine"
    assert (tmp_path / CSV).read_text() == COMMITTED[CSV]


def test_a_rule_without_a_receipt_is_a_workflow_bug(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    smk = SimpleNamespace(output=Namedlist(fromdict={"plotted": CSV}))
    with pytest.raises(PublishError, match="one receipt under results/published"):
        run_staged(write, smk)


def test_a_receipt_goes_when_its_files_change_and_stays_while_they_hold_what_was_published(
    job, tmp_path
):
    run_staged(write, job)
    assert remove_outdated_receipts(tmp_path) == []
    (tmp_path / CSV).write_text("kind,value\n")  # cut to its header
    assert remove_outdated_receipts(tmp_path) == [f"{CSV} has changed"]
    assert not (tmp_path / RECEIPT).exists()
    run_staged(write, job)
    (tmp_path / MD).unlink()
    assert remove_outdated_receipts(tmp_path) == [f"{MD} is missing or not a file"]


def test_staged_leftovers_of_a_killed_job_are_removed(tmp_path):
    leftover = tmp_path / "results" / "staged" / CSV
    leftover.parent.mkdir(parents=True)
    leftover.write_text("half")
    assert remove_staged_leftovers(tmp_path) == [leftover]
    assert not leftover.exists()


def test_the_receipt_names_each_file_with_its_sha256(job, tmp_path):
    run_staged(write, job)
    lines = (tmp_path / RECEIPT).read_text().splitlines()
    assert lines == [
        f"{hashlib.sha256((tmp_path / path).read_bytes()).hexdigest()}  {path}"
        for path in (CSV, MD)
    ]


def test_every_rule_writing_committed_outputs_publishes_them_through_run_staged():
    """A rule whose outputs are committed (committed(), figure_files, table_files) runs a script
    ending in run_staged; every other rule writing under figures/ (in_figures) is the notebooks'
    (their files are not committed)."""
    from conftest import REPO
    from product.test_workflow_static import rule_blocks

    staged, other = set(), set()
    for name, body in rule_blocks():
        output = body.split("    output:")[1].split("\n    log:")[0] if "output:" in body else ""
        script = re.search(r'f"\{SCRIPTS\}/(\S+)"', body)
        if re.search(r"committed\(|figure_files\(|table_files\(", output):
            staged.add(script[1])
        elif "in_figures(" in output:
            other.add(name)
    assert other == {"paper_notebook"}
    ending = re.compile(r"\nrun_staged\(\w+, snakemake\)  # noqa: F821\n\Z")
    uses = {p.name for p in (REPO / "scripts").glob("*.py") if ending.search(p.read_text())}
    assert uses == staged and {"figure.py", "table.py"} <= staged
