"""Figure A1, drawn with seaborn from its tidy table (:func:`attnspec.papers.a.stepwise_plotted.
stepwise_plotted_table`): 2 rows x 6 models, two columns wide, density histograms of the pooled
bulk (top) and the median over draws of the k-th largest bulk value (bottom), against nu_inf;
each row shares its axes, one legend below the panels."""

import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import MaxNLocator

from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    DATA_COLOUR,
    LINE_STYLES,
    THEORY_COLOUR,
    TWO_COLUMNS,
    label_panels,
    log_axis,
    new_figure,
)
from attnspec.plotting.tidy import select

STEPWISE_LABELS = {
    "attention": r"$\sqrt{\ell}\,A^{\perp}$",
    "mean_normaliser": r"$Y$",
    "entrywise": r"$Y_f$",
    "conditional_gaussian": r"$Y_Q$",
    "conditional_gaussian_linear": r"$Y_Q^{\mathrm{lin}}$",
    "linear": r"$Y_f^{\mathrm{lin}}$",
}

HISTOGRAM_ALPHA = 0.6
X_PLUS_STYLE = {"color": THEORY_COLOUR, "ls": LINE_STYLES["edge or threshold"], "lw": 0.9}
QUANTILE_STYLE = {"color": THEORY_COLOUR, "ls": LINE_STYLES["alternative or quantile"], "lw": 1.0}


def plot_stepwise(frame: pd.DataFrame, *, bins: int):
    """Top row: ``sns.histplot`` (stat="density", ``bins`` bins over the range of the nu_inf
    curve) of each model's pooled bulk with the nu_inf density (solid) and x_+ (dotted), the
    model and its Kolmogorov distance to the bulk of sqrt(ell) A_perp in the title; bottom row:
    ``sns.lineplot`` of the median over draws of the k-th largest bulk value with its 10-90 %
    band (>= 10 draws; else every draw), against the nu_inf quantiles, dashed. The rows share
    their y-axes; one legend for both rows below them; panel letters row by row."""
    bulk = select(frame, "data", "bulk")
    density = select(frame, "theory", "nu_inf_density")
    quantile = select(frame, "theory", "nu_inf_quantile")
    x_plus = float(select(frame, "theory", "x_plus")["value"].iloc[0])
    ks = select(frame, "statistic", "ks_to_attention").set_index("model")["value"]
    models = list(dict.fromkeys(bulk["model"]))
    n_draws = bulk.groupby("model")["draw"].nunique().min()
    band = n_draws >= BAND_MIN_DRAWS
    figure, axes = new_figure(
        2, len(models), width=TWO_COLUMNS, height=3.5, sharex="row", sharey="row"
    )
    top_range = (0.0, float(density["x"].max()))
    y_max = 1.15 * density.loc[density["x"] > 0.2, "value"].max()
    for column, model in enumerate(models):
        top, bottom = axes[0, column], axes[1, column]
        mine = bulk[bulk["model"] == model]
        sns.histplot(
            data=mine, x="value", stat="density", bins=bins, binrange=top_range,
            element="step", color=DATA_COLOUR, alpha=HISTOGRAM_ALPHA, lw=0, ax=top,
        )  # fmt: skip
        top.plot(density["x"], density["value"], color=THEORY_COLOUR, lw=1.1)
        top.axvline(x_plus, **X_PLUS_STYLE)
        top.set_title(f"{STEPWISE_LABELS[model]}\n$d_{{KS}} = {ks[model]:.3f}$")
        top.set_xlabel("$s^2$")
        top.set_ylabel("")
        spread = {"errorbar": BAND} if band else {"errorbar": None}
        sns.lineplot(
            data=mine, x="k", y="value", estimator="median", color=DATA_COLOUR, lw=1.2,
            legend=False, ax=bottom, **spread,
        )  # fmt: skip
        if not band:
            sns.lineplot(
                data=mine, x="k", y="value", units="draw", estimator=None, color=DATA_COLOUR,
                lw=0.5, alpha=0.4, legend=False, ax=bottom,
            )  # fmt: skip
        bottom.plot(quantile["k"], quantile["value"], **QUANTILE_STYLE)
        bottom.set_xlabel("bulk rank $k$")
        bottom.set_ylabel("")
    axes[0, 0].set_ylim(0, y_max)
    axes[0, 0].xaxis.set_major_locator(MaxNLocator(3))
    log_axis(axes[1, 0].xaxis)
    axes[0, 0].set_ylabel("density")
    axes[1, 0].set_ylabel(f"$s_k^2$, median of {n_draws} draws")
    spread = "10–90 % band" if band else "thin lines: each draw"
    handles = [
        Patch(color=DATA_COLOUR, alpha=HISTOGRAM_ALPHA, lw=0),
        Line2D([], [], color=DATA_COLOUR, lw=1.2),
        Line2D([], [], color=THEORY_COLOUR, lw=1.1),
        Line2D([], [], **QUANTILE_STYLE),
        Line2D([], [], **X_PLUS_STYLE),
    ]
    labels = [
        f"bulk, {n_draws} draws pooled",
        f"median over draws ({spread})",
        r"$\nu_\infty$ density",
        r"$\nu_\infty$ quantile",
        r"$x_+$, right edge of $\nu_\infty$",
    ]
    figure.legend(handles, labels, loc="outside lower center", ncols=5, frameon=False)
    label_panels(axes.ravel())
    return figure
