"""Figure A2 layout: 2 x 2 panels on the full spectrum of sqrt(ell) A (Perron value, bulk, edge).

(a) sorted spectrum of one draw against the nu_inf quantiles; (b) histogram of all draws' values
on log bins against the nu_inf expectation; (c) leading non-Perron values with the Tracy-Widom
window and the spike predictions; (d) localisation (ell IPR) of their singular vectors.
"""

import numpy as np

from attnspec.plotting.style import (
    DATA_COLOUR,
    REFERENCE_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    apply_style,
    new_figure,
)

LEVEL_STYLES = {
    "perron_prediction": dict(color=REFERENCE_COLOUR, ls="--", lw=0.9),
    "x_plus": dict(color=THEORY_COLOUR, ls=":", lw=1.1),
    "mp_edge": dict(color=SURROGATE_COLOUR, ls="-.", lw=1.0),
}


def _level_labels(summary: dict) -> dict:
    return {
        "perron_prediction": (
            rf"$\ell+\theta_1+\ell\beta^4/2d_{{qk}}$ = {float(summary['perron_prediction']):.2f}"
        ),
        "x_plus": rf"$x_+$ = {float(summary['x_plus']):.3f}",
        "mp_edge": rf"$4\theta_1$ = {float(summary['mp_edge']):.3f} (MP surrogate)",
    }


def _sorted_panel(ax, summary: dict) -> None:
    values = summary["values"][0]
    ranks = np.arange(1, values.size + 1)
    ax.plot(ranks, values, color=DATA_COLOUR, lw=1.4, label="draw 0")
    ax.plot(
        summary["theory_ranks"],
        summary["theory_sorted"],
        color=THEORY_COLOUR,
        lw=1.0,
        ls="--",
        label=r"$\nu_\infty$ quantiles",
    )
    labels = _level_labels(summary)
    for name, style in LEVEL_STYLES.items():
        ax.axhline(float(summary[name]), label=labels[name], **style)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("rank $k$")
    ax.set_ylabel(r"$\ell\, s_k(A)^2$")
    ax.set_title(f"(a) sorted spectrum, one draw: $\\ell s_1^2$ = {values[0]:.2f}")
    ax.legend(frameon=False, loc="lower left", fontsize=6.5)


def _histogram_panel(ax, summary: dict, n_draws: int) -> None:
    edges = summary["edges"]
    ax.stairs(summary["counts"], edges, fill=True, color=DATA_COLOUR, alpha=0.6, label="data")
    ax.stairs(
        summary["theory_counts"],
        edges,
        color=THEORY_COLOUR,
        lw=1.0,
        label=r"$\nu_\infty$: draws $\times(\ell-1)\times$ bin mass",
    )
    for name, style in LEVEL_STYLES.items():
        ax.axvline(float(summary[name]), **style)
    ax.annotate(
        f"{n_draws} Perron\nvalues",
        xy=(float(summary["perron"].mean()), n_draws),
        xytext=(0.80, 0.55),
        textcoords="axes fraction",
        ha="center",
        fontsize=7,
        arrowprops=dict(arrowstyle="->", lw=0.6, color=REFERENCE_COLOUR),
    )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(0.5, None)
    ax.set_xlabel(r"$\ell\, s^2$")
    ax.set_ylabel("count per bin")
    ax.set_title(f"(b) all values of {n_draws} draws, log bins")
    ax.legend(frameon=False, loc="upper left", fontsize=6.5)


def _top_panel(ax, summary: dict) -> None:
    x_plus = float(summary["x_plus"])
    ax.axhspan(
        x_plus,
        float(summary["outlier_threshold"]),
        color=THEORY_COLOUR,
        alpha=0.25,
        lw=0,
        label="Tracy–Widom window (99 %)",
    )
    ax.axhline(x_plus, **LEVEL_STYLES["x_plus"], label=r"$x_+$")
    ax.axhline(float(summary["mp_edge"]), **LEVEL_STYLES["mp_edge"], label=r"$4\theta_1$")
    for draw in np.unique(summary["pair_draw"]):
        mine = summary["pair_draw"] == draw
        values = summary["pair_value"][mine]
        ax.plot(
            np.arange(1, values.size + 1),
            values,
            color=DATA_COLOUR,
            marker="o",
            ms=3,
            lw=0.6,
            alpha=0.75,
            label="draws" if draw == 0 else None,
        )
    ax.plot(
        np.ones(summary["spike_prediction"].size),
        summary["spike_prediction"],
        ls="none",
        marker="x",
        ms=6,
        color=THEORY_COLOUR,
        label=r"spike $K(1/\theta)^2$, $\theta=\max|\sqrt{\ell}A^\perp_{ij}|$",
    )
    n_above = summary["n_above_edge"]
    ax.set_xlabel(r"non-Perron index $k$ of $\sqrt{\ell}A^\perp$")
    ax.set_ylabel(r"$\ell\, s_k(A^\perp)^2$")
    ax.set_title(f"(c) top of the spectrum: {n_above.min()}–{n_above.max()} values above $x_+$")
    ax.legend(frameon=False, loc="upper right", fontsize=6.5)


