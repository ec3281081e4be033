"""Figures C1-C4 (paper C, spectral degeneration), drawn with seaborn from their tidy tables.

Each function takes the figure's plotted table (a pandas DataFrame with the columns of
:mod:`attnspec.experiments.degeneration_summary`'s ``*_PLOTTED_HEADER``, exactly the figure's
CSV) and the judged claims-table rows it shows; nothing here computes a result. Bands are
seaborn's 10-90 % percentile interval of the draws (:data:`BAND`) where every point has at least
:data:`BAND_MIN_DRAWS` draws, else the draws themselves; theory curves, reference lines,
annotations and the verdict footer are matplotlib on the seaborn axes.
"""

import textwrap
from collections.abc import Mapping, Sequence

import matplotlib
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from attnspec.dashboard import verdict_label
from attnspec.experiments.degeneration_summary import (
    ASYMPTOTIC_CAUSAL_SLOPE,
    ATTENTION,
    ISOTROPIC_ATTENTION,
    SCORES,
    SPIKE_DIAGONAL,
    SPIKE_TIED,
    fit_line,
    numeric,
)
from attnspec.experiments.gaussian_stable_rank import reference_slope
from attnspec.models.softmax import MASKS
from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    PALETTE,
    REFERENCE_COLOUR,
    THEORY_COLOUR,
    apply_style,
    log_axis,
    new_figure,
)

MASK_COLOURS = {"none": REFERENCE_COLOUR, "bidirectional": PALETTE[0], "causal": PALETTE[1]}
PROFILE_MARKERS = {"zeros": "s", "iid": "o", "gaussian": "^", "c = 1": "o"}
FLOOR = 1e-12
"""Singular values below this (exact zeros to rounding) are drawn at the floor in C1."""
FOOTER_CHARACTERS_PER_INCH = 17
"""Characters of the 6.5 pt verdict footer per inch of figure width (for its line breaks)."""
BAND_STYLE = {"alpha": 0.2, "lw": 0}


def constrained(grid) -> None:
    """Hand a seaborn FacetGrid's figure to the constrained layout (room for the suptitle,
    outside legends and the verdict footer)."""
    grid.figure.set_layout_engine("constrained")


def footer_label(row: Mapping) -> str:
    """A row's footer label: :func:`attnspec.dashboard.verdict_label`, with the kind of a row
    that is not evidence (model, bound, identity) in brackets."""
    kind = row.get("kind", "empirical")
    return verdict_label(row) + ("" if kind == "empirical" else f" [{kind}]")


def add_verdicts(figure, rows: Sequence[Mapping]) -> None:
    """The judged rows' short labels (row id, verdict, fragility, the kind of a row that is not
    evidence) as a footer below the axes, which the constrained layout keeps clear (rows of
    ``{results}/paperC/claims.csv``; the figure computes no verdict)."""
    if not rows:
        return
    width, height = figure.get_size_inches()
    text = "Verdicts: " + "; ".join(footer_label(row) for row in rows)
    lines = textwrap.wrap(text, int(FOOTER_CHARACTERS_PER_INCH * width))
    share = (len(lines) * 6.5 * 1.3 / 72 + 0.08) / height
    figure.get_layout_engine().set(rect=(0.0, share, 1.0, 1.0 - share))
    figure.text(0.01, 0.01, "\n".join(lines), fontsize=6.5, ha="left", va="bottom")


def size_palette(sizes) -> dict:
    """One viridis colour per n (evenly spaced in the order of the sizes)."""
    sizes = sorted(set(sizes))
    colours = matplotlib.colormaps["viridis"](np.linspace(0.0, 0.85, len(sizes)))
    return dict(zip(sizes, map(tuple, colours), strict=True))


def median_over_draws(ax, data, *, x, y, colour, marker="o", ls="-", label=None, **kwargs):
    """The median of ``y`` over draws against ``x`` (seaborn), with the 10-90 % band when every
    x has at least BAND_MIN_DRAWS draws, else every draw as a small marker."""
    draws = data.groupby(x)[y].count()
    banded = draws.min() >= BAND_MIN_DRAWS
    options = {"ms": 3.5, "lw": 1.1, "err_kws": BAND_STYLE} | kwargs
    sns.lineplot(
        data=data, x=x, y=y, estimator="median", errorbar=BAND if banded else None,
        color=colour, marker=marker, mec=colour, ls=ls, label=label, ax=ax, **options,
    )  # fmt: skip
    if not banded and draws.max() > 1:
        ax.plot(data[x], data[y], ls="none", marker=".", ms=2.5, color=colour, alpha=0.6)


