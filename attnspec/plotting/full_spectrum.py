"""Figure A2, drawn with seaborn from its tidy table (:data:`attnspec.experiments.full_spectrum.
FULL_SPECTRUM_PLOTTED_HEADER`): 2 x 2 panels on the full spectrum of sqrt(ell) A.

(a) sorted spectrum of one draw against the nu_inf quantiles; (b) ``sns.histplot`` of all draws'
values on log bins against the nu_inf expectation (the same bins, weighted by the expected
counts); (c) leading non-Perron values of every draw with the Tracy-Widom window and the spike
predictions; (d) localisation (ell IPR) of their singular vectors (open markers, matplotlib: the
left and right vectors overlap, and seaborn fills its markers).
"""

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from attnspec.plotting.style import (
    DATA_COLOUR,
    REFERENCE_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    log_axis,
    new_figure,
)

LEVEL_STYLES = {
    "perron_prediction": dict(color=REFERENCE_COLOUR, ls="--", lw=0.9),
    "x_plus": dict(color=THEORY_COLOUR, ls=":", lw=1.1),
    "mp_edge": dict(color=SURROGATE_COLOUR, ls="-.", lw=1.0),
}


def _level_labels(levels: pd.Series) -> dict:
    return {
        "perron_prediction": (
            rf"$\ell+\theta_1+\ell\beta^4/2d_{{qk}}$ = {levels['perron_prediction']:.2f}"
        ),
        "x_plus": rf"$x_+$ = {levels['x_plus']:.3f}",
        "mp_edge": rf"$4\theta_1$ = {levels['mp_edge']:.3f} (MP surrogate)",
    }


def _sorted_panel(ax, frame: pd.DataFrame, levels: pd.Series) -> None:
    spectrum = frame[(frame["series"] == "spectrum") & (frame["draw"] == 0)]
    sns.lineplot(data=spectrum, x="k", y="value", color=DATA_COLOUR, lw=1.4, label="draw 0", ax=ax)
    theory = frame[frame["series"] == "nu_inf_quantile"]
    ax.plot(
        theory["k"], theory["value"], color=THEORY_COLOUR, lw=1.0, ls="--",
        label=r"$\nu_\infty$ quantiles",
    )  # fmt: skip
    labels = _level_labels(levels)
    for name, style in LEVEL_STYLES.items():
        ax.axhline(levels[name], label=labels[name], **style)
    log_axis(ax.xaxis)
    log_axis(ax.yaxis)
    ax.set_xlabel("rank $k$")
    ax.set_ylabel(r"$\ell\, s_k(A)^2$")
    ax.set_title(f"(a) sorted spectrum, one draw: $\\ell s_1^2$ = {spectrum['value'].iloc[0]:.2f}")
    ax.legend(frameon=False, loc="lower left", fontsize=6.5)


def _histogram_panel(ax, frame: pd.DataFrame, levels: pd.Series) -> None:
    spectrum = frame[frame["series"] == "spectrum"]
    expected = frame[frame["series"] == "nu_inf_expected_count"]
    centres = np.log10(expected["x"].to_numpy())  # log bins: centres evenly spaced in log10
    half = (centres[1] - centres[0]) / 2
    bins = list(np.append(centres - half, centres[-1] + half))  # a list: seaborn compares
    # bins with "auto" when there are weights
    n_draws = spectrum["draw"].nunique()
    sns.histplot(
        data=spectrum, x="value", bins=bins, log_scale=True, element="step", color=DATA_COLOUR,
        alpha=0.6, lw=0, label="data", ax=ax,
    )  # fmt: skip
    sns.histplot(
        data=expected, x="x", weights="value", bins=bins, log_scale=True, element="step",
        fill=False, color=THEORY_COLOUR, lw=1.0,
        label=r"$\nu_\infty$: draws $\times(\ell-1)\times$ bin mass", ax=ax,
    )  # fmt: skip
    for name, style in LEVEL_STYLES.items():
        ax.axvline(levels[name], **style)
    perron = spectrum.loc[spectrum["k"] == 1, "value"]
    ax.annotate(
        f"{n_draws} Perron\nvalues", xy=(perron.mean(), n_draws), xytext=(0.80, 0.55),
        textcoords="axes fraction", ha="center", fontsize=7,
        arrowprops=dict(arrowstyle="->", lw=0.6, color=REFERENCE_COLOUR),
    )  # fmt: skip
    log_axis(ax.yaxis)
    ax.set_ylim(0.5, None)
    ax.set_xlabel(r"$\ell\, s^2$")
    ax.set_ylabel("count per bin")
    ax.set_title(f"(b) all values of {n_draws} draws, log bins")
    ax.legend(frameon=False, loc="upper left", fontsize=6.5)


