"""Figure A6 layout: three panels against ell (log axis), one colour per beta.

(a) |s_1(A) - 1| with the finite-ell prediction and the fitted power law; (b) ell (s_1^2 - 1)
against its predicted constant theta1 + beta^4/2; (c) the stable rank ||A||_F^2/||A||^2 with its
limit e^{beta^2} and the finite-ell prediction e^{beta^2}/s_1^2.
"""

import numpy as np
from matplotlib.ticker import FormatStrFormatter

from attnspec.plotting.style import REFERENCE_COLOUR, apply_style, new_figure

BETA_COLOURS = ("#4C72B0", "#DD8452", "#8172B3", "#55A868", "#937860", "#DA8BC3")


def _draws_and_means(ax, ells, values, colour, label) -> None:
    """Every draw as a small dot, the mean over draws as a larger marker."""
    for column in values.T:
        ax.plot(ells, column, ls="none", marker=".", ms=3, color=colour, alpha=0.45)
    ax.plot(ells, values.mean(axis=1), ls="none", marker="o", ms=4.5, color=colour, label=label)


def plot_perron(series, verdicts=None) -> object:
    """Three panels (see the module docstring) from a list of :class:`PerronSeries`; the legend
    of panel (a) gives each beta's fitted slope with, for a judged beta, the text ``verdicts``
    maps it to (the A.2 row's 95 % interval and verdict, from the claims table)."""
    verdicts = verdicts or {}
    apply_style()
    figure, axes = new_figure(1, 3, width=10.0, height=3.5)
    deviation_ax, rescaled_ax, rank_ax = axes[0]
    for index, s in enumerate(series):
        colour = BETA_COLOURS[index % len(BETA_COLOURS)]
        ells = s.n_tokens
        ends = ells[[0, -1]].astype(np.float64)
        _draws_and_means(deviation_ax, ells, s.deviation, colour, rf"$\beta={s.beta:g}$")
        deviation_ax.plot(ells, s.predicted_deviation, color=colour, lw=1.0)
        deviation_ax.plot(
            ends,
            np.exp(s.fit.intercept) * ends**s.fit.slope,
            color=colour,
            lw=0.9,
            ls="--",
            label=verdicts.get(s.beta, f"fit slope {s.fit.slope:.3f} (not judged)"),
        )
        _draws_and_means(rescaled_ax, ells, s.rescaled, colour, rf"$\beta={s.beta:g}$")
        rescaled_ax.axhline(s.rescaled_prediction, color=colour, lw=1.0)
        _draws_and_means(rank_ax, ells, s.stable_rank, colour, rf"$\beta={s.beta:g}$")
        rank_ax.plot(ells, s.predicted_stable_rank, color=colour, lw=1.0)
        rank_ax.axhline(s.limit_stable_rank, color=colour, lw=0.9, ls=":")
    deviation_ax.plot([], [], color=REFERENCE_COLOUR, lw=1.0, label="prediction (solid)")
    deviation_ax.set_yscale("log")
    deviation_ax.set_ylabel(r"$|s_1(A) - 1|$")
    deviation_ax.set_title(r"(a) $s_1(A)\to 1$: $\sqrt{1+\theta_1/\ell+\beta^4/2d_{qk}}-1$")
    deviation_ax.legend(frameon=False, loc="lower left", fontsize=6)
    rescaled_ax.plot([], [], color=REFERENCE_COLOUR, lw=1.0, label=r"$\theta_1+\beta^4/2$")
    rescaled_ax.set_yscale("log")
    rescaled_ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    rescaled_ax.yaxis.set_minor_formatter(FormatStrFormatter("%g"))
    rescaled_ax.set_ylabel(r"$\ell\,(s_1(A)^2 - 1)$")
    rescaled_ax.set_title(r"(b) rescaled: $\ell(s_1^2-1)\to\theta_1+\beta^4/2$ ($c=1$)")
    rescaled_ax.legend(frameon=False, loc="center right", fontsize=6.5)
    rank_ax.plot([], [], color=REFERENCE_COLOUR, lw=1.0, label=r"$e^{\beta^2}/s_1^2$ predicted")
    rank_ax.plot([], [], color=REFERENCE_COLOUR, lw=0.9, ls=":", label=r"limit $e^{\beta^2}$")
    rank_ax.set_ylabel(r"stable rank $\|A\|_F^2/\|A\|^2$")
    rank_ax.set_title(r"(c) stable rank $\to e^{\beta^2}$ (dotted)")
    rank_ax.legend(frameon=False, loc="center right", fontsize=6.5)
    for ax in axes[0]:
        ax.set_xscale("log", base=2)
        ax.set_xlabel(r"$\ell$ ($= d_{qk}$)")
    figure.suptitle(
        "Perron mode of softmax attention: dots = draws, circles = means over draws, "
        "solid = finite-$\\ell$ prediction, dashed = fitted power law",
        fontsize=9,
    )
    return figure


def perron_plotted_rows(series):
    """Every number drawn in :func:`plot_perron`: rows (panel, beta, series, n_tokens, draw, y)."""
    for s in series:
        measured = {
            "abs_s1_minus_1": s.deviation,
            "ell_s1sq_minus_1": s.rescaled,
            "stable_rank": s.stable_rank,
        }
        for panel, values in measured.items():
            for ell, row in zip(s.n_tokens, values, strict=True):
                for draw, y in enumerate(row):
                    yield (panel, s.beta, "draw", int(ell), draw, y)
                yield (panel, s.beta, "mean", int(ell), "", float(np.mean(row)))
        for ell, dev, rank in zip(
            s.n_tokens, s.predicted_deviation, s.predicted_stable_rank, strict=True
        ):
            yield ("abs_s1_minus_1", s.beta, "prediction", int(ell), "", dev)
            yield ("ell_s1sq_minus_1", s.beta, "prediction", int(ell), "", s.rescaled_prediction)
            yield ("stable_rank", s.beta, "prediction", int(ell), "", rank)
            yield ("stable_rank", s.beta, "limit", int(ell), "", s.limit_stable_rank)
        for ell in (s.n_tokens[0], s.n_tokens[-1]):
            fitted = np.exp(s.fit.intercept) * float(ell) ** s.fit.slope
            yield ("abs_s1_minus_1", s.beta, "fit", int(ell), "", fitted)