# C1 ---------------------------------------------------------------------------------------
MATRIX_DASHES = {SCORES: "", ATTENTION: "", ISOTROPIC_ATTENTION: (4, 2)}
MATRIX_LABELS = {
    SCORES: r"$S=\mathrm{diag}(\sigma)$",
    ATTENTION: "A",
    ISOTROPIC_ATTENTION: r"softmax$(U\Sigma V^T)$",
}


def plot_spectra(frame: pd.DataFrame, *, n: int, spikes: int, kappa: float, verdicts=()):
    """C1: every singular value of S = diag(sigma) and of A (bidirectional, causal) against
    the rank, one panel per bulk profile (seaborn ``relplot``); the isotropic
    softmax(U Sigma V^T) dashed in its profile's panel."""
    apply_style()
    frame = numeric(frame, "rank", "singular_value")
    frame["drawn"] = np.maximum(frame["singular_value"], FLOOR)
    profiles = list(dict.fromkeys(frame["profile"]))
    grid = sns.relplot(
        data=frame, kind="line", x="rank", y="drawn", col="profile", col_order=profiles,
        hue="mask", palette=MASK_COLOURS, style="matrix", dashes=MATRIX_DASHES,
        estimator=None, lw=1.2, legend=False, height=3.2, aspect=1.03,
    )  # fmt: skip
    constrained(grid)
    for profile, ax in grid.axes_dict.items():
        ax.axvline(spikes + 1, color="0.6", lw=0.7, ls=":")
        ax.axhline(1.0, color="0.6", lw=0.7, ls=":")
        log_axis(ax.xaxis)
        log_axis(ax.yaxis)
        ax.set(xlabel="rank $k$", title=f"bulk profile: {profile}")
        ax.set_ylim(FLOOR / 3, None)
        shown = frame.loc[frame["profile"] == profile, ["matrix", "mask"]].drop_duplicates()
        handles = []
        for matrix, mask in shown.itertuples(index=False):
            label = MATRIX_LABELS[matrix] + ("" if matrix == SCORES else f", {mask}")
            style = "--" if matrix == ISOTROPIC_ATTENTION else "-"
            handles.append(Line2D([], [], color=MASK_COLOURS[mask], ls=style, lw=1.2, label=label))
        ax.legend(handles=handles, frameon=False, loc="lower left", fontsize=6)
    grid.set_ylabels("singular value $s_k$")
    grid.figure.suptitle(
        f"Canonical model, n = {n}: {spikes} spikes $\\sigma = {kappa:g}\\,\\log n$ survive the "
        f"softmax ($s_k(A)\\approx 1$, $k \\leq {spikes + 1}$), the bulk collapses "
        f"(values < {FLOOR:g} drawn at {FLOOR:g}); the isotropic model loses them",
        fontsize=9,
    )
    add_verdicts(grid.figure, verdicts)
    return grid.figure


# C2 ---------------------------------------------------------------------------------------
STATISTIC_STYLES = {"median": "-", "0.9 quantile": ":"}


def plot_bulk(frame: pd.DataFrame, *, spikes: int, verdicts=()):
    """C2: the bulk distribution function of n s_k(A) for every n, one panel per profile and
    mask (seaborn ``ecdfplot`` of the grid points weighted by their bulk shares), and the median
    and 0.9 quantile of s_k(A) over draws against n (last column, seaborn ``lineplot``)."""
    apply_style()
    frame = numeric(frame, "n", "draw", "x", "y")
    profiles = list(dict.fromkeys(frame["profile"]))
    figure, axes = new_figure(len(profiles), 3, width=11.0, height=2.9 * len(profiles))
    distribution = frame[frame["panel"] == "distribution"]
    palette = size_palette(distribution["n"].astype(int))
    for row, profile in enumerate(profiles):
        for col, mask in enumerate(MASKS):
            ax = axes[row, col]
            panel = distribution[
                (distribution["profile"] == profile) & (distribution["mask"] == mask)
            ]
            # the weights are shares of the whole bulk: their running sum ("count") is F(x),
            # below 1 at the grid's end when bulk values lie beyond it
            sns.ecdfplot(
                data=panel.astype({"n": int}), x="x", weights="y", stat="count", hue="n",
                palette=palette, lw=1.1, legend=False, ax=ax,
            )  # fmt: skip
            limit = frame[
                (frame["panel"] == "limit")
                & (frame["profile"] == profile)
                & (frame["mask"] == mask)
            ]
            if len(limit):
                ax.plot(limit["x"], limit["y"], color=THEORY_COLOUR, ls="--", lw=1.1)
                label = r"limit $|e^{\beta\xi}-1|$"
                handle = Line2D([], [], color=THEORY_COLOUR, ls="--", label=label)
                ax.legend(handles=[handle], frameon=False, loc="upper left", fontsize=6)
            if profile == "zeros" and mask == "bidirectional":
                ax.text(
                    0.5, 0.5, "bulk exactly 0 (rank r + 1):\nF = 1 for every x > 0",
                    transform=ax.transAxes, ha="center", va="center",
                )  # fmt: skip
            log_axis(ax.xaxis)
            ax.set_xlim(panel["x"].min(), panel["x"].max())
            ax.set_ylim(-0.02, 1.02)
            ax.set(xlabel=r"$n\,s_k(A)$", ylabel="bulk distribution function")
            ax.set_title(f"{profile} bulk, {mask}")
        handles = [Line2D([], [], color=c, lw=1.1, label=f"n = {n}") for n, c in palette.items()]
        axes[row, 1].legend(handles=handles, frameon=False, loc="lower right", fontsize=6)
        _bulk_quantiles(axes[row, 2], frame, profile)
    figure.suptitle(
        f"Bulk singular values of A (all but the top {spikes + 1}) concentrate at 0 on the scale "
        "1/n: distribution of n s (exact inertia counts)",
        fontsize=9,
    )
    add_verdicts(figure, verdicts)
    return figure


