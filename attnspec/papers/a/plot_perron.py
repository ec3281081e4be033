"""Figure A6, drawn with seaborn from its tidy table
(:func:`attnspec.papers.a.perron_plotted.perron_plotted_table`): three panels against ell (log
axis, ticks at the simulated ell), one colour per beta, every draw as a dot and the median over
draws with its 10-90 % range (``BAND``, from 10 draws on); predictions and the fitted power law
are matplotlib lines (theory and statistic rows; a row without ell is a level drawn across the
simulated ell); one legend for the figure below the panels.

(a) |s_1(A) - 1| with the finite-ell prediction and the fitted power law; (b) ell (s_1^2 - 1)
against its predicted constant theta1 + beta^4/2; (c) the stable rank ||A||_F^2/||A||^2 with its
limit e^{beta^2} and the finite-ell prediction e^{beta^2}/s_1^2.
"""

import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.ticker import NullLocator

from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    LEGEND_KEY,
    LINE_STYLES,
    THEORY_COLOUR,
    TWO_COLUMNS,
    label_panels,
    log_axis,
    new_figure,
    sequential_colours,
)

PANELS = ("abs_s1_minus_1", "ell_s1sq_minus_1", "stable_rank")
CURVE_STYLES = {
    "prediction": {"lw": 2.6, "ls": LINE_STYLES["limit law / theory"], "alpha": 0.45,
                   "zorder": 0.9},
    "fit": {"lw": 0.9, "ls": LINE_STYLES["alternative or quantile"]},
    "limit": {"lw": 1.0, "ls": LINE_STYLES["limit law / theory"]},
}  # fmt: skip
"""Line style per curve: the finite-ell prediction (theory colour) solid, wide and pale under the
draws; the fitted power law (a, in its beta's colour: a statistic of the data) dashed and the
limit e^{beta^2} (c, theory colour) solid and thin on top of it, so that each stays visible where
it coincides with the prediction."""
CURVE_LABELS = {
    "prediction": r"finite-$\ell$ prediction",
    "fit": "fitted power law (a)",
    "limit": r"limit $e^{\beta^2}$ (c)",
}
TITLES = (
    r"$|s_1(A) - 1|$",
    r"$\ell\,(s_1^2-1)\to\theta_1+\beta^4/2$",
    r"stable rank $\to e^{\beta^2}$",
)
Y_LABELS = (r"$|s_1(A) - 1|$", r"$\ell\,(s_1(A)^2 - 1)$", r"stable rank $\|A\|_F^2/\|A\|^2$")


def _draws_and_medians(ax, draws: pd.DataFrame, colours: dict) -> None:
    """Every draw as a small dot; the median over draws as a larger marker, with bars over the
    10-90 % range of the draws when every ell has at least 10."""
    band = draws.groupby(["beta", "n_tokens"])["draw"].nunique().min() >= BAND_MIN_DRAWS
    sns.scatterplot(
        data=draws, x="n_tokens", y="value", hue="beta", palette=colours, s=5, alpha=0.45, lw=0,
        legend=False, ax=ax,
    )  # fmt: skip
    sns.lineplot(
        data=draws, x="n_tokens", y="value", hue="beta", palette=colours, estimator="median",
        errorbar=BAND if band else None, err_style="bars", err_kws={"capsize": 1.5, "lw": 0.8},
        ls="none", marker="o", ms=3.5, mew=0, legend=False, ax=ax,
    )  # fmt: skip


def plot_perron(frame: pd.DataFrame):
    """Three panels (see the module docstring) from figure A6's tidy table, two columns wide;
    the legend below them names each beta's colour, the markers and the line styles
    (:data:`CURVE_STYLES`; theory in the theory colour, the fit keyed in the neutral legend
    colour)."""
    betas = list(dict.fromkeys(frame["beta"]))
    colours = sequential_colours("beta", betas)
    figure, axes = new_figure(1, 3, width=TWO_COLUMNS, height=2.55)
    draws = frame[frame["kind"] == "data"]
    curves = frame[frame["series"].isin(list(CURVE_STYLES))]
    sizes = sorted(draws["n_tokens"].unique())
    across = [min(sizes), max(sizes)]
    for ax, panel, title, y_label in zip(axes[0], PANELS, TITLES, Y_LABELS, strict=True):
        _draws_and_medians(ax, draws[draws["panel"] == panel], colours)
        for (beta, series), rows in curves[curves["panel"] == panel].groupby(["beta", "series"]):
            if rows["n_tokens"].isna().all():  # a level: across the simulated ell
                x, y = across, [float(rows["value"].iloc[0])] * 2
            else:
                x, y = rows["n_tokens"], rows["value"]
            colour = colours[beta] if series == "fit" else THEORY_COLOUR
            ax.plot(x, y, color=colour, **CURVE_STYLES[series])
        ax.set_title(title)
        ax.set_ylabel(y_label)
        ax.set_xscale("log", base=2)
        ax.set_xticks(sizes, [f"{n:g}" for n in sizes])
        ax.xaxis.set_minor_locator(NullLocator())
        ax.set_xlabel(r"$\ell$ ($= d_{qk}$)")
    log_axis(axes[0, 0].yaxis)
    log_axis(axes[0, 1].yaxis)
    band = draws.groupby(["beta", "n_tokens"])["draw"].nunique().min() >= BAND_MIN_DRAWS
    key = LEGEND_KEY  # the keys of marker and line styles: in no beta's colour
    handles = [
        Line2D([], [], ls="none", marker="o", ms=3.5, color=colour, label=rf"$\beta={beta:g}$")
        for beta, colour in colours.items()
    ] + [
        Line2D([], [], ls="none", marker="o", ms=2, alpha=0.45, color=key,
               label="draws"),
        Line2D([], [], ls="none", marker="o", ms=3.5, color=key,
               label="median" + (" (10–90 % bars)" if band else "")),
    ] + [
        Line2D([], [], color=key if series == "fit" else THEORY_COLOUR,
               label=CURVE_LABELS[series], **style)
        for series, style in CURVE_STYLES.items()
    ]  # fmt: skip
    figure.legend(handles=handles, loc="outside lower center", ncols=4, frameon=False)
    label_panels(axes[0])
    return figure
