"""One look for every figure, set once: print geometry (one column 3.4 in or two columns
7.0 in wide, no text under 6 pt), the seaborn theme (paper context, ticks, the "deep" palette),
one colour per meaning across all papers (:data:`COLOURS`, :data:`SEQUENTIAL_MAPS`), one line
style per meaning (:data:`LINE_STYLES`: a limit law or theory curve solid, an alternative or a
quantile dashed, an edge or a threshold dotted), base-10 log axes with two to six labelled ticks
(:func:`log_axis`), and the machine checks of craft (:func:`craft_problems`).

Journal conventions: a figure has no suptitle (what it shows is the first line of its caption);
each panel of a multi-panel figure carries a bold lower-case letter a, b, c, ... in reading order
at its top left, placed by :func:`label_panels`, and its title does not repeat the letter."""

import string

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import seaborn as sns  # noqa: E402
from matplotlib.ticker import (  # noqa: E402
    Formatter,
    Locator,
    MaxNLocator,
    NullFormatter,
)

from attnspec.validation import check_choice  # noqa: E402

PALETTE = sns.color_palette("deep")
"""seaborn's "deep" palette, from which the categorical meanings take their colours."""

COLOURS = {
    "data": PALETTE[0],
    "causal": PALETTE[1],
    "mp_surrogate": PALETTE[2],
    "theory": PALETTE[3],
    "bidirectional": PALETTE[4],
    "expansion": PALETTE[5],
    "sigma_g": PALETTE[6],
    "unmasked": PALETTE[7],
    "published": PALETTE[8],
    "sigma_f": PALETTE[9],
    "gaussian_reference": (0.2, 0.2, 0.2),
    "null_model": (0.74, 0.74, 0.74),
    "control": (0.0, 0.0, 0.0),
    "guide": (0.86, 0.86, 0.86),
}
"""One colour per meaning, the same in every paper's figures, and no colour with two meanings:
simulated or measured data; a theory curve or limit (nu_inf, x_+, a limit law); the
Marchenko-Pastur surrogate; causal and bidirectional masks (paper C); asymptotic expansions;
the conditional covariances Sigma_G and Sigma_f (paper B); unmasked scores S (paper C); a
paper's published numbers (paper D); a Gaussian reference computed from the same scores
(Y_lin, a Gaussian equivalent); a null model or floor (Haar / isotropic references, the
distance between two Gaussian equivalents); a control with a known answer (paper C); a guide
line (zero, a threshold) that is not a result."""
DATA_COLOUR = COLOURS["data"]
THEORY_COLOUR = COLOURS["theory"]
SURROGATE_COLOUR = COLOURS["mp_surrogate"]
REFERENCE_COLOUR = COLOURS["gaussian_reference"]
NULL_COLOUR = COLOURS["null_model"]

VERDICT_COLOURS = {
    "holds": (0.0, 0.620, 0.451),
    "holds with a finite-size caveat": (0.337, 0.706, 0.914),
    "fragile pass": (0.8, 0.475, 0.655),
    "inconclusive at these sizes": (0.902, 0.624, 0.0),
    "does not reproduce": (0.835, 0.369, 0.0),
}
"""One colour per verdict (the claims engine's four and the dashboard's fragile pass), drawn only
in the verdict figures (the claims forest and limits, figure D1's judged panels). Okabe and Ito's
colour-blind-safe set: holds bluish green, with a finite-size caveat sky blue, a fragile pass
reddish purple, inconclusive orange, does not reproduce vermillion (darker than the orange, so the
two differ in lightness too); none is the data blue those figures draw beside them."""

LINE_STYLES = {
    "limit law / theory": "-",
    "alternative or quantile": "--",
    "edge or threshold": ":",
}
"""One line style per meaning, the same in every paper's figures: a limit law or theory curve
solid, a declared alternative or a quantile dashed, an edge or a threshold dotted."""

LEGEND_KEY = (0.3, 0.3, 0.3)
"""A legend key that shows only a marker's or a line's shape (what a series is), drawn in a
neutral dark grey that no meaning uses."""

SEQUENTIAL_MAPS = {
    "size": ("viridis", 0.85, 0.0),
    "k": ("mako", 0.8, 0.15),
    "c": ("crest", 0.0, 1.0),
    "beta": ("YlOrBr", 0.5, 0.95),
    "layer": ("YlGnBu", 0.3, 1.0),
    "sharing": ("GnBu", 0.45, 1.0),
    "heads": ("Purples", 0.55, 0.95),
    "width": ("YlGn", 0.45, 0.95),
}
"""One colour map and direction per ordered quantity, (map, shade of the smallest value, shade
of the largest): sizes (ell or n) run light to dark, as do k, c, beta, the layer, the degree
of key/value sharing (independent, GQA, MQA, K = V), the head count h and a layer's width
(d_O)."""


