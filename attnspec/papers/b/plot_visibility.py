"""Figure B7 (paper B, where sticking becomes visible), drawn from its tidy table
(:mod:`attnspec.papers.b.visibility_plotted`, exactly the figure's CSV); nothing here computes a
result.

(a) The (beta, ell) plane at c = 1: ell*(beta), where the median of theta_max falls below 1/G*
(theory, solid), and where its 10 % and 90 % quantiles do (dashed); below the curve (shaded) the
typical draw has an outlier. The sticking grid's points in the data colour: filled when every
measured draw is supercritical (theta_max > 1/G*), half filled when some are, open when none
are; circles for this preset's grid, squares for points only the paper preset simulates, grey
crosses for grid points without measured draws.
(b, c, ...) One panel per beta: theta_max of each draw against ell (dots: this preset's draws;
diamonds: the paper preset's stored draws), the model's median (solid) and 10-90 % quantiles
(dashed), and the threshold 1/G* (dotted). The legend is under the panels.
"""

import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from attnspec.papers.b.visibility_plotted import BETA_RANGE, SIZE_RANGE
from attnspec.plotting.style import (
    COLOURS,
    DATA_COLOUR,
    LINE_STYLES,
    THEORY_COLOUR,
    TWO_COLUMNS,
    label_panels,
    log_axis,
    new_canvas,
)
from attnspec.plotting.tidy import numeric, select, value_of

SHADE_ALPHA = 0.12
"""Opacity of panel (a)'s supercritical region."""
GRID_MARKERS = {"both": "o", "run": "o", "paper": "s"}
"""Panel (a): a point of this preset's grid (circle) or of the paper preset's only (square)."""
FILLS = {"all": "full", "some": "bottom", "none": "none"}
"""Panel (a): the marker fill of a grid point by its supercritical draws."""
PRESET_MARKERS = {"run": "o", "stored": "D"}
"""Panels (b, ...): this preset's draws (dots) and the paper preset's stored draws (diamonds)."""
THEORY_WIDTH = 1.1
QUANTILE_WIDTH = 0.8
HEIGHT = 3.2
PLANE_WIDTH_RATIO = 1.4
MARKER_SIZE = 3.4
MARGIN = 1.6
"""Panels (b, ...): the y axis spans the draws, the threshold and the theory's peak, this factor
wider either side (the model's tails leave the panel)."""


def _fill(fraction: float) -> str:
    return "all" if fraction == 1.0 else "none" if fraction == 0.0 else "some"


def plot_visibility(frame: pd.DataFrame):
    """Figure B7 from its tidy table (module docstring)."""
    frame = numeric(frame, "c", "beta", "ell", "draw", "draws", "probability", "value")
    spike = frame[frame["panel"] == "spike"]
    betas = sorted(select(spike, "data")["beta"].unique())
    figure = new_canvas(width=TWO_COLUMNS, height=HEIGHT)
    grid = figure.add_gridspec(
        1, 1 + len(betas), width_ratios=[PLANE_WIDTH_RATIO] + [1] * len(betas)
    )
    plane_ax = figure.add_subplot(grid[0, 0])
    spike_axes = [figure.add_subplot(grid[0, 1 + i]) for i in range(len(betas))]
    _plane_panel(plane_ax, frame[frame["panel"] == "plane"])
    for ax, beta in zip(spike_axes, betas, strict=True):
        _spike_panel(ax, spike[spike["beta"] == beta], beta)
        ax.set_ylabel(r"$\theta_{\max}$" if ax is spike_axes[0] else "")
    dashed = LINE_STYLES["alternative or quantile"]
    keys = {
        r"median $\theta_{\max}$ (model); (a) its $\ell^*$, where it equals $1/G^*$": Line2D(
            [], [], color=THEORY_COLOUR, lw=THEORY_WIDTH),
        r"10 % and 90 % quantiles (model); (a) their $\ell^*$": Line2D(
            [], [], color=THEORY_COLOUR, lw=QUANTILE_WIDTH, ls=dashed),
        r"threshold $1/G^*$": Line2D(
            [], [], color=THEORY_COLOUR, lw=1.0, ls=LINE_STYLES["edge or threshold"]),
        r"(a) median $\theta_{\max} > 1/G^*$: outliers expected": Patch(
            fc=THEORY_COLOUR, alpha=SHADE_ALPHA, ec="none"),
        "(a) every draw supercritical": _grid_key("o", "full"),
        "(a) some draws supercritical": _grid_key("o", "bottom"),
        "(a) no draw supercritical": _grid_key("o", "none"),
        "(a) square: paper preset only": _grid_key("s", "none"),
        r"$\theta_{\max}$, each draw": Line2D(
            [], [], ls="none", marker="o", ms=2.5, color=DATA_COLOUR, alpha=0.7),
    }  # fmt: skip
    if (select(spike, "data", "theta_max")["preset"] == "stored").any():
        keys[r"$\theta_{\max}$, paper preset's stored draws"] = Line2D(
            [], [], ls="none", marker="D", ms=2.5, color=DATA_COLOUR, alpha=0.7)  # fmt: skip
    if select(frame, "data", "grid")["draws"].eq(0).any():
        keys["(a) not simulated in this run"] = Line2D(
            [], [], ls="none", marker="x", ms=3, color=COLOURS["null_model"])  # fmt: skip
    figure.legend(list(keys.values()), list(keys), frameon=False, ncols=3,
                  loc="outside lower center")  # fmt: skip
    label_panels([plane_ax, *spike_axes])
    return figure


