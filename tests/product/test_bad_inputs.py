"""Bad inputs stop before any job with one clear message (tools/bad_inputs.py, docs/)."""

import sys

import pytest
from conftest import REPO, tracked_copy

sys.path.insert(0, str(REPO / "tools"))
import bad_inputs  # noqa: E402

CASES = bad_inputs.cases()


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """Every case run once in a copy of the repository, with its files before and after."""
    workdir = tracked_copy(tmp_path_factory.mktemp("bad-inputs") / "clone")
    figures = {p: p.stat().st_mtime_ns for p in (workdir / "figures").rglob("*") if p.is_file()}
    results = {id(case): bad_inputs.run_case(case, workdir) for case in CASES}
    after = {p: p.stat().st_mtime_ns for p in (workdir / "figures").rglob("*") if p.is_file()}
    return results, workdir, figures == after


def test_there_are_at_least_fifty_kinds_across_config_command_line_library_and_cli():
    assert len(CASES) >= 50
    kinds = {"config file", "command line", "working folder", "library", "CLI"}
    assert {case.where for case in CASES} == kinds
    assert all(case.where == "library" for case in CASES if case.computes)


@pytest.mark.slow  # the outcomes fixture copies the repository and starts Snakemake per case
@pytest.mark.parametrize("case", CASES, ids=[f"{c.where}: {c.input}" for c in CASES])
def test_bad_input_stops_with_one_message_naming_what_is_allowed(case, outcomes):
    results, _, _ = outcomes
    outcome = results[id(case)]
    if case.computes:  # an input the library now takes: the value is checked
        assert (outcome.status, outcome.message) == (0, case.expect), outcome.output
        return
    assert outcome.status != 0, f"accepted: {outcome.output[-2000:]}"
    assert case.expect in outcome.message, outcome.output[-2000:]
    assert "Job stats" not in outcome.output, "a dry run planned jobs"
    if case.by == "attnspec":
        assert "Traceback" not in outcome.output
        assert "\n" not in outcome.message, "more than one line for one problem"


@pytest.mark.slow
def test_nothing_is_written_under_results_or_figures(outcomes):
    _, workdir, figures_untouched = outcomes
    assert figures_untouched
    assert not (workdir / "results").exists()


@pytest.mark.slow
def test_docs_table_is_what_the_cases_give(outcomes):
    results, _, _ = outcomes
    text = bad_inputs.table([(case, results[id(case)]) for case in CASES])
    committed = (REPO / "docs" / "bad-inputs.md").read_text(encoding="utf-8")
    assert committed == text, "regenerate with: .venv/bin/python tools/bad_inputs.py --write"


def test_every_fault_of_the_table_names_a_test_that_checks_it():
    source = (REPO / "tests" / "product" / "test_committed_outputs.py").read_text()
    for _, _, _, test in bad_inputs.FAULTS:
        assert f"def {test}(" in source, test
