"""The working folder and the command line's paths, checked before any job
(attnspec.workflow.preflight): an output folder that is a file or a dangling symlink, and a
--report file whose folder is missing, get one line naming it and what to do."""

import pytest

from attnspec.workflow.preflight import PreflightError, check_output_folders, check_report_path


def test_a_file_where_an_output_folder_goes_is_named(tmp_path):
    """The preflight blamed permissions before."""
    (tmp_path / "results").write_text("")
    with pytest.raises(PreflightError) as raised:
        check_output_folders(tmp_path)
    assert str(raised.value) == (
        "attnspec: results is a file, not a folder; the run writes its outputs under results/: "
        "move the file away"
    )


def test_a_dangling_symlink_where_an_output_folder_goes_is_named(tmp_path):
    """It passed the preflight, then a job stopped with a FileExistsError traceback."""
    (tmp_path / "results").symlink_to(tmp_path / "scratch")
    with pytest.raises(PreflightError) as raised:
        check_output_folders(tmp_path)
    assert str(raised.value) == (
        f"attnspec: results is a symlink to {tmp_path / 'scratch'}, which leads to no folder; the "
        f"run writes its outputs under results/: make {tmp_path / 'scratch'} a folder or remove "
        "the link"
    )


def test_missing_folders_and_symlinks_to_folders_pass(tmp_path):
    (tmp_path / "scratch").mkdir()
    (tmp_path / "results").symlink_to(tmp_path / "scratch")
    (tmp_path / "figures").mkdir()
    check_output_folders(tmp_path)


@pytest.mark.parametrize(
    ("argv", "problem"),
    [
        (["--report", "missing/report.zip"], "missing/report.zip: its folder missing does not"),
        (["--report=missing/r.html", "all"], "missing/r.html: its folder missing does not exist"),
        (["--report", "figures"], "figures: a folder; give a file in it, e.g. --report figures/"),
    ],
)
def test_a_report_file_that_cannot_be_written_is_named(tmp_path, monkeypatch, argv, problem):
    """A --report into a missing folder stopped with a traceback after building the report."""
    (tmp_path / "figures").mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PreflightError, match=f"^attnspec: --report {problem}"):
        check_report_path(argv)


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--report"],
        ["--report", "report.zip"],
        ["--report", "--cores", "1"],
        ["--report-stylesheet", "missing/style.css"],
        ["--", "--report", "missing/x.zip"],
    ],
)
def test_a_report_file_in_an_existing_folder_passes(tmp_path, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    check_report_path(argv)
