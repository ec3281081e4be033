"""The rule graph: Snakemake's own Mermaid output, committed and shown in docs/architecture.md."""

import re
import runpy
from types import SimpleNamespace

import pytest
from conftest import REPO, planned_rules, run, tool

from attnspec.workflow.preflight import link_sources

pytestmark = pytest.mark.slow  # every test starts Snakemake

START, END = "```mermaid\n", "```\n"


def mermaid_of_default_preset() -> str:
    """As the rule rulegraph draws it: node numbers follow string hashing, fixed by the seed."""
    command = [tool("snakemake"), "all", "--rulegraph", "mermaid-js", "--nolock"]
    return run(command, env={"PYTHONHASHSEED": "0"}).stdout


def rules_and_edges(mermaid: str) -> tuple[set[str], set[tuple[str, str]]]:
    names = dict(re.findall(r"^\s*(id\d+)\[(\w+)\]", mermaid, flags=re.M))
    edges = {(names[a], names[b]) for a, b in re.findall(r"(id\d+) --> (id\d+)", mermaid)}
    return set(names.values()), edges


def test_committed_rule_graph_is_what_snakemake_draws_and_the_architecture_page_shows():
    fresh = mermaid_of_default_preset()
    committed = (REPO / "figures" / "rulegraph.mmd").read_text(encoding="utf-8")
    assert committed == fresh
    page = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = page.split("<!-- rulegraph:start -->\n")[1].split("<!-- rulegraph:end -->")[0]
    assert block == START + fresh + END


def test_the_rule_graph_has_every_rule_all_needs():
    rules, edges = rules_and_edges(mermaid_of_default_preset())
    needed = planned_rules(run([tool("snakemake"), "all", "-n", "-F", "--cores", "1"]).stdout)
    assert rules == needed
    assert {producer for producer, _ in edges} == rules - {"all"}, "a rule feeds nothing"


def test_the_nested_dry_run_leaves_the_outer_runs_outputs_alone(tmp_path, monkeypatch):
    """The outer run's jobs delete and rewrite outputs while the rule graph is drawn (a CI run
    failed when the nested Snakemake lost a figure it had listed): the nested run works in a view
    of the sources, so it neither lists nor cleans the outputs (a corrupt npz stays for the outer
    run to remove)."""
    link_sources(REPO, tmp_path)
    corrupt = tmp_path / "results" / "paperA" / "corrupt.npz"
    corrupt.parent.mkdir(parents=True)
    corrupt.write_bytes(b"not an npz")
    (tmp_path / "logs").mkdir()  # Snakemake makes the folders of a job's log and outputs
    smk = SimpleNamespace(
        input=SimpleNamespace(snakefiles=["Snakefile"], config="config/config.yaml"),
        output=["figures/rulegraph.mmd", "results/published/rulegraph.sha256"],
        log=[str(tmp_path / "logs" / "rulegraph.log")],
    )
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(REPO / "scripts" / "rulegraph.py"), init_globals={"snakemake": smk})
    assert corrupt.exists()
    assert (tmp_path / "figures" / "rulegraph.mmd").read_text() == mermaid_of_default_preset()
