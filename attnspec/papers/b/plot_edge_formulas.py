"""Figure B4 (paper B), drawn from its tidy table: x_+ over (beta, c) from the scalar formula,
and the square-model branches, two columns wide.

The function takes the figure's tidy table (a pandas DataFrame as built by
:func:`attnspec.papers.b.edge_formulas_plotted.edge_formula_plotted_table`, exactly the CSV) and
selects its rows by ``kind`` and ``series``; nothing here computes a result, and no verdict is
written in a panel (the caption's verdict table has them).
(a) x_+(beta) for every c (log scale; colour = c, light = small c) with the R-transform edge
(small crosses), the Marchenko-Pastur surrogate 4 theta_1 (its own colour, dashed), the
simulated ell s_2(A)^2 (median over draws, open circles, with 10-90 % bars, seaborn, from at
least BAND_MIN_DRAWS draws, else the draws themselves) and the top s_1(Y_lin)^2 of the Gaussian
model (median, filled diamonds drawn over the crosses) at the largest ell of each (c, beta);
(b) the same divided by theta_1 = e^{beta^2} - 1 (-> 4 as beta -> infinity); (c) the three roots
g of the square-model cubic a g (1 - g)^2 + b (3g - 1) = 0 against beta, the physical root
thick; (d) the candidate edge b (r + w)^2 g at each root. Every curve of (c, d) is theory.
"""

import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, FormatStrFormatter, NullFormatter

from attnspec.papers.b.plot_sticking import DOT, TUPLES, banded, in_each
from attnspec.plotting.placement import place_legend, settle_legends
from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    TWO_COLUMNS,
    apply_style,
    label_panels,
    log_axis,
    new_figure,
    sequential_colours,
)
from attnspec.plotting.tidy import numeric, select, value_of

SPREADS = {
    True: "median, 10–90 % bars",
    False: f"median, dots: each draw (fewer than {BAND_MIN_DRAWS})",
}
HEADROOM = 30.0
"""Panel (a)'s log y axis reaches this factor above the data: room for the key of symbols."""
CROSS = {"ls": "none", "marker": "x", "ms": 3, "mew": 0.7}
DIAMOND = {"ls": "none", "marker": "D", "ms": 3.5, "mec": "white", "mew": 0.5}
CIRCLE = {"ls": "none", "marker": "o", "ms": 5, "mfc": "white", "mew": 1.0}


def _points(ax, simulated: pd.DataFrame, colour, as_band: bool) -> None:
    """At one c: the median over draws of ell s_2(A)^2 (open circles, 10-90 % bars, or the
    draws as dots) and of s_1(Y_lin)^2 (filled diamonds, on top)."""
    attention = select(simulated, "data", "attention")
    linear = select(simulated, "data", "Y_lin")
    sns.lineplot(
        data=linear, x="beta", y="value", estimator="median", errorbar=None, color=colour,
        zorder=6, legend=False, ax=ax, **DIAMOND,
    )  # fmt: skip
    band = {"errorbar": BAND, "err_style": "bars", "err_kws": {"capsize": 2, "lw": 0.9}}
    sns.lineplot(
        data=attention, x="beta", y="value", estimator="median", mec=colour, color=colour,
        zorder=5, legend=False, ax=ax, **CIRCLE, **(band if as_band else {"errorbar": None}),
    )  # fmt: skip
    if not as_band:
        sns.scatterplot(data=attention, x="beta", y="value", color=colour, ax=ax, **DOT)


