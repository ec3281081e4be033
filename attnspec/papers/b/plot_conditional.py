"""Figures B5 and B6 (paper B, claim B.3), drawn with seaborn from their tidy tables: the
conditional covariances Sigma_f and Sigma_G given K, two columns wide, each covariance in its own
colour (:data:`attnspec.plotting.style.COLOURS`), theory (x_+, rho, Tracy–Widom) in the theory
colour.

Each function takes the figure's tidy table (a pandas DataFrame as built by
:mod:`attnspec.papers.b.conditional_plotted`, exactly the figure's CSV) and selects its rows
by ``kind`` and ``series``; nothing here computes a result, and no verdict is written in a panel
(the caption's verdict table has them).
- B5: (a) E_ell(Sigma_f) and E_ell(Sigma_G) against ell (log axis): every draw, the median over
  draws with its 10-90 % bars (from at least BAND_MIN_DRAWS draws) and x_+; (b) |E_ell - x_+| on
  log-log axes with the fitted power laws and their 95 % intervals.
- B6: histograms (stat="density") of the pooled spectra at the largest ell against
  rho = a + b MP_c, with bins three times finer next to the left edge of rho's continuous part
  (where its density can diverge, a coarse bin would average it away); the largest eigenvalues
  against the edge of rho in Tracy–Widom units, and the trends in ell of lambda_max (as in B5)
  and of the Kolmogorov distance to rho.
Theory curves, reference lines and labels are matplotlib on the seaborn axes.
"""

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from attnspec.papers.b.conditional import COVARIANCES
from attnspec.papers.b.plot_sticking import DOT, banded, ell_axis
from attnspec.plotting.placement import place_legend, settle_legends
from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    COLOURS,
    LINE_STYLES,
    THEORY_COLOUR,
    TWO_COLUMNS,
    apply_style,
    label_panels,
    log_axis,
    new_canvas,
    new_figure,
)
from attnspec.plotting.tidy import numeric, select, value_of

COVARIANCE_COLOURS = {name: COLOURS[name] for name in COVARIANCES}
COVARIANCE_TEX = {"sigma_f": r"$\Sigma_f$", "sigma_g": r"$\Sigma_G$"}
# The two covariances are drawn slightly apart in ell (multiplicative shift) for legibility.
SHIFTS = {"sigma_f": 0.96, "sigma_g": 1.04}
EDGE_SPLIT = 3
"""Figure B6: the two histogram bins next to the left edge of rho are split into this many."""
REFERENCE_STYLES = {
    "edge": {"color": THEORY_COLOUR, "lw": 1.0, "ls": LINE_STYLES["edge or threshold"]},
    "tw1_mean": {"color": THEORY_COLOUR, "lw": 0.8, "ls": LINE_STYLES["limit law / theory"]},
    "tw1_q99": {"color": THEORY_COLOUR, "lw": 0.8, "ls": LINE_STYLES["alternative or quantile"]},
}
"""Figure B6's references in Tracy–Widom units, all theory: the edge of rho dotted (as in the
histograms), the Tracy–Widom mean solid, its 99th percentile dashed, as a quantile is."""
INSET = (0.42, 0.2, 0.5, 0.3)
INSET_BINS = 4
"""Figure B6's zoom on the left edge of rho (axes fraction of its panel) spans one histogram
bin left of the edge and this many right of it."""


def _draws_and_medians(ax, data: pd.DataFrame, y: str, colour, as_band: bool, shift: float):
    """Every draw as a small dot and the median over draws as an open circle, with its
    10-90 % bars when every point has BAND_MIN_DRAWS draws (seaborn), at ell * ``shift``."""
    data = data.assign(ell=data["ell"] * shift)
    sns.scatterplot(data=data, x="ell", y=y, color=colour, alpha=0.7, ax=ax, **DOT)
    bars = {"errorbar": BAND, "err_style": "bars", "err_kws": {"capsize": 2, "lw": 1.0}}
    sns.lineplot(
        data=data, x="ell", y=y, estimator="median", ls="none", marker="o", ms=4.5, mew=1.2,
        mfc="white", mec=colour, color=colour, legend=False, ax=ax,
        **(bars if as_band else {"errorbar": None}),
    )  # fmt: skip