def _top_panel(ax, frame: pd.DataFrame, levels: pd.Series) -> None:
    x_plus = levels["x_plus"]
    ax.axhspan(
        x_plus, levels["outlier_threshold"], color=THEORY_COLOUR, alpha=0.25, lw=0,
        label="Tracy–Widom window (99 %)",
    )  # fmt: skip
    ax.axhline(x_plus, **LEVEL_STYLES["x_plus"], label=r"$x_+$")
    ax.axhline(levels["mp_edge"], **LEVEL_STYLES["mp_edge"], label=r"$4\theta_1$")
    top = frame[frame["series"] == "nonperron"]
    sns.lineplot(
        data=top, x="k", y="value", units="draw", estimator=None, color=DATA_COLOUR, marker="o",
        ms=3, mew=0, lw=0.6, alpha=0.75, ax=ax,
    )  # fmt: skip
    spikes = frame[frame["series"] == "spike_prediction"]
    ax.plot(
        spikes["k"], spikes["value"], ls="none", marker="x", ms=6, color=THEORY_COLOUR,
        label=r"spike $K(1/\theta)^2$, $\theta=\max|\sqrt{\ell}A^\perp_{ij}|$",
    )  # fmt: skip
    above = (
        top[top["value"] > x_plus]
        .groupby("draw")["k"]
        .count()
        .reindex(top["draw"].unique(), fill_value=0)
    )
    handles, labels = ax.get_legend_handles_labels()
    draws = Line2D([], [], color=DATA_COLOUR, marker="o", ms=3, lw=0.6, alpha=0.75)
    ax.legend(handles[:3] + [draws] + handles[3:], labels[:3] + ["draws"] + labels[3:],
              frameon=False, loc="upper right", fontsize=6.5)  # fmt: skip
    ax.set_xlabel(r"non-Perron index $k$ of $\sqrt{\ell}A^\perp$")
    ax.set_ylabel(r"$\ell\, s_k(A^\perp)^2$")
    ax.set_title(f"(c) top of the spectrum: {above.min()}–{above.max()} values above $x_+$")


def _ipr_panel(ax, frame: pd.DataFrame, levels: pd.Series) -> None:
    ax.axhline(
        levels["ipr_reference"], color=REFERENCE_COLOUR, ls="--", lw=0.9,
        label=r"delocalised: $3\ell/(\ell+2)$",
    )  # fmt: skip
    ax.axvline(levels["x_plus"], **LEVEL_STYLES["x_plus"], label=r"$x_+$")
    for series, marker, colour, label in (
        ("ell_ipr_left", "o", DATA_COLOUR, "left vector"),
        ("ell_ipr_right", "^", THEORY_COLOUR, "right vector"),
    ):
        rows = frame[frame["series"] == series]
        ax.plot(
            rows["x"], rows["value"], ls="none", marker=marker, ms=3.5, mfc="none", color=colour,
            label=label,
        )  # fmt: skip
    log_axis(ax.yaxis)
    ax.set_xlabel(r"$\ell\, s_k(A^\perp)^2$")
    ax.set_ylabel(r"$\ell \times$ IPR of the singular vector")
    ax.set_title("(d) localisation of the leading non-Perron vectors")
    ax.legend(frameon=False, loc="upper left", fontsize=6.5)


def plot_full_spectrum(frame: pd.DataFrame, *, n_tokens: int, d_qk: int, beta: float):
    """Four panels (see the module docstring) from figure A2's tidy table."""
    levels = frame[frame["draw"].isna() & frame["k"].isna() & frame["x"].isna()]
    levels = levels.set_index("series")["value"]
    figure, axes = new_figure(2, 2, width=8.0, height=6.4)
    _sorted_panel(axes[0, 0], frame, levels)
    _histogram_panel(axes[0, 1], frame, levels)
    _top_panel(axes[1, 0], frame, levels)
    _ipr_panel(axes[1, 1], frame, levels)
    figure.suptitle(
        rf"Full spectrum of $\sqrt{{\ell}}A$, $\ell = {n_tokens}$, $d_{{qk}} = {d_qk}$, "
        rf"$\beta = {beta:g}$: Perron value near $\ell$, bulk up to $x_+$, few values above",
        fontsize=9,
    )
    return figure
