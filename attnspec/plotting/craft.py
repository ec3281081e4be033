"""Machine checks of a drawn figure's craft, as a figure editor would check it at print size:
the width is one or two columns, no text is under 6 pt, no two texts overlap, no text crosses
a legend or leaves the canvas, no panel is empty and every log axis has two labelled ticks
(:func:`craft_problems`); and what hides data (:func:`layering_problems`): a text, legend or box
over a drawn line or point, a line hidden under another, two series whose colours a reader cannot
tell apart. Each check reads the artists' window extents and paths after a draw. The journal
conventions (:func:`convention_problems`): no suptitle, one panel letter per panel of a multi-panel
figure, clear of the panel's title, and no panel letter written into a title."""

import re

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.colors import to_rgb
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.offsetbox import AnchoredOffsetbox
from matplotlib.text import Text
from matplotlib.transforms import Bbox

from attnspec.plotting.style import (
    MIN_FONT_PT,
    PRINT_WIDTHS,
    is_panel_letter,
    unreadable_log_axes,
)

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


LETTER_CLEARANCE_EM = 0.5
"""A panel letter keeps at least this many of its ems clear of its panel's title (else the two
read as one word)."""
LETTERED_TITLE = re.compile(r"\(\s*[a-z](?:\s*[,\u2013-]\s*[a-z])*\s*\)")
"""A title that begins like this ("(a) ...", "(a, b) ...") names its panel itself; the letters
are placed by :func:`attnspec.plotting.style.label_panels`."""


def _figures(figure) -> list:
    """``figure`` and its subfigures, at every depth."""
    return [figure, *(inner for sub in figure.subfigs for inner in _figures(sub))]


def _data_panels(figure) -> list[Axes]:
    """The visible axes of ``figure`` that draw data (no colorbars)."""
    return [
        ax for ax in figure.axes
        if ax.get_visible() and _has_data(ax) and ax.get_label() != "<colorbar>"
    ]  # fmt: skip


def _panel_letters(ax: Axes) -> list[Text]:
    """The panel letters :func:`attnspec.plotting.style.label_panels` gave ``ax``."""
    return [t for t in ax.texts if is_panel_letter(t)]


def _titles(ax: Axes) -> list[Text]:
    """The titles an axes shows (centre, left, right): its own texts outside ``ax.texts``."""
    return [t for t in ax.get_children()
            if isinstance(t, Text) and t not in ax.texts and t.get_text()]  # fmt: skip


def _crowding(ax: Axes, letter: Text, renderer) -> list[str]:
    """The titles of ``ax`` that come within LETTER_CLEARANCE_EM of its panel ``letter``."""
    clearance = renderer.points_to_pixels(LETTER_CLEARANCE_EM * letter.get_fontsize())
    room = letter.get_window_extent(renderer).padded(clearance)
    return [t.get_text() for t in _titles(ax) if room.overlaps(t.get_window_extent(renderer))]