def plot_edge_formulas(frame: pd.DataFrame):
    """Figure B4 from its tidy table (module docstring)."""
    apply_style()
    frame = numeric(frame, "c", "ell", "draw", "value")
    figure, axes = new_figure(2, 2, width=TWO_COLUMNS, height=5.2)
    (edge_ax, scaled_ax), (roots_ax, candidates_ax) = axes
    curves = select(frame, "theory", "scalar_formula")
    colours = sequential_colours("c", curves["c"].unique())
    spreads, simulated = set(), []
    for c, colour in colours.items():
        for ax, panel in ((edge_ax, "x_plus"), (scaled_ax, "x_plus_over_theta1")):
            mine = frame[(frame["panel"] == panel) & (frame["c"] == c)]
            curve = select(mine, "theory", "scalar_formula")
            ax.plot(curve["beta"], curve["value"], color=colour, lw=1.2)
            crosses = select(mine, "theory", "r_transform")
            ax.plot(crosses["beta"], crosses["value"], color=colour, zorder=3, **CROSS)
            points = select(mine, "data")
            if not points.empty:
                as_band = banded(points, ["series", "beta"])
                spreads.add(as_band)
                _points(ax, points, colour, as_band)
        if not select(frame[frame["c"] == c], "data", "attention").empty:
            simulated.append(colour)
    surrogate = select(frame[frame["panel"] == "x_plus"], "theory", "mp_edge_4theta1")
    edge_ax.plot(surrogate["beta"], surrogate["value"], color=SURROGATE_COLOUR, lw=1.2, ls="--")
    limit = value_of(frame, "theory", "mp_edge_4theta1", panel="x_plus_over_theta1")
    scaled_ax.axhline(limit, color=SURROGATE_COLOUR, lw=1.2, ls="--")
    keys = {
        r"MP surrogate $4\theta_1$ (b: 4)": Line2D([], [], color=SURROGATE_COLOUR, lw=1.2, ls="--"),
        r"R-transform edge $K(G_*)^2$": in_each(colours.values(), **CROSS),
        r"simulated $s_1(Y_{\mathrm{lin}})^2$, median": in_each(simulated, **DIAMOND),
    }
    for as_band in sorted(spreads):
        keys[r"simulated $\ell s_2(A)^2$," + "\n" + SPREADS[as_band]] = in_each(
            simulated, **{**CIRCLE, "mec": None}
        )
    # Log scales only after seaborn has taken the medians (it would take them of the logs).
    log_axis(edge_ax.yaxis)
    low, high = edge_ax.get_ylim()
    edge_ax.set_ylim(low, high * HEADROOM)
    edge_ax.set_ylabel(r"right edge $x_+$")
    edge_ax.set_title(r"$x_+(\beta, c)$ from the scalar formula")
    symbols = edge_ax.legend(
        list(keys.values()), list(keys), frameon=False, loc="upper left", handler_map=TUPLES,
        handlelength=3.6,
    )  # fmt: skip
    edge_ax.add_artist(symbols)
    edge_ax.legend(
        handles=[Line2D([], [], color=colour, lw=1.2, label=f"$c={c:g}$")
                 for c, colour in colours.items()],
        frameon=False, loc="lower right", title=r"$c = \ell / d_{qk}$",
    )  # fmt: skip
    # Log scale: the excursions of the simulated points (large at beta >= 1.5) stay in view
    # without flattening the theory curves.
    scaled_ax.set_yscale("log")
    scaled_ax.yaxis.set_major_locator(FixedLocator([3, 4, 5, 6, 8, 10, 15, 20, 30, 50, 100]))
    scaled_ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    scaled_ax.yaxis.set_minor_formatter(NullFormatter())
    scaled_ax.set_ylabel(r"$x_+ / \theta_1$, $\theta_1 = e^{\beta^2} - 1$")
    scaled_ax.set_title(r"$x_+/\theta_1$ (points: largest $\ell$ of each $(c, \beta)$)")

    _branches(roots_ax, frame[frame["panel"] == "square_roots"], "g")
    low, high = roots_ax.get_ylim()
    roots_ax.axhspan(low, 1 / 3, color=THEORY_COLOUR, alpha=0.07, lw=0)
    roots_ax.axhline(1 / 3, color=THEORY_COLOUR, lw=0.6, ls=":", label=r"$g = 1/3$")
    roots_ax.set_ylim(low, high)
    roots_ax.set_ylabel(r"root $g$")
    roots_ax.set_title(r"square model ($c=1$): roots of $a g (1-g)^2 + b(3g-1)$")
    place_legend(roots_ax, frameon=False, prefer="lower left")

    _branches(candidates_ax, frame[frame["panel"] == "square_candidate_edges"], "x")
    candidates_ax.set_ylabel(r"candidate edge $x = b (r + w)^2 g$")
    candidates_ax.set_title(r"candidate edges of the three branches ($c=1$)")
    place_legend(candidates_ax, frameon=False, prefer="upper left")
    for ax in axes.ravel():
        ax.set_xlabel(r"inverse temperature $\beta$")
    label_panels(axes.ravel())
    settle_legends(figure)
    return figure


BRANCH_LABELS = {
    "g": (
        "physical root (real, in $(0, 1/3)$)",
        r"other roots: Re $g$",
        r"other roots: $|\mathrm{Im}\, g|$ (complex pair)",
    ),
    "x": (
        r"physical root: $x_+$",
        r"other roots: $|\mathrm{Re}\, x|$",
        r"other roots: $|\mathrm{Im}\, x|$ (not real: no edge)",
    ),
}


def _branches(ax, panel: pd.DataFrame, symbol: str) -> None:
    """The physical branch (thick) and the real (thin) and imaginary (thin, dashed) parts of
    the other two, all theory (log scale)."""
    styles = (
        ("physical", {"color": THEORY_COLOUR, "lw": 2.0}),
        ("other_abs_real", {"color": THEORY_COLOUR, "lw": 0.8}),
        ("other_abs_imag", {"color": THEORY_COLOUR, "lw": 0.8, "ls": "--"}),
    )
    for (series, style), label in zip(styles, BRANCH_LABELS[symbol], strict=True):
        curve = select(panel, "theory", series)
        ax.plot(curve["beta"], curve["value"], label=label, **style)
    log_axis(ax.yaxis)
