"""Machine checks of a drawn figure's craft, as a figure editor would check it at print size:
the width is one or two columns, no text is under 6 pt, no two texts overlap, no text crosses
a legend or leaves the canvas, no panel is empty and every log axis has two labelled ticks.
Each check reads the artists' window extents after a draw."""

import numpy as np
from matplotlib.axes import Axes
from matplotlib.legend import Legend
from matplotlib.text import Text

from attnspec.plotting.style import MIN_FONT_PT, PRINT_WIDTHS, unreadable_log_axes

OVERLAP_PX = 1.0
"""Two boxes overlap when they share more than this many pixels each way (at the figure's dpi)."""


def _tick_labels(ax: Axes) -> list[Text]:
    """The tick labels an axes draws: visible, non-empty, at ticks inside the view (none for an
    axes switched off)."""
    if not ax.axison:
        return []
    drawn = []
    for axis in (ax.xaxis, ax.yaxis):
        low, high = sorted(axis.get_view_interval())
        span = (high - low) * 1e-9
        for tick in axis.get_major_ticks() + axis.get_minor_ticks():
            if not low - span <= tick.get_loc() <= high + span:
                continue
            drawn += [label for label in (tick.label1, tick.label2) if label.get_visible()]
    return [label for label in drawn if label.get_text()]


def drawn_texts(figure) -> list[Text]:
    """Every text a drawn ``figure`` shows: titles, labels, tick labels in view, legend
    entries, annotations (not those of hidden axes or hidden legends)."""
    # tick labels are taken from _tick_labels (only those in view); texts of hidden legends never
    skipped = {id(t) for ax in figure.axes for axis in (ax.xaxis, ax.yaxis)
               for tick in axis.get_major_ticks() + axis.get_minor_ticks()
               for t in (tick.label1, tick.label2)}  # fmt: skip
    for legend in figure.findobj(Legend):
        if not legend.get_visible():
            skipped |= {id(t) for t in [*legend.get_texts(), legend.get_title()]}
    texts = [
        t for t in figure.findobj(Text)
        if id(t) not in skipped and t.get_visible() and t.get_text().strip()
        and (t.axes is None or t.axes.get_visible())
    ]  # fmt: skip
    return texts + [t for ax in figure.axes if ax.get_visible() for t in _tick_labels(ax)]


def _boxes(artists, renderer) -> np.ndarray:
    return np.array([a.get_window_extent(renderer).extents for a in artists]).reshape(-1, 4)


def _overlapping(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Boolean matrix: box i of ``a`` overlaps box j of ``b`` by more than OVERLAP_PX each way."""
    width = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    height = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    return (width > OVERLAP_PX) & (height > OVERLAP_PX)


def _name(text: Text) -> str:
    return repr(text.get_text()[:40])


def _legend_of(text: Text, legends: list[Legend]):
    for legend in legends:
        if text in legend.get_texts() or text is legend.get_title():
            return legend
    return None


def _has_data(ax: Axes) -> bool:
    """Whether an axes draws something: lines, collections, images, patches or a table."""
    return bool(ax.lines or ax.collections or ax.images or ax.patches or ax.tables)


def craft_problems(figure) -> list[str]:
    """What a figure editor would reject in ``figure`` (drawn here), one line each: a width
    other than one or two columns, text under 6 pt, overlapping texts, text crossing a legend
    or leaving the canvas, an empty panel, a log axis with fewer than two labelled ticks."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    problems = []
    width = figure.get_size_inches()[0]
    if not any(abs(width - w) < 1e-6 for w in PRINT_WIDTHS):
        problems.append(f"width {width:.2f} in is not one of {PRINT_WIDTHS}")
    texts = drawn_texts(figure)
    for text in texts:
        if text.get_fontsize() < MIN_FONT_PT - 1e-9:
            problems.append(f"text {_name(text)} is {text.get_fontsize():g} pt")
    boxes = _boxes(texts, renderer)
    canvas = figure.bbox.extents
    for text, box in zip(texts, boxes, strict=True):
        if (box[:2] < canvas[:2] - OVERLAP_PX).any() or (box[2:] > canvas[2:] + OVERLAP_PX).any():
            problems.append(f"text {_name(text)} leaves the canvas")
    overlaps = np.triu(_overlapping(boxes, boxes), k=1)
    for i, j in zip(*np.nonzero(overlaps), strict=True):
        problems.append(f"texts {_name(texts[i])} and {_name(texts[j])} overlap")
    legends = [lg for lg in figure.findobj(Legend) if lg.get_visible()]
    if legends:
        frames = _boxes(legends, renderer)
        for i, j in zip(*np.nonzero(_overlapping(boxes, frames)), strict=True):
            if _legend_of(texts[i], legends) is not legends[j]:
                problems.append(f"text {_name(texts[i])} crosses a legend")
    for index, ax in enumerate(figure.axes):
        if ax.get_visible() and ax.axison and not _has_data(ax) and ax.get_label() != "<colorbar>":
            problems.append(f"panel {ax.get_title() or index} is empty")
    problems += [f"log axis {axis} has fewer than two labelled ticks"
                 for axis in unreadable_log_axes(figure)]  # fmt: skip
    return problems
