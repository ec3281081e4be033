"""Figure A4, drawn from its tidy table (:data:`attnspec.experiments.edges.EDGE_PLOTTED_HEADER`):
x_+(beta) against 4 theta_1 with both expansions (theory curves, matplotlib) and the simulated
top values of Y_lin (seaborn: every draw, and the median over draws with its 10-90 % range from
10 draws on).

Three panels sharing beta: the edges on a log scale; x_+ / (4 theta_1); the relative deviation
of the simulated top values of Y_lin from x_+, where the Tracy–Widom shift becomes visible.
"""

import pandas as pd
import seaborn as sns

from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    DATA_COLOUR,
    PALETTE,
    REFERENCE_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    log_axis,
    new_figure,
)

EXPANSION_COLOUR = PALETTE[4]
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
TRACY_WIDOM_STYLE = {"color": TRACY_WIDOM_COLOUR, "ls": ":"}


def _simulated(axis, simulated: pd.DataFrame, y: str) -> None:
    """Every draw's top value (dots) and the median over draws (open circles), with bars over
    the 10-90 % range of the draws when every beta has at least 10."""
    n_draws = simulated.groupby("beta")["draw"].nunique().min()
    band = n_draws >= BAND_MIN_DRAWS
    sns.scatterplot(
        data=simulated, x="beta", y=y, color=DATA_COLOUR, alpha=0.45, s=7, lw=0,
        label=f"$\\|Y_{{\\mathrm{{lin}}}}\\|^2$, {n_draws} draws", ax=axis,
    )  # fmt: skip
    sns.lineplot(
        data=simulated, x="beta", y=y, estimator="median", errorbar=BAND if band else None,
        err_style="bars", err_kws={"capsize": 2, "lw": 0.9}, ls="none", marker="o", ms=4,
        mfc="white", mec=DATA_COLOUR, color=DATA_COLOUR,
        label="median, 10–90 %" if band else "median", ax=axis,
    )  # fmt: skip


def plot_edges(frame: pd.DataFrame, *, n_tokens: int):
    """Figure A4 from its tidy table: (top) x_+, 4 theta_1 and both expansions on a log scale
    with the simulated top values of Y_lin; (middle) the same over 4 theta_1; (bottom) the
    simulated top values relative to x_+, in percent, against the Tracy–Widom expectation
    x_+ + gamma_TW ell^{-2/3} E[TW1]."""
    figure, axes = new_figure(
        3, 1, width=5.2, height=7.4, sharex=True, gridspec_kw={"height_ratios": [2.1, 1.2, 1.2]}
    )
    edge, ratio, deviation = axes[:, 0]
    theory = {name: rows for name, rows in frame[frame["draw"].isna()].groupby("series")}
    simulated = frame[frame["series"] == "ylin_top"]
    tw_label = r"$x_+ + \gamma_{TW}\,\ell^{-2/3}\,\mathbb{E}[TW_1]$" + f" ($\\ell={n_tokens}$)"
    for series, label, style in THEORY_CURVES:
        curve = theory[series]
        edge.plot(curve["beta"], curve["edge"], label=label, **style)
        ratio.plot(curve["beta"], curve["edge_over_4theta1"], **style)
    tracy_widom = theory["tracy_widom_expectation"]
    edge.plot(tracy_widom["beta"], tracy_widom["edge"], lw=0.8, label=tw_label, **TRACY_WIDOM_STYLE)
    _simulated(edge, simulated, "edge")
    log_axis(edge.yaxis)
    edge.set_ylabel("right edge (squared singular value)")
    x_plus = theory["x_plus"]["edge"]
    edge.set_ylim(0.5 * x_plus.iloc[0], 3 * x_plus.iloc[-1])
    edge.legend(frameon=False, loc="upper left", fontsize=6.5)
    edge.set_title(
        r"Right edge of $\nu_\infty$ against the Marchenko–Pastur edge $4\theta_1$ ($c=1$)"
    )

    ratio.plot(tracy_widom["beta"], tracy_widom["edge_over_4theta1"], lw=0.8, **TRACY_WIDOM_STYLE)
    _simulated(ratio, simulated, "edge_over_4theta1")
    ratio.get_legend().remove()
    ratio.axhline(SMALL_BETA_RATIO, color=EXPANSION_COLOUR, lw=0.7, ls=":")
    ratio.text(
        tracy_widom["beta"].iloc[-1], SMALL_BETA_RATIO, "27/16", ha="right", va="bottom",
        fontsize=6.5, color=EXPANSION_COLOUR,
    )  # fmt: skip
    ratio.set_ylim(0.9, 1.8)
    ratio.set_ylabel(r"edge / $4\theta_1$")

    deviation.axhline(0.0, color=THEORY_COLOUR, lw=1.6, label=r"$x_+$")
    deviation.plot(
        tracy_widom["beta"], tracy_widom["deviation_percent"], lw=1.0,
        label="Tracy–Widom expectation", **TRACY_WIDOM_STYLE,
    )  # fmt: skip
    _simulated(deviation, simulated, "deviation_percent")
    deviation.set_ylabel(r"$(\|Y_{\mathrm{lin}}\|^2 - x_+)/x_+$ (%)")
    deviation.set_xlabel(r"inverse temperature $\beta$")
    deviation.legend(frameon=False, loc="lower right", fontsize=6.5, ncols=2)
    return figure
