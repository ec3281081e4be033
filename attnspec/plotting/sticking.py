"""Figures B1-B3 layout (paper B): the leading non-Perron values of A against ell (log axes).

B1: one panel per (c, beta): ell s_k(A)^2, k = 2..top_k (median over draws, with the 10-90 %
band from at least MIN_BAND_DRAWS draws, else the individual draws), the Gaussian reference
s_{k-1}(Y_lin)^2 (dashed) and x_+ (black). B2: (a) |relative gap| of ell s_2(A)^2 with its
fitted rate (95 % interval) and the Tracy-Widom expectation; (b) ell s_2(A)^2 per draw against
the spike prediction K(1/theta_max)^2; (c) IPR of the top singular vectors against the
delocalised 3/ell. B3: D = max over 2 <= k <= k_ell of the relative deviation for three
schedules k_ell, with its value at the classical locations under nu_inf. Verdict labels come
from the judged claims table (no figure computes a verdict).
"""

from collections.abc import Mapping, Sequence

import matplotlib as mpl
import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter

from attnspec.experiments.sticking import uniform_index_counts
from attnspec.experiments.sticking_evidence import JUDGED_BETAS, edge_row, uniform_row
from attnspec.experiments.sticking_summary import (
    MIN_BAND_DRAWS,
    SCHEDULE_LABELS,
    SCHEDULES,
    StickingSeries,
    band,
    classical_deviations,
    gap_rate,
    linear_relative_gaps,
    relative_gaps,
    spike_correlation,
    spike_predictions,
    tracy_widom_expectation,
    uniform_deviations,
)
from attnspec.plotting.style import REFERENCE_COLOUR, apply_style, new_figure

BETA_COLOURS = ("#4C72B0", "#DD8452", "#8172B3", "#55A868", "#937860", "#DA8BC3")
SCHEDULE_COLOURS = {"log": "#4C72B0", "cube_root": "#DD8452", "square_root": "#55A868"}
# Drawn largest k_ell first and widest, so that coinciding curves (when the k = 2 excursion
# dominates D) stay visible.
SCHEDULE_STYLES = {
    "square_root": {"marker": "^", "lw": 2.4, "ms": 6},
    "cube_root": {"marker": "s", "lw": 1.6, "ms": 4.5},
    "log": {"marker": "o", "lw": 0.9, "ms": 3},
}


def _k_colours(top_k: int) -> list:
    """One colour per k = 2..top_k, dark (k = 2) to light."""
    cmap = mpl.colormaps["viridis"]
    return [cmap(0.85 * i / max(1, top_k - 2)) for i in range(top_k - 1)]