def _spread_text(as_band: bool) -> str:
    if as_band:
        return "dots: draws; circles: medians, bars: 10–90 %"
    return f"dots: draws; circles: medians (fewer than {BAND_MIN_DRAWS} draws: no bars)"


def _median_key(colour, label: str) -> Line2D:
    return Line2D(
        [], [], ls="none", marker="o", ms=4.5, mew=1.2, mfc="white", color=colour, label=label
    )


def plot_conditional_edges(frame: pd.DataFrame):
    """Figure B5 from its tidy table: data ``edge`` and ``abs_gap`` per draw, theory ``x_plus``,
    statistics ``abs_gap_fit`` (the fitted power law of |E_ell - x_+|) and its slope with 95 %
    interval (``fit_slope``, ``fit_slope_low``, ``fit_slope_high``: in the legend, under the
    panels) per covariance (:data:`attnspec.papers.b.conditional.COVARIANCES`)."""
    apply_style()
    frame = numeric(frame, "ell", "draw", "value")
    figure, axes = new_figure(1, 2, width=TWO_COLUMNS, height=2.9)
    edge_ax, gap_ax = axes[0]
    data_rows = select(frame, "data")
    as_band = banded(data_rows, ["series", "covariance", "ell"])
    x_plus = value_of(frame, "theory", "x_plus")
    median_handles, fit_handles = [], []
    for name in COVARIANCES:
        colour = COVARIANCE_COLOURS[name]
        data = data_rows[data_rows["covariance"] == name]
        for ax, series in ((edge_ax, "edge"), (gap_ax, "abs_gap")):
            mine = data[data["series"] == series]
            _draws_and_medians(ax, mine, "value", colour, as_band, SHIFTS[name])
        statistics = frame[frame["covariance"] == name]
        fit = select(statistics, "statistic", "abs_gap_fit")
        slope, low, high = (
            value_of(statistics, "statistic", series)
            for series in ("fit_slope", "fit_slope_low", "fit_slope_high")
        )
        gap_ax.plot(fit["ell"], fit["value"], color=colour, lw=1.0, ls="--")
        median_handles.append(_median_key(colour, rf"$E_\ell$({COVARIANCE_TEX[name]})"))
        fit_handles.append(
            Line2D([], [], color=colour, lw=1.0, ls="--",
                   label=rf"(b) fit $\propto \ell^{{{slope:.2f}}}$ "
                   rf"(95 %: ${low:.2f}$ to ${high:.2f}$)")
        )  # fmt: skip
    edge_ax.axhline(x_plus, color=THEORY_COLOUR, lw=1.2, zorder=1.5)
    edge_ax.set_ylabel(r"finite edge $E_\ell(\Sigma)$")
    edge_ax.set_title(r"finite deformed-MP edges against $x_+$")
    # Log scale only after seaborn has taken the medians (it would take them of the logs).
    log_axis(gap_ax.yaxis)
    gap_ax.set_ylabel(r"$|E_\ell(\Sigma) - x_+|$")
    gap_ax.set_title(r"distance to $x_+$ with least-squares power laws")
    x_plus_key = Line2D([], [], color=THEORY_COLOUR, lw=1.2, label=rf"(a) $x_+ = {x_plus:.4f}$")
    figure.legend(
        handles=median_handles + fit_handles + [x_plus_key], frameon=False, ncols=3,
        loc="outside lower center", title=_spread_text(as_band),
    )  # fmt: skip
    for ax in axes[0]:
        ell_axis(ax, data_rows["ell"])
    label_panels(axes[0])
    return figure


def histogram_edges(low: float, high: float, left: float, bins: int) -> np.ndarray:
    """Histogram bin edges over [``low``, ``high``]: ``bins`` equal bins over that range, set
    so that an edge falls on ``left`` (the last point of rho's density curve before its
    continuous part), the two bins right of it split into :data:`EDGE_SPLIT` each (where rho's
    density can diverge)."""
    width = (high - low) / bins
    steps = np.arange(np.floor((low - left) / width), np.ceil((high - left) / width) + 1)
    fine = left + width * np.arange(2 * EDGE_SPLIT + 1) / EDGE_SPLIT
    return np.union1d(left + width * steps, fine)


