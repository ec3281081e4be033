"""Figures B1-B3 (paper B), drawn with seaborn from their tidy tables: the leading non-Perron
values of A against ell (log axes), two columns wide.

Each function takes the figure's tidy table (a pandas DataFrame as built by
:mod:`attnspec.papers.b.sticking_plotted`, exactly the figure's CSV) and selects its rows by
``kind`` and ``series``; nothing here computes a result, and no verdict is written in a panel
(the caption's verdict table has them).
- B1: one panel per (c, beta), every y axis linear: ell s_k(A)^2, k = 2..top_k, the median
  over draws coloured by k (light = small k) with the 10-90 % band (filled for k >= 3, outlined
  for k = 2, whose spikes would hide the rest; seaborn, in a panel whose every point has at least
  BAND_MIN_DRAWS draws, else the draws themselves), the median of the Gaussian reference
  s_{k-1}(Y_lin)^2 (dashed, in its k's colour) and x_+ (theory colour).
- B2: (a) |relative gap| of ell s_2(A)^2 per draw, its median (filled: above x_+, open: below),
  Y_lin's median, the fitted rate (95 % interval) and the Tracy-Widom expectation; (b) ell
  s_2(A)^2 per draw against the spike prediction K(1/theta_max)^2 (open triangles: subcritical
  draws, shown at x_+); (c) IPR of the top singular vectors per draw and their medians against
  the delocalised 3/ell (theory colour, solid, as is the Tracy-Widom expectation). Colour = beta
  (light = small beta).
- B3: one panel per beta: D = max over 2 <= k <= k_ell of the relative deviation for three
  schedules k_ell (colour and marker from light, k_ell = log ell, to dark, ell^(1/2); median
  with 10-90 % bars, the schedules set slightly apart in ell), with its value at the classical
  locations under nu_inf (theory colour, solid, the schedule's open marker).
"""

import pandas as pd
import seaborn as sns
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FormatStrFormatter, NullFormatter

from attnspec.papers.b.sticking_summary import SCHEDULE_LABELS, SCHEDULES
from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    COLOURS,
    LINE_STYLES,
    THEORY_COLOUR,
    TWO_COLUMNS,
    apply_style,
    label_panels,
    log_axis,
    new_figure,
    sequential_colours,
    set_print_size,
)
from attnspec.plotting.tidy import numeric, select, value_of

DOT = {"marker": "o", "s": 4.0, "linewidth": 0, "legend": False}
"""seaborn scatterplot options of a single draw (a filled dot 2 pt across)."""
BAND_ALPHA = 0.15
TUPLES = {tuple: HandlerTuple(ndivide=None, pad=0.2)}
"""Legend handler map: a tuple of handles is drawn side by side (one key per colour)."""


def banded(frame: pd.DataFrame, by: list[str]) -> bool:
    """Whether every point (a group of ``by``) has at least BAND_MIN_DRAWS draws."""
    return bool(frame.groupby(by)["draw"].nunique().min() >= BAND_MIN_DRAWS)