def _bulk_quantiles(ax, frame: pd.DataFrame, profile: str) -> None:
    """Median and 0.9 quantile of the bulk s against n over draws, with the 1/n guide."""
    quantiles = frame[(frame["panel"] == "quantiles") & (frame["profile"] == profile)]
    resolved = quantiles.groupby("mask", sort=False)["y"].transform(lambda y: y.notna().all())
    quantiles = quantiles[resolved.astype(bool)]
    for (mask, statistic), data in quantiles.groupby(["mask", "statistic"], sort=False):
        median_over_draws(
            ax, data, x="n", y="y", colour=MASK_COLOURS[mask], ls=STATISTIC_STYLES[statistic],
            label=f"{statistic}, {mask}",
        )  # fmt: skip
    guide = frame[(frame["panel"] == "guide") & (frame["profile"] == profile)]
    if len(guide):
        ax.plot(guide["n"], guide["y"], color="0.5", lw=0.8, ls="--", label=r"$\propto 1/n$")
        ax.legend(frameon=False, fontsize=6, loc="upper left", bbox_to_anchor=(1.02, 1.0))
    else:
        ax.text(
            0.5, 0.5, "bulk exactly 0\n(rank r + 1)", transform=ax.transAxes, ha="center",
            va="center",
        )  # fmt: skip
    # log scales only after seaborn's medians and bands (it would take them of the logs)
    log_axis(ax.xaxis)
    log_axis(ax.yaxis)
    ax.set(xlabel="n", ylabel="bulk singular value $s$")
    ax.set_title(f"{profile} bulk: quantiles against n")


# C3 ---------------------------------------------------------------------------------------
def _fit_label(data: pd.DataFrame) -> str:
    """The legend text of an OLS fit of the stable rank on log n over every (n, draw)."""
    fit = fit_line(np.log(data["n"]), data["value"])
    low, high = fit.interval()
    return f"OLS slope {fit.slope:.3f} [{low:.3f}, {high:.3f}] per log n"


def _draws_with_fit(ax, data: pd.DataFrame, *, label: str, marker: str = "o") -> None:
    """Median over draws with its band (or the draws) and, causal, seaborn's OLS fit on log n."""
    mask = data["mask"].iloc[0]
    median_over_draws(
        ax, data, x="n", y="value", colour=MASK_COLOURS[mask], marker=marker, label=label
    )
    if mask == "causal" and data["n"].nunique() > 1:
        sns.regplot(
            data=data, x="n", y="value", logx=True, scatter=False, ci=None,
            color=MASK_COLOURS[mask], line_kws={"lw": 0.7, "ls": "--"}, label=_fit_label(data),
            ax=ax,
        )  # fmt: skip


