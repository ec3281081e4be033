"""Figure D4 (paper D's figure D.1), drawn with seaborn from its tidy table at two columns'
width (7.0 in).

Three panels, one per row ``panel`` of the table (:mod:`attnspec.papers.d.design_choices_plotted`):
per condition the histogram (stat="density", the given number of bins over the range of the
condition's eigenvalues of both series) of the softmax spectrum, shaded, and of its Gaussian
equivalent, an outline of the same colour; each distinct limit law's density in the theory
colour, solid. The range shown is that of the laws' curves (0 to a little beyond the largest
edge); the key numbers count the eigenvalues beyond it. One
colour per condition, from the sequential map of its ordered quantity (h, d_O) or, in panel c,
figure D3's colours of the sharing schemes. A panel whose law reaches down to 0 (peaked there,
with a long tail) has a log density axis. Nothing here computes a result.
"""

import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from attnspec.papers.d.design_choices import SHARING_LABELS
from attnspec.papers.d.design_choices_plotted import LIMIT_LAW
from attnspec.papers.d.design_choices_summary import SERIES_LABELS
from attnspec.papers.d.plot_multihead import SCHEME_COLOURS, STAGE_MATRICES
from attnspec.plotting.style import (
    COLOURS,
    LEGEND_KEY,
    LINE_STYLES,
    TWO_COLUMNS,
    label_panels,
    log_axis,
    new_canvas,
    sequential_colours,
)
from attnspec.plotting.tidy import DATA, THEORY, numeric, select

SOFTMAX, GAUSSIAN = SERIES_LABELS["softmax"], SERIES_LABELS["gaussian"]
SHADE_ALPHA = 0.35
OUTLINE_WIDTH = 0.9
LAW_WIDTH = 1.1
PANEL_TITLES = {
    "a": "attention at fixed $h\\,d_K$",
    "b": "layer: output width $d_O$",
    "c": "layer: K/V sharing and tying",
}
PANEL_MATRICES = {
    "a": STAGE_MATRICES["attention"],
    "b": STAGE_MATRICES["output"],
    "c": STAGE_MATRICES["output"],
}


def condition_colours(panel: str, labels: list[str]) -> dict:
    """One colour per condition label of a panel: h (panel a) and d_O (panel b) light to dark
    in increasing order; panel c in figure D3's colours of independent, MQA and K = V."""
    if panel == "c":
        return {label: SCHEME_COLOURS[label] for label in labels}
    values = {label: int(label.split("=")[1]) for label in labels}
    shades = sequential_colours("heads" if panel == "a" else "width", values.values())
    return {label: shades[value] for label, value in values.items()}


def legend_label(label: str) -> str:
    """A condition's label as the legend shows it: "h = 4" and "d_O = 256" in maths."""
    if label in SHARING_LABELS.values():
        return label
    name, value = (part.strip() for part in label.split("="))
    return f"${name} = {value}$"


def _draw_panel(ax, samples: pd.DataFrame, laws: pd.DataFrame, panel: str, bins: int) -> list:
    """One panel's histograms and law curves; returns its legend handles (one per condition)."""
    labels = list(dict.fromkeys(samples["condition"]))
    colours = condition_colours(panel, labels)
    handles = []
    for label in labels:
        mine = samples[samples["condition"] == label]
        binrange = (float(mine["eigenvalue"].min()), float(mine["eigenvalue"].max()))
        colour = colours[label]
        sns.histplot(
            data=mine[mine["series"] == SOFTMAX], x="eigenvalue", stat="density", bins=bins,
            binrange=binrange, element="step", fill=True, alpha=SHADE_ALPHA, lw=0,
            color=colour, ax=ax,
        )  # fmt: skip
        sns.histplot(
            data=mine[mine["series"] == GAUSSIAN], x="eigenvalue", stat="density", bins=bins,
            binrange=binrange, element="step", fill=False, lw=OUTLINE_WIDTH, color=colour, ax=ax,
        )  # fmt: skip
        handles.append(Patch(facecolor=colour, edgecolor=colour, label=legend_label(label)))
    reaches_zero = False
    for label in dict.fromkeys(laws["condition"]):
        curve = laws[laws["condition"] == label]
        ax.plot(
            curve["eigenvalue"], curve["density"], color=COLOURS["theory"], lw=LAW_WIDTH,
            ls=LINE_STYLES["limit law / theory"], label=f"{LIMIT_LAW}, {label}",
        )  # fmt: skip
        reaches_zero |= bool(curve["density"].iloc[0] > 0)
    if reaches_zero:
        log_axis(ax.yaxis)
    ax.set_xlim(0.0, float(laws["eigenvalue"].max()))
    ax.set_title(PANEL_TITLES[panel])
    ax.set_xlabel(PANEL_MATRICES[panel])
    ax.set_ylabel("density")
    return handles


def plot_design_choices(frame: pd.DataFrame, bins: int):
    """Figure D4 from its tidy table: panels a, b, c side by side, each with the legend of its
    conditions below it, and the key to the series (shaded softmax, outlined Gaussian
    equivalent, the limit law) below all three."""
    frame = numeric(frame, "eigenvalue", "density")
    samples = select(frame, DATA)
    laws = select(frame, THEORY, LIMIT_LAW)
    panels = list(dict.fromkeys(samples["panel"]))
    figure = new_canvas(width=TWO_COLUMNS, height=2.9)
    top, bottom = figure.subfigures(2, 1, height_ratios=[1.0, 0.09])
    axes = []
    for subfigure, panel in zip(top.subfigures(1, len(panels)), panels, strict=True):
        ax = subfigure.subplots()
        handles = _draw_panel(
            ax, samples[samples["panel"] == panel], laws[laws["panel"] == panel], panel, bins
        )
        subfigure.legend(
            handles=handles, loc="outside lower center", ncol=len(handles), frameon=False,
            handlelength=1.0, columnspacing=1.0,
        )  # fmt: skip
        axes.append(ax)
    key = [
        Patch(facecolor=LEGEND_KEY, alpha=SHADE_ALPHA, lw=0, label=f"{SOFTMAX} (shaded)"),
        Patch(facecolor="none", edgecolor=LEGEND_KEY, lw=OUTLINE_WIDTH,
              label=f"{GAUSSIAN}, same weights (outline)"),
        Line2D([], [], color=COLOURS["theory"], lw=LAW_WIDTH, label=f"{LIMIT_LAW} (paper D)"),
    ]  # fmt: skip
    bottom.legend(handles=key, loc="center", ncol=len(key), frameon=False)
    label_panels(axes)
    return figure
