"""Figures B5 and B6 layouts: the conditional covariances Sigma_f and Sigma_G given K.

B5: (a) E_ell(Sigma_f) and E_ell(Sigma_G) against ell (log axis) with x_+ and each
covariance's B.3 verdict label (from the judged claims table); (b) |E_ell - x_+| on log-log
axes with the fitted power laws and their 95 % intervals. B6: the pooled spectra at the largest
ell against rho = a + b MP_c, the largest eigenvalues against the edge of rho in Tracy–Widom
units, and the trends in ell of lambda_max and of the Kolmogorov distance to rho.
"""

from collections.abc import Iterator, Mapping

import matplotlib.pyplot as plt
import numpy as np

from attnspec.experiments.conditional import (
    COVARIANCES,
    ConditionalSeries,
    PopulationSeries,
)
from attnspec.plotting.style import RC_PARAMS, THEORY_COLOUR, apply_style, new_figure

COVARIANCE_COLOURS = {"sigma_f": "#4C72B0", "sigma_g": "#DD8452"}
COVARIANCE_TEX = {"sigma_f": r"$\Sigma_f$", "sigma_g": r"$\Sigma_G$"}
CONDITIONAL_PLOTTED_HEADER = ("panel", "covariance", "series", "n_tokens", "draw", "value")
POPULATION_PLOTTED_HEADER = ("panel", "covariance", "series", "n_tokens", "index", "x", "y")


def _draws_and_medians(ax, ells, values, colour, label, offset=1.0) -> None:
    """Draws as small dots, the median over draws as an open circle with the min-max range."""
    x = ells * offset
    for column in values.T:
        ax.plot(x, column, ls="none", marker=".", ms=3, color=colour, alpha=0.5)
    median = np.median(values, axis=1)
    ax.errorbar(
        x,
        median,
        yerr=[median - values.min(axis=1), values.max(axis=1) - median],
        ls="none",
        marker="o",
        ms=4.5,
        mfc="white",
        color=colour,
        capsize=2,
        lw=0.9,
        label=label,
    )


def plot_conditional_edges(series: ConditionalSeries, labels: Mapping[str, str]):
    """Figure B5 from a :class:`ConditionalSeries`; ``labels`` maps a covariance name
    (:data:`attnspec.experiments.conditional.COVARIANCES`) to its verdict label."""
    apply_style()
    figure, axes = new_figure(1, 2, width=9.0, height=3.6)
    edge_ax, gap_ax = axes[0]
    ells = series.n_tokens.astype(np.float64)
    offsets = {"sigma_f": 0.97, "sigma_g": 1.03}
    for name in COVARIANCES:
        colour = COVARIANCE_COLOURS[name]
        label = rf"$E_\ell$({COVARIANCE_TEX[name]}): {labels[name]}"
        _draws_and_medians(edge_ax, ells, series.edges[name], colour, label, offsets[name])
        gaps = np.abs(series.gaps(name))
        _draws_and_medians(gap_ax, ells, gaps, colour, COVARIANCE_TEX[name], offsets[name])
        fit = series.rates[name]
        ends = ells[[0, -1]]
        gap_ax.plot(
            ends,
            np.exp(fit.intercept) * ends**fit.slope,
            color=colour,
            lw=0.9,
            ls="--",
            label=rf"fit $\propto \ell^{{{fit.slope:.2f}}}$, [{fit.low:.2f}, {fit.high:.2f}] "
            "(95 %)",
        )
    edge_ax.axhline(
        series.x_plus, color=THEORY_COLOUR, lw=1.4, label=rf"$x_+ = {series.x_plus:.4f}$"
    )
    edge_ax.set_ylabel(
        r"$E_\ell(\Sigma) = \inf_{u>\|\Sigma\|} u^2\,\frac{1}{\ell}\mathrm{tr}(u-\Sigma)^{-1}$"
    )
    edge_ax.set_title(r"(a) finite deformed-MP edges against $x_+$")
    edge_ax.legend(frameon=False, fontsize=6.5, loc="upper right")
    gap_ax.set_yscale("log")
    gap_ax.set_ylabel(r"$|E_\ell(\Sigma) - x_+|$")
    gap_ax.set_title(r"(b) distance to $x_+$ (log–log) with least-squares power laws")
    gap_ax.legend(frameon=False, fontsize=6.5, loc="lower left", ncols=2)
    for ax in axes[0]:
        ax.set_xscale("log", base=2)
        ax.set_xlabel(rf"$\ell$ ($d_{{qk}} = \ell / {series.ratio:g}$)")
    figure.suptitle(
        rf"Conditional covariances given $K$, $\beta = {series.beta:g}$, $c = {series.ratio:g}$: "
        "dots = draws, circles = medians, bars = min–max",
        fontsize=9,
    )
    return figure


