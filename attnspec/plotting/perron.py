"""Figure A6, drawn with seaborn from its tidy table
(:data:`attnspec.experiments.perron.PERRON_PLOTTED_HEADER`): three panels against ell (log
axis), one colour per beta, every draw as a dot and the median over draws with its 10-90 % range
(``BAND``, from 10 draws on); predictions and the fitted power law are matplotlib lines.

(a) |s_1(A) - 1| with the finite-ell prediction and the fitted power law; (b) ell (s_1^2 - 1)
against its predicted constant theta1 + beta^4/2; (c) the stable rank ||A||_F^2/||A||^2 with its
limit e^{beta^2} and the finite-ell prediction e^{beta^2}/s_1^2.
"""

import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.ticker import FormatStrFormatter

from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    PALETTE,
    REFERENCE_COLOUR,
    log_axis,
    new_figure,
)

BETA_COLOURS = [PALETTE[i] for i in (0, 1, 4, 2, 5, 6)]
PANELS = ("abs_s1_minus_1", "ell_s1sq_minus_1", "stable_rank")
CURVE_STYLES = {"fit": {"lw": 0.9, "ls": "--"}, "limit": {"lw": 0.9, "ls": ":"}}


def _draws_and_medians(ax, draws: pd.DataFrame, colours: dict) -> None:
    """Every draw as a small dot; the median over draws as a larger marker, with bars over the
    10-90 % range of the draws when every ell has at least 10."""
    band = draws.groupby(["beta", "n_tokens"])["draw"].nunique().min() >= BAND_MIN_DRAWS
    sns.scatterplot(
        data=draws, x="n_tokens", y="value", hue="beta", palette=colours, s=6, alpha=0.45, lw=0,
        legend=False, ax=ax,
    )  # fmt: skip
    sns.lineplot(
        data=draws, x="n_tokens", y="value", hue="beta", palette=colours, estimator="median",
        errorbar=BAND if band else None, err_style="bars", err_kws={"capsize": 2, "lw": 0.9},
        ls="none", marker="o", ms=5, mew=0, legend=False, ax=ax,
    )  # fmt: skip


def plot_perron(frame: pd.DataFrame, verdicts=None):
    """Three panels (see the module docstring) from figure A6's tidy table; the legend of panel
    (a) gives each beta's fitted slope with, for a judged beta, the text ``verdicts`` maps it
    to (the A.2 row's 95 % interval and verdict, from the claims table)."""
    verdicts = verdicts or {}
    betas = list(dict.fromkeys(frame["beta"]))
    colours = {beta: BETA_COLOURS[i % len(BETA_COLOURS)] for i, beta in enumerate(betas)}
    figure, axes = new_figure(1, 3, width=10.0, height=3.5)
    draws, curves = frame[frame["series"] == "draw"], frame[frame["series"] != "draw"]
    for ax, panel in zip(axes[0], PANELS, strict=True):
        _draws_and_medians(ax, draws[draws["panel"] == panel], colours)
        for (beta, series), rows in curves[curves["panel"] == panel].groupby(["beta", "series"]):
            if series != "fit_slope":
                style = CURVE_STYLES.get(series, {"lw": 1.0})
                ax.plot(rows["n_tokens"], rows["value"], color=colours[beta], **style)
    slopes = curves[curves["series"] == "fit_slope"].set_index("beta")["value"]
    beta_handles, handles = [], []
    for beta, colour in colours.items():
        label = verdicts.get(beta, f"fit slope {slopes[beta]:.3f} (not judged)")
        beta_handles.append(
            Line2D([], [], ls="none", marker="o", ms=5, color=colour, label=rf"$\beta={beta:g}$")
        )
        handles += [beta_handles[-1], Line2D([], [], ls="--", lw=0.9, color=colour, label=label)]
    deviation_ax, rescaled_ax, rank_ax = axes[0]
    handles.append(Line2D([], [], color=REFERENCE_COLOUR, lw=1.0, label="prediction (solid)"))
    deviation_ax.legend(handles=handles, frameon=False, loc="lower left", fontsize=6)
    log_axis(deviation_ax.yaxis)
    deviation_ax.set_ylabel(r"$|s_1(A) - 1|$")
    deviation_ax.set_title(r"(a) $s_1(A)\to 1$: $\sqrt{1+\theta_1/\ell+\beta^4/2d_{qk}}-1$")
    constant = Line2D([], [], color=REFERENCE_COLOUR, lw=1.0, label=r"$\theta_1+\beta^4/2$")
    rescaled_ax.legend(
        handles=[*beta_handles, constant], frameon=False, loc="center right", fontsize=6.5
    )
    log_axis(rescaled_ax.yaxis)
    rescaled_ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    rescaled_ax.yaxis.set_minor_formatter(FormatStrFormatter("%g"))
    rescaled_ax.set_ylabel(r"$\ell\,(s_1(A)^2 - 1)$")
    rescaled_ax.set_title(r"(b) rescaled: $\ell(s_1^2-1)\to\theta_1+\beta^4/2$ ($c=1$)")
    rank_ax.legend(
        handles=beta_handles + [
            Line2D([], [], color=REFERENCE_COLOUR, lw=1.0, label=r"$e^{\beta^2}/s_1^2$ predicted"),
            Line2D([], [], color=REFERENCE_COLOUR, lw=0.9, ls=":", label=r"limit $e^{\beta^2}$"),
        ],
        frameon=False, loc="center right", fontsize=6.5,
    )  # fmt: skip
    rank_ax.set_ylabel(r"stable rank $\|A\|_F^2/\|A\|^2$")
    rank_ax.set_title(r"(c) stable rank $\to e^{\beta^2}$ (dotted)")
    for ax in axes[0]:
        ax.set_xscale("log", base=2)
        ax.set_xlabel(r"$\ell$ ($= d_{qk}$)")
    band = draws.groupby(["beta", "n_tokens"])["draw"].nunique().min() >= BAND_MIN_DRAWS
    median = "circles = medians over draws" + (" with 10–90 % bars" if band else "")
    figure.suptitle(
        f"Perron mode of softmax attention: dots = draws, {median}, "
        "solid = finite-$\\ell$ prediction, dashed = fitted power law",
        fontsize=9,
    )
    return figure