def plot_population(frame: pd.DataFrame, *, bins: int):
    """Figure B6 from its tidy table (histogram bins from :func:`histogram_edges`, ``bins``
    over the range of rho's density curve, which spans every eigenvalue).

    Top: pooled spectra of Sigma_f and Sigma_G with the density of rho and its edge; the
    largest eigenvalues of every draw at the largest ell, in units of the Tracy–Widom scale s
    from the edge of rho (legend under the panel). Bottom: (lambda_max - edge) / s against ell;
    the Kolmogorov distance of the pooled spectrum to rho against ell. Data: ``eigenvalue``,
    ``largest``; theory: ``density``, ``atom``, ``rho_edge``, ``tw_scale``, ``tw1_mean``,
    ``tw1_q99``; statistic: ``kolmogorov``.
    """
    apply_style()
    frame = numeric(frame, "ell", "draw", "rank", "x", "y")
    figure = new_canvas(width=TWO_COLUMNS, height=5.0)
    axes = figure.subplot_mosaic("FGT;LLK", height_ratios=[1.15, 1])
    density = select(frame, "theory", "density")
    atom = select(frame, "theory", "atom")
    rho_edge = select(frame, "theory", "rho_edge")["x"].item()
    reference = select(frame, "theory", "tw_scale", "tw1_mean", "tw1_q99")
    top = select(frame, "data", "largest")
    ell = int(select(frame, "data")["ell"].max())
    at_largest = reference[reference["ell"] == ell].set_index("series")["y"]
    support = density.loc[density["y"] > 0, "x"].min()
    left = density.loc[density["x"] < support, "x"].max()  # the edge lies in (left, support]
    edges = histogram_edges(density["x"].min(), density["x"].max(), left, bins)
    for key, name in (("F", "sigma_f"), ("G", "sigma_g")):
        ax = axes[key]
        colour = COVARIANCE_COLOURS[name]
        spectrum = select(frame[frame["covariance"] == name], "data", "eigenvalue")
        draws = spectrum["draw"].nunique()
        zoom = ax.inset_axes(INSET)
        for target in (ax, zoom):
            sns.histplot(
                data=spectrum, x="x", stat="density", bins=edges, color=colour, alpha=0.6, lw=0,
                ax=target, label=f"eigenvalues, {draws} draws",
            )  # fmt: skip
            target.plot(density["x"], density["y"], color=THEORY_COLOUR, lw=1.0,
                        label=r"$\rho = a + b\,\mathrm{MP}_c$")  # fmt: skip
        width = edges[1] - edges[0]
        zoom.set_xlim(left - width, left + INSET_BINS * width)
        zoom.set(xlabel="", ylabel="")
        zoom.set_title(r"left edge of $\rho$", pad=2)
        ax.axvline(rho_edge, color=THEORY_COLOUR, lw=0.8, ls=LINE_STYLES["edge or threshold"],
                   label=r"edge of $\rho$")  # fmt: skip
        largest = top[(top["covariance"] == name) & (top["ell"] == ell) & (top["rank"] == 0)]
        ax.plot(
            largest["x"], 0 * largest["x"], ls="none", marker="|", ms=8, mew=1.0, color=colour,
            clip_on=False, label=r"$\lambda_{\max}$ of each draw",
        )  # fmt: skip
        ax.set_xlabel("population eigenvalue")
        ax.set_ylabel("density" if name == "sigma_f" else "")
        ax.set_title(f"{COVARIANCE_TEX[name]} at $\\ell = {ell}$")
        mass = atom["y"].iloc[0]
        place_legend(ax, frameon=False, prefer="upper right",
                     title=f"atom {mass:.3g} at $a$" if mass > 0 else None)  # fmt: skip

    top_ax = axes["T"]
    last = top[top["ell"] == ell]
    for offset, name, marker in ((0.15, "sigma_f", "o"), (-0.15, "sigma_g", "s")):
        colour = COVARIANCE_COLOURS[name]
        mine = last[last["covariance"] == name]
        sns.scatterplot(
            data=mine.assign(draw=mine["draw"] + offset), x="y", y="draw", marker=marker,
            s=9, fc=colour if name == "sigma_f" else "white", ec=colour, linewidth=0.8,
            legend=False, ax=top_ax,
        )  # fmt: skip
    shown = int(last["rank"].max()) + 1
    _tracy_widom_references(top_ax, at_largest["tw1_mean"], at_largest["tw1_q99"])
    draws = int(last["draw"].max()) + 1
    top_ax.set_xlabel(r"$(\lambda - \mathrm{edge\ of}\ \rho)\,/\,s$")
    top_ax.set_ylabel("draw")
    top_ax.set_yticks(range(draws))
    top_ax.set_title(rf"top eigenvalues, $s = {at_largest['tw_scale']:.3g}$")
    top_ax.set_ylim(-0.5, draws - 0.5)

    trend_ax = axes["L"]
    largest = top[top["rank"] == 0]
    as_band = banded(largest, ["covariance", "ell"])
    handles = [Line2D([], [], label=r"edge of $\rho$", **REFERENCE_STYLES["edge"])]
    for series, label in (
        ("tw1_mean", r"$\mathbb{E}[TW_1]$ of $\lambda_{\max}(\Sigma_G)$"),
        ("tw1_q99", r"its 99th percentile"),
    ):
        line = reference[reference["series"] == series]
        trend_ax.plot(line["ell"], line["y"], **REFERENCE_STYLES[series])
        handles.append(Line2D([], [], label=label, **REFERENCE_STYLES[series]))
    trend_ax.axhline(0.0, **REFERENCE_STYLES["edge"])
    for name in COVARIANCES:
        colour = COVARIANCE_COLOURS[name]
        _draws_and_medians(
            trend_ax, largest[largest["covariance"] == name], "y", colour, as_band, SHIFTS[name]
        )
        handles.append(_median_key(colour, rf"$\lambda_{{\max}}$({COVARIANCE_TEX[name]})"))
    for name, marker, face in (("sigma_f", "o", None), ("sigma_g", "s", "white")):
        handles.append(
            Line2D([], [], ls="none", marker=marker, ms=3, mfc=face,
                   color=COVARIANCE_COLOURS[name],
                   label=f"(c) largest {shown} of {COVARIANCE_TEX[name]}")
        )  # fmt: skip
    ell_axis(trend_ax, largest["ell"])
    trend_ax.set_ylabel(r"$(\lambda_{\max} - \mathrm{edge\ of}\ \rho)\,/\,s_\ell$")
    trend_ax.set_title(r"largest eigenvalue in Tracy–Widom units $s_\ell$")
    low, high = trend_ax.get_ylim()
    trend_ax.set_ylim(low, high + 0.5 * (high - low))
    trend_ax.legend(handles=handles, frameon=False, loc="upper center", ncols=3,
                    title=_spread_text(as_band))  # fmt: skip

    ks_ax = axes["K"]
    distances = select(frame, "statistic", "kolmogorov")
    sns.lineplot(
        data=distances, x="ell", y="y", hue="covariance", palette=COVARIANCE_COLOURS,
        hue_order=list(COVARIANCES), estimator=None, marker="o", ms=3.5, mec=None,
        legend=False, ax=ks_ax,
    )  # fmt: skip
    ell_axis(ks_ax, distances["ell"])
    log_axis(ks_ax.yaxis)
    ks_ax.set_ylabel(r"$\sup_x |F_{\mathrm{pooled}}(x) - F_\rho(x)|$")
    ks_ax.set_title(r"Kolmogorov distance to $\rho$")
    ks_ax.legend(
        handles=[Line2D([], [], color=COVARIANCE_COLOURS[n], marker="o", ms=3.5,
                        label=COVARIANCE_TEX[n]) for n in COVARIANCES],
        frameon=False, loc="center right",
    )  # fmt: skip
    label_panels(axes[key] for key in "FGTLK")
    settle_legends(figure)
    return figure


def _tracy_widom_references(ax, mean: float, q99: float) -> None:
    """Vertical lines at the edge of rho (0) and the finite-ell Tracy–Widom mean and 99th
    percentile of Sigma_G's top eigenvalue in units of s (:data:`REFERENCE_STYLES`)."""
    for value, series in ((0.0, "edge"), (mean, "tw1_mean"), (q99, "tw1_q99")):
        ax.axvline(value, **REFERENCE_STYLES[series])
