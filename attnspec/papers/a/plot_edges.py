"""Figure A4, drawn from its tidy table
(:func:`attnspec.papers.a.edges_plotted.edge_plotted_table`): x_+(beta) against 4 theta_1 with
both expansions (theory curves, matplotlib) and the simulated
top values of Y_lin (seaborn: every draw, and the median over draws with its 10-90 % range from
10 draws on).

Three panels side by side sharing beta, two columns wide, one legend below them: (a) the edges
on a log scale; (b) x_+ / (4 theta_1); (c) the relative deviation of the simulated top values of
Y_lin from x_+, where the Tracy–Widom shift becomes visible.
"""

import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.ticker import LogLocator, MaxNLocator

from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    COLOURS,
    DATA_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    TWO_COLUMNS,
    label_panels,
    log_axis,
    new_figure,
)

# x_+ / (4 theta_1) -> 27/16 as beta -> 0 (Fuss–Catalan edge 27/4 over 4).
SMALL_BETA_RATIO = 27 / 16

# (series, label, style) of the theory curves of the first two panels: x_+ and the surrogate's
# edge solid, the two expansions of x_+ in the expansion colour, told apart by their dashes.
THEORY_CURVES = (
    ("x_plus", r"$x_+$, edge of $\nu_\infty$", {"color": THEORY_COLOUR, "lw": 1.6}),
    ("mp_edge", r"$4\theta_1$, MP surrogate edge", {"color": SURROGATE_COLOUR, "lw": 1.3}),
    (
        "small_beta",
        r"small $\beta$: $\frac{27}{4}\beta^2 + \frac{3}{2}\beta^4 + \frac{5}{9}\beta^6$",
        {"color": COLOURS["expansion"], "lw": 1.1, "ls": "--"},
    ),
    (
        "large_beta",
        r"large $\beta$: $4\theta_1 + 4\beta^4/a$",
        {"color": COLOURS["expansion"], "lw": 1.1, "ls": "-."},
    ),
)
TRACY_WIDOM_STYLE = {"color": THEORY_COLOUR, "ls": ":", "lw": 1.1}
"""The Tracy–Widom expectation of the top value (theory at this ell): the theory colour, dotted."""
LIMIT_STYLE = {"color": COLOURS["expansion"], "lw": 0.7, "ls": (0, (1, 3))}
"""The beta -> 0 limit 27/16 of x_+ / (4 theta_1), sparsely dotted."""
DRAW_STYLE = {"color": DATA_COLOUR, "alpha": 0.45, "s": 7, "lw": 0}
MEDIAN_STYLE = {"ls": "none", "marker": "o", "ms": 4, "mec": DATA_COLOUR, "color": DATA_COLOUR}


def _simulated(axis, simulated: pd.DataFrame, y: str) -> None:
    """Every draw's top value (dots) and the median over draws (open circles), with bars over
    the 10-90 % range of the draws when every beta has at least 10."""
    band = simulated.groupby("beta")["draw"].nunique().min() >= BAND_MIN_DRAWS
    sns.scatterplot(data=simulated, x="beta", y=y, legend=False, ax=axis, **DRAW_STYLE)
    sns.lineplot(
        data=simulated, x="beta", y=y, estimator="median", errorbar=BAND if band else None,
        err_style="bars", err_kws={"capsize": 2, "lw": 0.9}, mfc=axis.get_facecolor(),
        legend=False, ax=axis, **MEDIAN_STYLE,
    )  # fmt: skip


def plot_edges(frame: pd.DataFrame, *, n_tokens: int):
    """Figure A4 from its tidy table: (a) x_+, 4 theta_1 and both expansions on a log scale
    with the simulated top values of Y_lin; (b) the same over 4 theta_1; (c) the simulated top
    values relative to x_+, in percent, against the Tracy–Widom expectation
    x_+ + gamma_TW ell^{-2/3} E[TW1] (dotted, in the theory colour)."""
    figure, axes = new_figure(1, 3, width=TWO_COLUMNS, height=2.9, sharex=True)
    edge, ratio, deviation = axes[0]
    theory = {name: rows for name, rows in frame[frame["kind"] == "theory"].groupby("series")}
    simulated = frame[(frame["kind"] == "data") & (frame["series"] == "ylin_top")]
    n_draws = simulated.groupby("beta")["draw"].nunique().min()
    band = n_draws >= BAND_MIN_DRAWS
    for series, _, style in THEORY_CURVES:
        curve = theory[series]
        edge.plot(curve["beta"], curve["edge"], **style)
        ratio.plot(curve["beta"], curve["edge_over_4theta1"], **style)
    tracy_widom = theory["tracy_widom_expectation"]
    for ax, y in ((edge, "edge"), (ratio, "edge_over_4theta1"), (deviation, "deviation_percent")):
        ax.plot(tracy_widom["beta"], tracy_widom[y], **TRACY_WIDOM_STYLE)
        _simulated(ax, simulated, y)
        ax.set_xlabel(r"inverse temperature $\beta$")
    log_axis(edge.yaxis)
    edge.yaxis.set_minor_locator(LogLocator(subs=(1.0,), numticks=20))  # decades: no comb
    x_plus = theory["x_plus"]["edge"]
    edge.set_ylim(0.5 * x_plus.iloc[0], 3 * x_plus.iloc[-1])
    edge.set_ylabel("right edge (squared singular value)")
    edge.set_title("the edges")

    ratio.axhline(SMALL_BETA_RATIO, **LIMIT_STYLE)
    ratio.text(
        tracy_widom["beta"].iloc[-1], SMALL_BETA_RATIO, r"$27/16$", ha="right", va="bottom",
        color=COLOURS["expansion"],
    )  # fmt: skip
    ratio.set_ylim(0.9, 1.8)
    ratio.yaxis.set_major_locator(MaxNLocator(5))
    ratio.set_ylabel(r"edge / $4\theta_1$")
    ratio.set_title(r"over the surrogate's edge $4\theta_1$")

    deviation.axhline(0.0, color=THEORY_COLOUR, lw=1.6)
    deviation.set_ylabel(r"$(\|Y_{\mathrm{lin}}\|^2 - x_+)/x_+$ (%)")
    deviation.set_title(r"top values relative to $x_+$")

    curves = [Line2D([], [], **style) for _, _, style in THEORY_CURVES]
    names = [label for _, label, _ in THEORY_CURVES]
    handles = [curves[0], Line2D([], [], **TRACY_WIDOM_STYLE), *curves[1:]] + [
        Line2D([], [], ls="none", marker="o", ms=2.5, mew=0, color=DATA_COLOUR, alpha=0.45),
        Line2D([], [], mfc=edge.get_facecolor(), **MEDIAN_STYLE),
    ]
    labels = [names[0], rf"Tracy–Widom expectation at $\ell = {n_tokens}$", *names[1:]] + [
        rf"top value $\|Y_{{\mathrm{{lin}}}}\|^2$, {n_draws} draws",
        "median over draws" + (", 10–90 %" if band else ""),
    ]
    # three columns: x_+, its Tracy–Widom shift and 4 theta_1; the expansions; the simulations
    figure.legend(handles, labels, loc="outside lower center", ncols=3, frameon=False)
    label_panels(axes[0])
    return figure
