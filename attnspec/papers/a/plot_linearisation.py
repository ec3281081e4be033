"""Figure A5, drawn with seaborn from its tidy table
(:func:`attnspec.papers.a.linearisation_plotted.linearisation_plotted_table`, rows chosen by
``kind`` and ``series``): distance of the bulk
to nu_inf against beta / sqrt(log ell), one colour per ell (``style.sequential_colours("size")``),
two columns wide, three rows of two panels, one legend below them.

Six panels: Kolmogorov and W1 / theta_1 against x = beta / sqrt(log ell); Kolmogorov against
beta (the same curves, not rescaled); the exponent s of D ~ ell^s at fixed x with its 95 %
interval (a fit, matplotlib); the excess of the attention distance over the Y_lin floor against
beta with the threshold of A.5/location; the threshold beta*(ell) of every draw against log ell,
on log-log axes, with its least-squares line and the slope 1/2 of beta* ~ sqrt(log ell). The
curves over draws are ``sns.lineplot`` means with the 10-90 % band over draws (``BAND``) from
10 draws on; with fewer, every draw is a dot.
"""

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.ticker import FormatStrFormatter, NullLocator

from attnspec.papers.a.linearisation_summary import EXCESS_THRESHOLD
from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    COLOURS,
    DATA_COLOUR,
    LEGEND_KEY,
    LINE_STYLES,
    REFERENCE_COLOUR,
    THEORY_COLOUR,
    TWO_COLUMNS,
    label_panels,
    log_axis,
    new_figure,
    sequential_colours,
)
from attnspec.plotting.tidy import select

METRIC_LABELS = {
    "kolmogorov": r"Kolmogorov distance $D$ to $\nu_\infty$",
    "wasserstein1_relative": r"$W_1$ to $\nu_\infty$ / $\theta_1$",
}
RESCALED_LABEL = r"$x = \beta / \sqrt{\log \ell}$"
# (panel, metric, coordinate column) of the three distance panels.
DISTANCE_PANELS = (
    ("kolmogorov_vs_x", "kolmogorov", "x"),
    ("wasserstein1_vs_x", "wasserstein1_relative", "x"),
    ("kolmogorov_vs_beta", "kolmogorov", "beta"),
)
GUIDE = {"color": COLOURS["guide"], "lw": 1.0}
"""Lines that are not results: zero, the threshold of the excess, the crossover x of (d)."""


def _statistic(frame: pd.DataFrame, series: str) -> float:
    """The value of the one-row statistic ``series``."""
    (value,) = select(frame, "statistic", series)["value"]
    return float(value)


def _over_draws(axis, data: pd.DataFrame, x: str, colours: dict, **style) -> None:
    """The mean over draws per ell with the 10-90 % band over draws (>= 10 draws at every
    point), else the mean and every draw as a dot."""
    band = data.groupby(["n_tokens", "beta"])["draw"].nunique().min() >= BAND_MIN_DRAWS
    sns.lineplot(
        data=data, x=x, y="value", hue="n_tokens", palette=colours, estimator="mean",
        errorbar=BAND if band else None, err_kws={"alpha": 0.25, "lw": 0}, marker="o",
        mew=0, legend=False, ax=axis, **style,
    )  # fmt: skip
    if not band:
        sns.scatterplot(
            data=data, x=x, y="value", hue="n_tokens", palette=colours, s=4, alpha=0.5, lw=0,
            legend=False, ax=axis,
        )  # fmt: skip


def _distance_panel(axis, frame: pd.DataFrame, metric: str, x: str, colours: dict) -> None:
    rows = select(frame, "data", metric)
    _over_draws(axis, rows[rows["model"] == "attention"], x, colours, ms=3.2, lw=1.1)
    floor = rows[rows["model"] == "linear"]
    for n, colour in colours.items():  # one call per ell: open circles need their edge colour
        sns.lineplot(
            data=floor[floor["n_tokens"] == n], x=x, y="value", estimator="mean", errorbar=None,
            color=colour, marker="o", ms=2.5, mfc="white", mec=colour, lw=0.8, ls="--", ax=axis,
        )  # fmt: skip
    log_axis(axis.yaxis)
    axis.set_ylabel(METRIC_LABELS[metric])
    axis.set_xlabel(RESCALED_LABEL if x == "x" else r"$\beta$")


def _exponent_panel(axis, frame: pd.DataFrame, crossover: float) -> None:
    """The exponent at fixed x with its 95 % interval (a fit, not a band over draws)."""
    fits = frame[frame["kind"] == "statistic"]
    fits = fits[fits["series"].isin(["exponent", "exponent_low", "exponent_high"])]
    curves = dict(iter(fits.groupby(["model", "series"])))
    axis.axhline(0.0, **GUIDE)
    low, high = curves["attention", "exponent_low"], curves["attention", "exponent_high"]
    axis.fill_between(low["x"], low["value"], high["value"], color=DATA_COLOUR, alpha=0.2, lw=0)
    exponent = curves["attention", "exponent"]
    axis.plot(
        exponent["x"], exponent["value"], color=DATA_COLOUR, lw=1.3,
        label=r"$\sqrt{\ell}A^\perp$ (95 % interval)",
    )  # fmt: skip
    floor = curves["linear", "exponent"]
    axis.plot(
        floor["x"], floor["value"], color=REFERENCE_COLOUR, lw=0.9, ls="--",
        label=r"$Y_{\mathrm{lin}}$ (floor)",
    )  # fmt: skip
    axis.set_xlabel(RESCALED_LABEL)
    axis.set_ylabel(r"exponent $s$ of $D \propto \ell^{s}$")
    axis.legend(frameon=False, loc="lower center", bbox_to_anchor=(0.5, 0.1))  # between the curves
    title = "convergence in $\\ell$ at fixed $x$"
    if np.isfinite(crossover):
        title += f": none from $x = {crossover:.2f}$"
    axis.set_title(title)


