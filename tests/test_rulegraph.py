"""The rule graph: Snakemake's own Mermaid output, committed and shown in docs/architecture.md."""

import re

import pytest
from conftest import REPO, planned_rules, run, tool

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
