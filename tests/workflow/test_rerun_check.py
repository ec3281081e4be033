"""The drift check a run prints at its end (attnspec.workflow.rerun_check): the outputs a run
rewrote against the committed ones of its preset."""

import shutil
import subprocess
import time

import yaml
from conftest import REPO

from attnspec.workflow.rerun_check import CI_REFERENCE, check_rerun, preset_of, report_rerun


def _preset(name):
    return yaml.safe_load((REPO / "config" / f"{name}.yaml").read_text())


def test_the_preset_is_named_by_the_settings_it_equals():
    for name in ("config", "ci", "paper"):
        assert preset_of(_preset(name), REPO) == name
    assert preset_of({**_preset("config"), "replicate": 1}, REPO) is None


def _ci_root(tmp_path):
    """A working directory whose figures/ are the CI preset's committed outputs, written now."""
    root = tmp_path / "run"
    shutil.copytree(REPO / "config", root / "config")
    shutil.copytree(REPO / CI_REFERENCE, root / CI_REFERENCE)
    shutil.copytree(REPO / CI_REFERENCE, root / "figures")
    return root


def test_a_rerun_of_the_ci_preset_that_matches_its_reference_says_so(tmp_path):
    root = _ci_root(tmp_path)
    summary, found = check_rerun(root, _preset("ci"), since=0.0)
    assert found == [] and summary.startswith("drift check: 162 rewritten outputs match")


def test_a_moved_number_is_listed_and_the_list_written_to_the_log(tmp_path):
    root = _ci_root(tmp_path)
    table = root / "figures" / "paperA" / "A-T1-edges.md"
    text = table.read_text()
    number = next(c.strip() for c in text.split("|") if c.strip().replace(".", "").isdigit())
    table.write_text(text.replace(f" {number} ", f" {float(number) * 1.5:.6g} ", 1))
    summary = report_rerun(root, _preset("ci"), since=0.0)
    assert summary.startswith("drift check: 1 differences beyond tolerance")
    assert "A-T1-edges.md" in (root / "logs" / "drift.txt").read_text()


def test_outputs_not_written_by_the_run_are_not_compared(tmp_path):
    root = _ci_root(tmp_path)
    (root / "figures" / "paperA" / "A-T1-edges.md").write_text("changed long ago\n")
    later = time.time() + 10
    assert check_rerun(root, _preset("ci"), since=later) == (
        "drift check: this run rewrote no committed output",
        [],
    )


def test_another_configuration_has_nothing_committed_to_compare_with(tmp_path):
    root = _ci_root(tmp_path)
    summary, found = check_rerun(root, {**_preset("ci"), "replicate": 2}, since=0.0)
    assert summary.startswith("drift check skipped") and found == []


def test_the_default_preset_compares_with_the_committed_figures_of_git_head(tmp_path):
    root = tmp_path / "run"
    (root / "figures" / "paperA").mkdir(parents=True)
    shutil.copytree(REPO / "config", root / "config")
    shutil.copy(REPO / "figures/paperA/A-T1-edges.csv", root / "figures/paperA/A-T1-edges.csv")

    def git(*args):
        subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)

    git("init", "-q")
    git("add", "figures")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "figures")
    summary, _ = check_rerun(root, _preset("config"), since=0.0)
    assert summary.startswith("drift check: 1 rewritten outputs match git HEAD:figures/")
    shutil.rmtree(root / ".git")
    summary, _ = check_rerun(root, _preset("config"), since=0.0)
    assert summary == "drift check skipped: not a git checkout, no committed outputs"
