"""Figure A4 layout: x_+(beta) against 4 theta_1 with both expansions and simulated top values.

Three panels sharing beta: the edges on a log scale; x_+ / (4 theta_1); the relative deviation
of the simulated top values of Y_lin from x_+, where the Tracy–Widom shift becomes visible.
"""

from collections.abc import Iterator, Mapping

import numpy as np

from attnspec.plotting.style import (
    DATA_COLOUR,
    REFERENCE_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    apply_style,
    new_figure,
)

EDGE_PLOTTED_HEADER = ("panel", "series", "beta", "draw", "value")
EXPANSION_COLOUR = "#8172B3"
TRACY_WIDOM_COLOUR = "0.15"
# x_+ / (4 theta_1) -> 27/16 as beta -> 0 (Fuss–Catalan edge 27/4 over 4).
SMALL_BETA_RATIO = 27 / 16

# (series, label, style) of the theory curves of the top two panels.
THEORY_CURVES = (
    ("x_plus", r"$x_+$ ($\nu_\infty$ edge)", {"color": THEORY_COLOUR, "lw": 1.6}),
    ("mp_edge", r"$4\theta_1$ (MP surrogate edge)", {"color": SURROGATE_COLOUR, "lw": 1.3}),
    (
        "small_beta",
        r"$\frac{27}{4}\beta^2 + \frac{3}{2}\beta^4 + \frac{5}{9}\beta^6$",
        {"color": EXPANSION_COLOUR, "lw": 1.1, "ls": "--"},
    ),
    (
        "large_beta",
        r"$4\theta_1 + 4\beta^4/a$",
        {"color": REFERENCE_COLOUR, "lw": 1.1, "ls": "--"},
    ),
)


def _simulated(axis, simulated: Mapping, scale: np.ndarray, offset: float, n_draws: int) -> None:
    """Per-draw top values (dots) and their median, with the 10-90 % range over draws when
    there are at least 10 draws, transformed as (value / scale - offset); ``scale`` has one
    entry per simulated beta."""
    beta = simulated["beta"]
    for draw in range(simulated["top"].shape[1]):
        axis.plot(
            beta,
            simulated["top"][:, draw] / scale - offset,
            ls="none",
            marker=".",
            ms=3.5,
            color=DATA_COLOUR,
            alpha=0.45,
            label=f"$\\|Y_{{\\mathrm{{lin}}}}\\|^2$, {n_draws} draws" if draw == 0 else None,
        )
    median = simulated["median"] / scale - offset
    band = bool(np.isfinite(simulated["q10"]).all())
    errors = (
        [median - (simulated["q10"] / scale - offset), simulated["q90"] / scale - offset - median]
        if band
        else None
    )
    axis.errorbar(
        beta,
        median,
        yerr=errors,
        ls="none",
        marker="o",
        ms=4,
        mfc="white",
        color=DATA_COLOUR,
        capsize=2,
        lw=0.9,
        label="median, 10–90 %" if band else "median",
    )