def convention_problems(figure) -> list[str]:
    """Where ``figure`` breaks the journal conventions, one line each: a suptitle (its words
    belong to the caption); a data panel of a multi-panel figure (two or more visible axes
    drawing data, colorbars excluded) without exactly one panel letter placed by
    :func:`attnspec.plotting.style.label_panels`; a title that comes within half an em of the
    letter (the two read as one word); a title that begins with a panel letter. Drawn here."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    problems = [f"suptitle {fig.get_suptitle()[:40]!r} (journal mode: none; the caption's "
                "first line says what the figure shows)"
                for fig in _figures(figure) if fig.get_suptitle()]  # fmt: skip
    panels = _data_panels(figure)
    if len(panels) >= 2:
        for index, ax in enumerate(panels):
            letters = _panel_letters(ax)
            if len(letters) != 1:
                problems.append(f"panel {ax.get_title() or index} carries {len(letters)} panel "
                                f"letters {[t.get_text() for t in letters]}, not one")  # fmt: skip
            for letter in letters:
                problems += [f"panel letter {letter.get_text()!r} crowds the title {title[:40]!r}"
                             for title in _crowding(ax, letter, renderer)]  # fmt: skip
    for ax in figure.axes:
        for title in _titles(ax):
            if LETTERED_TITLE.match(title.get_text()):
                problems.append(f"title {title.get_text()[:40]!r} begins with a panel letter")
    return problems


MIN_COLOUR_DISTANCE = 20.0
"""Two series of one axes need colours at least this far apart (CIE76 Delta E in CIELAB). The
difference a reader notices grows as marks shrink (Szafir 2018, "Modeling color difference for
visualization design"): from about 2.3 for large patches to about 20 for lines and markers a
point or two wide, as these figures draw them."""
HIDDEN_PX = 0.5
"""A line is hidden when every vertex lies within half the covering line's width plus this many
pixels of it."""
MAX_VERTICES = 400
"""At most this many vertices of a line are tested (evenly spaced) for being hidden."""


def _drawn_lines(ax: Axes) -> list[Line2D]:
    """The visible lines of an axes with a line style and at least two finite points."""
    lines = []
    for line in ax.lines:
        if not line.get_visible() or line.get_linestyle() in ("None", "", " ", "none"):
            continue
        if line.get_linewidth() <= 0:
            continue
        xy = line.get_xydata()
        if np.isfinite(xy).all(axis=1).sum() >= 2:
            lines.append(line)
    return lines


def _display_path(line: Line2D):
    return line.get_transform().transform_path(line.get_path())


def _covering_boxes(ax: Axes, renderer) -> list[tuple[str, Bbox]]:
    """The texts, the legend and the anchored boxes drawn inside an axes, with their extents
    (not its panel letter, which sits above it)."""
    boxes = [(f"text {_name(t)}", t.get_window_extent(renderer)) for t in ax.texts
             if t.get_visible() and t.get_text().strip() and not is_panel_letter(t)]  # fmt: skip
    legend = ax.get_legend()
    if legend is not None and legend.get_visible():
        boxes.append(("the legend", legend.get_window_extent(renderer)))
    boxes += [("a box", a.get_window_extent(renderer)) for a in ax.artists
              if isinstance(a, AnchoredOffsetbox) and a.get_visible()]  # fmt: skip
    return boxes


def _inside(box: Bbox, points: np.ndarray) -> bool:
    """Whether any of the display ``points`` lies inside ``box``."""
    x, y = points[:, 0], points[:, 1]
    return bool(((x > box.x0) & (x < box.x1) & (y > box.y0) & (y < box.y1)).any())


def _lab(rgb) -> np.ndarray:
    """sRGB (0-1) to CIELAB (D65)."""
    rgb = np.asarray(rgb, dtype=np.float64)
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = (
        linear
        @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
        / np.array([0.95047, 1.0, 1.08883])
    )
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def colour_distance(a, b) -> float:
    """CIE76 Delta E between two matplotlib colours."""
    return float(np.linalg.norm(_lab(to_rgb(a)) - _lab(to_rgb(b))))


def _series_colours(ax: Axes) -> list:
    """The colours of the series of an axes: its drawn lines and its point clouds (a hollow
    marker's, white or transparent inside, by its edge)."""
    colours = [line.get_color() for line in _drawn_lines(ax)]
    for collection in ax.collections:
        if isinstance(collection, PathCollection) and collection.get_visible():
            faces, edges = collection.get_facecolors(), collection.get_edgecolors()
            if not (len(faces) and len(collection.get_offsets())):
                continue
            hollow = faces[0][3] == 0 or tuple(faces[0][:3]) == (1.0, 1.0, 1.0)
            colours.append(tuple((edges[0] if hollow and len(edges) else faces[0])[:3]))
    return colours


def _distance_to_polyline(points: np.ndarray, vertices: np.ndarray) -> np.ndarray:
    """Each point's distance to the polyline through ``vertices`` (display pixels)."""
    start, end = vertices[:-1], vertices[1:]
    keep = np.isfinite(start).all(axis=1) & np.isfinite(end).all(axis=1)
    start, end = start[keep], end[keep]
    if not len(start):
        return np.full(len(points), np.inf)
    step = end - start
    length = np.maximum((step**2).sum(axis=1), 1e-12)
    best = np.full(len(points), np.inf)
    for chunk in np.array_split(np.arange(len(start)), max(1, len(start) // 2000)):
        rel = points[:, None, :] - start[None, chunk]
        t = np.clip((rel * step[None, chunk]).sum(axis=2) / length[None, chunk], 0.0, 1.0)
        nearest = start[None, chunk] + t[..., None] * step[None, chunk]
        best = np.minimum(best, np.sqrt(((points[:, None, :] - nearest) ** 2).sum(axis=2)).min(1))
    return best


def _hidden(below: Line2D, above: Line2D, px_per_pt: float) -> bool:
    """Whether ``above`` (opaque, solid, at least as wide) covers every vertex of ``below``."""
    if (above.get_alpha() or 1.0) < 1.0 or above.get_linestyle() not in ("-", "solid"):
        return False
    if above.get_linewidth() < below.get_linewidth():
        return False
    points = _display_path(below).vertices
    points = points[np.isfinite(points).all(axis=1)]
    if len(points) > MAX_VERTICES:
        points = points[np.linspace(0, len(points) - 1, MAX_VERTICES).astype(int)]
    reach = above.get_linewidth() * px_per_pt / 2 + HIDDEN_PX
    return bool((_distance_to_polyline(points, _display_path(above).vertices) <= reach).all())


def covered_series(ax: Axes, box: Bbox) -> int:
    """How many of the axes' drawn lines cross ``box`` (display pixels, shrunk by OVERLAP_PX)
    and how many of its point clouds have a point inside it (the figure drawn once before)."""
    inner = box.expanded(1.0, 1.0).padded(-OVERLAP_PX)
    if inner.width <= 0 or inner.height <= 0:
        return 0
    crossed = [
        ln for ln in _drawn_lines(ax) if _display_path(ln).intersects_bbox(inner, filled=False)
    ]
    covered = [
        c for c in ax.collections if isinstance(c, PathCollection) and c.get_visible()
        and len(c.get_offsets())
        and _inside(inner, c.get_offset_transform().transform(c.get_offsets()))
    ]  # fmt: skip
    return len(crossed) + len(covered)


def layering_problems(figure) -> list[str]:
    """What hides data in ``figure`` (drawn here), one line each: a text, legend or anchored box
    of an axes over one of its drawn lines or points; a line whose every vertex lies under a later,
    opaque line at least as wide; two series of one axes whose colours differ by less than
    MIN_COLOUR_DISTANCE (but are not the same colour, which is one meaning drawn twice)."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    px_per_pt = figure.dpi / 72
    problems = []
    for index, ax in enumerate(figure.axes):
        if not ax.get_visible():
            continue
        panel = ax.get_title() or ax.get_title(loc="left") or f"panel {index}"
        lines = _drawn_lines(ax)
        for name, box in _covering_boxes(ax, renderer):
            if count := covered_series(ax, box):
                problems.append(f"{panel}: {name} lies over {count} drawn series")
        order = sorted(range(len(lines)), key=lambda i: (lines[i].get_zorder(), i))
        for position, i in enumerate(order):
            for j in order[position + 1 :]:
                if _hidden(lines[i], lines[j], px_per_pt):
                    problems.append(f"{panel}: line {lines[i].get_label()!r} is hidden under "
                                    f"{lines[j].get_label()!r}")  # fmt: skip
                    break
        colours = list(dict.fromkeys(tuple(to_rgb(c)) for c in _series_colours(ax)))
        for a in range(len(colours)):
            for b in range(a + 1, len(colours)):
                distance = colour_distance(colours[a], colours[b])
                if distance < MIN_COLOUR_DISTANCE:
                    problems.append(f"{panel}: two series' colours differ by Delta E "
                                    f"{distance:.1f} < {MIN_COLOUR_DISTANCE:g}")  # fmt: skip
    return problems
