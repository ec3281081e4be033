"""The workflow's rule graph as a figure, without graphviz: parse ``snakemake --rulegraph`` DOT,
lay the rules out in layers from left to right and draw boxes coloured by paper, with arrows.

The layout is a small Sugiyama scheme: longest-path layers from the sources, one placeholder per
layer crossed by a long edge, a few barycentre sweeps against crossings, then coordinates that
keep each box near its neighbours. Every tie is broken by rule name, so the figure depends
neither on Snakemake's node numbering nor on the order of the DOT lines.
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch
from matplotlib.path import Path as MplPath
from matplotlib.textpath import TextPath

from attnspec.plotting.style import apply_style

NODE_LINE = re.compile(r'^\s*(\w+)\s*\[\s*label\s*=\s*"([^"]+)"', flags=re.M)
EDGE_LINE = re.compile(r"^\s*(\w+)\s*->\s*(\w+)\b", flags=re.M)
PAPER_PREFIXES = ("paperA", "paperB", "paperC")
GROUP_COLOURS = {"paperA": "#4C72B0", "paperB": "#DD8452", "paperC": "#55A868", "shared": "0.45"}
GROUP_LABELS = {
    "paperA": "paper A",
    "paperB": "paper B",
    "paperC": "paper C",
    "shared": "shared",
}
ARROW_COLOUR = "0.55"
LABEL_CHARS = 24
LINE_SPACING = 1.15


@dataclass(frozen=True)
class RuleGraph:
    """Rule names (sorted) and dependencies (producer, consumer), sorted and without repeats."""

    rules: tuple[str, ...]
    edges: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Layout:
    """Where the figure puts things, in points, y growing downwards.

    ``layers[rule]`` is the rule's column, ``centres[rule]`` and ``heights[rule]`` its box's
    centre and height, ``columns`` the (left, right) x extent of every column's boxes and
    ``paths[(producer, consumer)]`` the points an arrow passes through (box side, left and right
    end of each column it crosses, box side).
    """

    layers: dict[str, int]
    centres: dict[str, tuple[float, float]]
    heights: dict[str, float]
    columns: tuple[tuple[float, float], ...]
    paths: dict[tuple[str, str], tuple[tuple[float, float], ...]]
    width: float
    height: float


def parse_rulegraph(dot: str) -> RuleGraph:
    """The rules and edges of the DOT text printed by ``snakemake --rulegraph``."""
    names = {}
    for node_id, label in NODE_LINE.findall(dot):
        if label in names.values() or node_id in names:
            raise ValueError(f"rule graph: node {node_id} ({label}) appears twice")
        names[node_id] = label
    edges = set()
    for source, target in EDGE_LINE.findall(dot):
        if source not in names or target not in names:
            raise ValueError(f"rule graph: edge {source} -> {target} names an unknown node")
        edges.add((names[source], names[target]))
    if not names:
        raise ValueError("rule graph: no nodes found in the DOT text")
    return RuleGraph(rules=tuple(sorted(names.values())), edges=tuple(sorted(edges)))


def rule_group(rule: str) -> str:
    """The paper a rule belongs to (by its name prefix), or ``shared``."""
    return next((prefix for prefix in PAPER_PREFIXES if rule.startswith(prefix)), "shared")


def rule_layers(graph: RuleGraph) -> dict[str, int]:
    """Longest-path layer of every rule: 0 for sources, else 1 + the largest producer layer.

    Raises ``ValueError`` naming the rules on or behind a cycle if the graph is not acyclic.
    """
    producers = {rule: [] for rule in graph.rules}
    consumers = {rule: [] for rule in graph.rules}
    for source, target in graph.edges:
        producers[target].append(source)
        consumers[source].append(target)
    waiting = {rule: len(producers[rule]) for rule in graph.rules}
    ready = sorted(rule for rule, count in waiting.items() if count == 0)
    layers = {}
    while ready:
        rule = ready.pop(0)
        layers[rule] = max((layers[p] + 1 for p in producers[rule]), default=0)
        for consumer in consumers[rule]:
            waiting[consumer] -= 1
            if waiting[consumer] == 0:
                ready.append(consumer)
        ready.sort()
    if len(layers) < len(graph.rules):
        stuck = sorted(set(graph.rules) - set(layers))
        raise ValueError(f"rule graph has a cycle through or behind: {', '.join(stuck)}")
    return layers


def _placeholder(source: str, target: str, layer: int) -> str:
    """Name of the point where the edge source -> target crosses ``layer`` (not a rule name)."""
    return f"{source}->{target}@{layer}"


def _is_placeholder(node: str) -> bool:
    """Whether a node of the layered graph is an edge crossing (rule names are identifiers)."""
    return "->" in node


def _layered_graph(graph: RuleGraph, layers: dict[str, int]):
    """Rows of nodes per layer (rules and placeholders, by name) and the unit-length links."""
    rows = [[] for _ in range(max(layers.values()) + 1)]
    for rule in graph.rules:
        rows[layers[rule]].append(rule)
    links = []
    for source, target in graph.edges:
        chain = [source]
        for layer in range(layers[source] + 1, layers[target]):
            chain.append(_placeholder(source, target, layer))
            rows[layer].append(chain[-1])
        chain.append(target)
        links.extend(zip(chain[:-1], chain[1:], strict=True))
    return [sorted(row) for row in rows], links


def count_crossings(rows: Sequence[Sequence[str]], links) -> int:
    """Number of pairs of links between adjacent rows that cross."""
    index = {node: i for row in rows for i, node in enumerate(row)}
    layer = {node: k for k, row in enumerate(rows) for node in row}
    total = 0
    for k in range(len(rows) - 1):
        pairs = sorted((index[a], index[b]) for a, b in links if layer[a] == k)
        for i, (top_a, top_b) in enumerate(pairs):
            total += sum(1 for a, b in pairs[i + 1 :] if a > top_a and b < top_b)
    return total


def _barycentre_sweep(rows, neighbours, order) -> list[list[str]]:
    """Reorder each row in ``order`` by the mean index of its neighbours in the row before it
    in the sweep; nodes without such neighbours keep their index; ties go by name."""
    rows = [list(row) for row in rows]
    for k, reference in order:
        position = {node: i for i, node in enumerate(rows[reference])}
        current = {node: i for i, node in enumerate(rows[k])}

        def key(node, position=position, current=current):
            linked = [position[n] for n in neighbours[node] if n in position]
            return (float(np.mean(linked)) if linked else float(current[node]), node)

        rows[k] = sorted(rows[k], key=key)
    return rows


def order_rows(rows, links, sweeps: int = 6) -> list[list[str]]:
    """Row orders with the fewest crossings among the start and ``sweeps`` down-up sweeps."""
    neighbours = {node: [] for row in rows for node in row}
    for a, b in links:
        neighbours[a].append(b)
        neighbours[b].append(a)
    down = [(k, k - 1) for k in range(1, len(rows))]
    up = [(k, k + 1) for k in range(len(rows) - 2, -1, -1)]
    best = [list(row) for row in rows]
    best_crossings = count_crossings(best, links)
    current = best
    for _ in range(sweeps):
        for order in (down, up):
            current = _barycentre_sweep(current, neighbours, order)
            crossings = count_crossings(current, links)
            if crossings < best_crossings:
                best, best_crossings = current, crossings
    return best


def _closest_ordered(desired: np.ndarray, gaps: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Positions nearest ``desired`` (weighted least squares) with y[i+1] - y[i] >= gaps[i].

    Subtracting the cumulative gaps turns this into isotonic regression, solved by pooling
    adjacent violators.
    """
    offsets = np.concatenate([[0.0], np.cumsum(gaps)])
    blocks = []  # [weighted mean, total weight, count]
    for value, weight in zip(desired - offsets, weights, strict=True):
        blocks.append([value, weight, 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            mean, weight, count = blocks.pop()
            before_mean, before_weight, before_count = blocks[-1]
            total = before_weight + weight
            blocks[-1] = [
                (before_mean * before_weight + mean * weight) / total,
                total,
                before_count + count,
            ]
    fitted = np.concatenate([np.full(count, mean) for mean, _, count in blocks])
    return fitted + offsets


def _neighbour_lists(links):
    """Producers and consumers of every node of the layered graph, each list sorted by name."""
    producers, consumers = {}, {}
    for a, b in links:
        producers.setdefault(b, []).append(a)
        consumers.setdefault(a, []).append(b)
    return (
        {node: sorted(found) for node, found in producers.items()},
        {node: sorted(found) for node, found in consumers.items()},
    )


def _row_positions(rows, links, pitch: dict[str, float], rounds: int = 8) -> dict[str, float]:
    """y of every node: rows start packed, then each node moves towards the mean y of its
    neighbours in the previous row of the sweep (down and up sweeps), keeping the pitches
    (a node takes ``pitch[node]`` of its row); rules weigh twice as much as edge crossings."""
    producers, consumers = _neighbour_lists(links)

    def gaps(row):
        pairs = zip(row[:-1], row[1:], strict=True)
        return np.array([(pitch[a] + pitch[b]) / 2 for a, b in pairs])

    y = {}
    for row in rows:
        y.update(zip(row, np.concatenate([[0.0], np.cumsum(gaps(row))]), strict=True))
    sweeps = [
        (range(1, len(rows)), producers),
        (range(len(rows) - 2, -1, -1), consumers),
    ]
    for _ in range(rounds):
        for order, linked in sweeps:
            for k in order:
                row = rows[k]
                desired = np.array(
                    [np.mean([y[n] for n in linked.get(node, [node])]) for node in row]
                )
                weights = np.array([0.5 if _is_placeholder(node) else 1.0 for node in row])
                y.update(zip(row, _closest_ordered(desired, gaps(row), weights), strict=True))
    top = min(y[row[0]] - pitch[row[0]] / 2 for row in rows)
    return {node: float(value - top) for node, value in y.items()}


def _ports(neighbours: list[str], y: dict[str, float], centre: float, spacing: float):
    """Where the links to ``neighbours`` meet a box side: spaced ``spacing`` apart around the
    centre, in the vertical order of the neighbours (ties by name), so that they do not cross."""
    ordered = sorted(neighbours, key=lambda n: (y[n], n))
    middle = (len(ordered) - 1) / 2
    return {n: centre + (i - middle) * spacing for i, n in enumerate(ordered)}


def layout_rulegraph(
    graph: RuleGraph,
    label_size: Callable[[str], tuple[float, float]],
    *,
    padding: float = 6.0,
    row_gap: float = 6.0,
    crossing_pitch: float = 5.0,
    column_gap: float = 70.0,
) -> Layout:
    """Columns by layer (left to right), rows ordered against crossings, boxes as wide as the
    widest label in their column, ``label_size(rule)`` = (width, height) in points, plus
    ``padding`` on every side.

    A rule with many inputs or outputs gets a taller box, ``crossing_pitch`` per link, so that
    its arrows meet it side by side instead of in one point.
    """
    layers = rule_layers(graph)
    rows, links = _layered_graph(graph, layers)
    rows = order_rows(rows, links)
    producers, consumers = _neighbour_lists(links)
    degree = {
        rule: max(len(producers.get(rule, ())), len(consumers.get(rule, ())))
        for rule in graph.rules
    }
    sizes = {rule: label_size(rule) for rule in graph.rules}
    heights = {
        rule: max(sizes[rule][1] + 2 * padding, crossing_pitch * (degree[rule] + 1))
        for rule in graph.rules
    }
    pitch = {node: crossing_pitch for row in rows for node in row}
    pitch.update({rule: height + row_gap for rule, height in heights.items()})
    y = _row_positions(rows, links, pitch)
    columns, left = [], 0.0
    for row in rows:
        widths = [sizes[node][0] for node in row if not _is_placeholder(node)]
        width = max(widths, default=0.0) + 2 * padding
        columns.append((left, left + width))
        left += width + column_gap
    exits = {r: _ports(consumers.get(r, []), y, y[r], crossing_pitch) for r in graph.rules}
    entries = {r: _ports(producers.get(r, []), y, y[r], crossing_pitch) for r in graph.rules}
    paths = {}
    for source, target in graph.edges:
        layer_range = range(layers[source] + 1, layers[target])
        crossings = [_placeholder(source, target, k) for k in layer_range]
        chain = [source, *crossings, target]
        points = [(columns[layers[source]][1], exits[source][chain[1]])]
        for k, node in zip(layer_range, crossings, strict=True):
            points.extend([(columns[k][0], y[node]), (columns[k][1], y[node])])
        points.append((columns[layers[target]][0], entries[target][chain[-2]]))
        paths[(source, target)] = tuple(points)
    return Layout(
        layers=layers,
        centres={rule: (sum(columns[layers[rule]]) / 2, y[rule]) for rule in graph.rules},
        heights=heights,
        columns=tuple(columns),
        paths=paths,
        width=columns[-1][1],
        height=max(y[node] + pitch[node] / 2 for node in y),
    )


def box_label(rule: str, max_chars: int = LABEL_CHARS) -> str:
    """The rule name, broken after the underscore nearest its middle if it is longer than
    ``max_chars`` (two narrower lines keep the columns, and so the figure, narrow)."""
    cuts = [i + 1 for i, char in enumerate(rule) if char == "_"]
    if len(rule) <= max_chars or not cuts:
        return rule
    cut = min(cuts, key=lambda i: (abs(2 * i - len(rule)), i))
    return rule[:cut] + "\n" + rule[cut:]


def _label_size(label: str, fontsize: float) -> tuple[float, float]:
    """Width and height in points of ``label`` (one or more lines) in the figure font."""
    font = FontProperties(family="DejaVu Sans")
    lines = label.split("\n")
    widths = [
        TextPath((0, 0), line, size=fontsize, prop=font).get_extents().width for line in lines
    ]
    return float(max(widths)), LINE_SPACING * fontsize * len(lines)


def _arrow_path(points) -> MplPath:
    """Through ``points``: S-curves (horizontal at both ends) between columns, straight lines
    across the columns an edge passes."""
    vertices, codes = [points[0]], [MplPath.MOVETO]
    for i, ((x0, y0), (x1, y1)) in enumerate(zip(points[:-1], points[1:], strict=True)):
        if i % 2 == 0:
            middle = (x0 + x1) / 2
            vertices.extend([(middle, y0), (middle, y1), (x1, y1)])
            codes.extend([MplPath.CURVE4] * 3)
        else:
            vertices.append((x1, y1))
            codes.append(MplPath.LINETO)
    return MplPath(vertices, codes)


def draw_rulegraph(graph: RuleGraph, title: str, fontsize: float = 9.0) -> Figure:
    """The rule graph as a figure sized so that one layout unit is one point: a box per rule,
    coloured by paper, an arrow from each rule to the rules that read its outputs, a legend."""
    apply_style()
    layout = layout_rulegraph(
        graph,
        lambda rule: _label_size(box_label(rule), fontsize),
        padding=0.6 * fontsize,
        row_gap=0.7 * fontsize,
        crossing_pitch=0.6 * fontsize,
        column_gap=4.5 * fontsize,
    )
    margin, header = fontsize, 4.4 * fontsize
    width, height = layout.width + 2 * margin, layout.height + 2 * margin + header
    figure = plt.figure(figsize=(width / 72, height / 72))
    ax = figure.add_axes((0, 0, 1, 1))
    ax.set_xlim(-margin, layout.width + margin)
    ax.set_ylim(layout.height + margin, -margin - header)
    ax.axis("off")
    for edge in graph.edges:
        ax.add_patch(
            FancyArrowPatch(
                path=_arrow_path(layout.paths[edge]),
                arrowstyle="-|>",
                mutation_scale=0.9 * fontsize,
                shrinkA=0,
                shrinkB=0,
                color=ARROW_COLOUR,
                lw=0.8,
            )
        )
    for rule in graph.rules:
        left, right = layout.columns[layout.layers[rule]]
        _, y = layout.centres[rule]
        box_height = layout.heights[rule]
        colour = GROUP_COLOURS[rule_group(rule)]
        ax.add_patch(
            FancyBboxPatch(
                (left, y - box_height / 2),
                right - left,
                box_height,
                boxstyle=f"round,pad=0,rounding_size={0.4 * fontsize}",
                facecolor=to_rgba(colour, 0.15),
                edgecolor=colour,
                lw=1.2,
            )
        )
        ax.text(
            (left + right) / 2,
            y,
            box_label(rule),
            ha="center",
            va="center",
            fontsize=fontsize,
            linespacing=LINE_SPACING,
        )
    ax.text(0, -margin - header, title, ha="left", va="top", fontsize=1.2 * fontsize)
    groups = [g for g in GROUP_COLOURS if any(rule_group(r) == g for r in graph.rules)]
    handles = [
        Patch(
            facecolor=to_rgba(GROUP_COLOURS[g], 0.15),
            edgecolor=GROUP_COLOURS[g],
            label=GROUP_LABELS[g],
        )
        for g in groups
    ]
    ax.legend(
        handles=handles,
        loc="lower left",
        bbox_to_anchor=(0, -margin),
        bbox_transform=ax.transData,
        borderaxespad=0,
        borderpad=0,
        ncol=len(handles),
        frameon=False,
        fontsize=fontsize,
    )
    return figure