def sequential_colours(meaning: str, values) -> dict:
    """One colour per distinct value of an ordered quantity (``meaning``, a key of
    :data:`SEQUENTIAL_MAPS`), evenly spaced in the order of the values."""
    check_choice(meaning, "meaning", tuple(sorted(SEQUENTIAL_MAPS)))
    name, first, last = SEQUENTIAL_MAPS[meaning]
    ordered = sorted(set(values), key=lambda v: (isinstance(v, str), v))
    shades = np.linspace(first, last, len(ordered)) if len(ordered) > 1 else [last]
    colour_map = sns.color_palette(name, as_cmap=True)
    pairs = zip(ordered, shades, strict=True)
    return {value: tuple(float(v) for v in colour_map(float(shade))[:3]) for value, shade in pairs}


ONE_COLUMN = 3.4
TWO_COLUMNS = 7.0
PRINT_WIDTHS = (ONE_COLUMN, TWO_COLUMNS)
"""The widths (inches) a journal prints a figure at: one column or two."""
MIN_FONT_PT = 6.0
"""No text smaller than this at the printed width."""
PNG_DPI = 150
"""The PNGs' resolution (the report's and the README's); the layout is computed at it, so that
the saved file shows the positions the layout engine and the craft check saw. Print uses the
vector PDFs."""

RC_PARAMS = {
    "font.family": "DejaVu Sans",
    "font.size": 7,
    "axes.titlesize": 7,
    "axes.labelsize": 7,
    "legend.fontsize": 6.5,
    "legend.title_fontsize": 6.5,
    "xtick.labelsize": 6.5,
    "ytick.labelsize": 6.5,
    "figure.titlesize": 8,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.dpi": PNG_DPI,
    "figure.constrained_layout.h_pad": 0.03,
    "figure.constrained_layout.w_pad": 0.03,
    "axes.titlepad": 3.0,
    "legend.handlelength": 1.6,
    "lines.markersize": 4.0,
    "pdf.fonttype": 42,
    "svg.hashsalt": "attnspec",
    "path.simplify": False,
}

BAND = ("pi", 80)
"""seaborn ``errorbar`` of the bands over draws: the 10-90 % percentile interval."""
BAND_MIN_DRAWS = 10
"""Fewer draws than this at a point: plot the draws themselves, not a band."""


MAX_LOG_LABELS = 6
"""At most this many labelled ticks on a log axis (more crowd a one-column panel)."""
LOG_MANTISSAS = ((1.0, 2.0, 5.0), (1.0,), tuple(float(m) for m in range(1, 10)))
MAX_PREFERRED_DECADES = 2.0
"""Over more decades than this, 1, 2, 5 x 10^n crowd the labels: decades only."""


def log_ticks(low: float, high: float) -> np.ndarray:
    """Labelled ticks of a base-10 log axis over [low, high]: at 1, 2, 5 x 10^n; at 10^n
    alone (every k-th decade) when those are more than :data:`MAX_LOG_LABELS` or the view
    spans more than :data:`MAX_PREFERRED_DECADES` decades; at every
    m x 10^n (m = 1..9, thinned to at most that many) when fewer than two of 1, 2, 5 x 10^n lie
    in view; and at linear steps when the view lies inside one such step. At least two ticks
    whenever ``low < high``, so that a log axis can be read."""
    low, high = sorted((float(low), float(high)))
    if not (np.isfinite(low) and np.isfinite(high) and 0 < low < high):
        return np.array([])
    decades = np.arange(np.floor(np.log10(low)), np.ceil(np.log10(high)) + 1)

    def in_view(mantissas, step=1):
        values = np.outer(10.0 ** decades[::step], mantissas).ravel()
        return np.sort(values[(values >= low * (1 - 1e-9)) & (values <= high * (1 + 1e-9))])

    preferred, _, every = (in_view(m) for m in LOG_MANTISSAS)
    wide = np.log10(high / low) > MAX_PREFERRED_DECADES
    if 2 <= preferred.size <= MAX_LOG_LABELS and not wide:
        return preferred
    if wide or preferred.size > MAX_LOG_LABELS:  # 10^n, every step-th decade
        step = 1
        while in_view(LOG_MANTISSAS[1], step).size > MAX_LOG_LABELS:
            step += 1
        return in_view(LOG_MANTISSAS[1], step)
    if every.size >= 2:
        return every[:: int(np.ceil(every.size / MAX_LOG_LABELS))]
    return MaxNLocator(3).tick_values(low, high)


def log_label(value: float, plain: bool = True) -> str:
    """A log axis' tick label: plain (``0.002``, ``500``) or in powers of ten (``$10^{-6}$``,
    ``$2\\times10^{5}$``)."""
    if not (np.isfinite(value) and value > 0):
        return ""
    if plain:
        return f"{value:g}"
    exponent = int(np.floor(np.log10(value) + 1e-9))
    mantissa = f"{value / 10.0**exponent:g}"
    power = f"10^{{{exponent}}}"
    return f"${power}$" if mantissa == "1" else rf"${mantissa}\times{power}$"


class ReadableLogFormatter(Formatter):
    """Labels of one log axis in one style: plain numbers when every tick lies in
    [1e-3, 1e4), else powers of ten for all (:func:`log_label`)."""

    plain = True

    def set_locs(self, locs):
        super().set_locs(locs)
        shown = [loc for loc in locs if loc > 0]
        self.plain = all(1e-3 * (1 - 1e-9) <= loc < 1e4 for loc in shown)

    def __call__(self, value, position=None):
        return log_label(value, self.plain)


