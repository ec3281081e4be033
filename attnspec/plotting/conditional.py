"""Figures B5 and B6 (paper B, claim B.3), drawn with seaborn from their tidy tables: the
conditional covariances Sigma_f and Sigma_G given K.

Each function takes the figure's plotted table (a pandas DataFrame with the columns of
:mod:`attnspec.experiments.conditional_plotted`'s ``*_PLOTTED_HEADER``, exactly the figure's
CSV) and the labels read from the claims table; nothing here computes a result.
- B5: (a) E_ell(Sigma_f) and E_ell(Sigma_G) against ell (log axis): every draw, the median over
  draws with its 10-90 % bars (from at least BAND_MIN_DRAWS draws), x_+ and each covariance's
  B.3 verdict label; (b) |E_ell - x_+| on log-log axes with the fitted power laws and their
  95 % intervals.
- B6: histograms (stat="density") of the pooled spectra at the largest ell against
  rho = a + b MP_c, the largest eigenvalues against the edge of rho in Tracy–Widom units, and
  the trends in ell of lambda_max (as in B5) and of the Kolmogorov distance to rho.
Theory curves, reference lines and labels are matplotlib on the seaborn axes.
"""

from collections.abc import Mapping

import pandas as pd
import seaborn as sns
from matplotlib import pyplot as plt
from matplotlib.lines import Line2D

from attnspec.experiments.conditional import COVARIANCES
from attnspec.experiments.sticking_summary import Rate
from attnspec.plotting.sticking import DOT, banded, numeric
from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    PALETTE,
    THEORY_COLOUR,
    apply_style,
    log_axis,
)

COVARIANCE_COLOURS = {"sigma_f": PALETTE[0], "sigma_g": PALETTE[1]}
COVARIANCE_TEX = {"sigma_f": r"$\Sigma_f$", "sigma_g": r"$\Sigma_G$"}
# The two covariances are drawn slightly apart in ell (multiplicative shift) for legibility.
SHIFTS = {"sigma_f": 0.97, "sigma_g": 1.03}


def _draws_and_medians(ax, data: pd.DataFrame, y: str, colour, as_band: bool, shift: float):
    """Every draw as a small dot and the median over draws as an open circle, with its
    10-90 % bars when every point has BAND_MIN_DRAWS draws (seaborn), at ell * ``shift``."""
    data = data.assign(ell=data["ell"] * shift)
    sns.scatterplot(data=data, x="ell", y=y, color=colour, alpha=0.5, ax=ax, **{**DOT, "s": 9})
    bars = {"errorbar": BAND, "err_style": "bars", "err_kws": {"capsize": 2, "lw": 0.9}}
    sns.lineplot(
        data=data, x="ell", y=y, estimator="median", ls="none", marker="o", ms=4.5,
        mfc="white", mec=colour, color=colour, ax=ax, **(bars if as_band else {"errorbar": None}),
    )  # fmt: skip


def _spread_text(as_band: bool) -> str:
    if as_band:
        return "circles = medians, bars = 10–90 %"
    return f"circles = medians (fewer than {BAND_MIN_DRAWS} draws: no bars)"


def _median_key(colour, label: str) -> Line2D:
    return Line2D([], [], ls="none", marker="o", ms=4.5, mfc="white", color=colour, label=label)


def _log2_axis(ax) -> None:
    ax.set_xscale("log", base=2)