def plot_stable_rank(frame: pd.DataFrame, *, spikes: int, beta: float, verdicts=()):
    """C3: (a) canonical srank against n, bidirectional approaching r + 1 like
    (r + 1) / (1 + sqrt(r / n)), causal growing like log n with its OLS fit, the Cesaro
    reference and the isotropic model; (b) the Gaussian model with its derived references;
    (c) the Cesaro norm -> 2 and ||C_n||_F^2 = H_n. Medians with 10-90 % bands over >= 10 draws
    (fewer: every draw), seaborn ``lineplot`` and ``regplot``."""
    apply_style()
    frame = numeric(frame, "n", "draw", "value")
    draws = frame[frame["draw"].notna()]
    figure, axes = new_figure(1, 3, width=11.5, height=5.2)
    ax = axes[0, 0]
    canonical = draws[draws["model"] == "canonical"]
    for (mask, profile), data in canonical.groupby(["mask", "profile"], sort=False):
        label = f"{mask}, {profile} bulk"
        _draws_with_fit(ax, data, label=label, marker=PROFILE_MARKERS[profile])
    isotropic = draws[draws["model"] == "isotropic"]
    for mask, data in isotropic.groupby("mask", sort=False):
        median_over_draws(
            ax, data, x="n", y="value", colour=MASK_COLOURS[mask], marker="x", ls="none", ms=6,
            mew=1.0, err_style="bars", err_kws={"elinewidth": 0.9},
        )  # fmt: skip
    cesaro = frame[frame["model"] == "cesaro"].pivot(index="n", columns="quantity", values="value")
    ax.plot(cesaro.index, cesaro["stable_rank"], color=REFERENCE_COLOUR, lw=1.0)
    ax.plot(cesaro.index, cesaro["harmonic_number"] / 4, color=REFERENCE_COLOUR, lw=0.8, ls=":")
    ax.axhline(spikes + 1, color=THEORY_COLOUR, lw=0.9, ls="--")
    approach = frame[(frame["model"] == "canonical") & (frame["profile"] == "derived")]
    ax.plot(approach["n"], approach["value"], color=THEORY_COLOUR, lw=0.8, ls="-.")
    extra = [
        Line2D([], [], color=MASK_COLOURS[m], marker="x", ms=6, ls="none",
               label=rf"softmax$(U\Sigma V^T)$, {m}")
        for m in dict.fromkeys(isotropic["mask"])
    ] + [
        Line2D([], [], color=REFERENCE_COLOUR, lw=1.0,
               label=r"Cesàro $H_n/\|C_n\|^2$ ($\beta=0$, no spike)"),
        Line2D([], [], color=REFERENCE_COLOUR, lw=0.8, ls=":",
               label=r"$H_n/4$ (Hardy: $\|C_n\|\to 2$)"),
        Line2D([], [], color=THEORY_COLOUR, lw=0.9, ls="--", label=f"limit r + 1 = {spikes + 1}"),
        Line2D([], [], color=THEORY_COLOUR, lw=0.8, ls="-.",
               label=r"derived $(r+1)/(1+\sqrt{r/n})$"),
    ]  # fmt: skip
    handles = ax.get_legend_handles_labels()[0] + extra
    ax.set_xscale("log", base=2)
    ax.set(xlabel="n", ylabel=r"stable rank $\|A\|_F^2/\|A\|^2$", title="canonical model diag(σ)")
    ax.legend(
        handles=handles, frameon=False, fontsize=6, loc="upper center",
        bbox_to_anchor=(0.5, -0.16), ncol=2,
    )  # fmt: skip
    _gaussian_panel(axes[0, 1], frame, draws, beta)
    _cesaro_panel(axes[0, 2], cesaro)
    figure.suptitle(
        "Stable rank: bounded for bidirectional attention, growing like log n for causal "
        f"(Cesàro asymptotic slope {ASYMPTOTIC_CAUSAL_SLOPE:g}; Gaussian model: derived "
        "finite-n reference)",
        fontsize=9,
    )
    add_verdicts(figure, verdicts)
    return figure


def _gaussian_panel(ax, frame: pd.DataFrame, draws: pd.DataFrame, beta: float) -> None:
    """C3 (b): the Gaussian model's draws, OLS fit and derived references, its limit."""
    for mask, data in draws[draws["model"] == "gaussian"].groupby("mask", sort=False):
        _draws_with_fit(ax, data, label=mask)
    derived = frame[(frame["model"] == "gaussian") & (frame["profile"] == "derived")]
    texts = {"bidirectional": r"derived $E\|A\|_F^2/(1+\theta_1/n+\beta^4/2d)$"}
    for mask, curve in derived.groupby("mask", sort=False):
        text = texts.get(mask)
        if text is None:
            slope = reference_slope(curve["n"], curve["value"])
            text = rf"derived $E\|A\|_F^2/\lambda_{{max}}(E AA^T)$, slope {slope:.3f}"
        style = "-." if mask == "causal" else ":"
        ax.plot(curve["n"], curve["value"], color=THEORY_COLOUR, lw=0.9, ls=style, label=text)
    limit = np.exp(beta**2)
    label = rf"limit $e^{{\beta^2}}$ = {limit:.3f}"
    ax.axhline(limit, color=THEORY_COLOUR, lw=0.9, ls="--", label=label)
    ax.set_xscale("log", base=2)
    ax.set(xlabel=r"$n = \ell = d_{qk}$", ylabel="stable rank")
    ax.set_title(rf"Gaussian model softmax$(\beta QK^T/\sqrt{{d_{{qk}}}})$, $\beta$ = {beta:g}")
    ax.legend(frameon=False, fontsize=6, loc="upper center", bbox_to_anchor=(0.5, -0.16))