class ReadableLogLocator(Locator):
    """Major locator of a base-10 log axis placing :func:`log_ticks` in the view."""

    def __call__(self):
        return self.tick_values(*self.axis.get_view_interval())

    def tick_values(self, vmin, vmax):
        return log_ticks(vmin, vmax)


def log_axis(axis, **scale) -> None:
    """Make ``axis`` (``ax.xaxis`` or ``ax.yaxis``) base-10 logarithmic with readable labels:
    :func:`log_ticks` labelled by :class:`ReadableLogFormatter`, unlabelled minor ticks;
    ``scale`` goes to the axis scale (e.g. ``nonpositive="mask"``)."""
    set_scale = axis.axes.set_xscale if axis.axis_name == "x" else axis.axes.set_yscale
    set_scale("log", **scale)
    axis.set_major_locator(ReadableLogLocator())
    axis.set_major_formatter(ReadableLogFormatter())
    axis.set_minor_formatter(NullFormatter())


def unreadable_log_axes(figure) -> list[str]:
    """The log axes of a drawn ``figure`` with fewer than two labelled major ticks in view
    (``"<axes title or index> x"``); a figure editor cannot read such an axis. An axis whose
    labels are all hidden (an inner panel sharing a labelled one's scale) is not counted."""
    found = []
    for index, ax in enumerate(figure.axes):
        for name, axis in (("x", ax.xaxis), ("y", ax.yaxis)):
            ticks = axis.get_major_ticks()
            if (
                axis.get_scale() != "log"
                or not ax.get_visible()
                or not any(tick.label1.get_visible() for tick in ticks)
            ):
                continue
            low, high = sorted(axis.get_view_interval())
            labelled = [
                tick
                for tick in ticks
                if tick.label1.get_visible()
                and tick.label1.get_text()
                and low * (1 - 1e-9) <= tick.get_loc() <= high * (1 + 1e-9)
            ]
            if len(labelled) < 2:
                found.append(f"{ax.get_title() or index} {name}")
    return found


def apply_style() -> None:
    """Make the project theme the default for figures created afterwards (seaborn's theme with
    the project's rc parameters)."""
    sns.set_theme(context="paper", style="ticks", palette=PALETTE, rc=RC_PARAMS)


def check_print_width(width: float) -> float:
    """``width`` if it is one of :data:`PRINT_WIDTHS` (inches), else a ValueError."""
    if not any(abs(float(width) - w) < 1e-9 for w in PRINT_WIDTHS):
        raise ValueError(f"width must be one of {PRINT_WIDTHS} inches; got {width!r}")
    return float(width)


def new_figure(n_rows: int, n_cols: int, *, width: float, height: float, **kwargs):
    """A figure and its axes grid in the project theme, ``width`` one or two columns
    (:data:`PRINT_WIDTHS`, inches; ``squeeze=False``, constrained layout)."""
    apply_style()
    figure, axes = plt.subplots(
        n_rows,
        n_cols,
        figsize=(check_print_width(width), height),
        squeeze=False,
        layout="constrained",
        **kwargs,
    )
    return figure, axes


def new_canvas(*, width: float, height: float):
    """An empty figure in the project theme at a print width (for mosaics and subfigures)."""
    apply_style()
    return plt.figure(figsize=(check_print_width(width), height), layout="constrained")


def set_print_size(figure, *, width: float, height: float) -> None:
    """Resize ``figure`` (e.g. a seaborn FacetGrid's) to a print width and the given height,
    handing it to the constrained layout (room for titles and legends)."""
    figure.set_size_inches(check_print_width(width), height)
    figure.set_layout_engine("constrained")


PANEL_LETTER_GID = "panel-letter"
"""The gid of the texts :func:`label_panels` places (how the convention check finds them)."""


def label_panels(axes) -> None:
    """Mark each of ``axes`` (the data panels, in reading order) with a bold letter a, b, c, ...
    above its top left corner: left-aligned with the panel's left edge, on its title's baseline,
    in its title's size (:func:`is_panel_letter` tells them from the panel's own texts). A
    single panel gets no letter."""
    axes = list(axes)
    if len(axes) > len(string.ascii_lowercase):
        raise ValueError(f"at most 26 panels can be lettered; got {len(axes)}")
    if len(axes) < 2:
        return
    for letter, ax in zip(string.ascii_lowercase, axes, strict=False):
        ax.text(
            0.0, 1.0, letter, transform=ax.title.get_transform(), ha="left", va="baseline",
            fontsize=ax.title.get_fontsize(), fontweight="bold", gid=PANEL_LETTER_GID,
        )  # fmt: skip


def is_panel_letter(text) -> bool:
    """Whether ``text`` (a matplotlib Text) is a panel letter of :func:`label_panels`."""
    return text.get_gid() == PANEL_LETTER_GID


def close(figure) -> None:
    """Release a figure's memory."""
    plt.close(figure)
