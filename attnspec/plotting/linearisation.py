"""Figure A5 layout: distance of the bulk to nu_inf against beta / sqrt(log ell), per ell.

Six panels: Kolmogorov and W1 / theta_1 against x = beta / sqrt(log ell); Kolmogorov against
beta (the same curves, not rescaled); the exponent s of D ~ ell^s at fixed x; the excess of the
attention distance over the Y_lin floor against beta with the threshold of A.5/location; the
threshold beta*(ell) of every draw against log ell, on log-log axes.
"""

from collections.abc import Iterator, Mapping, Sequence

import matplotlib as mpl
import numpy as np
from matplotlib.ticker import FormatStrFormatter, NullLocator

from attnspec.experiments.linearisation import (
    BAND_MIN_DRAWS,
    BAND_QUANTILES,
    EXCESS_THRESHOLD,
    excess_over_floor,
    threshold_betas,
)
from attnspec.plotting.style import REFERENCE_COLOUR, THEORY_COLOUR, apply_style, new_figure

LINEARISATION_PLOTTED_HEADER = ("panel", "model", "n_tokens", "series", "draw", "x", "y")
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
LABEL_BOX = {"boxstyle": "round,pad=0.25", "facecolor": "white", "edgecolor": "0.8", "alpha": 0.9}


def size_colours(n_sizes: int) -> list:
    """One colour per ell, light (small ell) to dark (large ell)."""
    return [mpl.colormaps["viridis_r"](v) for v in np.linspace(0.15, 0.9, n_sizes)]


def has_band(summary: Mapping, key: str) -> bool:
    """Whether a 10-90 % band over draws exists (at least 10 draws), else draws are drawn."""
    return bool(np.isfinite(summary[f"{key}/low"]).all())


def _spread(axis, x, draws: np.ndarray, low, high, colour, band: bool) -> None:
    """The 10-90 % band over draws, or with fewer than 10 draws every draw as a dot."""
    if band:
        axis.fill_between(x, low, high, color=colour, alpha=0.25, lw=0)
    else:
        for column in draws.T:
            axis.plot(x, column, ls="none", marker=".", ms=2.5, color=colour, alpha=0.5)


