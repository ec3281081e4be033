"""Figure A2, drawn with seaborn from its tidy table
(:func:`attnspec.papers.a.full_spectrum_plotted.full_spectrum_plotted_table`): 2 x 2 panels on
the full spectrum of sqrt(ell) A, two columns wide.

(a) sorted spectrum of one draw against the nu_inf quantiles; (b) ``sns.histplot`` of all draws'
values on log bins against the nu_inf expectation (the same bins, weighted by the expected
counts); (c) leading non-Perron values of every draw with the spike predictions, x_+ and the
Marchenko-Pastur edge 4 theta_1, and an inset zoomed on x_+ with the Tracy-Widom window;
(d) localisation (ell IPR) of their singular vectors (open markers, matplotlib: the left and
right vectors overlap, and seaborn fills its markers).
"""

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.ticker import FormatStrFormatter, MaxNLocator

from attnspec.papers.a.full_spectrum_plotted import FULL_SPECTRUM_LEVELS
from attnspec.plotting.placement import place_legend, settle_legends
from attnspec.plotting.style import (
    COLOURS,
    DATA_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    TWO_COLUMNS,
    label_panels,
    log_axis,
    new_figure,
)
from attnspec.plotting.tidy import select

LEVEL_STYLES = {
    "perron_prediction": dict(color=THEORY_COLOUR, ls="-.", lw=0.9),
    "x_plus": dict(color=THEORY_COLOUR, ls=":", lw=1.1),
    "mp_edge": dict(color=SURROGATE_COLOUR, ls="-.", lw=1.0),
}
"""Reference levels: theory (the Perron prediction, x_+) in the theory colour with their own
line styles; the surrogate's edge 4 theta_1 in its colour."""
WINDOW_STYLE = dict(color=THEORY_COLOUR, alpha=0.25, lw=0)
"""The Tracy-Widom window above x_+ (theory), shaded."""
DRAW_STYLE = dict(color=DATA_COLOUR, marker="o", ms=3, mew=0, lw=0.6, alpha=0.75)
THIN_WINDOW = 0.05
"""(c) gets an inset zoomed on the Tracy-Widom window when the window is thinner than this
fraction of its y-range (else the window is seen on the panel itself)."""
ZOOM_BELOW, ZOOM_ABOVE = 3.0, 2.0
"""The inset of (c) spans these many window heights below x_+ and above the window, from k = 2."""
ZOOM_BOX = (0.45, 0.24, 0.52, 0.28)
"""Where the inset of (c) sits (axes fraction): right of the values at k <= 2, below the legend
in the upper right corner."""


def _sorted_panel(ax, frame: pd.DataFrame, levels: pd.Series) -> None:
    spectrum = select(frame, "data", "spectrum")
    spectrum = spectrum[spectrum["draw"] == 0]
    sns.lineplot(data=spectrum, x="k", y="value", color=DATA_COLOUR, lw=1.4, label="draw 0", ax=ax)
    theory = select(frame, "theory", "nu_inf_quantile")
    ax.plot(
        theory["k"], theory["value"], color=THEORY_COLOUR, lw=1.0, ls="--",
        label=r"$\nu_\infty$ quantiles",
    )  # fmt: skip
    ax.axhline(
        levels["perron_prediction"], **LEVEL_STYLES["perron_prediction"],
        label=f"predicted Perron value ({levels['perron_prediction']:.1f})",
    )  # fmt: skip
    ax.axhline(
        levels["x_plus"], **LEVEL_STYLES["x_plus"],
        label=rf"$x_+ = {levels['x_plus']:.2f}$, edge of $\nu_\infty$",
    )  # fmt: skip
    log_axis(ax.xaxis)
    log_axis(ax.yaxis)
    ax.set_xlabel("rank $k$")
    ax.set_ylabel(r"$\ell\, s_k(A)^2$")
    ax.set_title(f"sorted spectrum, one draw: $\\ell s_1^2 = {spectrum['value'].iloc[0]:.1f}$")
    ax.legend(frameon=False, loc="lower left")


def _histogram_panel(ax, frame: pd.DataFrame, levels: pd.Series) -> None:
    spectrum = select(frame, "data", "spectrum")
    expected = select(frame, "theory", "nu_inf_expected_count")
    centres = np.log10(expected["x"].to_numpy())  # log bins: centres evenly spaced in log10
    half = (centres[1] - centres[0]) / 2
    bins = list(np.append(centres - half, centres[-1] + half))  # a list: seaborn compares
    # bins with "auto" when there are weights
    n_draws = spectrum["draw"].nunique()
    sns.histplot(
        data=spectrum, x="value", bins=bins, log_scale=True, element="step", color=DATA_COLOUR,
        alpha=0.6, lw=0, label="all values", ax=ax,
    )  # fmt: skip
    sns.histplot(
        data=expected, x="x", weights="value", bins=bins, log_scale=True, element="step",
        fill=False, color=THEORY_COLOUR, lw=1.0, label=r"$\nu_\infty$, expected count", ax=ax,
    )  # fmt: skip
    ax.axvline(levels["x_plus"], **LEVEL_STYLES["x_plus"], label=r"$x_+$")
    ax.axvline(
        levels["perron_prediction"], **LEVEL_STYLES["perron_prediction"],
        label="predicted Perron value\n(the Perron values' bar)",
    )  # fmt: skip
    log_axis(ax.xaxis)
    log_axis(ax.yaxis)
    ax.set_ylim(0.5, None)
    ax.set_xlabel(r"$\ell\, s^2$")
    ax.set_ylabel("count per bin")
    ax.set_title(f"all values of {n_draws} draws, logarithmic bins")
    place_legend(ax, frameon=False, prefer="upper left")