def plot_edges(theory: Mapping, simulated: Mapping, *, n_tokens: int, n_draws: int):
    """Figure A4: (top) x_+, 4 theta_1 and both expansions on a log scale with the simulated top
    values of Y_lin; (middle) x_+ / (4 theta_1); (bottom) the simulated top values relative to
    x_+, in percent, against the Tracy–Widom expectation x_+ + gamma_TW ell^{-2/3} E[TW1]."""
    apply_style()
    figure, axes = new_figure(
        3, 1, width=5.2, height=7.4, sharex=True, gridspec_kw={"height_ratios": [2.1, 1.2, 1.2]}
    )
    edge, ratio, deviation = axes[:, 0]
    beta = theory["beta"]
    four_theta1 = theory["mp_edge"]
    tw_label = r"$x_+ + \gamma_{TW}\,\ell^{-2/3}\,\mathbb{E}[TW_1]$" + f" ($\\ell={n_tokens}$)"
    for series, label, style in THEORY_CURVES:
        edge.plot(beta, theory[series], label=label, **style)
        ratio.plot(beta, theory[series] / four_theta1, **style)
    edge.plot(
        beta,
        theory["tracy_widom_expectation"],
        color=TRACY_WIDOM_COLOUR,
        lw=0.8,
        ls=":",
        label=tw_label,
    )
    _simulated(edge, simulated, np.ones_like(simulated["beta"]), 0.0, n_draws)
    edge.set_yscale("log")
    edge.set_ylabel("right edge (squared singular value)")
    edge.set_ylim(0.5 * theory["x_plus"][0], 3 * theory["x_plus"][-1])
    edge.legend(frameon=False, loc="upper left", fontsize=6.5)
    edge.set_title(
        r"Right edge of $\nu_\infty$ against the Marchenko–Pastur edge $4\theta_1$ ($c=1$)"
    )

    ratio.plot(
        beta,
        theory["tracy_widom_expectation"] / four_theta1,
        color=TRACY_WIDOM_COLOUR,
        lw=0.8,
        ls=":",
    )
    _simulated(ratio, simulated, simulated["mp_edge"], 0.0, n_draws)
    ratio.axhline(SMALL_BETA_RATIO, color=EXPANSION_COLOUR, lw=0.7, ls=":")
    ratio.text(
        beta[-1],
        SMALL_BETA_RATIO,
        "27/16",
        ha="right",
        va="bottom",
        fontsize=6.5,
        color=EXPANSION_COLOUR,
    )
    ratio.set_ylim(0.9, 1.8)
    ratio.set_ylabel(r"edge / $4\theta_1$")

    percent = 100.0
    deviation.axhline(0.0, color=THEORY_COLOUR, lw=1.6, label=r"$x_+$")
    deviation.plot(
        beta,
        percent * (theory["tracy_widom_expectation"] / theory["x_plus"] - 1.0),
        color=TRACY_WIDOM_COLOUR,
        lw=1.0,
        ls=":",
        label="Tracy–Widom expectation",
    )
    _simulated(deviation, simulated, simulated["x_plus"] / percent, percent, n_draws)
    deviation.set_ylabel(r"$(\|Y_{\mathrm{lin}}\|^2 - x_+)/x_+$ (%)")
    deviation.set_xlabel(r"inverse temperature $\beta$")
    deviation.legend(frameon=False, loc="lower right", fontsize=6.5, ncols=2)
    return figure


def edge_plotted_rows(theory: Mapping, simulated: Mapping) -> Iterator[tuple]:
    """Every number drawn in :func:`plot_edges` as rows (panel, series, beta, draw, value).

    Panels: ``edge`` (values as computed), ``ratio`` (divided by 4 theta_1) and ``deviation``
    (100 (value / x_+ - 1)); ``draw`` is empty for curves and for the median and quantiles.
    """
    curves = {name: theory[name] for name, _, _ in THEORY_CURVES}
    curves["tracy_widom_expectation"] = theory["tracy_widom_expectation"]
    transforms = {
        "edge": lambda values, table: values,
        "ratio": lambda values, table: values / table["mp_edge"],
        "deviation": lambda values, table: 100.0 * (values / table["x_plus"] - 1.0),
    }
    for panel, transform in transforms.items():
        shown = (
            curves
            if panel != "deviation"
            else {"tracy_widom_expectation": curves["tracy_widom_expectation"]}
        )
        for series, values in shown.items():
            for beta, value in zip(theory["beta"], transform(values, theory), strict=True):
                yield (panel, series, beta, "", value)
        band = bool(np.isfinite(simulated["q10"]).all())
        for series in ("median", "q10", "q90") if band else ("median",):
            values = transform(simulated[series], simulated)
            for beta, value in zip(simulated["beta"], values, strict=True):
                yield (panel, f"ylin_top_{series}", beta, "", value)
        for draw, values in enumerate(transform(simulated["top"].T, simulated)):
            for beta, value in zip(simulated["beta"], values, strict=True):
                yield (panel, "ylin_top", beta, draw, value)
