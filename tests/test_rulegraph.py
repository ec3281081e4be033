"""The rule-graph figure: DOT parsing, layers, crossing reduction, determinism, the real graph."""

import random
import re

import pytest
from conftest import REPO, planned_rules, run, tool
from matplotlib import pyplot

from attnspec.plotting.rulegraph import (
    RuleGraph,
    box_label,
    count_crossings,
    draw_rulegraph,
    layout_rulegraph,
    order_rows,
    parse_rulegraph,
    rule_group,
    rule_layers,
)

# producer -> consumer; b and c both feed d, a feeds d directly (a long edge over layer 1).
EDGES = [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d"), ("a", "d"), ("d", "all"), ("e", "all")]


def to_dot(edges, numbering: dict[str, int], shuffle_seed: int | None = None) -> str:
    """DOT text in the style of ``snakemake --rulegraph`` with the given node numbers."""
    names = sorted({name for edge in edges for name in edge})
    nodes = [
        f'\t{numbering[n]}[label = "{n}", color = "0.1 0.6 0.85", style="rounded"];' for n in names
    ]
    links = [f"\t{numbering[a]} -> {numbering[b]}" for a, b in edges]
    if shuffle_seed is not None:
        random.Random(shuffle_seed).shuffle(nodes)
        random.Random(shuffle_seed + 1).shuffle(links)
    header = "digraph snakemake_dag {\n    graph[bgcolor=white, margin=0];\n"
    return header + "\n".join(nodes + links) + "\n}\n"


def numbering_of(edges, seed: int) -> dict[str, int]:
    """Node numbers 0..n-1 given to the rules in a seeded random order."""
    names = sorted({name for edge in edges for name in edge})
    numbers = list(range(len(names)))
    random.Random(seed).shuffle(numbers)
    return dict(zip(names, numbers, strict=True))


def unit_size(rule: str) -> tuple[float, float]:
    """A label size that is easy to reason about: one unit per character, 10 high."""
    return float(len(rule)), 10.0


def test_parse_reads_labels_and_edges_by_name():
    graph = parse_rulegraph(to_dot(EDGES, numbering_of(EDGES, 0)))
    assert graph.rules == ("a", "all", "b", "c", "d", "e")
    assert graph.edges == tuple(sorted(EDGES))


def test_parse_accepts_edge_attributes_and_semicolons():
    graph = parse_rulegraph('0[label = "a"];\n1[label = "b"];\n0 -> 1 [color=grey];\n')
    assert graph.edges == (("a", "b"),)


def test_parse_rejects_unknown_nodes_repeated_labels_and_empty_text():
    with pytest.raises(ValueError, match="unknown node"):
        parse_rulegraph('0[label = "a"];\n0 -> 7\n')
    with pytest.raises(ValueError, match="twice"):
        parse_rulegraph('0[label = "a"];\n1[label = "a"];\n')
    with pytest.raises(ValueError, match="no nodes"):
        parse_rulegraph("digraph snakemake_dag {\n}\n")


def test_layers_are_longest_paths_and_respect_every_edge():
    layers = rule_layers(RuleGraph(rules=("a", "all", "b", "c", "d", "e"), edges=tuple(EDGES)))
    assert layers == {"a": 0, "e": 0, "b": 1, "c": 1, "d": 2, "all": 3}
    assert all(layers[a] < layers[b] for a, b in EDGES)


def test_a_cycle_is_reported():
    graph = RuleGraph(rules=("x", "y", "z"), edges=(("x", "y"), ("y", "z"), ("z", "y")))
    with pytest.raises(ValueError, match="cycle.*y, z"):
        rule_layers(graph)


def test_layout_does_not_depend_on_node_numbering_or_line_order():
    reference = layout_rulegraph(parse_rulegraph(to_dot(EDGES, numbering_of(EDGES, 0))), unit_size)
    for seed in range(1, 6):
        dot = to_dot(EDGES, numbering_of(EDGES, seed), shuffle_seed=seed)
        assert layout_rulegraph(parse_rulegraph(dot), unit_size) == reference


def test_every_rule_is_placed_once_and_boxes_of_a_column_do_not_overlap():
    graph = parse_rulegraph(to_dot(EDGES, numbering_of(EDGES, 0)))
    layout = layout_rulegraph(graph, unit_size, padding=2.0, row_gap=3.0)
    assert sorted(layout.centres) == sorted(graph.rules) == sorted(layout.layers)
    for column in set(layout.layers.values()):
        spans = sorted(
            (
                layout.centres[r][1] - layout.heights[r] / 2,
                layout.centres[r][1] + layout.heights[r] / 2,
            )
            for r in graph.rules
            if layout.layers[r] == column
        )
        tops = [top for top, _ in spans]
        bottoms = [bottom for _, bottom in spans]
        assert all(t - b >= 3.0 - 1e-9 for b, t in zip(bottoms[:-1], tops[1:], strict=True))
        assert 0 <= min(tops) and max(bottoms) <= layout.height


def test_arrows_run_from_the_producer_column_to_the_consumer_column():
    graph = parse_rulegraph(to_dot(EDGES, numbering_of(EDGES, 0)))
    layout = layout_rulegraph(graph, unit_size)
    for a, b in EDGES:
        points = layout.paths[(a, b)]
        assert points[0][0] == layout.columns[layout.layers[a]][1]
        assert points[-1][0] == layout.columns[layout.layers[b]][0]
        assert len(points) == 2 * (layout.layers[b] - layout.layers[a])
        assert [x for x, _ in points] == sorted(x for x, _ in points)


def test_a_rule_with_many_inputs_gets_a_box_tall_enough_for_them():
    edges = tuple((f"r{i}", "all") for i in range(12))
    graph = RuleGraph(rules=tuple(sorted({n for e in edges for n in e})), edges=edges)
    layout = layout_rulegraph(graph, unit_size, crossing_pitch=5.0)
    entries = sorted(layout.paths[edge][-1][1] for edge in edges)
    top = layout.centres["all"][1] - layout.heights["all"] / 2
    assert len(set(entries)) == 12
    assert top < entries[0] and entries[-1] < top + layout.heights["all"]


def test_barycentre_sweeps_remove_avoidable_crossings():
    # By name the consumers sit x, y while their producers sit a, b: one crossing.
    rows = [["a", "b"], ["x", "y"]]
    links = [("a", "y"), ("b", "x")]
    assert count_crossings(rows, links) == 1
    ordered = order_rows(rows, links)
    assert count_crossings(ordered, links) == 0
    assert ordered == [["a", "b"], ["y", "x"]]


def test_long_names_break_after_an_underscore_and_keep_every_character():
    label = box_label("paperC_pretrained_isotropic_reference")
    assert label == "paperC_pretrained_\nisotropic_reference"
    assert box_label("claims_table") == "claims_table"
    assert box_label("x" * 40) == "x" * 40


def test_rules_are_grouped_by_paper_prefix():
    groups = [rule_group(r) for r in ("paperA_A1_figure", "paperC_C5_figure", "claims_table")]
    assert groups == ["paperA", "paperC", "shared"]


def test_figure_has_one_label_per_rule():
    graph = parse_rulegraph(to_dot(EDGES, numbering_of(EDGES, 0)))
    figure = draw_rulegraph(graph, "title")
    texts = {t.get_text() for t in figure.axes[0].texts}
    pyplot.close(figure)
    assert texts == set(graph.rules) | {"title"}


def test_the_workflow_rule_graph_has_every_rule_all_needs_and_no_cycle():
    dot = run([tool("snakemake"), "all", "--rulegraph", "dot", "--nolock"]).stdout
    graph = parse_rulegraph(dot)
    dry_run = run([tool("snakemake"), "all", "-n", "-F", "--cores", "1"]).stdout
    needed = planned_rules(dry_run)
    named = set()
    for path in (REPO / "workflow" / "rules").glob("*.smk"):
        named |= set(re.findall(r"^rule (\w+):", path.read_text(), flags=re.M))
    assert {"all", "claims_table"} <= set(graph.rules)
    assert needed - {"all"} <= named
    assert set(graph.rules) == needed
    assert {a for a, _ in graph.edges} == set(graph.rules) - {"all"}, "a rule feeds nothing"
    layers = rule_layers(graph)
    assert all(layers[a] < layers[b] for a, b in graph.edges)
