"""Figure A1 layout: 2 rows x 6 panels (histograms of the bulk; sorted bulk values)."""

import numpy as np

from attnspec.experiments.stepwise import STEPWISE_LABELS
from attnspec.plotting.style import (
    DATA_COLOUR,
    THEORY_COLOUR,
    apply_style,
    new_figure,
)


def plot_stepwise(summary: dict, *, n_tokens: int, n_draws: int):
    """Top row: density histograms of each model's pooled bulk with nu_inf; bottom row: the
    median over draws of the k-th largest bulk value against the nu_inf quantile."""
    apply_style()
    models = [str(m) for m in summary["models"]]
    figure, axes = new_figure(2, len(models), width=2.2 * len(models), height=4.4)
    edges = summary["edges"]
    for column, (model, ks) in enumerate(zip(models, summary["ks_to_attention"], strict=True)):
        top, bottom = axes[0, column], axes[1, column]
        top.stairs(summary[f"density/{model}"], edges, fill=True, color=DATA_COLOUR, alpha=0.6)
        top.plot(summary["theory_x"], summary["theory_density"], color=THEORY_COLOUR, lw=1.1)
        top.axvline(float(summary["x_plus"]), color=THEORY_COLOUR, ls=":", lw=0.9)
        top.set_title(STEPWISE_LABELS[model])
        top.text(
            0.97,
            0.95,
            f"$d_{{KS}}$ to $\\sqrt{{\\ell}}A^\\perp$: {ks:.3f}",
            transform=top.transAxes,
            ha="right",
            va="top",
            fontsize=6.5,
        )
        top.set_ylim(0, 1.15 * np.nanmax(summary["theory_density"][summary["theory_x"] > 0.2]))
        top.set_xlabel("$s^2$")
        ranks = summary["ranks"]
        bottom.plot(ranks, summary[f"sorted/{model}"], color=DATA_COLOUR, lw=1.2, label="data")
        bottom.plot(
            ranks,
            summary["theory_sorted"],
            color=THEORY_COLOUR,
            lw=1.0,
            ls="--",
            label=r"$\nu_\infty$",
        )
        bottom.set_xscale("log")
        bottom.set_xlabel("rank $k$ (bulk)")
    axes[0, 0].set_ylabel("density")
    axes[1, 0].set_ylabel(f"$s_k^2$ (median of {n_draws} draws)")
    axes[1, 0].legend(frameon=False, loc="lower left")
    figure.suptitle(
        f"Stepwise Gaussian approximation, $\\ell = {n_tokens}$: bulk squared singular values "
        r"against $\nu_\infty$ (solid red; dotted: $x_+$)",
        fontsize=9,
    )
    return figure


def stepwise_plotted_rows(summary: dict):
    """Every number drawn in :func:`plot_stepwise` as rows (panel, model, series, x, y)."""
    centres = 0.5 * (summary["edges"][1:] + summary["edges"][:-1])
    for model in (str(m) for m in summary["models"]):
        for x, y in zip(centres, summary[f"density/{model}"], strict=True):
            yield ("histogram", model, "empirical_density", x, y)
        for k, y in zip(summary["ranks"], summary[f"sorted/{model}"], strict=True):
            yield ("sorted", model, "median_squared_singular_value", int(k), y)
    for x, y in zip(summary["theory_x"], summary["theory_density"], strict=True):
        yield ("histogram", "theory", "nu_inf_density", x, y)
    for k, y in zip(summary["ranks"], summary["theory_sorted"], strict=True):
        yield ("sorted", "theory", "nu_inf_quantile", int(k), y)