def _log2_ell_axis(ax, ells) -> None:
    ax.set_xscale("log", base=2)
    ax.set_xticks(ells)
    ax.xaxis.set_major_formatter(FormatStrFormatter("%d"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(r"$\ell$")


def _log_y_axis(ax) -> None:
    """Log y axis labelled at 1, 2, 5 x 10^n in plain numbers."""
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def _beta_colour(series: Sequence[StickingSeries], beta: float) -> str:
    betas = sorted({s.beta for s in series})
    return BETA_COLOURS[betas.index(beta) % len(BETA_COLOURS)]


def banded(values: np.ndarray) -> bool:
    """Whether the draws (axis 0) are enough for a 10-90 % band."""
    return np.shape(values)[0] >= MIN_BAND_DRAWS


def _spread(ax, ells, per_ell, colour, alpha=0.18) -> None:
    """The 10-90 % band over draws where every ell has MIN_BAND_DRAWS draws, else the draws."""
    if all(banded(v) for v in per_ell):
        q10, _, q90 = np.array([band(v) for v in per_ell]).T
        ax.fill_between(ells, q10, q90, color=colour, alpha=alpha, lw=0)
        return
    for ell, values in zip(ells, per_ell, strict=True):
        ax.plot(np.full(np.size(values), ell), values, ls="none", marker=".", ms=2, color=colour)


def _spread_key(series: Sequence[StickingSeries], colour) -> object:
    """The legend entry of :func:`_spread`: a band, or the draws' dots."""
    if all(banded(a) for s in series for a in s.attention):
        return Patch(color=colour, alpha=0.18, label="10-90 % over draws")
    return Line2D(
        [], [], ls="none", marker=".", ms=3, color=colour,
        label=f"each draw (fewer than {MIN_BAND_DRAWS}: no band)",
    )  # fmt: skip


def plot_sticking(series: Sequence[StickingSeries], labels: Mapping[float, str]) -> object:
    """Figure B1: one row per c (c = 1 first), one panel per beta (see the module docstring).

    ``labels`` maps each c = 1 beta to the text shown under its title (its B.1 verdict label
    from the claims table, or why it is not judged).
    """
    apply_style()
    ratios = sorted({s.ratio for s in series}, key=lambda c: (c != 1.0, c))
    rows = [[s for s in series if s.ratio == c] for c in ratios]
    n_cols = max(len(row) for row in rows)
    figure, axes = new_figure(len(rows), n_cols, width=3.3 * n_cols, height=2.9 * len(rows))
    for row_axes, row in zip(axes, rows, strict=True):
        for ax in row_axes[len(row) :]:
            ax.set_axis_off()
        for ax, s in zip(row_axes, row, strict=False):
            _sticking_panel(ax, s, labels.get(s.beta) if s.ratio == 1.0 else None)
    handles = _sticking_legend(series)
    spare = [ax for row_axes, row in zip(axes, rows, strict=True) for ax in row_axes[len(row) :]]
    if spare:
        spare[0].legend(handles=handles, frameon=False, loc="center", fontsize=7.5)
    else:
        figure.legend(handles=handles, frameon=False, loc="outside lower center", ncol=4)
    figure.suptitle(
        r"B1: $\ell\,s_k(A)^2$ for $k\geq 2$ against $\ell$: median over draws (solid), "
        rf"10-90 % band from $\geq {MIN_BAND_DRAWS}$ draws (else each draw); dashed: Gaussian "
        r"reference $s_{k-1}(Y_{lin})^2$; black: bulk edge $x_+$",
        fontsize=9,
    )
    return figure


def _sticking_panel(ax, s: StickingSeries, verdict: str | None) -> None:
    colours = _k_colours(s.top_k)
    ells = s.n_tokens
    for i, k in enumerate(range(2, s.top_k + 1)):
        per_ell = [a[:, k - 1] for a in s.attention]
        _spread(ax, ells, per_ell, colours[i])
        median = [np.median(v) for v in per_ell]
        ax.plot(ells, median, color=colours[i], lw=1.3, marker="o", ms=3, label=f"$k={k}$")
        linear = [np.median(v[:, k - 2]) for v in s.linear]
        ax.plot(ells, linear, color=colours[i], lw=0.9, ls="--")
    ax.axhline(s.x_plus, color="black", lw=1.1)
    top = max(float(np.max(a[:, 1])) for a in s.attention)
    if top > 3 * s.x_plus:
        _log_y_axis(ax)
    _log2_ell_axis(ax, ells)
    ax.set_ylabel(r"$\ell\,s_k(A)^2$")
    draws = "/".join(str(n) for n in sorted({a.shape[0] for a in s.attention}))
    title = rf"$c = {s.ratio:g}$, $\beta = {s.beta:g}$: $x_+ = {s.x_plus:.4g}$, {draws} draws"
    if verdict:
        title += "\n" + verdict
    ax.set_title(title, fontsize=8)


def _sticking_legend(series: Sequence[StickingSeries]) -> list:
    top_k = max(s.top_k for s in series)
    colours = _k_colours(top_k)
    handles = [
        Line2D([], [], color=colours[i], lw=1.3, marker="o", ms=3, label=rf"$\ell s_{k}(A)^2$")
        for i, k in enumerate(range(2, top_k + 1))
    ]
    return handles + [
        _spread_key(series, colours[0]),
        Line2D([], [], color=REFERENCE_COLOUR, lw=0.9, ls="--", label=r"$s_{k-1}(Y_{lin})^2$"),
        Line2D([], [], color="black", lw=1.1, label=r"bulk edge $x_+$"),
    ]


def _spread_rows(values: np.ndarray, as_band: bool):
    """(series, y) of :func:`_spread` at one ell: q10 and q90, or each draw."""
    if as_band:
        q10, _, q90 = band(values)
        yield "q10", float(q10)
        yield "q90", float(q90)
    else:
        for draw, y in enumerate(values):
            yield f"draw{draw}", float(y)


def sticking_plotted_rows(series: Sequence[StickingSeries]):
    """Every number drawn in :func:`plot_sticking`: rows (c, beta, series, n_tokens, k, y)."""
    for s in series:
        every = all(banded(a) for a in s.attention)
        for ell, values, linear in zip(s.n_tokens, s.attention, s.linear, strict=True):
            for k in range(2, s.top_k + 1):
                column = values[:, k - 1]
                yield (s.ratio, s.beta, "median", int(ell), k, float(np.median(column)))
                for name, y in _spread_rows(column, every):
                    yield (s.ratio, s.beta, name, int(ell), k, y)
                yield (
                    s.ratio,
                    s.beta,
                    "linear_median",
                    int(ell),
                    k,
                    float(np.median(linear[:, k - 2])),
                )
            yield (s.ratio, s.beta, "x_plus", int(ell), "", s.x_plus)


def plot_gap(series: Sequence[StickingSeries], *, spike_betas: Sequence[float]) -> object:
    """Figure B2 from the c = 1 series: (a) relative gap, (b) spikes, (c) localisation."""
    apply_style()
    figure, axes = new_figure(1, 3, width=11.0, height=4.6)
    gap_ax, spike_ax, ipr_ax = axes[0]
    for s in series:
        colour = _beta_colour(series, s.beta)
        _gap_panel(gap_ax, s, colour)
        if s.beta in spike_betas:
            _spike_panel(spike_ax, s, colour)
        _ipr_panel(ipr_ax, s, colour)
    ells = np.unique(np.concatenate([s.n_tokens for s in series]))
    _log_y_axis(gap_ax)
    gap_ax.set_ylabel(r"$|\ell s_2(A)^2 - x_+| / x_+$")
    gap_ax.set_title("(a) relative gap of the top non-Perron value", fontsize=8)
    gap_ax.legend(
        handles=gap_ax.get_legend_handles_labels()[0] + _gap_key(),
        frameon=False,
        fontsize=6.5,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.16),
        ncol=2,
    )
    spike_ax.set_xscale("log")
    spike_ax.set_yscale("log")
    limits = np.array([spike_ax.get_xlim(), spike_ax.get_ylim()])
    diagonal = [limits[:, 0].min(), limits[:, 1].max()]
    spike_ax.plot(diagonal, diagonal, color=REFERENCE_COLOUR, lw=0.9, ls=":", label="$y = x$")
    spike_ax.set_xlabel(
        r"spike prediction $K(1/\theta_{max})^2$ (open: $\theta_{max} \leq 1/G^*$, "
        r"shown at $x_+$)"
    )
    spike_ax.set_ylabel(r"$\ell s_2(A)^2$ (each draw)")
    spike_ax.set_title(
        r"(b) one entry as a rank-one spike: $\theta_{max} = \max|\sqrt{\ell}A^\perp_{ij}|$",
        fontsize=8,
    )
    spike_ax.legend(frameon=False, fontsize=6, loc="upper left")
    grid = np.geomspace(ells[0], ells[-1], 50)
    ipr_ax.plot(grid, 3.0 / grid, color="black", lw=1.0, ls="--", label=r"delocalised $3/\ell$")
    ipr_ax.set_yscale("log")
    ipr_ax.set_ylabel(r"IPR $\sum_i v_i^4$ of the $k = 2$ singular vectors")
    ipr_ax.set_title("(c) localisation of the top non-Perron singular vectors", fontsize=8)
    ipr_ax.legend(
        handles=ipr_ax.get_legend_handles_labels()[0] + _ipr_key(),
        frameon=False,
        fontsize=6.5,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.16),
        ncol=3,
    )
    for ax in (gap_ax, ipr_ax):
        _log2_ell_axis(ax, ells)
    figure.suptitle(
        r"B2: approach of $\ell s_2(A)^2$ to $x_+$ ($c = 1$): where it is visible and, where it "
        "is not, the spike mechanism behind the excursions",
        fontsize=9,
    )
    return figure


