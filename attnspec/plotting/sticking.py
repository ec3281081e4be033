"""Figures B1-B3 (paper B), drawn with seaborn from their tidy tables: the leading non-Perron
values of A against ell (log axes).

Each function takes the figure's plotted table (a pandas DataFrame with the columns of
:mod:`attnspec.experiments.sticking_plotted`'s ``*_PLOTTED_HEADER``, exactly the figure's CSV)
and the labels read from the claims table; nothing here computes a result.
- B1: one panel per (c, beta): ell s_k(A)^2, k = 2..top_k, the median over draws with the
  10-90 % band (seaborn, in a panel whose every point has at least BAND_MIN_DRAWS draws, else
  the draws themselves), the median of the Gaussian reference s_{k-1}(Y_lin)^2 (dashed) and
  x_+ (black).
- B2: (a) |relative gap| of ell s_2(A)^2 per draw, its median (filled: above x_+, open: below),
  Y_lin's median, the fitted rate (95 % interval) and the Tracy-Widom expectation; (b) ell
  s_2(A)^2 per draw against the spike prediction K(1/theta_max)^2; (c) IPR of the top singular
  vectors per draw and their medians against the delocalised 3/ell.
- B3: one panel per beta: D = max over 2 <= k <= k_ell of the relative deviation for three
  schedules k_ell (median, band as in B1), with its value at the classical locations under
  nu_inf.
"""

from collections.abc import Mapping

import matplotlib as mpl
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FormatStrFormatter, NullFormatter

from attnspec.experiments.sticking_evidence import JUDGED_BETAS, edge_row, uniform_row
from attnspec.experiments.sticking_summary import SCHEDULE_LABELS, SCHEDULES, Rate
from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    PALETTE,
    REFERENCE_COLOUR,
    apply_style,
    log_axis,
    new_figure,
)

BETA_COLOURS = [PALETTE[i] for i in (0, 1, 4, 2, 5, 6)]
SCHEDULE_COLOURS = {"log": PALETTE[0], "cube_root": PALETTE[1], "square_root": PALETTE[2]}
# Drawn largest k_ell first and widest, so that coinciding curves (when the k = 2 excursion
# dominates D) stay visible.
SCHEDULE_STYLES = {
    "square_root": {"marker": "^", "lw": 2.4, "ms": 6},
    "cube_root": {"marker": "s", "lw": 1.6, "ms": 4.5},
    "log": {"marker": "o", "lw": 0.9, "ms": 3},
}
DOT = {"marker": ".", "s": 6.25, "linewidth": 0, "legend": False}
"""seaborn scatterplot options of a single draw (as matplotlib's '.' marker of size 2.5)."""