def plot_conditional_edges(
    frame: pd.DataFrame,
    labels: Mapping[str, str],
    rates: Mapping[str, Rate],
    *,
    beta: float,
    ratio: float,
):
    """Figure B5 from its tidy table at (``beta``, ``ratio``); ``labels`` maps a covariance
    name (:data:`attnspec.experiments.conditional.COVARIANCES`) to its verdict label, ``rates``
    to the fitted power law of |E_ell - x_+| (slope and 95 % interval in the legend)."""
    apply_style()
    figure, axes = plt.subplots(1, 2, figsize=(9.0, 3.6), layout="constrained")
    edge_ax, gap_ax = axes
    as_band = banded(frame, ["covariance", "ell"])
    x_plus = frame["x_plus"].iloc[0]
    edge_handles = [Line2D([], [], color=THEORY_COLOUR, lw=1.4, label=rf"$x_+ = {x_plus:.4f}$")]
    gap_handles, fit_handles = [], []
    for name in COVARIANCES:
        colour = COVARIANCE_COLOURS[name]
        data = frame[frame["covariance"] == name]
        _draws_and_medians(edge_ax, data, "edge", colour, as_band, SHIFTS[name])
        _draws_and_medians(gap_ax, data, "abs_gap", colour, as_band, SHIFTS[name])
        fit = data.drop_duplicates("ell")
        rate = rates[name]
        gap_ax.plot(fit["ell"], fit["abs_gap_fit"], color=colour, lw=0.9, ls="--")
        edge_handles.append(
            _median_key(colour, rf"$E_\ell$({COVARIANCE_TEX[name]}): {labels[name]}")
        )
        gap_handles.append(_median_key(colour, COVARIANCE_TEX[name]))
        fit_handles.append(
            Line2D([], [], color=colour, lw=0.9, ls="--",
                   label=rf"fit $\propto \ell^{{{rate.slope:.2f}}}$, [{rate.low:.2f}, "
                   rf"{rate.high:.2f}] (95 %)")
        )  # fmt: skip
    edge_ax.axhline(x_plus, color=THEORY_COLOUR, lw=1.4)
    edge_ax.set_ylabel(
        r"$E_\ell(\Sigma) = \inf_{u>\|\Sigma\|} u^2\,\frac{1}{\ell}\mathrm{tr}(u-\Sigma)^{-1}$"
    )
    edge_ax.set_title(r"(a) finite deformed-MP edges against $x_+$")
    edge_ax.legend(handles=edge_handles, frameon=False, fontsize=6.5, loc="upper right")
    # Log scale only after seaborn has taken the medians (it would take them of the logs).
    log_axis(gap_ax.yaxis)
    gap_ax.set_ylabel(r"$|E_\ell(\Sigma) - x_+|$")
    gap_ax.set_title(r"(b) distance to $x_+$ (log–log) with least-squares power laws")
    gap_ax.legend(
        handles=fit_handles + gap_handles, frameon=False, fontsize=6.5, loc="lower left", ncols=2
    )
    for ax in axes:
        _log2_axis(ax)
        ax.set_xlabel(
            r"$\ell$ ($= d_{qk}$)" if ratio == 1 else rf"$\ell$ ($d_{{qk}} = \ell / {ratio:g}$)"
        )
    figure.suptitle(
        rf"Conditional covariances given $K$, $\beta = {beta:g}$, $c = {ratio:g}$: "
        f"dots = draws, {_spread_text(as_band)}",
        fontsize=9,
    )
    return figure


