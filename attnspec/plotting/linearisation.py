"""Figure A5 layout: distance of the bulk to nu_inf against beta / sqrt(log ell), per ell.

Four panels: Kolmogorov and W1 / theta_1 against x = beta / sqrt(log ell); Kolmogorov against
beta (the same curves, not rescaled); the exponent s of D ~ ell^s at fixed x.
"""

from collections.abc import Iterator, Mapping

import matplotlib as mpl
import numpy as np

from attnspec.experiments.linearisation import NOISE_SDS
from attnspec.plotting.style import REFERENCE_COLOUR, THEORY_COLOUR, apply_style, new_figure

LINEARISATION_PLOTTED_HEADER = ("panel", "model", "n_tokens", "series", "x", "y")
METRIC_LABELS = {
    "kolmogorov": r"Kolmogorov distance $D$ to $\nu_\infty$",
    "wasserstein1_relative": r"$W_1$ to $\nu_\infty$ / $\theta_1$",
}
RESCALED_LABEL = r"$x = \beta / \sqrt{\log \ell}$"
# (panel, metric, coordinate) of the three distance panels.
DISTANCE_PANELS = (
    ("kolmogorov_vs_x", "kolmogorov", "rescaled"),
    ("wasserstein1_vs_x", "wasserstein1_relative", "rescaled"),
    ("kolmogorov_vs_beta", "kolmogorov", "beta"),
)


def size_colours(n_sizes: int) -> list:
    """One colour per ell, light (small ell) to dark (large ell)."""
    return [mpl.colormaps["viridis_r"](v) for v in np.linspace(0.15, 0.9, n_sizes)]


def _distance_panel(axis, summary: Mapping, metric: str, coordinate: str) -> None:
    colours = size_colours(summary["n_tokens"].size)
    for row, (n_tokens, colour) in enumerate(zip(summary["n_tokens"], colours, strict=True)):
        x = summary["rescaled"][row] if coordinate == "rescaled" else summary["beta"]
        attention = f"{metric}/attention"
        axis.fill_between(
            x,
            summary[f"{attention}/low"][row],
            summary[f"{attention}/high"][row],
            color=colour,
            alpha=0.25,
            lw=0,
        )
        axis.plot(
            x,
            summary[f"{attention}/mean"][row],
            color=colour,
            marker="o",
            ms=3.5,
            lw=1.3,
            label=rf"$\ell={n_tokens}$",
        )
        axis.plot(
            x,
            summary[f"{metric}/linear/mean"][row],
            color=colour,
            marker="o",
            ms=3,
            mfc="white",
            lw=0.9,
            ls="--",
        )
    axis.set_yscale("log")
    axis.set_ylabel(METRIC_LABELS[metric])
    axis.set_xlabel(RESCALED_LABEL if coordinate == "rescaled" else r"$\beta$")