def numeric(frame: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """A copy with ``columns`` as floats (empty cells, for columns that do not apply to a row,
    -> NaN), so that a table drawn from its rows and from its CSV are the same."""
    frame = frame.copy()
    for column in columns:
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    return frame


def banded(frame: pd.DataFrame, by: list[str]) -> bool:
    """Whether every point (a group of ``by``) has at least BAND_MIN_DRAWS draws."""
    return bool(frame.groupby(by)["draw"].nunique().min() >= BAND_MIN_DRAWS)


def band_options(as_band: bool, alpha: float = 0.18) -> dict:
    """seaborn lineplot options: the median over draws with the 10-90 % band, or the median
    alone (the draws are then drawn as dots)."""
    if as_band:
        return {"estimator": "median", "errorbar": BAND, "err_kws": {"alpha": alpha, "lw": 0}}
    return {"estimator": "median", "errorbar": None}


def band_key(as_band: bool, colour) -> object:
    """The legend entry of the spread: a band, or the draws' dots."""
    if as_band:
        return Patch(color=colour, alpha=0.18, label="10-90 % over draws")
    return Line2D(
        [], [], ls="none", marker=".", ms=3, color=colour,
        label=f"each draw (fewer than {BAND_MIN_DRAWS}: no band)",
    )  # fmt: skip


def _k_colours(ks) -> dict:
    """One colour per k, dark (k = 2) to light."""
    cmap = mpl.colormaps["viridis"]
    ks = sorted(ks)
    return {k: cmap(0.85 * i / max(1, len(ks) - 1)) for i, k in enumerate(ks)}


def _beta_colours(betas) -> dict:
    return {b: BETA_COLOURS[i % len(BETA_COLOURS)] for i, b in enumerate(sorted(set(betas)))}


def _log2_ell_axis(ax, ells) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(set(ells)))
    ax.xaxis.set_major_formatter(FormatStrFormatter("%d"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(r"$\ell$")


# B1 ---------------------------------------------------------------------------------------
NOT_JUDGED = "shown, not judged: supercritical spikes (B2)"


def edge_labels(betas, judged: Mapping[str, str]) -> dict[float, str]:
    """Figure B1's c = 1 panel labels: ``judged`` maps a row id to its verdict label
    (:func:`attnspec.dashboard.verdict_label`); betas without a B.1 row are shown, not judged."""
    return {beta: judged.get(edge_row(beta), NOT_JUDGED) for beta in betas}


def plot_sticking(frame: pd.DataFrame, labels: Mapping[float, str]):
    """Figure B1 from its tidy table: one row of panels per c (c = 1 first), one panel per
    beta (seaborn FacetGrid); ``labels`` maps each c = 1 beta to the text under its title. A
    panel draws bands when each of its points has BAND_MIN_DRAWS draws, else the draws."""
    apply_style()
    ratios = sorted(frame["c"].unique(), key=lambda c: (c != 1.0, c))
    colours = _k_colours(frame["k"].unique())
    grid = sns.FacetGrid(
        frame, row="c", col="beta", row_order=ratios, col_order=sorted(frame["beta"].unique()),
        sharex=False, sharey=False, height=2.9, aspect=3.3 / 2.9,
    )  # fmt: skip
    grid.figure.set_layout_engine("constrained")
    spare, spreads = [], set()
    for (c, beta), ax in grid.axes_dict.items():
        panel = frame[(frame["c"] == c) & (frame["beta"] == beta)]
        if panel.empty:
            ax.set_axis_off()
            ax.set_title("")
            spare.append(ax)
            continue
        as_band = banded(panel, ["ell", "k"])
        spreads.add(as_band)
        sns.lineplot(
            data=panel, x="ell", y="attention", hue="k", palette=colours, marker="o", ms=3,
            mec="auto", lw=1.3, legend=False, ax=ax, **band_options(as_band),
        )  # fmt: skip
        if not as_band:
            sns.scatterplot(
                data=panel, x="ell", y="attention", hue="k", palette=colours, ax=ax, **DOT
            )
        sns.lineplot(
            data=panel, x="ell", y="Y_lin", hue="k", palette=colours, estimator="median",
            errorbar=None, lw=0.9, ls="--", legend=False, ax=ax,
        )  # fmt: skip
        x_plus = panel["x_plus"].iloc[0]
        ax.axhline(x_plus, color="black", lw=1.1)
        # Log scale only after seaborn has taken the medians (it would take them of the logs).
        if panel.loc[panel["k"] == 2, "attention"].max() > 3 * x_plus:
            log_axis(ax.yaxis)
        _log2_ell_axis(ax, panel["ell"])
        ax.set_ylabel(r"$\ell\,s_k(A)^2$")
        draws = "/".join(str(n) for n in sorted(panel.groupby("ell")["draw"].nunique().unique()))
        title = rf"$c = {c:g}$, $\beta = {beta:g}$: $x_+ = {x_plus:.4g}$, {draws} draws"
        if c == 1.0 and labels.get(beta):
            title += "\n" + labels[beta]
        ax.set_title(title, fontsize=8)
    handles = [
        Line2D([], [], color=colour, lw=1.3, marker="o", ms=3, label=rf"$\ell s_{k}(A)^2$")
        for k, colour in colours.items()
    ]
    handles += [band_key(as_band, colours[min(colours)]) for as_band in sorted(spreads)]
    handles += [
        Line2D([], [], color=REFERENCE_COLOUR, lw=0.9, ls="--", label=r"$s_{k-1}(Y_{lin})^2$"),
        Line2D([], [], color="black", lw=1.1, label=r"bulk edge $x_+$"),
    ]
    if spare:
        spare[0].legend(handles=handles, frameon=False, loc="center", fontsize=7.5)
    else:
        grid.figure.legend(handles=handles, frameon=False, loc="outside lower center", ncol=4)
    grid.figure.suptitle(
        r"B1: $\ell\,s_k(A)^2$ for $k\geq 2$ against $\ell$: median over draws (solid), "
        rf"10-90 % band from $\geq {BAND_MIN_DRAWS}$ draws (else each draw); dashed: Gaussian "
        r"reference $s_{k-1}(Y_{lin})^2$; black: bulk edge $x_+$",
        fontsize=9,
    )
    return grid.figure


# B2 ---------------------------------------------------------------------------------------
def plot_gap(frame: pd.DataFrame, rates: Mapping[float, Rate], spikes: Mapping[float, tuple]):
    """Figure B2 from its tidy table (c = 1): (a) relative gap, (b) spikes, (c) localisation.

    ``rates``: beta -> fitted rate of |gap| (its slope and 95 % interval in the legend);
    ``spikes``: beta -> (correlation, supercritical draws) of panel (b)'s legend.
    """
    apply_style()
    frame = numeric(frame, "ell", "draw", "x", "y")
    colours = _beta_colours(frame["beta"])
    figure, axes = new_figure(1, 3, width=11.0, height=4.6)
    gap_ax, spike_ax, ipr_ax = axes[0]
    _gap_panel(gap_ax, frame[frame["panel"] == "gap"], colours, rates)
    _spike_panel(spike_ax, frame[frame["panel"] == "spike"], colours, spikes)
    _ipr_panel(ipr_ax, frame[frame["panel"] == "ipr"], colours)
    ells = frame.loc[frame["panel"] == "gap", "ell"].dropna()
    for ax in (gap_ax, ipr_ax):
        _log2_ell_axis(ax, ells.astype(int))
    figure.suptitle(
        r"B2: approach of $\ell s_2(A)^2$ to $x_+$ ($c = 1$): where it is visible and, where it "
        "is not, the spike mechanism behind the excursions",
        fontsize=9,
    )
    return figure


def _gap_panel(ax, frame: pd.DataFrame, colours, rates) -> None:
    """Draws (dots), medians (filled: above x_+, open: below), Y_lin's median (crosses), the
    fit and the Tracy-Widom expectation of |gap|."""
    draws = frame[frame["series"] == "attention"]
    sns.scatterplot(
        data=draws.assign(y=draws["y"].abs()), x="x", y="y", hue="beta", palette=colours,
        alpha=0.4, ax=ax, **DOT,
    )  # fmt: skip
    handles = []
    for beta, colour in colours.items():
        mine = frame[frame["beta"] == beta]
        medians = mine[mine["series"] == "attention"].groupby("x")["y"].median()
        for above in (True, False):
            keep = medians[(medians > 0) == above]
            ax.plot(
                keep.index, keep.abs(), ls="none", marker="o", ms=5, color=colour,
                mfc=colour if above else "white",
            )  # fmt: skip
        linear = mine[mine["series"] == "Y_lin"].groupby("x")["y"].median()
        ax.plot(linear.index, linear.abs(), ls="none", marker="x", ms=4, color=colour)
        fit = mine[mine["series"] == "fit"]
        label = rf"$\beta={beta:g}$"
        if not fit.empty:
            rate = rates[beta]
            label += rf": slope ${rate.slope:.2f}$ [{rate.low:.2f}, {rate.high:.2f}] (95 %)"
        ax.plot(fit["x"], fit["y"], color=colour, lw=1.0)
        expected = mine[mine["series"] == "tracy_widom"]
        ax.plot(expected["x"], expected["y"].abs(), color=colour, lw=0.9, ls=":")
        handles.append(Line2D([], [], color=colour, lw=1.0, label=label))
    grey = REFERENCE_COLOUR
    handles += [
        Line2D([], [], ls="none", marker="o", color=grey, label="median, above $x_+$"),
        Line2D([], [], ls="none", marker="o", color=grey, mfc="white", label="median, below $x_+$"),
        Line2D([], [], ls="none", marker="x", color=grey, label="$Y_{lin}$ median"),
        Line2D([], [], color=grey, ls=":", label=r"TW: $|\gamma_{TW}\ell^{-2/3}E[TW_1]|/x_+$"),
    ]
    log_axis(ax.yaxis)
    ax.set_ylabel(r"$|\ell s_2(A)^2 - x_+| / x_+$")
    ax.set_title("(a) relative gap of the top non-Perron value", fontsize=8)
    ax.legend(
        handles=handles, frameon=False, fontsize=6.5, loc="upper center",
        bbox_to_anchor=(0.5, -0.16), ncol=2,
    )  # fmt: skip


def _spike_panel(ax, frame: pd.DataFrame, colours, spikes) -> None:
    """ell s_2(A)^2 per draw against K(1/theta_max)^2 (open: subcritical, shown at x_+)."""
    handles = []
    for beta in sorted(frame["beta"].unique()):
        colour = colours[beta]
        mine = frame[frame["beta"] == beta]
        for name, face in (("supercritical", colour), ("subcritical", "white")):
            points = mine[mine["series"] == name]
            sns.scatterplot(
                data=points, x="x", y="y", color=colour, fc=face, ec=colour, s=12.25,
                linewidth=0.8, legend=False, ax=ax,
            )  # fmt: skip
        r, count = spikes[beta]
        handles.append(
            Line2D([], [], ls="none", marker="o", ms=3.5, color=colour,
                   label=rf"$\beta={beta:g}$: $r = {r:.3f}$ ({count} draws)")
        )  # fmt: skip
    log_axis(ax.xaxis)
    log_axis(ax.yaxis)
    limits = np.array([ax.get_xlim(), ax.get_ylim()])
    diagonal = [limits[:, 0].min(), limits[:, 1].max()]
    ax.plot(diagonal, diagonal, color=REFERENCE_COLOUR, lw=0.9, ls=":")
    handles.append(Line2D([], [], color=REFERENCE_COLOUR, lw=0.9, ls=":", label="$y = x$"))
    ax.set_xlabel(
        r"spike prediction $K(1/\theta_{max})^2$ (open: $\theta_{max} \leq 1/G^*$, "
        r"shown at $x_+$)"
    )
    ax.set_ylabel(r"$\ell s_2(A)^2$ (each draw)")
    ax.set_title(
        r"(b) one entry as a rank-one spike: $\theta_{max} = \max|\sqrt{\ell}A^\perp_{ij}|$",
        fontsize=8,
    )
    ax.legend(handles=handles, frameon=False, fontsize=6, loc="upper left")


def _ipr_panel(ax, frame: pd.DataFrame, colours) -> None:
    """IPR of the k = 2 singular vectors per draw (dots) and their medians (lines: left o,
    right s) against the delocalised 3/ell."""
    draws = frame[frame["series"].isin(["left", "right"])]
    sns.scatterplot(data=draws, x="x", y="y", hue="beta", palette=colours, alpha=0.4, ax=ax, **DOT)
    sns.lineplot(
        data=draws, x="x", y="y", hue="beta", palette=colours, style="series",
        markers={"left": "o", "right": "s"}, dashes=False, estimator="median", errorbar=None,
        ms=3.5, mec="auto", lw=0.9, legend=False, ax=ax,
    )  # fmt: skip
    delocalised = frame[frame["series"] == "delocalised"].drop_duplicates("x")
    ax.plot(delocalised["x"], delocalised["y"], color="black", lw=1.0, ls="--")
    log_axis(ax.yaxis)
    ax.set_ylabel(r"IPR $\sum_i v_i^4$ of the $k = 2$ singular vectors")
    ax.set_title("(c) localisation of the top non-Perron singular vectors", fontsize=8)
    grey = REFERENCE_COLOUR
    handles = [
        Line2D([], [], marker="o", ms=3.5, lw=0.9, color=c, label=rf"$\beta={b:g}$")
        for b, c in colours.items()
    ] + [
        Line2D([], [], color="black", lw=1.0, ls="--", label=r"delocalised $3/\ell$"),
        Line2D([], [], marker="o", ms=3.5, lw=0.9, color=grey, label="left (median)"),
        Line2D([], [], marker="s", ms=3.5, lw=0.9, color=grey, label="right (median)"),
    ]
    ax.legend(
        handles=handles, frameon=False, fontsize=6.5, loc="upper center",
        bbox_to_anchor=(0.5, -0.16), ncol=3,
    )  # fmt: skip


# B3 ---------------------------------------------------------------------------------------
def uniform_labels(betas, judged: Mapping[str, str]) -> dict[float, str]:
    """Figure B3's panel labels: the three B.2 verdict labels of a judged beta, one a line."""
    return {
        beta: "\n".join(judged[uniform_row(beta, schedule)] for schedule in SCHEDULES)
        if beta in JUDGED_BETAS
        else NOT_JUDGED
        for beta in betas
    }


def plot_uniform(frame: pd.DataFrame, labels: Mapping[float, str]):
    """Figure B3 from its tidy table (c = 1): one panel per beta (seaborn FacetGrid), D against
    ell per schedule; ``labels`` maps a beta to the text under its title (its B.2 verdicts)."""
    apply_style()
    betas = sorted(frame["beta"].unique())
    as_band = banded(frame, ["beta", "schedule", "ell"])
    grid = sns.FacetGrid(frame, col="beta", col_order=betas, sharex=False, sharey=False,
                         height=3.4, aspect=3.5 / 3.4)  # fmt: skip
    grid.figure.set_layout_engine("constrained")
    for beta, ax in grid.axes_dict.items():
        panel = frame[frame["beta"] == beta]
        for schedule in reversed(SCHEDULES):
            colour = SCHEDULE_COLOURS[schedule]
            data = panel[panel["schedule"] == schedule]
            sns.lineplot(
                data=data, x="ell", y="D", color=colour, mec="auto", ax=ax,
                **SCHEDULE_STYLES[schedule],
                **band_options(as_band, alpha=0.15),
            )  # fmt: skip
            if not as_band:
                sns.scatterplot(data=data, x="ell", y="D", color=colour, ax=ax, **DOT)
            classical = data.drop_duplicates("ell")
            ax.plot(classical["ell"], classical["classical_D"], color=colour, lw=0.9, ls="--")
        log_axis(ax.yaxis)
        _log2_ell_axis(ax, panel["ell"])
        title = rf"$c = 1$, $\beta = {beta:g}$"
        if labels.get(beta):
            title += "\n" + labels[beta]
        ax.set_title(title, fontsize=6.5)
        ax.set_ylabel("")
    first = grid.axes.flat[0]
    first.set_ylabel(r"$D = \max_{2 \leq k \leq k_\ell} |\ell s_k(A)^2 - x_+| / x_+$")
    handles = [
        Line2D([], [], color=SCHEDULE_COLOURS[s], label=SCHEDULE_LABELS[s], **SCHEDULE_STYLES[s])
        for s in SCHEDULES
    ] + [
        Line2D([], [], color=REFERENCE_COLOUR, ls="--", lw=0.9,
               label=r"$D$ of the classical locations under $\nu_\infty$"),
        band_key(as_band, REFERENCE_COLOUR),
    ]  # fmt: skip
    first.legend(handles=handles, frameon=False, fontsize=6, loc="lower left")
    grid.figure.suptitle(
        r"B3: uniform sticking over the leading $k_\ell$ non-Perron values: median $D$ over "
        "draws (solid) against its value at the classical locations (dashed)",
        fontsize=9,
    )
    return grid.figure