def ell_axis(ax, ells) -> None:
    """A base-2 log axis in ell labelled at the sizes drawn (plain integers)."""
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(set(int(ell) for ell in ells)))
    ax.xaxis.set_major_formatter(FormatStrFormatter("%d"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(r"$\ell$")


def in_each(colours, **style) -> tuple:
    """One legend key per colour, drawn side by side (:data:`TUPLES`): a style (marker, line
    style) that the figure draws in every one of ``colours``."""
    return tuple(Line2D([], [], color=colour, **style) for colour in colours)


# B1 ---------------------------------------------------------------------------------------
def _median_and_band(ax, data: pd.DataFrame, colours, as_band: bool, outlined: bool) -> None:
    """The median over draws of ell s_k(A)^2 per k, with its 10-90 % band (filled, or
    ``outlined``) or, with fewer than BAND_MIN_DRAWS draws, the draws as dots."""
    if as_band:
        fill = {"alpha": BAND_ALPHA, "lw": 0}
        if outlined:
            (colour,) = {colours[k] for k in data["k"]}
            fill = {"facecolor": "none", "edgecolor": colour, "lw": 0.6, "alpha": 1.0}
        spread = {"errorbar": BAND, "err_kws": fill}
    else:
        spread = {"errorbar": None}
        sns.scatterplot(
            data=data, x="ell", y="value", hue="k", palette=colours, alpha=0.6, ax=ax, **DOT
        )
    sns.lineplot(
        data=data, x="ell", y="value", hue="k", palette=colours, estimator="median",
        marker="o", ms=2.5, mec="auto", lw=1.1, legend=False, ax=ax, **spread,
    )  # fmt: skip


def plot_sticking(frame: pd.DataFrame):
    """Figure B1 from its tidy table: one row of panels per c (c = 1 first), one panel per
    beta (seaborn FacetGrid), every y axis linear. A panel draws bands when each of its points
    has BAND_MIN_DRAWS draws, else the draws; the k = 2 band is outlined and drawn last, so that
    its excursions do not cover the others; the legend sits in a spare panel; the panels with
    data are lettered row by row. Data: the series ``attention`` and ``Y_lin``; theory:
    ``x_plus`` per (c, beta)."""
    apply_style()
    frame = numeric(frame, "ell", "draw", "k", "value")
    data = select(frame, "data").astype({"ell": int, "draw": int, "k": int})
    ratios = sorted(data["c"].unique(), key=lambda c: (c != 1.0, c))
    betas = sorted(data["beta"].unique())
    colours = sequential_colours("k", data["k"].unique())
    first_k = min(colours)
    grid = sns.FacetGrid(
        data, row="c", col="beta", row_order=ratios, col_order=betas, sharex=False,
        sharey=False, despine=True,
    )  # fmt: skip
    set_print_size(grid.figure, width=TWO_COLUMNS, height=1.75 * len(ratios) + 0.3)
    spare, spreads, drawn = [], set(), []
    for (c, beta), ax in grid.axes_dict.items():
        panel = data[(data["c"] == c) & (data["beta"] == beta)]
        ax.set_title("")
        if panel.empty:  # no ticks either: the craft checks read those of a hidden axis
            ax.set(xticks=[], yticks=[])
            ax.set_axis_off()
            spare.append(ax)
            continue
        drawn.append(ax)
        attention = panel[panel["series"] == "attention"]
        as_band = banded(attention, ["ell", "k"])
        spreads.add(as_band)
        _median_and_band(ax, attention[attention["k"] != first_k], colours, as_band, False)
        _median_and_band(ax, attention[attention["k"] == first_k], colours, as_band, True)
        sns.lineplot(
            data=panel[panel["series"] == "Y_lin"], x="ell", y="value", hue="k",
            palette=colours, estimator="median", errorbar=None,
            lw=0.7, ls=LINE_STYLES["alternative or quantile"], legend=False, ax=ax,
        )  # fmt: skip
        x_plus = value_of(frame, "theory", "x_plus", c=c, beta=beta)
        ax.axhline(x_plus, color=THEORY_COLOUR, lw=1.0, zorder=1.5)
        ell_axis(ax, panel["ell"])
        ax.set_ylabel(r"$\ell\,s_k(A)^2$" if beta == betas[0] else "")
        ax.set_title(rf"$c = {c:g}$, $\beta = {beta:g}$: $x_+ = {x_plus:.4g}$")
    handles = [_k_key(k, colour, spreads, outlined=k == first_k) for k, colour in colours.items()]
    labels = [rf"$k = {k}$" for k in colours]
    handles += [
        tuple(Line2D([], [], color=colour, lw=0.7, ls="--") for colour in colours.values()),
        Line2D([], [], color=THEORY_COLOUR, lw=1.0),
    ]
    labels += [
        r"Gaussian reference $s_{k-1}(Y_{\mathrm{lin}})^2$" + "\n(median, in its $k$'s colour)",
        r"bulk edge $x_+$",
    ]
    title = r"$\ell\,s_k(A)^2$: " + "; ".join(_spread_text(as_band) for as_band in sorted(spreads))
    if spare:
        spare[0].legend(handles, labels, title=title, frameon=False, loc="center",
                        handler_map=TUPLES)  # fmt: skip
    else:
        grid.figure.legend(handles, labels, title=title, frameon=False, ncols=4,
                           loc="outside lower center", handler_map=TUPLES)  # fmt: skip
    label_panels(drawn)
    return grid.figure


def _spread_text(as_band: bool) -> str:
    if as_band:
        return "median over draws\nwith its 10–90 % band"
    return f"median, dots: each draw\n(fewer than {BAND_MIN_DRAWS} draws)"


def _k_key(k, colour, spreads, outlined: bool) -> tuple:
    """The legend key of one k: its band (filled or outlined) or dot, under its median line."""
    line = Line2D([], [], color=colour, lw=1.1, marker="o", ms=2.5)
    if True not in spreads:
        return (Line2D([], [], ls="none", marker="o", ms=2, color=colour), line)
    if outlined:
        return (Patch(facecolor="none", edgecolor=colour, lw=0.6), line)
    return (Patch(color=colour, alpha=BAND_ALPHA, lw=0), line)


# B2 ---------------------------------------------------------------------------------------
LEFT_WIDTH, RIGHT_WIDTH = 1.6, 0.7
"""Line widths of the median IPR of the left and the right vectors in B2 (c): the left one wide
under the right one, so that both show where they coincide."""


DELOCALISED = {"color": THEORY_COLOUR, "lw": 2.6, "alpha": 0.45, "zorder": 0.9}
"""B2 (c)'s delocalised 3/ell: theory, solid, wide and pale under the data, so that the medians
lying on it (beta = 0.5) stay visible."""


def plot_gap(frame: pd.DataFrame):
    """Figure B2 from its tidy table (c = 1): (a) relative gap, (b) spikes, (c) localisation,
    the keys of (a) and (c) in one legend under the panels: the fitted slope of |gap| and its
    95 % interval per beta (statistics ``fit_slope``, ``fit_slope_low``, ``fit_slope_high``)
    and, in panel (b)'s legend, the correlation of the supercritical draws
    (``spike_correlation``) and their number.
    """
    apply_style()
    frame = numeric(frame, "ell", "draw", "prediction", "value")
    colours = sequential_colours("beta", select(frame, "data")["beta"])
    figure, axes = new_figure(1, 3, width=TWO_COLUMNS, height=3.3)
    gap_ax, spike_ax, ipr_ax = axes[0]
    _gap_panel(gap_ax, frame[frame["panel"] == "gap"], colours)
    _spike_panel(spike_ax, frame[frame["panel"] == "spike"], colours)
    _ipr_panel(ipr_ax, frame[frame["panel"] == "ipr"], colours)
    ells = select(frame[frame["panel"] == "gap"], "data")["ell"]
    for ax in (gap_ax, ipr_ax):
        ell_axis(ax, ells)
    slopes = select(frame, "statistic", "fit_slope", "fit_slope_low", "fit_slope_high")
    slopes = slopes.pivot(index="beta", columns="series", values="value")
    shades = list(colours.values())
    keys = {
        rf"$\beta={beta:g}$: fit slope ${slopes.loc[beta, 'fit_slope']:.2f}$ "
        rf"(95 %: ${slopes.loc[beta, 'fit_slope_low']:.2f}$ to "
        rf"${slopes.loc[beta, 'fit_slope_high']:.2f}$)"
        if beta in slopes.index
        else rf"$\beta={beta:g}$": Line2D([], [], color=colour, lw=1.0)
        for beta, colour in colours.items()
    }
    keys |= {
        "(a) Tracy–Widom expectation": Line2D([], [], color=THEORY_COLOUR, lw=0.8),
        r"(a) $Y_{\mathrm{lin}}$ median": in_each(shades, ls="none", marker="x", ms=3.5),
        r"(a) median, above $x_+$": in_each(shades, ls="none", marker="o", ms=3.5),
        r"(a) median, below $x_+$": in_each(shades, ls="none", marker="o", ms=3.5, mfc="white"),
        "(a, c) each draw": in_each(shades, ls="none", marker="o", ms=2, alpha=0.6),
        "(c) left vectors, median": in_each(shades, marker="o", ms=3, lw=LEFT_WIDTH),
        "(c) right vectors, median": in_each(shades, marker="s", ms=3, lw=RIGHT_WIDTH),
        r"(c) delocalised $3/\ell$": Line2D([], [], **DELOCALISED),
    }
    figure.legend(
        list(keys.values()), list(keys), frameon=False, ncols=3, loc="outside lower center",
        handler_map=TUPLES, handlelength=2.8,
    )  # fmt: skip
    label_panels(axes[0])
    return figure


def _gap_panel(ax, frame: pd.DataFrame, colours) -> None:
    """Draws (dots), medians (filled: above x_+, open: below), Y_lin's median (crosses), the
    fit and the Tracy-Widom expectation (theory colour, solid) of |gap|."""
    draws = select(frame, "data", "attention")
    sns.scatterplot(
        data=draws.assign(value=draws["value"].abs()), x="ell", y="value", hue="beta",
        palette=colours, alpha=0.6, ax=ax, **DOT,
    )  # fmt: skip
    for beta, colour in colours.items():
        mine = frame[frame["beta"] == beta]
        medians = select(mine, "data", "attention").groupby("ell")["value"].median()
        for above in (True, False):
            keep = medians[(medians > 0) == above]
            ax.plot(
                keep.index, keep.abs(), ls="none", marker="o", ms=3.5, color=colour,
                mfc=colour if above else "white", zorder=4,
            )  # fmt: skip
        linear = select(mine, "data", "Y_lin").groupby("ell")["value"].median()
        ax.plot(linear.index, linear.abs(), ls="none", marker="x", ms=3.5, color=colour, zorder=4)
        fit = select(mine, "statistic", "fit")
        ax.plot(fit["ell"], fit["value"], color=colour, lw=1.0)
        expected = select(mine, "theory", "tracy_widom")
        ax.plot(expected["ell"], expected["value"].abs(), color=THEORY_COLOUR, lw=0.8)
    log_axis(ax.yaxis)
    ax.set_ylabel(r"$|\ell s_2(A)^2 - x_+| / x_+$")
    ax.set_title("relative gap to $x_+$")


def _spike_panel(ax, frame: pd.DataFrame, colours) -> None:
    """ell s_2(A)^2 per draw against its prediction K(1/theta_max)^2: supercritical draws
    (filled dots) and subcritical ones (no prediction: open triangles, on top, shown at the
    theory row x_+); the diagonal y = x (grey); the correlation (statistic) and the key of the
    triangles in the panel's legend."""
    handles = []
    betas = sorted(select(frame, "data")["beta"].unique())
    for beta in betas:
        colour = colours[beta]
        supercritical = select(frame[frame["beta"] == beta], "data", "supercritical")
        sns.scatterplot(
            data=supercritical, x="prediction", y="value", color=colour, s=10,
            linewidth=0, alpha=0.8, legend=False, ax=ax,
        )  # fmt: skip
        r = value_of(frame, "statistic", "spike_correlation", beta=beta)
        handles.append(
            Line2D([], [], ls="none", marker="o", ms=3, color=colour,
                   label=rf"$\beta={beta:g}$: $r = {r:.3f}$ ({len(supercritical)})")
        )  # fmt: skip
    subcritical_colours = []
    for beta in betas:  # on top of every supercritical draw
        subcritical = select(frame[frame["beta"] == beta], "data", "subcritical")
        x_plus = value_of(frame, "theory", "x_plus", beta=beta)
        sns.scatterplot(
            data=subcritical.assign(prediction=x_plus), x="prediction", y="value", marker="v",
            fc="white", ec=colours[beta], s=30, linewidth=0.9, legend=False, zorder=4, ax=ax,
        )  # fmt: skip
        if len(subcritical):
            subcritical_colours.append(colours[beta])
    triangles = in_each(subcritical_colours, ls="none", marker="v", ms=4, mfc="white", mew=0.9)
    keys = [(handle, handle.get_label()) for handle in handles]
    keys += [(triangles, r"subcritical, at $x_+$")] if subcritical_colours else []
    log_axis(ax.xaxis)
    log_axis(ax.yaxis)
    low = min(ax.get_xlim()[0], ax.get_ylim()[0])
    high = max(ax.get_xlim()[1], ax.get_ylim()[1])
    ax.plot([low, high], [low, high], color=COLOURS["guide"], lw=0.8, zorder=1)
    ax.set_xlim(low, high)
    ax.set_ylim(low, high)
    ax.set_xlabel(r"spike prediction $K(1/\theta_{\max})^2$")
    ax.set_ylabel(r"$\ell s_2(A)^2$ (each draw)")
    ax.set_title("one entry as\na rank-one spike")  # two lines: room for the panel letter
    ax.legend(
        *zip(*keys, strict=True), frameon=False, loc="lower right", handler_map=TUPLES,
        handlelength=1.0, handletextpad=0.4, borderaxespad=0.2,
    )  # fmt: skip


def _ipr_panel(ax, frame: pd.DataFrame, colours) -> None:
    """IPR of the k = 2 singular vectors per draw (dots) and their medians (lines: left o,
    wide, right s, thin on top: both seen where they coincide) against the delocalised 3/ell
    (theory, dashed)."""
    draws = select(frame, "data", "left", "right")
    sns.scatterplot(
        data=draws, x="ell", y="value", hue="beta", palette=colours, alpha=0.6, ax=ax, **DOT
    )
    for series, marker, width in (("left", "o", LEFT_WIDTH), ("right", "s", RIGHT_WIDTH)):
        sns.lineplot(
            data=draws[draws["series"] == series], x="ell", y="value", hue="beta",
            palette=colours, marker=marker, estimator="median", errorbar=None, ms=3, mec="auto",
            lw=width, legend=False, ax=ax,
        )  # fmt: skip
    delocalised = select(frame, "theory", "delocalised")
    ax.plot(delocalised["ell"], delocalised["value"], **DELOCALISED)
    log_axis(ax.yaxis)
    ax.set_ylabel(r"IPR $\sum_i v_i^4$ ($k = 2$)")
    ax.set_title("localisation of the vectors")


# B3 ---------------------------------------------------------------------------------------
SCHEDULE_MARKERS = {"log": "o", "cube_root": "s", "square_root": "^"}
SCHEDULE_SHIFTS = {"log": 0.95, "cube_root": 1.0, "square_root": 1.05}
"""The schedules are set slightly apart in ell (multiplicative shift) so that their bars do not
cover each other where their medians coincide."""
CLASSICAL_ZORDER = 3
"""The classical values (theory colour, open markers) are drawn above the medians (schedule
colours, filled), so that both show where they coincide."""


def plot_uniform(frame: pd.DataFrame):
    """Figure B3 from its tidy table (c = 1): one panel per beta (seaborn FacetGrid), D against
    ell per schedule (median with 10-90 % bars, or the draws, set apart in ell) and its
    classical value (theory colour, solid, on top), the legend under the panels. Data: ``D``
    per draw; theory: ``classical_D`` per (beta, schedule, ell)."""
    apply_style()
    frame = numeric(frame, "ell", "k_ell", "draw", "value")
    classical_rows = select(frame, "theory", "classical_D")
    frame = select(frame, "data", "D")
    betas = sorted(frame["beta"].unique())
    as_band = banded(frame, ["beta", "schedule", "ell"])
    shades = sequential_colours("k", range(len(SCHEDULES)))
    colours = {schedule: shades[i] for i, schedule in enumerate(SCHEDULES)}
    grid = sns.FacetGrid(frame, col="beta", col_order=betas, sharex=False, sharey=False)
    set_print_size(grid.figure, width=TWO_COLUMNS, height=2.75)
    for beta, ax in grid.axes_dict.items():
        panel = frame[frame["beta"] == beta]
        for schedule in SCHEDULES:
            colour, marker = colours[schedule], SCHEDULE_MARKERS[schedule]
            data = panel[panel["schedule"] == schedule]
            data = data.assign(ell=data["ell"] * SCHEDULE_SHIFTS[schedule])
            classical = classical_rows[
                (classical_rows["beta"] == beta) & (classical_rows["schedule"] == schedule)
            ]
            ax.plot(
                classical["ell"] * SCHEDULE_SHIFTS[schedule], classical["value"],
                color=THEORY_COLOUR, lw=0.8, marker=marker, ms=3, mfc="none", mew=0.8,
                zorder=CLASSICAL_ZORDER,
            )  # fmt: skip
            if not as_band:
                sns.scatterplot(
                    data=data, x="ell", y="value", color=colour, alpha=0.6, ax=ax, **DOT
                )
            bars = {"errorbar": BAND, "err_style": "bars", "err_kws": {"capsize": 2, "lw": 0.9}}
            sns.lineplot(
                data=data, x="ell", y="value", color=colour, estimator="median", marker=marker,
                ms=3.5, mec="auto", lw=1.1, ax=ax, **(bars if as_band else {"errorbar": None}),
            )  # fmt: skip
        log_axis(ax.yaxis)
        ell_axis(ax, panel["ell"])
        ax.set_title(rf"$c = 1$, $\beta = {beta:g}$")
        ax.set_ylabel("")
    grid.axes.flat[0].set_ylabel(r"$D = \max_{2 \leq k \leq k_\ell} |\ell s_k(A)^2 - x_+| / x_+$")
    handles = [
        Line2D([], [], color=colours[s], marker=SCHEDULE_MARKERS[s], ms=3.5, lw=1.1)
        for s in SCHEDULES
    ]
    handles.append(tuple(
        Line2D([], [], color=THEORY_COLOUR, lw=0.8, marker=SCHEDULE_MARKERS[s], ms=3,
               mfc="none", mew=0.8)
        for s in SCHEDULES
    ))  # fmt: skip
    labels = [SCHEDULE_LABELS[s] for s in SCHEDULES]
    labels.append(r"$D$ at the classical locations under $\nu_\infty$")
    spread = "10–90 % bars" if as_band else f"dots: each draw (fewer than {BAND_MIN_DRAWS})"
    grid.figure.legend(
        handles, labels, frameon=False, ncols=4, loc="outside lower center", handler_map=TUPLES,
        handlelength=2.4, title=f"median over draws ({spread}), set slightly apart in $\\ell$",
    )  # fmt: skip
    label_panels(grid.axes.flat)
    return grid.figure
