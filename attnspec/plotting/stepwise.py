"""Figure A1, drawn with seaborn from its tidy table (:data:`attnspec.experiments.stepwise.
STEPWISE_PLOTTED_HEADER`): 2 rows x 6 models, density histograms of the pooled bulk (top) and the
median over draws of the k-th largest bulk value (bottom), against nu_inf."""

import pandas as pd
import seaborn as sns

from attnspec.experiments.stepwise import STEPWISE_LABELS
from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    DATA_COLOUR,
    THEORY_COLOUR,
    log_axis,
    new_figure,
)


def plot_stepwise(frame: pd.DataFrame, *, n_tokens: int, bins: int):
    """Top row: ``sns.histplot`` (stat="density", ``bins`` bins over the range of the nu_inf
    curve) of each model's pooled bulk with nu_inf and x_+; bottom row: ``sns.lineplot`` of the
    median over draws of the k-th largest bulk value with its 10-90 % band (>= 10 draws; else
    every draw), against the nu_inf quantile."""
    bulk = frame[frame["series"] == "bulk"]
    density = frame[frame["series"] == "nu_inf_density"]
    quantile = frame[frame["series"] == "nu_inf_quantile"]
    ks = frame[frame["series"] == "ks_to_attention"].set_index("model")["value"]
    x_plus = float(frame.loc[frame["series"] == "x_plus", "value"].iloc[0])
    models = list(dict.fromkeys(bulk["model"]))
    n_draws = bulk.groupby("model")["draw"].nunique().min()
    band = n_draws >= BAND_MIN_DRAWS
    figure, axes = new_figure(2, len(models), width=2.2 * len(models), height=4.4)
    top_range = (0.0, float(density["x"].max()))
    y_max = 1.15 * density.loc[density["x"] > 0.2, "value"].max()
    for column, model in enumerate(models):
        top, bottom = axes[0, column], axes[1, column]
        mine = bulk[bulk["model"] == model]
        sns.histplot(
            data=mine, x="value", stat="density", bins=bins, binrange=top_range,
            element="step", color=DATA_COLOUR, alpha=0.6, lw=0, ax=top,
        )  # fmt: skip
        top.plot(density["x"], density["value"], color=THEORY_COLOUR, lw=1.1)
        top.axvline(x_plus, color=THEORY_COLOUR, ls=":", lw=0.9)
        top.set_title(STEPWISE_LABELS[model])
        top.text(
            0.97, 0.95, f"$d_{{KS}}$ to $\\sqrt{{\\ell}}A^\\perp$: {ks[model]:.3f}",
            transform=top.transAxes, ha="right", va="top", fontsize=6.5,
        )  # fmt: skip
        top.set_ylim(0, y_max)
        top.set_xlabel("$s^2$")
        top.set_ylabel("density" if column == 0 else "")
        spread = {"errorbar": BAND} if band else {"errorbar": None}
        sns.lineplot(
            data=mine, x="k", y="value", estimator="median", color=DATA_COLOUR, lw=1.2,
            label="data", legend=False, ax=bottom, **spread,
        )  # fmt: skip
        if not band:
            sns.lineplot(
                data=mine, x="k", y="value", units="draw", estimator=None, color=DATA_COLOUR,
                lw=0.5, alpha=0.4, legend=False, ax=bottom,
            )  # fmt: skip
        bottom.plot(
            quantile["k"], quantile["value"], color=THEORY_COLOUR, lw=1.0, ls="--",
            label=r"$\nu_\infty$",
        )  # fmt: skip
        log_axis(bottom.xaxis)
        bottom.set_xlabel("rank $k$ (bulk)")
        bottom.set_ylabel("")
    spread = "10–90 % band" if band else "thin: each draw"
    axes[1, 0].set_ylabel(f"$s_k^2$ (median of {n_draws} draws)")
    axes[1, 0].legend(
        axes[1, 0].get_lines()[:1] + axes[1, 0].get_lines()[-1:],
        [f"data ({spread})", r"$\nu_\infty$"],
        frameon=False,
        loc="lower left",
    )
    figure.suptitle(
        f"Stepwise Gaussian approximation, $\\ell = {n_tokens}$: bulk squared singular values "
        r"against $\nu_\infty$ (solid red; dotted: $x_+$)",
        fontsize=9,
    )
    return figure