def _cesaro_panel(ax, cesaro: pd.DataFrame) -> None:
    """C3 (c): ||C_n|| against its Hardy limit 2, with max_n | ||C_n||_F^2 - H_n |."""
    ax.plot(
        cesaro.index, cesaro["norm"], color=REFERENCE_COLOUR, marker="o", ms=3.5, lw=1.1,
        label=r"$\|C_n\|$ (Lanczos)",
    )  # fmt: skip
    ax.axhline(2.0, color=THEORY_COLOUR, lw=0.9, ls="--", label="Hardy limit 2")
    gap = np.max(np.abs(cesaro["frobenius_squared"] - cesaro["harmonic_number"]))
    ax.text(
        0.03, 0.8, rf"max$_n$ $|\|C_n\|_F^2 - H_n|$ = {gap:.1e}", transform=ax.transAxes,
        ha="left", va="top", fontsize=6.5,
    )  # fmt: skip
    ax.set_xscale("log", base=2)
    ax.set(xlabel="n", ylabel="operator norm", title=r"Cesàro matrix $C_n$: slow approach to 2")
    ax.legend(frameon=False, fontsize=6, loc="lower right")


# C4 ---------------------------------------------------------------------------------------
def plot_survival(frame: pd.DataFrame, *, spikes: int, profile: str, verdicts=()):
    """C4: mean over spikes and draws of the spike-tied singular values of A against kappa
    (spikes sigma = kappa log n) for every n, with the mean explicit diagonal A_pp dashed, one
    panel per mask (seaborn ``relplot``, then ``lineplot`` on its axes); transition near
    kappa = 1."""
    apply_style()
    frame = numeric(frame, "n", "kappa", "value").astype({"n": int})
    palette = size_palette(frame["n"])
    options = {"x": "kappa", "y": "value", "hue": "n", "palette": palette, "legend": False}
    options |= {"estimator": "mean", "errorbar": None}
    grid = sns.relplot(
        data=frame[frame["series"] == SPIKE_TIED], kind="line", col="mask", col_order=list(MASKS),
        marker="o", ms=3, mew=0, lw=1.1, height=3.3, aspect=1.2, **options,
    )  # fmt: skip
    constrained(grid)
    diagonal = frame[frame["series"] == SPIKE_DIAGONAL]
    for mask, ax in grid.axes_dict.items():
        sns.lineplot(data=diagonal[diagonal["mask"] == mask], lw=0.8, ls="--", ax=ax, **options)
        ax.axvline(1.0, color=THEORY_COLOUR, lw=0.9, ls=":")
        ax.set_xlabel(r"$\kappa$ (spikes $\sigma_p = \kappa \log n$)")
        ax.set_title(f"{mask}, {profile} bulk")
        ax.set_ylim(-0.03, 1.05)
    grid.set_ylabels(f"mean of the {spikes} spike-tied singular values")
    handles = [
        Line2D([], [], color=c, marker="o", ms=3, lw=1.1, label=f"n = {n}: spike-tied $s(A)$")
        for n, c in palette.items()
    ]
    handles += [
        Line2D([], [], color=THEORY_COLOUR, lw=0.9, ls=":", label=r"$\kappa = 1$"),
        Line2D([], [], color="0.4", lw=0.8, ls="--", label=r"explicit $A_{pp}$ (mean)"),
    ]
    grid.axes.flat[0].legend(handles=handles, frameon=False, fontsize=6, loc="upper left")
    grid.figure.suptitle(
        "Spike survival: the spike-tied singular values of A switch from 0 to 1 around "
        r"$\kappa = 1$, sharper as n grows (a lost spike counts as 0)",
        fontsize=9,
    )
    add_verdicts(grid.figure, verdicts)
    return grid.figure