def _ipr_panel(ax, summary: dict) -> None:
    ax.axhline(
        float(summary["ipr_reference"]),
        color=REFERENCE_COLOUR,
        ls="--",
        lw=0.9,
        label=r"delocalised: $3\ell/(\ell+2)$",
    )
    ax.axvline(float(summary["x_plus"]), **LEVEL_STYLES["x_plus"], label=r"$x_+$")
    ax.plot(
        summary["pair_value"],
        summary["pair_ipr_left"],
        ls="none",
        marker="o",
        ms=3.5,
        mfc="none",
        color=DATA_COLOUR,
        label="left vector",
    )
    ax.plot(
        summary["pair_value"],
        summary["pair_ipr_right"],
        ls="none",
        marker="^",
        ms=3.5,
        mfc="none",
        color=THEORY_COLOUR,
        label="right vector",
    )
    ax.set_yscale("log")
    ax.set_xlabel(r"$\ell\, s_k(A^\perp)^2$")
    ax.set_ylabel(r"$\ell \times$ IPR of the singular vector")
    ax.set_title("(d) localisation of the leading non-Perron vectors")
    ax.legend(frameon=False, loc="upper left", fontsize=6.5)


def plot_full_spectrum(summary: dict, *, n_tokens: int, d_qk: int, beta: float):
    """Four panels (see the module docstring) from :func:`summarise_full_spectrum`."""
    apply_style()
    n_draws = summary["values"].shape[0]
    figure, axes = new_figure(2, 2, width=8.0, height=6.4)
    _sorted_panel(axes[0, 0], summary)
    _histogram_panel(axes[0, 1], summary, n_draws)
    _top_panel(axes[1, 0], summary)
    _ipr_panel(axes[1, 1], summary)
    figure.suptitle(
        rf"Full spectrum of $\sqrt{{\ell}}A$, $\ell = {n_tokens}$, $d_{{qk}} = {d_qk}$, "
        rf"$\beta = {beta:g}$: Perron value near $\ell$, bulk up to $x_+$, few values above",
        fontsize=9,
    )
    return figure


def full_spectrum_plotted_rows(summary: dict):
    """Every number drawn in :func:`plot_full_spectrum` as rows (panel, series, draw, x, y)."""
    for k, y in enumerate(summary["values"][0], start=1):
        yield ("sorted", "draw", 0, k, y)
    for k, y in zip(summary["theory_ranks"], summary["theory_sorted"], strict=True):
        yield ("sorted", "nu_inf_quantile", "", int(k), y)
    edges = summary["edges"]
    centres = np.sqrt(edges[1:] * edges[:-1])
    for x, y, t in zip(centres, summary["counts"], summary["theory_counts"], strict=True):
        yield ("histogram", "count", "all", x, int(y))
        yield ("histogram", "nu_inf_expected_count", "", x, t)
    for draw in np.unique(summary["pair_draw"]):
        values = summary["pair_value"][summary["pair_draw"] == draw]
        for k, value in enumerate(values, start=1):
            yield ("top", "nonperron_value", int(draw), k, value)
    for draw, value in enumerate(summary["spike_prediction"]):
        yield ("top", "spike_prediction", draw, 1, value)
    for draw, value, left, right in zip(
        summary["pair_draw"],
        summary["pair_value"],
        summary["pair_ipr_left"],
        summary["pair_ipr_right"],
        strict=True,
    ):
        yield ("ipr", "ell_ipr_left", int(draw), value, left)
        yield ("ipr", "ell_ipr_right", int(draw), value, right)
    for name in ("perron_prediction", "x_plus", "mp_edge", "outlier_threshold", "ipr_reference"):
        yield ("levels", name, "", "", float(summary[name]))