def _gap_panel(ax, s: StickingSeries, colour) -> None:
    """Draws (dots), medians (filled: above x_+, open: below), the fit and the TW expectation."""
    ells = s.n_tokens
    gaps = relative_gaps(s)
    for ell, g in zip(ells, gaps, strict=True):
        ax.plot(
            np.full(g.size, ell), np.abs(g), ls="none", marker=".", ms=2.5, color=colour, alpha=0.4
        )
    medians = np.array([np.median(g) for g in gaps])
    for above in (True, False):
        keep = (medians > 0) == above
        ax.plot(
            ells[keep],
            np.abs(medians[keep]),
            ls="none",
            marker="o",
            ms=5,
            color=colour,
            mfc=colour if above else "white",
        )
    linear = np.array([np.median(g) for g in linear_relative_gaps(s)])
    ax.plot(ells, np.abs(linear), ls="none", marker="x", ms=4, color=colour)
    fit = gap_rate(s)
    ends = ells[[0, -1]].astype(np.float64)
    if np.isfinite(fit.slope):
        ax.plot(
            ends,
            np.exp(fit.intercept) * ends**fit.slope,
            color=colour,
            lw=1.0,
            label=rf"$\beta={s.beta:g}$: slope ${fit.slope:.2f}$ [{fit.low:.2f}, {fit.high:.2f}] "
            "(95 %)",
        )
    else:
        ax.plot([], [], color=colour, label=rf"$\beta={s.beta:g}$")
    grid = np.geomspace(ends[0], ends[1], 50)
    expected = np.abs(tracy_widom_expectation(s, grid) - s.x_plus) / s.x_plus
    ax.plot(grid, expected, color=colour, lw=0.9, ls=":")