def plot_linearisation(summary: Mapping, collapse: Mapping, *, n_draws: int):
    """Figure A5: (a) Kolmogorov distance and (b) W1 / theta_1 of the bulk of sqrt(ell) A_perp
    (solid, band: min-max over draws) and of Y_lin (dashed: the noise floor) to nu_inf against
    beta / sqrt(log ell); (c) the Kolmogorov distance against beta; (d) the exponent s of
    D ~ ell^s at fixed x, for the attention bulk and for Y_lin."""
    apply_style()
    figure, axes = new_figure(2, 2, width=8.6, height=6.6)
    panels = axes.ravel()
    for axis, (_, metric, coordinate) in zip(panels[:3], DISTANCE_PANELS, strict=True):
        _distance_panel(axis, summary, metric, coordinate)
    crossover = float(collapse["crossover"])
    if np.isfinite(crossover):
        for axis in panels[[0, 1, 3]]:
            axis.axvline(crossover, color=REFERENCE_COLOUR, lw=0.8, ls=":")
    panels[0].plot([], [], color="0.3", lw=1.3, marker="o", ms=3.5, label=r"$\sqrt{\ell}A^\perp$")
    panels[0].plot(
        [],
        [],
        color="0.3",
        lw=0.9,
        ls="--",
        marker="o",
        ms=3,
        mfc="white",
        label=r"$Y_{\mathrm{lin}}$ (floor)",
    )
    panels[0].legend(frameon=False, loc="upper left", fontsize=6.5, ncols=2)
    panels[0].set_title(
        f"(a) spread across $\\ell$: {collapse['x_spread_mean']:.2f} decades at fixed $x$",
        loc="left",
    )
    panels[1].set_title(r"(b) $W_1/\theta_1$ (same runs)", loc="left")
    panels[2].set_title(
        f"(c) not rescaled: spread {collapse['beta_spread_mean']:.2f} decades at fixed $\\beta$",
        loc="left",
    )
    exponent = panels[3]
    band = NOISE_SDS * collapse["x_exponent_se"]
    exponent.fill_between(
        collapse["x"],
        collapse["x_exponent"] - band,
        collapse["x_exponent"] + band,
        color=THEORY_COLOUR,
        alpha=0.2,
        lw=0,
    )
    exponent.plot(
        collapse["x"],
        collapse["x_exponent"],
        color=THEORY_COLOUR,
        lw=1.4,
        label=rf"$\sqrt{{\ell}}A^\perp$ ($\pm{NOISE_SDS:g}$ s.e.)",
    )
    exponent.plot(
        collapse["x"],
        collapse["x_floor_exponent"],
        color=REFERENCE_COLOUR,
        lw=1.0,
        ls="--",
        label=r"$Y_{\mathrm{lin}}$ (floor)",
    )
    exponent.axhline(0.0, color="0.5", lw=0.6)
    exponent.set_xlabel(RESCALED_LABEL)
    exponent.set_ylabel(r"exponent $s$ of $D \propto \ell^{s}$ at fixed $x$")
    exponent.legend(frameon=False, loc="center right", fontsize=6.5)
    title = "(d) convergence in $\\ell$ at fixed $x$"
    if np.isfinite(crossover):
        title += f": no decrease from $x = {crossover:.2f}$ (dotted)"
    exponent.set_title(title, loc="left")
    sizes = ", ".join(str(int(n)) for n in summary["n_tokens"])
    figure.suptitle(
        r"Linearisation threshold: bulk of $\sqrt{\ell}A^\perp$ against $\nu_\infty$ "
        f"($c=1$, $\\ell \\in \\{{{sizes}\\}}$, {n_draws} draws)",
        fontsize=9,
    )
    return figure


def linearisation_plotted_rows(summary: Mapping, collapse: Mapping) -> Iterator[tuple]:
    """Every number drawn in :func:`plot_linearisation` as rows
    (panel, model, n_tokens, series, x, y); n_tokens is empty for the exponent panel."""
    for panel, metric, coordinate in DISTANCE_PANELS:
        for row, n_tokens in enumerate(summary["n_tokens"]):
            x = summary["rescaled"][row] if coordinate == "rescaled" else summary["beta"]
            for model in ("attention", "linear"):
                series = ("mean", "low", "high") if model == "attention" else ("mean",)
                for name in series:
                    values = summary[f"{metric}/{model}/{name}"][row]
                    for xi, yi in zip(x, values, strict=True):
                        yield (panel, model, int(n_tokens), name, xi, yi)
    band = NOISE_SDS * collapse["x_exponent_se"]
    curves = {
        ("attention", "exponent"): collapse["x_exponent"],
        ("attention", "band_low"): collapse["x_exponent"] - band,
        ("attention", "band_high"): collapse["x_exponent"] + band,
        ("linear", "exponent"): collapse["x_floor_exponent"],
    }
    for (model, series), values in curves.items():
        for xi, yi in zip(collapse["x"], values, strict=True):
            yield ("exponent_vs_x", model, "", series, xi, yi)