def conditional_plotted_rows(series: ConditionalSeries) -> Iterator[tuple]:
    """Every number drawn in :func:`plot_conditional_edges`:
    rows (panel, covariance, series, n_tokens, draw, value)."""
    for name in COVARIANCES:
        for panel, values in (("edge", series.edges[name]), ("abs_gap", np.abs(series.gaps(name)))):
            for ell, row in zip(series.n_tokens, values, strict=True):
                for draw, value in enumerate(row):
                    yield (panel, name, "draw", int(ell), draw, float(value))
                yield (panel, name, "median", int(ell), "", float(np.median(row)))
                yield (panel, name, "min", int(ell), "", float(row.min()))
                yield (panel, name, "max", int(ell), "", float(row.max()))
        fit = series.rates[name]
        for ell in series.n_tokens[[0, -1]]:
            value = np.exp(fit.intercept) * float(ell) ** fit.slope
            yield ("abs_gap", name, "fit", int(ell), "", float(value))
    for ell in series.n_tokens:
        yield ("edge", "", "x_plus", int(ell), "", series.x_plus)


def plot_population(histograms: Mapping, series: PopulationSeries):
    """Figure B6 from :func:`population_histograms` (largest ell) and a :class:`PopulationSeries`.

    Top: pooled spectra of Sigma_f and Sigma_G with the density of rho and its edge; the
    largest eigenvalue of every draw at the largest ell, in units of the Tracy–Widom scale s
    from the edge of rho. Bottom: (lambda_max - edge) / s against ell; the Kolmogorov distance
    of the pooled spectrum to rho against ell.
    """
    apply_style()
    with plt.rc_context(RC_PARAMS):
        figure = plt.figure(figsize=(10.0, 6.4), layout="constrained")
        axes = figure.subplot_mosaic("FGT;LLK")
    ell = int(series.n_tokens[-1])
    scale = series.scales[-1]
    centres = 0.5 * (histograms["bin_edges"][1:] + histograms["bin_edges"][:-1])
    widths = np.diff(histograms["bin_edges"])
    for key, name in (("F", "sigma_f"), ("G", "sigma_g")):
        ax = axes[key]
        ax.bar(
            centres,
            histograms[f"density_{name}"],
            width=widths,
            color=COVARIANCE_COLOURS[name],
            alpha=0.55,
            label=f"eigenvalues of {COVARIANCE_TEX[name]}, {len(histograms[f'top_{name}'])} draws",
        )
        ax.plot(
            histograms["theory_x"],
            histograms["theory_density"],
            color=THEORY_COLOUR,
            lw=1.3,
            label=r"$\rho = a + b\,\mathrm{MP}_c$",
        )
        ax.axvline(scale.rho_edge, color=THEORY_COLOUR, lw=0.8, ls=":", label="edge of $\\rho$")
        top = histograms[f"top_{name}"][:, 0]
        ax.plot(
            top,
            np.zeros_like(top),
            ls="none",
            marker="|",
            ms=12,
            mew=1.2,
            color="black",
            clip_on=False,
            label=r"$\lambda_{\max}$ per draw",
        )
        if histograms["atom"] > 0:
            ax.text(
                0.02,
                0.95,
                f"atom {float(histograms['atom']):.3g} at $a$",
                transform=ax.transAxes,
                fontsize=6.5,
                va="top",
            )
        ax.set_xlabel("population eigenvalue")
        ax.set_ylabel("density")
        ax.set_title(
            f"({'a' if name == 'sigma_f' else 'b'}) {COVARIANCE_TEX[name]} at $\\ell = {ell}$"
        )
        ax.legend(frameon=False, fontsize=6.5, loc="upper right")

    top_ax = axes["T"]
    for offset, name in ((0.15, "sigma_f"), (-0.15, "sigma_g")):
        tops = histograms[f"top_{name}"]
        for draw, values in enumerate(tops):
            top_ax.plot(
                scale.units(values),
                np.full(values.shape, draw + offset),
                ls="none",
                marker="o" if name == "sigma_f" else "s",
                ms=3.5,
                mfc=COVARIANCE_COLOURS[name] if name == "sigma_f" else "white",
                color=COVARIANCE_COLOURS[name],
                label=f"largest {tops.shape[1]} of {COVARIANCE_TEX[name]}" if draw == 0 else None,
            )
    _tracy_widom_references(top_ax, scale, vertical=True)
    top_ax.set_xlabel(r"$(\lambda - \mathrm{edge\ of}\ \rho)\,/\,s$")
    top_ax.set_ylabel("draw")
    top_ax.set_yticks(range(len(histograms["top_sigma_f"])))
    top_ax.set_title(rf"(c) top eigenvalues at $\ell = {ell}$, $s = {scale.scale:.3g}$")
    top_ax.set_ylim(-0.5, len(histograms["top_sigma_f"]) + 0.6)
    top_ax.legend(frameon=False, fontsize=6, loc="upper left", ncols=3)

    trend_ax = axes["L"]
    ells = series.n_tokens.astype(np.float64)
    for name, factor in (("sigma_f", 0.97), ("sigma_g", 1.03)):
        _draws_and_medians(
            trend_ax,
            ells,
            series.largest_units(name),
            COVARIANCE_COLOURS[name],
            rf"$\lambda_{{\max}}$({COVARIANCE_TEX[name]})",
            factor,
        )
    trend_ax.axhline(0.0, color=THEORY_COLOUR, lw=1.0, label="edge of $\\rho$")
    trend_ax.plot(
        ells,
        [s.units(s.tracy_widom_mean) for s in series.scales],
        color="0.3",
        lw=0.8,
        ls="--",
        label=r"$\Sigma_G$: $\mathbb{E}[TW_1]$",
    )
    trend_ax.plot(
        ells,
        [s.units(s.tracy_widom_q99) for s in series.scales],
        color="0.3",
        lw=0.8,
        ls=":",
        label=r"$\Sigma_G$: $TW_1$ 99th percentile",
    )
    trend_ax.set_xscale("log", base=2)
    trend_ax.set_xlabel(r"$\ell$")
    trend_ax.set_ylabel(r"$(\lambda_{\max} - \mathrm{edge\ of}\ \rho)\,/\,s_\ell$")
    trend_ax.set_title(
        r"(d) largest eigenvalue in Tracy–Widom units $s_\ell \propto \ell^{-2/3}$"
        r" (an outlier would grow like $\ell^{2/3}$)"
    )
    low, high = trend_ax.get_ylim()
    trend_ax.set_ylim(low, high + 0.35 * (high - low))
    trend_ax.legend(frameon=False, fontsize=6.5, ncols=3, loc="upper right")

    ks_ax = axes["K"]
    for name in COVARIANCES:
        ks_ax.plot(
            ells,
            series.kolmogorov[name],
            marker="o",
            ms=4,
            color=COVARIANCE_COLOURS[name],
            label=COVARIANCE_TEX[name],
        )
    ks_ax.set_xscale("log", base=2)
    ks_ax.set_yscale("log")
    ks_ax.set_xlabel(r"$\ell$")
    ks_ax.set_ylabel(r"$\sup_x |F_{\mathrm{pooled}}(x) - F_\rho(x)|$")
    ks_ax.set_title(r"(e) Kolmogorov distance to $\rho$")
    ks_ax.legend(frameon=False, fontsize=6.5)
    figure.suptitle(
        rf"Population spectra given $K$ against $\rho = a + b\,\mathrm{{MP}}_c$, "
        rf"$\beta = {series.beta:g}$, $c = {series.ratio:g}$ ($s_\ell$: Tracy–Widom scale of "
        r"$\lambda_{\max}(\Sigma_G)$)",
        fontsize=9,
    )
    return figure