def _gap_key() -> list:
    grey = REFERENCE_COLOUR
    return [
        Line2D([], [], ls="none", marker="o", color=grey, label="median, above $x_+$"),
        Line2D([], [], ls="none", marker="o", color=grey, mfc="white", label="median, below $x_+$"),
        Line2D([], [], ls="none", marker="x", color=grey, label="$Y_{lin}$ median"),
        Line2D([], [], color=grey, ls=":", label=r"TW: $|\gamma_{TW}\ell^{-2/3}E[TW_1]|/x_+$"),
    ]


def _spike_panel(ax, s: StickingSeries, colour) -> None:
    predicted = np.concatenate(spike_predictions(s))
    observed = np.concatenate([a[:, 1] for a in s.attention])
    supercritical = np.isfinite(predicted)
    r, count = spike_correlation(s)
    ax.plot(
        predicted[supercritical],
        observed[supercritical],
        ls="none",
        marker="o",
        ms=3.5,
        color=colour,
        label=rf"$\beta={s.beta:g}$: $r = {r:.3f}$ ({count} draws)",
    )
    ax.plot(
        np.full((~supercritical).sum(), s.x_plus),
        observed[~supercritical],
        ls="none",
        marker="o",
        ms=3.5,
        color=colour,
        mfc="white",
    )


def _ipr_panel(ax, s: StickingSeries, colour) -> None:
    ells = s.n_tokens
    for key, marker in (("ipr_left", "o"), ("ipr_right", "s")):
        values = getattr(s, key)
        for ell, v in zip(ells, values, strict=True):
            ax.plot(
                np.full(v.shape[0], ell),
                v[:, 0],
                ls="none",
                marker=".",
                ms=2.5,
                color=colour,
                alpha=0.4,
            )
        medians = [np.median(v[:, 0]) for v in values]
        ax.plot(
            ells,
            medians,
            marker=marker,
            ms=3.5,
            lw=0.9,
            color=colour,
            label=rf"$\beta={s.beta:g}$" if key == "ipr_left" else None,
        )


def _ipr_key() -> list:
    grey = REFERENCE_COLOUR
    return [
        Line2D([], [], marker="o", ms=3.5, lw=0.9, color=grey, label="left (median)"),
        Line2D([], [], marker="s", ms=3.5, lw=0.9, color=grey, label="right (median)"),
    ]


def gap_plotted_rows(series: Sequence[StickingSeries], *, spike_betas: Sequence[float]):
    """Every number drawn in :func:`plot_gap`: rows (panel, beta, series, n_tokens, draw, x, y)."""
    for s in series:
        ells = s.n_tokens
        for ell, g, lin in zip(ells, relative_gaps(s), linear_relative_gaps(s), strict=True):
            for draw, y in enumerate(g):
                yield ("gap", s.beta, "relative_gap", int(ell), draw, int(ell), float(y))
            yield (
                "gap",
                s.beta,
                "median_relative_gap",
                int(ell),
                "",
                int(ell),
                float(np.median(g)),
            )
            yield (
                "gap",
                s.beta,
                "linear_median_relative_gap",
                int(ell),
                "",
                int(ell),
                float(np.median(lin)),
            )
            expected = (tracy_widom_expectation(s, ell) - s.x_plus) / s.x_plus
            yield (
                "gap",
                s.beta,
                "tracy_widom_relative_gap",
                int(ell),
                "",
                int(ell),
                float(expected),
            )
        fit = gap_rate(s)
        for ell in (ells[0], ells[-1]):
            yield (
                "gap",
                s.beta,
                "fit_abs_relative_gap",
                int(ell),
                "",
                int(ell),
                float(np.exp(fit.intercept) * float(ell) ** fit.slope),
            )
        if s.beta in spike_betas:
            for ell, predicted, a in zip(ells, spike_predictions(s), s.attention, strict=True):
                for draw, (x, y) in enumerate(zip(predicted, a[:, 1], strict=True)):
                    series_name = "supercritical" if np.isfinite(x) else "subcritical_at_x_plus"
                    x = x if np.isfinite(x) else s.x_plus
                    yield ("spike", s.beta, series_name, int(ell), draw, float(x), float(y))
        for key in ("ipr_left", "ipr_right"):
            for ell, v in zip(ells, getattr(s, key), strict=True):
                for draw, y in enumerate(v[:, 0]):
                    yield ("ipr", s.beta, key, int(ell), draw, int(ell), float(y))
                yield (
                    "ipr",
                    s.beta,
                    f"median_{key}",
                    int(ell),
                    "",
                    int(ell),
                    float(np.median(v[:, 0])),
                )
            for ell in ells:
                yield ("ipr", s.beta, "delocalised_3_over_ell", int(ell), "", int(ell), 3.0 / ell)