def _distance_panel(axis, summary: Mapping, metric: str, coordinate: str) -> None:
    colours = size_colours(summary["n_tokens"].size)
    attention = f"{metric}/attention"
    band = has_band(summary, attention)
    for row, (n_tokens, colour) in enumerate(zip(summary["n_tokens"], colours, strict=True)):
        x = summary["rescaled"][row] if coordinate == "rescaled" else summary["beta"]
        _spread(
            axis,
            x,
            summary[f"{attention}/draws"][row],
            summary[f"{attention}/low"][row],
            summary[f"{attention}/high"][row],
            colour,
            band,
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


def _labels(axis, labels: Sequence[str], where: str = "lower right") -> None:
    if labels:
        x, ha = (0.97, "right") if "right" in where else (0.03, "left")
        y, va = (0.04, "bottom") if "lower" in where else (0.96, "top")
        axis.text(
            x,
            y,
            "\n".join(labels),
            transform=axis.transAxes,
            ha=ha,
            va=va,
            fontsize=6,
            bbox=LABEL_BOX,
        )


def _excess_panel(axis, summary: Mapping) -> None:
    excess = excess_over_floor(summary)  # (ell, beta, draw)
    band = excess.shape[2] >= BAND_MIN_DRAWS
    colours = size_colours(summary["n_tokens"].size)
    for row, colour in enumerate(colours):
        low, high = np.quantile(excess[row], BAND_QUANTILES, axis=1) if band else (None, None)
        _spread(axis, summary["beta"], excess[row], low, high, colour, band)
        axis.plot(summary["beta"], excess[row].mean(axis=1), color=colour, marker="o", ms=3)
    axis.axhline(EXCESS_THRESHOLD, color=REFERENCE_COLOUR, lw=0.9, ls=":")
    axis.set_yscale("symlog", linthresh=1e-3)
    axis.set_xlabel(r"$\beta$")
    axis.set_ylabel(r"$D(\sqrt{\ell}A^\perp) - D(Y_{\mathrm{lin}})$")
    axis.set_title(
        f"(e) excess over the $Y_{{\\mathrm{{lin}}}}$ floor; dotted: {EXCESS_THRESHOLD:g}",
        loc="left",
    )


def _location_panel(axis, summary: Mapping, labels: Sequence[str]) -> None:
    crossings = threshold_betas(summary)  # (draws, ell)
    log_sizes = np.log(summary["n_tokens"].astype(np.float64))
    colours = size_colours(summary["n_tokens"].size)
    for column, (u, colour) in enumerate(zip(log_sizes, colours, strict=True)):
        axis.plot(
            np.full(crossings.shape[0], u),
            crossings[:, column],
            ls="none",
            marker=".",
            ms=4,
            color=colour,
            alpha=0.6,
        )
    valid = np.isfinite(crossings)
    u = np.broadcast_to(np.log(log_sizes), crossings.shape)[valid]
    y = np.log(crossings[valid])
    if np.unique(u).size >= 2:
        slope, intercept = np.polyfit(u, y, 1)
        ends = log_sizes[[0, -1]]
        axis.plot(ends, np.exp(intercept) * ends**slope, color=THEORY_COLOUR, lw=1.2)
        start = np.exp(np.mean(y[u == u.min()]))
        reference = start * np.sqrt(ends / ends[0])
        axis.plot(ends, reference, color=REFERENCE_COLOUR, lw=0.9, ls="--")
        axis.plot([], [], color=THEORY_COLOUR, lw=1.2, label=f"OLS fit, slope {slope:.2f}")
        axis.plot(
            [], [], color=REFERENCE_COLOUR, lw=0.9, ls="--", label=r"$\propto\sqrt{\log\ell}$"
        )
        axis.legend(frameon=False, loc="upper left", fontsize=6.5)
    axis.set_xscale("log")
    axis.set_yscale("log")
    axis.set_xticks(log_sizes, [str(int(n)) for n in summary["n_tokens"]])
    axis.xaxis.set_minor_locator(NullLocator())
    axis.yaxis.set_major_formatter(FormatStrFormatter("%.2f"))
    axis.yaxis.set_minor_formatter(FormatStrFormatter("%.2f"))
    axis.set_xlabel(r"$\ell$ (axis: $\log \ell$ on a log scale)")
    axis.set_ylabel(r"threshold $\beta^*$ per draw (log axis)")
    axis.set_title(r"(f) $\beta^*(\ell)$: slope of $\log\beta^*$ on $\log\log\ell$", loc="left")
    _labels(axis, labels)


def plot_linearisation(
    summary: Mapping,
    collapse: Mapping,
    *,
    verdicts: Sequence[str] = (),
    location_verdict: Sequence[str] = (),
):
    """Figure A5 (module docstring): (a)-(c) the distances of the attention bulk (solid; band:
    10-90 % over draws, or the draws as dots when there are fewer than 10) and of Y_lin (dashed,
    open circles: the floor); (d) the exponent at fixed x with its 95 % interval; (e) the excess
    over the floor; (f) beta*(ell). ``verdicts`` (A.1, A.5/breakdown) and ``location_verdict``
    (A.5/location) are labels of judged rows from the claims table."""
    apply_style()
    figure, axes = new_figure(2, 3, width=12.0, height=6.8)
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
    _labels(panels[2], verdicts, where="upper left")
    exponent = panels[3]
    exponent.fill_between(
        collapse["x"],
        collapse["x_exponent_low"],
        collapse["x_exponent_high"],
        color=THEORY_COLOUR,
        alpha=0.2,
        lw=0,
    )
    exponent.plot(
        collapse["x"],
        collapse["x_exponent"],
        color=THEORY_COLOUR,
        lw=1.4,
        label=r"$\sqrt{\ell}A^\perp$ (95 % interval)",
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
        title += f": not falling from $x = {crossover:.2f}$"
    exponent.set_title(title, loc="left")
    _excess_panel(panels[4], summary)
    _location_panel(panels[5], summary, location_verdict)
    sizes = ", ".join(str(int(n)) for n in summary["n_tokens"])
    figure.suptitle(
        r"Linearisation threshold: bulk of $\sqrt{\ell}A^\perp$ against $\nu_\infty$ "
        f"($c=1$, $\\ell \\in \\{{{sizes}\\}}$, {int(summary['draws'])} draws per point)",
        fontsize=9,
    )
    return figure


def linearisation_plotted_rows(summary: Mapping, collapse: Mapping) -> Iterator[tuple]:
    """Every number drawn in :func:`plot_linearisation` as rows
    (panel, model, n_tokens, series, draw, x, y); n_tokens is empty for the exponent panel and
    draw for the summaries over draws."""
    for panel, metric, coordinate in DISTANCE_PANELS:
        band = has_band(summary, f"{metric}/attention")
        for row, n_tokens in enumerate(summary["n_tokens"]):
            x = summary["rescaled"][row] if coordinate == "rescaled" else summary["beta"]
            for model in ("attention", "linear"):
                key = f"{metric}/{model}"
                series = ("mean", "low", "high") if model == "attention" and band else ("mean",)
                for name in series:
                    for xi, yi in zip(x, summary[f"{key}/{name}"][row], strict=True):
                        yield (panel, model, int(n_tokens), name, "", xi, yi)
                if model == "attention" and not band:
                    for draw, column in enumerate(summary[f"{key}/draws"][row].T):
                        for xi, yi in zip(x, column, strict=True):
                            yield (panel, model, int(n_tokens), "draw", draw, xi, yi)
    curves = {
        ("attention", "exponent"): collapse["x_exponent"],
        ("attention", "interval_low"): collapse["x_exponent_low"],
        ("attention", "interval_high"): collapse["x_exponent_high"],
        ("linear", "exponent"): collapse["x_floor_exponent"],
    }
    for (model, series), values in curves.items():
        for xi, yi in zip(collapse["x"], values, strict=True):
            yield ("exponent_vs_x", model, "", series, "", xi, yi)
    excess = excess_over_floor(summary)
    for row, n_tokens in enumerate(summary["n_tokens"]):
        for draw, column in enumerate(excess[row].T):
            for xi, yi in zip(summary["beta"], column, strict=True):
                yield ("excess_vs_beta", "attention", int(n_tokens), "draw", draw, xi, yi)
    for draw, crossings in enumerate(threshold_betas(summary)):
        for n_tokens, value in zip(summary["n_tokens"], crossings, strict=True):
            yield ("threshold_vs_ell", "attention", int(n_tokens), "beta_star", draw, "", value)
