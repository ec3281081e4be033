"""Figure B4 (paper B), drawn from its tidy table: x_+ over (beta, c) from the scalar formula,
and the square-model branches.

The function takes the figure's plotted table (a pandas DataFrame with the columns of
:data:`attnspec.experiments.sticking_plotted.EDGE_FORMULA_PLOTTED_HEADER`, exactly the CSV) and
the verdict labels read from the claims table; nothing here computes a result.
(a) x_+(beta) for every c (log scale) with the R-transform edge (crosses), 4 theta_1, the
simulated ell s_2(A)^2 (median over draws with 10-90 % bars, seaborn, from at least
BAND_MIN_DRAWS draws, else the draws themselves) and the top s_1(Y_lin)^2 of the Gaussian model
(median, diamonds) at the largest ell of each (c, beta), and the verdict labels of rows
B.4/c=<c>; (b) the same divided by theta_1 = e^{beta^2} - 1 (-> 4 as beta -> infinity);
(c) the three roots g of the square-model cubic a g (1 - g)^2 + b (3g - 1) = 0 against beta,
physical root marked; (d) the candidate edge b (r + w)^2 g at each root.
The theory curves are matplotlib lines on the axes.
"""

from collections.abc import Sequence

import pandas as pd
import seaborn as sns
from matplotlib import colormaps
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, FormatStrFormatter, NullFormatter

from attnspec.plotting.sticking import DOT, banded, numeric
from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    REFERENCE_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    apply_style,
    log_axis,
    new_figure,
)

OTHER_BRANCH_COLOUR = REFERENCE_COLOUR
SPREADS = {
    True: r"median (10–90 % from $\geq$" + f" {BAND_MIN_DRAWS} draws)",
    False: f"median and each draw (fewer than {BAND_MIN_DRAWS}: no bars)",
}


def ratio_colours(ratios) -> list:
    """One colour per c, from the viridis map (dark = small c)."""
    cmap = colormaps["viridis"]
    n = len(ratios)
    return [cmap(0.85 * i / max(n - 1, 1)) for i in range(n)]


def _points(ax, simulated: pd.DataFrame, colour, as_band: bool) -> None:
    """At one c: the median over draws of ell s_2(A)^2 (open circles, 10-90 % bars, or the
    draws as dots) and of s_1(Y_lin)^2 (diamonds)."""
    attention = simulated[simulated["series"] == "attention"]
    linear = simulated[simulated["series"] == "Y_lin"]
    sns.lineplot(
        data=linear, x="beta", y="value", estimator="median", errorbar=None, ls="none",
        marker="D", ms=3, color=colour, mec=colour, zorder=6, ax=ax,
    )  # fmt: skip
    band = {"errorbar": BAND, "err_style": "bars", "err_kws": {"capsize": 2.5, "lw": 1.0}}
    sns.lineplot(
        data=attention, x="beta", y="value", estimator="median", ls="none", marker="o", ms=4.5,
        mfc="white", mew=1.1, mec=colour, color=colour, zorder=5, ax=ax,
        **(band if as_band else {"errorbar": None}),
    )  # fmt: skip
    if not as_band:
        sns.scatterplot(data=attention, x="beta", y="value", color=colour, ax=ax, **DOT)