def plot_uniform(series: Sequence[StickingSeries], labels: Mapping[float, str]) -> object:
    """Figure B3 from the c = 1 series: one panel per beta, D against ell per schedule;
    ``labels`` maps a beta to the text under its title (its B.2 verdict labels)."""
    apply_style()
    figure, axes = new_figure(1, len(series), width=3.5 * len(series), height=3.4)
    for ax, s in zip(axes[0], series, strict=True):
        for schedule in reversed(SCHEDULES):
            colour = SCHEDULE_COLOURS[schedule]
            deviations = uniform_deviations(s, schedule)
            _spread(ax, s.n_tokens, deviations, colour, alpha=0.15)
            median = [np.median(d) for d in deviations]
            ax.plot(
                s.n_tokens,
                median,
                color=colour,
                label=SCHEDULE_LABELS[schedule],
                **SCHEDULE_STYLES[schedule],
            )
            ax.plot(s.n_tokens, classical_deviations(s, schedule), color=colour, lw=0.9, ls="--")
        _log_y_axis(ax)
        _log2_ell_axis(ax, s.n_tokens)
        title = rf"$c = 1$, $\beta = {s.beta:g}$"
        if labels.get(s.beta):
            title += "\n" + labels[s.beta]
        ax.set_title(title, fontsize=6.5)
    axes[0, 0].set_ylabel(r"$D = \max_{2 \leq k \leq k_\ell} |\ell s_k(A)^2 - x_+| / x_+$")
    axes[0, 0].legend(
        handles=axes[0, 0].get_legend_handles_labels()[0][::-1]
        + [
            Line2D(
                [],
                [],
                color=REFERENCE_COLOUR,
                ls="--",
                lw=0.9,
                label=r"$D$ of the classical locations under $\nu_\infty$",
            ),
            _spread_key(series, REFERENCE_COLOUR),
        ],
        frameon=False,
        fontsize=6,
        loc="lower left",
    )
    figure.suptitle(
        r"B3: uniform sticking over the leading $k_\ell$ non-Perron values: median $D$ over "
        "draws (solid) against its value at the classical locations (dashed)",
        fontsize=9,
    )
    return figure


def uniform_plotted_rows(series: Sequence[StickingSeries]):
    """Every number drawn in :func:`plot_uniform`: rows (beta, schedule, series, n_tokens, k_ell,
    y)."""
    for s in series:
        every = all(banded(a) for a in s.attention)
        for schedule in SCHEDULES:
            classical = classical_deviations(s, schedule)
            for ell, d, reference in zip(
                s.n_tokens, uniform_deviations(s, schedule), classical, strict=True
            ):
                k_ell = uniform_index_counts(int(ell))[schedule]
                yield (s.beta, schedule, "median", int(ell), k_ell, float(np.median(d)))
                for name, y in _spread_rows(d, every):
                    yield (s.beta, schedule, name, int(ell), k_ell, y)
                yield (s.beta, schedule, "classical", int(ell), k_ell, float(reference))


NOT_JUDGED = "shown, not judged: supercritical spikes (B2)"


def edge_labels(betas: Sequence[float], judged: Mapping[str, str]) -> dict[float, str]:
    """Figure B1's c = 1 panel labels: ``judged`` maps a row id to its verdict label
    (:func:`attnspec.dashboard.verdict_label`); betas without a B.1 row are shown, not judged."""
    return {beta: judged.get(edge_row(beta), NOT_JUDGED) for beta in betas}


def uniform_labels(betas: Sequence[float], judged: Mapping[str, str]) -> dict[float, str]:
    """Figure B3's panel labels: the three B.2 verdict labels of a judged beta, one a line."""
    return {
        beta: "\n".join(judged[uniform_row(beta, schedule)] for schedule in SCHEDULES)
        if beta in JUDGED_BETAS
        else NOT_JUDGED
        for beta in betas
    }