def _draw_top(ax, top: pd.DataFrame, levels: pd.Series) -> None:
    """The leading non-Perron values of each draw (one line per draw), x_+ and the
    Tracy-Widom window above it."""
    ax.axhspan(levels["x_plus"], levels["outlier_threshold"], **WINDOW_STYLE)
    ax.axhline(levels["x_plus"], **LEVEL_STYLES["x_plus"])
    for _, rows in top.groupby("draw"):
        ax.plot(rows["k"], rows["value"], **DRAW_STYLE)


def _zoom_on_the_window(ax, top: pd.DataFrame, levels: pd.Series, window: float) -> None:
    """An inset of ``ax`` zoomed on x_+ and the Tracy-Widom window (of height ``window``)
    from k = 2, its x-ticks at the indices k, its two y-ticks at the window's bounds."""
    zoom = ax.inset_axes(ZOOM_BOX)
    _draw_top(zoom, top, levels)
    zoom.set_ylim(
        levels["x_plus"] - ZOOM_BELOW * window, levels["outlier_threshold"] + ZOOM_ABOVE * window
    )
    zoom.set_xlim(1.6, ax.get_xlim()[1])
    zoom.set_xticks(sorted(top.loc[top["k"] >= 2, "k"].unique()))
    zoom.set_yticks([levels["x_plus"], levels["outlier_threshold"]])
    zoom.yaxis.set_major_formatter(FormatStrFormatter("%.2f"))
    zoom.set_title(r"near $x_+$", pad=1.5)
    ax.indicate_inset_zoom(zoom, edgecolor=COLOURS["guide"])


def _top_panel(ax, frame: pd.DataFrame, levels: pd.Series) -> None:
    top = select(frame, "data", "nonperron")
    ax.axhline(levels["mp_edge"], **LEVEL_STYLES["mp_edge"])
    _draw_top(ax, top, levels)
    spikes = select(frame, "theory", "spike_prediction")
    ax.plot(spikes["k"], spikes["value"], ls="none", marker="x", ms=5, color=THEORY_COLOUR)
    window = levels["outlier_threshold"] - levels["x_plus"]
    low, high = ax.get_ylim()
    thin = window < THIN_WINDOW * (high - low)
    if thin:
        _zoom_on_the_window(ax, top, levels, window)
    above = (
        top[top["value"] > levels["x_plus"]]
        .groupby("draw")["k"]
        .count()
        .reindex(top["draw"].unique(), fill_value=0)
    )
    handles = [
        Line2D([], [], **DRAW_STYLE),
        Line2D([], [], ls="none", marker="x", ms=5, color=THEORY_COLOUR),
        Line2D([], [], **LEVEL_STYLES["x_plus"]),
        Line2D([], [], color=THEORY_COLOUR, alpha=WINDOW_STYLE["alpha"], lw=5),
        Line2D([], [], **LEVEL_STYLES["mp_edge"]),
    ]
    labels = [
        "each draw",
        "spike prediction",
        r"$x_+$",
        "Tracy–Widom 99 % window",
        r"$4\theta_1$, MP surrogate edge",
    ]
    # above the inset (placed beside the spikes at k = 1), else where the data leave room
    place_legend(ax, handles, labels, frameon=False, prefer="upper right" if thin else "upper left")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(r"non-Perron index $k$ of $\sqrt{\ell}A^\perp$")
    ax.set_ylabel(r"$\ell\, s_k(A^\perp)^2$")
    ax.set_title(f"top of the spectrum: {above.min()}–{above.max()} values above $x_+$")


def _ipr_panel(ax, frame: pd.DataFrame, levels: pd.Series) -> None:
    ax.axhline(
        levels["ipr_reference"], color=COLOURS["null_model"], ls="--", lw=0.9,
        label="delocalised vector",
    )  # fmt: skip
    ax.axvline(levels["x_plus"], **LEVEL_STYLES["x_plus"], label=r"$x_+$")
    for series, marker, label in (
        ("ell_ipr_left", "o", "left vector"),
        ("ell_ipr_right", "^", "right vector"),
    ):
        rows = select(frame, "data", series)
        ax.plot(
            rows["x"], rows["value"], ls="none", marker=marker, ms=3.5, mfc="none",
            color=DATA_COLOUR, label=label,
        )  # fmt: skip
    log_axis(ax.yaxis)
    ax.xaxis.set_major_locator(MaxNLocator(6))
    ax.set_xlabel(r"$\ell\, s_k(A^\perp)^2$")
    ax.set_ylabel(r"$\ell\,\times$ IPR of the singular vector")
    ax.set_title("localisation of the leading non-Perron vectors")
    place_legend(ax, frameon=False, prefer="center right")


def plot_full_spectrum(frame: pd.DataFrame):
    """Four panels (see the module docstring) from figure A2's tidy table, lettered row by row."""
    theory = frame[frame["kind"] == "theory"]
    levels = theory[theory["series"].isin(FULL_SPECTRUM_LEVELS)].set_index("series")["value"]
    figure, axes = new_figure(2, 2, width=TWO_COLUMNS, height=5.4)
    _sorted_panel(axes[0, 0], frame, levels)
    _histogram_panel(axes[0, 1], frame, levels)
    _top_panel(axes[1, 0], frame, levels)
    _ipr_panel(axes[1, 1], frame, levels)
    label_panels(axes.ravel())
    settle_legends(figure)
    return figure