def _grid_key(marker: str, fill: str) -> Line2D:
    return Line2D([], [], ls="none", marker=marker, ms=MARKER_SIZE, color=DATA_COLOUR,
                  fillstyle=fill, mfc=_face(fill), mfcalt="white", mew=0.6)  # fmt: skip


def _face(fill: str):
    """A marker's face colour: the data colour, or white for an open marker."""
    return DATA_COLOUR if fill != "none" else "white"


def _plane_panel(ax, frame: pd.DataFrame) -> None:
    """ell*(beta) at c = 1 (median solid, 10 % and 90 % dashed), the supercritical region
    shaded, and the sticking grid's points."""
    curves = select(frame, "theory", "critical_size")
    square = curves[curves["c"] == 1.0]
    median = square[square["probability"] == 0.5]
    points = select(frame, "data", "grid")
    low = min(SIZE_RANGE[0], points["ell"].min() / 2)
    ax.fill_between(median["beta"], low, median["value"], color=THEORY_COLOUR,
                    alpha=SHADE_ALPHA, lw=0, zorder=1)  # fmt: skip
    ax.plot(median["beta"], median["value"], color=THEORY_COLOUR, lw=THEORY_WIDTH, zorder=3)
    for p in (0.1, 0.9):
        mine = square[square["probability"] == p]
        ax.plot(mine["beta"], mine["value"], color=THEORY_COLOUR, lw=QUANTILE_WIDTH,
                ls=LINE_STYLES["alternative or quantile"], zorder=3)  # fmt: skip
    for _, row in points.iterrows():
        if row["draws"] == 0:
            ax.plot(row["beta"], row["ell"], ls="none", marker="x", ms=3,
                    color=COLOURS["null_model"], zorder=4)  # fmt: skip
            continue
        fill = FILLS[_fill(row["value"])]
        ax.plot(row["beta"], row["ell"], ls="none", marker=GRID_MARKERS[row["preset"]],
                ms=MARKER_SIZE, color=DATA_COLOUR, fillstyle=fill, mfc=_face(fill),
                mfcalt="white", mew=0.6, zorder=5)  # fmt: skip
    log_axis(ax.yaxis)
    ax.set_ylim(low, SIZE_RANGE[1])
    ax.set_xlim(*BETA_RANGE)
    ax.set_xlabel(r"$\beta$")
    ax.set_ylabel(r"$\ell$")
    ax.set_title(r"critical size $\ell^*(\beta)$, $c = 1$")


def _spike_panel(ax, frame: pd.DataFrame, beta: float) -> None:
    """theta_max per draw against ell, the model's quantiles and the threshold 1/G*."""
    for preset, marker in PRESET_MARKERS.items():
        draws = select(frame, "data", "theta_max")
        draws = draws[draws["preset"] == preset]
        if len(draws):
            ax.scatter(draws["ell"], draws["value"], marker=marker, s=5.0, lw=0,
                       color=DATA_COLOUR, alpha=0.7, zorder=4)  # fmt: skip
    quantiles = select(frame, "theory", "quantile")
    for p, mine in quantiles.groupby("probability"):
        median = p == 0.5
        ax.plot(mine["ell"], mine["value"], color=THEORY_COLOUR,
                lw=THEORY_WIDTH if median else QUANTILE_WIDTH,
                ls=LINE_STYLES["limit law / theory" if median else "alternative or quantile"],
                zorder=3)  # fmt: skip
    threshold = value_of(frame, "theory", "threshold", beta=beta)
    ax.axhline(threshold, color=THEORY_COLOUR, lw=1.0, ls=LINE_STYLES["edge or threshold"],
               zorder=2)  # fmt: skip
    shown = [*select(frame, "data", "theta_max")["value"], threshold, quantiles["value"].max()]
    log_axis(ax.xaxis)
    log_axis(ax.yaxis)
    ax.set_xlim(quantiles["ell"].min(), quantiles["ell"].max())
    ax.set_ylim(min(shown) / MARGIN, max(shown) * MARGIN)
    ax.set_xlabel(r"$\ell$")
    ax.set_title(rf"$\beta = {beta:g}$")