def _excess_panel(axis, frame: pd.DataFrame, colours: dict) -> None:
    axis.axhline(0.0, **GUIDE)
    axis.axhline(EXCESS_THRESHOLD, ls=LINE_STYLES["edge or threshold"], **GUIDE)
    _over_draws(axis, select(frame, "statistic", "excess_over_floor"), "beta", colours, ms=3.2)
    axis.set_xlabel(r"$\beta$")
    axis.set_ylabel(r"$D(\sqrt{\ell}A^\perp) - D(Y_{\mathrm{lin}})$")
    axis.set_title(f"excess over the $Y_{{\\mathrm{{lin}}}}$ floor (dotted: {EXCESS_THRESHOLD:g})")


def _location_panel(axis, frame: pd.DataFrame, colours: dict) -> None:
    crossings = select(frame, "statistic", "beta_star")
    sns.scatterplot(
        data=crossings, x="x", y="value", hue="n_tokens", palette=colours, s=7, alpha=0.6, lw=0,
        legend=False, ax=axis,
    )  # fmt: skip
    fit = select(frame, "statistic", "beta_star_fit")
    if fit["value"].notna().all():
        reference = select(frame, "theory", "beta_star_sqrt_log")
        slope = _statistic(frame, "beta_star_fit_slope")
        axis.plot(
            fit["x"],
            fit["value"],
            color=DATA_COLOUR,
            lw=1.1,
            label=f"least squares, slope {slope:.2f}",
        )
        axis.plot(
            reference["x"], reference["value"], color=THEORY_COLOUR, lw=0.9,
            ls=LINE_STYLES["limit law / theory"],
            label=r"$\beta^*\propto\sqrt{\log\ell}$ (slope 1/2)",
        )  # fmt: skip
        axis.legend(frameon=False, loc="upper left")
    sizes = crossings.drop_duplicates("n_tokens")
    axis.set_xscale("log")
    log_axis(axis.yaxis)
    axis.set_xticks(sizes["x"], [f"$\\log {int(n)}$" for n in sizes["n_tokens"]])
    axis.xaxis.set_minor_locator(NullLocator())
    axis.yaxis.set_major_formatter(FormatStrFormatter("%.2f"))
    axis.set_xlabel(r"$\log\ell$")
    axis.set_ylabel(r"threshold $\beta^*$ per draw")
    axis.set_title(r"$\beta^*(\ell)$, both axes logarithmic")


def plot_linearisation(frame: pd.DataFrame):
    """Figure A5 (module docstring) from its tidy table, two columns wide: (a)-(c) the distances
    of the attention bulk (solid, filled circles) and of Y_lin (dashed, open circles: the
    floor); (d) the exponent at fixed x with its 95 % interval; (e) the excess over the floor;
    (f) beta*(ell). The legend below the panels names each ell's colour and the two styles."""
    distances = select(frame, "data", "kolmogorov")
    sizes = sorted(int(n) for n in distances["n_tokens"].unique())
    colours = sequential_colours("size", sizes)
    figure, axes = new_figure(3, 2, width=TWO_COLUMNS, height=7.2)
    panels = axes.ravel()
    for axis, (_, metric, x) in zip(panels[:3], DISTANCE_PANELS, strict=True):
        _distance_panel(axis, frame, metric, x, colours)
    crossover = _statistic(frame, "crossover")
    if np.isfinite(crossover):
        for axis in panels[[0, 1, 3]]:
            axis.axvline(crossover, ls=":", **GUIDE)
    key = LEGEND_KEY  # the keys of the two styles: in no ell's colour
    handles = [
        Line2D([], [], color=colour, marker="o", ms=3.2, lw=1.1, label=rf"$\ell={n}$")
        for n, colour in colours.items()
    ] + [
        Line2D([], [], color=key, lw=1.1, marker="o", ms=3.2, label=r"$\sqrt{\ell}A^\perp$"),
        Line2D([], [], color=key, lw=0.8, ls="--", marker="o", ms=2.5, mfc="white",
               label=r"$Y_{\mathrm{lin}}$ (floor)"),
    ]  # fmt: skip
    if np.isfinite(crossover):
        handles.append(
            Line2D([], [], ls=":", label=r"from here the interval of $s$ reaches 0 (d)", **GUIDE)
        )
    figure.legend(handles=handles, loc="outside lower center", ncols=4, frameon=False)
    panels[0].set_title(
        f"spread across $\\ell$: {_statistic(frame, 'x_spread_mean'):.2f} decades at fixed $x$"
    )
    panels[1].set_title(r"$W_1/\theta_1$ (same runs)")
    panels[2].set_title(
        f"not rescaled: {_statistic(frame, 'beta_spread_mean'):.2f} decades at fixed $\\beta$"
    )
    _exponent_panel(panels[3], frame, crossover)
    _excess_panel(panels[4], frame, colours)
    _location_panel(panels[5], frame, colours)
    label_panels(panels)
    return figure