def plot_population(frame: pd.DataFrame, *, beta: float, ratio: float, bins: int):
    """Figure B6 from its tidy table (``bins`` histogram bins over the range of rho's density
    curve, which spans every eigenvalue).

    Top: pooled spectra of Sigma_f and Sigma_G with the density of rho and its edge; the
    largest eigenvalues of every draw at the largest ell, in units of the Tracy–Widom scale s
    from the edge of rho. Bottom: (lambda_max - edge) / s against ell; the Kolmogorov distance
    of the pooled spectrum to rho against ell.
    """
    apply_style()
    frame = numeric(frame, "ell", "draw", "rank", "x", "y")
    figure = plt.figure(figsize=(10.0, 6.4), layout="constrained")
    axes = figure.subplot_mosaic("FGT;LLK")
    density = frame[(frame["panel"] == "rho") & (frame["series"] == "density")]
    atom = frame[(frame["panel"] == "rho") & (frame["series"] == "atom")]
    reference = frame[frame["panel"] == "reference"]
    top = frame[frame["panel"] == "top"]
    ell = int(frame["ell"].max())
    at_largest = reference[reference["ell"] == ell].set_index("series")["y"]
    for key, name in (("F", "sigma_f"), ("G", "sigma_g")):
        ax = axes[key]
        spectrum = frame[(frame["panel"] == "spectrum") & (frame["covariance"] == name)]
        draws = spectrum["draw"].nunique()
        sns.histplot(
            data=spectrum, x="x", stat="density", bins=bins,
            binrange=(density["x"].min(), density["x"].max()), color=COVARIANCE_COLOURS[name],
            alpha=0.55, lw=0, ax=ax, label=f"eigenvalues of {COVARIANCE_TEX[name]}, {draws} draws",
        )  # fmt: skip
        ax.plot(density["x"], density["y"], color=THEORY_COLOUR, lw=1.3,
                label=r"$\rho = a + b\,\mathrm{MP}_c$")  # fmt: skip
        ax.axvline(at_largest["rho_edge"], color=THEORY_COLOUR, lw=0.8, ls=":",
                   label="edge of $\\rho$")  # fmt: skip
        largest = top[(top["covariance"] == name) & (top["ell"] == ell) & (top["rank"] == 0)]
        ax.plot(
            largest["x"], 0 * largest["x"], ls="none", marker="|", ms=12, mew=1.2,
            color="black", clip_on=False, label=r"$\lambda_{\max}$ per draw",
        )  # fmt: skip
        if atom["y"].iloc[0] > 0:
            ax.text(0.02, 0.95, f"atom {atom['y'].iloc[0]:.3g} at $a$", transform=ax.transAxes,
                    fontsize=6.5, va="top")  # fmt: skip
        ax.set_xlabel("population eigenvalue")
        ax.set_ylabel("density")
        ax.set_title(
            f"({'a' if name == 'sigma_f' else 'b'}) {COVARIANCE_TEX[name]} at $\\ell = {ell}$"
        )
        ax.legend(frameon=False, fontsize=6.5, loc="upper right")

    top_ax = axes["T"]
    last = top[top["ell"] == ell]
    for offset, name, marker in ((0.15, "sigma_f", "o"), (-0.15, "sigma_g", "s")):
        colour = COVARIANCE_COLOURS[name]
        mine = last[last["covariance"] == name]
        sns.scatterplot(
            data=mine.assign(draw=mine["draw"] + offset), x="y", y="draw", marker=marker,
            s=12.25, fc=colour if name == "sigma_f" else "white", ec=colour, linewidth=1,
            legend=False, ax=top_ax,
        )  # fmt: skip
    shown = int(last["rank"].max()) + 1
    handles = [
        Line2D([], [], ls="none", marker="o", ms=3.5, color=COVARIANCE_COLOURS["sigma_f"],
               label=f"largest {shown} of {COVARIANCE_TEX['sigma_f']}"),
        Line2D([], [], ls="none", marker="s", ms=3.5, mfc="white",
               color=COVARIANCE_COLOURS["sigma_g"],
               label=f"largest {shown} of {COVARIANCE_TEX['sigma_g']}"),
    ]  # fmt: skip
    handles += _tracy_widom_references(top_ax, at_largest["tw1_mean"], at_largest["tw1_q99"])
    draws = int(last["draw"].max()) + 1
    top_ax.set_xlabel(r"$(\lambda - \mathrm{edge\ of}\ \rho)\,/\,s$")
    top_ax.set_ylabel("draw")
    top_ax.set_yticks(range(draws))
    top_ax.set_title(rf"(c) top eigenvalues at $\ell = {ell}$, $s = {at_largest['tw_scale']:.3g}$")
    top_ax.set_ylim(-0.5, draws + 0.6)
    top_ax.legend(handles=handles, frameon=False, fontsize=6, loc="upper left", ncols=3)

    trend_ax = axes["L"]
    largest = top[top["rank"] == 0]
    as_band = banded(largest, ["covariance", "ell"])
    handles = []
    for name in COVARIANCES:
        colour = COVARIANCE_COLOURS[name]
        _draws_and_medians(
            trend_ax, largest[largest["covariance"] == name], "y", colour, as_band, SHIFTS[name]
        )
        handles.append(_median_key(colour, rf"$\lambda_{{\max}}$({COVARIANCE_TEX[name]})"))
    trend_ax.axhline(0.0, color=THEORY_COLOUR, lw=1.0)
    for series, ls, label in (
        ("tw1_mean", "--", r"$\Sigma_G$: $\mathbb{E}[TW_1]$"),
        ("tw1_q99", ":", r"$\Sigma_G$: $TW_1$ 99th percentile"),
    ):
        line = reference[reference["series"] == series]
        trend_ax.plot(line["ell"], line["y"], color="0.3", lw=0.8, ls=ls)
        handles.append(Line2D([], [], color="0.3", lw=0.8, ls=ls, label=label))
    handles.insert(0, Line2D([], [], color=THEORY_COLOUR, lw=1.0, label="edge of $\\rho$"))
    _log2_axis(trend_ax)
    trend_ax.set_xlabel(r"$\ell$")
    trend_ax.set_ylabel(r"$(\lambda_{\max} - \mathrm{edge\ of}\ \rho)\,/\,s_\ell$")
    trend_ax.set_title(
        r"(d) largest eigenvalue in Tracy–Widom units $s_\ell \propto \ell^{-2/3}$"
        r" (an outlier would grow like $\ell^{2/3}$)"
    )
    low, high = trend_ax.get_ylim()
    trend_ax.set_ylim(low, high + 0.35 * (high - low))
    trend_ax.legend(handles=handles, frameon=False, fontsize=6.5, ncols=3, loc="upper right")

    ks_ax = axes["K"]
    distances = frame[frame["panel"] == "kolmogorov"]
    sns.lineplot(
        data=distances, x="ell", y="y", hue="covariance", palette=COVARIANCE_COLOURS,
        hue_order=list(COVARIANCES), estimator=None, marker="o", ms=4, mec=None, ax=ks_ax,
    )  # fmt: skip
    _log2_axis(ks_ax)
    log_axis(ks_ax.yaxis)
    ks_ax.set_xlabel(r"$\ell$")
    ks_ax.set_ylabel(r"$\sup_x |F_{\mathrm{pooled}}(x) - F_\rho(x)|$")
    ks_ax.set_title(r"(e) Kolmogorov distance to $\rho$")
    ks_ax.legend(
        handles=[Line2D([], [], color=COVARIANCE_COLOURS[n], marker="o", ms=4,
                        label=COVARIANCE_TEX[n]) for n in COVARIANCES],
        frameon=False, fontsize=6.5,
    )  # fmt: skip
    figure.suptitle(
        rf"Population spectra given $K$ against $\rho = a + b\,\mathrm{{MP}}_c$, "
        rf"$\beta = {beta:g}$, $c = {ratio:g}$ ($s_\ell$: Tracy–Widom scale of "
        r"$\lambda_{\max}(\Sigma_G)$)",
        fontsize=9,
    )
    return figure


def _tracy_widom_references(ax, mean: float, q99: float) -> list:
    """Vertical lines at the edge of rho (0) and the finite-ell Tracy–Widom mean and 99th
    percentile of Sigma_G's top eigenvalue in units of s; their legend entries."""
    styles = (
        (0.0, {"color": THEORY_COLOUR, "lw": 1.0}, "edge of $\\rho$"),
        (mean, {"color": "0.3", "lw": 0.8, "ls": "--"}, r"$\mathbb{E}[TW_1]$"),
        (q99, {"color": "0.3", "lw": 0.8, "ls": ":"}, r"$TW_1$ 99 %"),
    )
    handles = []
    for value, style, label in styles:
        ax.axvline(value, **style)
        handles.append(Line2D([], [], label=label, **style))
    return handles