def _tracy_widom_references(ax, scale, *, vertical: bool) -> None:
    """The edge of rho (0), and the finite-ell Tracy–Widom mean and 99th percentile of
    Sigma_G's top eigenvalue, in units of s from the edge of rho."""
    line = ax.axvline if vertical else ax.axhline
    line(0.0, color=THEORY_COLOUR, lw=1.0, label="edge of $\\rho$")
    line(
        float(scale.units(scale.tracy_widom_mean)),
        color="0.3",
        lw=0.8,
        ls="--",
        label=r"$\mathbb{E}[TW_1]$",
    )
    line(
        float(scale.units(scale.tracy_widom_q99)), color="0.3", lw=0.8, ls=":", label=r"$TW_1$ 99 %"
    )


def population_plotted_rows(histograms: Mapping, series: PopulationSeries) -> Iterator[tuple]:
    """Every number drawn in :func:`plot_population`:
    rows (panel, covariance, series, n_tokens, index, x, y)."""
    ell = int(series.n_tokens[-1])
    centres = 0.5 * (histograms["bin_edges"][1:] + histograms["bin_edges"][:-1])
    for name in COVARIANCES:
        for i, (x, y) in enumerate(zip(centres, histograms[f"density_{name}"], strict=True)):
            yield ("histogram", name, "density", ell, i, float(x), float(y))
        for draw, values in enumerate(histograms[f"top_{name}"]):
            for rank, value in enumerate(values):
                units = float(series.scales[-1].units(value))
                yield ("top_eigenvalues", name, f"draw{draw}", ell, rank, units, float(value))
        for i, ell_i in enumerate(series.n_tokens):
            for draw, units in enumerate(series.largest_units(name)[i]):
                yield (
                    "largest_in_tw_units",
                    name,
                    "draw",
                    int(ell_i),
                    draw,
                    float(ell_i),
                    float(units),
                )
            yield (
                "kolmogorov",
                name,
                "pooled",
                int(ell_i),
                "",
                float(ell_i),
                float(series.kolmogorov[name][i]),
            )
    for i, (x, y) in enumerate(
        zip(histograms["theory_x"], histograms["theory_density"], strict=True)
    ):
        yield ("histogram", "", "rho_density", ell, i, float(x), float(y))
    for i, (ell_i, s) in enumerate(zip(series.n_tokens, series.scales, strict=True)):
        yield (
            "largest_in_tw_units",
            "",
            "tw1_mean",
            int(ell_i),
            i,
            float(ell_i),
            float(s.units(s.tracy_widom_mean)),
        )
        yield (
            "largest_in_tw_units",
            "",
            "tw1_q99",
            int(ell_i),
            i,
            float(ell_i),
            float(s.units(s.tracy_widom_q99)),
        )
        yield ("edge", "", "rho_edge", int(ell_i), i, float(ell_i), s.rho_edge)
        yield ("edge", "", "tw_scale", int(ell_i), i, float(ell_i), s.scale)