def plot_edge_formulas(frame: pd.DataFrame, labels: Sequence[str] = ()):
    """Figure B4 from its tidy table (module docstring); ``labels``: the verdict labels of rows
    B.4/c=<c>, printed in panel (a)."""
    apply_style()
    frame = numeric(frame, "c", "ell", "draw", "value")
    figure, axes = new_figure(2, 2, width=9.0, height=7.0)
    (edge_ax, scaled_ax), (roots_ax, candidates_ax) = axes
    curves = frame[frame["series"] == "scalar_formula"]
    ratios = sorted(curves["c"].unique())
    spreads = set()
    for c, colour in zip(ratios, ratio_colours(ratios), strict=True):
        for ax, panel in ((edge_ax, "x_plus"), (scaled_ax, "x_plus_over_theta1")):
            mine = frame[(frame["panel"] == panel) & (frame["c"] == c)]
            curve = mine[mine["series"] == "scalar_formula"]
            ax.plot(curve["beta"], curve["value"], color=colour, lw=1.4, label=f"$c={c:g}$")
            crosses = mine[mine["series"] == "r_transform"]
            ax.plot(crosses["beta"], crosses["value"], ls="none", marker="x", ms=4, color=colour)
            points = mine[mine["series"].isin(["attention", "Y_lin"])]
            if not points.empty:
                as_band = banded(points, ["series", "beta"])
                spreads.add(as_band)
                _points(ax, points, colour, as_band)
    surrogate = frame[frame["series"] == "mp_edge_4theta1"]
    edge_ax.plot(
        surrogate["beta"], surrogate["value"], color=SURROGATE_COLOUR, lw=1.0, ls="--",
        label=r"$4\theta_1$",
    )  # fmt: skip
    scaled_ax.axhline(4.0, color=SURROGATE_COLOUR, lw=1.0, ls="--", label=r"$4$ (MP surrogate)")
    handles = edge_ax.get_legend_handles_labels()[0] + [
        Line2D([], [], ls="none", marker="x", color="0.2", label="R-transform edge $K(G^*)^2$"),
        Line2D([], [], ls="none", marker="D", ms=3, color="0.2",
               label=r"simulated $s_1(Y_{lin})^2$"),
    ] + [
        Line2D([], [], ls="none", marker="o", mfc="white", color="0.2",
               label=rf"simulated $\ell s_2(A)^2$: {SPREADS[as_band]}")
        for as_band in sorted(spreads)
    ]  # fmt: skip
    if labels:
        edge_ax.text(
            0.98, 0.03, "\n".join(labels), transform=edge_ax.transAxes, ha="right",
            va="bottom", fontsize=6,
        )  # fmt: skip
    # Log scales only after seaborn has taken the medians (it would take them of the logs).
    log_axis(edge_ax.yaxis)
    edge_ax.set_ylabel(r"right edge $x_+$")
    edge_ax.set_title(r"(a) $x_+(\beta, c)$ from the scalar formula")
    edge_ax.legend(handles=handles, frameon=False, fontsize=6.5, loc="upper left")
    # Log scale: the excursions of the simulated points (large at beta >= 1.5) stay in view
    # without flattening the theory curves.
    scaled_ax.set_yscale("log")
    scaled_ax.yaxis.set_major_locator(FixedLocator([3, 4, 5, 6, 8, 10, 15, 20, 30, 50, 100]))
    scaled_ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    scaled_ax.yaxis.set_minor_formatter(NullFormatter())
    scaled_ax.set_ylabel(r"$x_+ / \theta_1$,  $\theta_1 = e^{\beta^2} - 1$ (log scale)")
    scaled_ax.set_title(r"(b) $x_+/\theta_1$ (points: largest $\ell$ of each $(c, \beta)$)")
    scaled_ax.legend(frameon=False, fontsize=6.5, loc="upper right", ncols=2)

    _branches(roots_ax, frame[frame["panel"] == "square_roots"], "g")
    low, high = roots_ax.get_ylim()
    roots_ax.axhspan(low, 1 / 3, color=THEORY_COLOUR, alpha=0.07, lw=0)
    roots_ax.axhline(1 / 3, color=THEORY_COLOUR, lw=0.6, ls=":")
    beta_max = frame.loc[frame["panel"] == "square_roots", "beta"].max()
    roots_ax.text(beta_max, 1 / 3, r"$g = 1/3$", ha="right", va="bottom", fontsize=6.5)
    roots_ax.set_ylim(low, high)
    roots_ax.set_ylabel(r"root $g$")
    roots_ax.set_title(r"(c) square model $c=1$: roots of $a g (1-g)^2 + b(3g-1)$")
    roots_ax.legend(frameon=False, fontsize=6.5, loc="lower left")

    _branches(candidates_ax, frame[frame["panel"] == "square_candidate_edges"], "x")
    candidates_ax.set_ylabel(r"candidate edge $x = b (r + w)^2 g$")
    candidates_ax.set_title(r"(d) candidate edges of the three branches ($c=1$)")
    candidates_ax.legend(frameon=False, fontsize=6.5, loc="upper left")
    for ax in axes.ravel():
        ax.set_xlabel(r"inverse temperature $\beta$")
    figure.suptitle(
        "Paper B, scalar edge formula across the proportional regime and its square-model branches",
        fontsize=9,
    )
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
    """The physical branch and the real and imaginary parts of the other two (log scale)."""
    styles = (
        ("physical", {"color": THEORY_COLOUR, "lw": 2.0}),
        ("other_abs_real", {"color": OTHER_BRANCH_COLOUR, "lw": 1.1}),
        ("other_abs_imag", {"color": OTHER_BRANCH_COLOUR, "lw": 1.1, "ls": "--"}),
    )
    for (series, style), label in zip(styles, BRANCH_LABELS[symbol], strict=True):
        curve = panel[panel["series"] == series]
        ax.plot(curve["beta"], curve["value"], label=label, **style)
    log_axis(ax.yaxis)
