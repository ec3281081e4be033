"""Figures A3 and A7, drawn with seaborn from their tidy tables
(:func:`attnspec.papers.a.bulk_laws_plotted.bulk_laws_plotted_table`, ``ratios_plotted_table``;
rows chosen by ``kind`` and ``series``):
``sns.histplot`` (stat="density") of the pooled bulk against nu_inf and the MP surrogate,
``sns.ecdfplot`` (complementary) of the edge region, one ``sns.FacetGrid`` panel per c for A7.
Both are two columns wide; the numbers (edges, distances, the A.4 statistic) are in the
captions' tables: a panel gives at most the values beyond its x axis and, in A7, the Kolmogorov
distances to nu_inf at c and at 1/c.

The histograms have ``bins`` bins over the range of the panel's theory curves and continue with
the same width over every value beyond it, so the bars are normalised by all pooled values (the
bars beyond the axis are not shown; their number is)."""

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator, StrMethodFormatter

from attnspec.plotting.style import (
    COLOURS,
    DATA_COLOUR,
    LINE_STYLES,
    REFERENCE_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    TWO_COLUMNS,
    apply_style,
    label_panels,
    log_axis,
    new_figure,
    set_print_size,
)

ALTERNATIVE, EDGE = LINE_STYLES["alternative or quantile"], LINE_STYLES["edge or threshold"]
ATTENTION_LABEL = r"$\sqrt{\ell}\,A^{\perp}$ bulk"
LINEAR_LABEL = r"$Y_{\mathrm{lin}}$ (limit $\nu_\infty$)"
NOTE_BOX = {
    "boxstyle": "round,pad=0.2",
    "facecolor": "white",
    "edgecolor": COLOURS["guide"],
    "lw": 0.6,
}


def _series(frame: pd.DataFrame, kind: str, name: str) -> pd.DataFrame:
    return frame[(frame["kind"] == kind) & (frame["series"] == name)]


def _scalar(frame: pd.DataFrame, kind: str, name: str) -> float:
    return float(_series(frame, kind, name)["value"].iloc[0])


def _histogram(ax, values: pd.DataFrame, top: float, bins: int, **style) -> None:
    """``sns.histplot`` with ``bins`` bins on [0, top] continued to the largest value."""
    width = top / bins
    count = max(bins, int(np.ceil(values["value"].max() / width)))
    sns.histplot(
        data=values, x="value", stat="density", bins=list(width * np.arange(count + 1)), ax=ax,
        **style,
    )  # fmt: skip


def _density_ylim(ax, curves: pd.DataFrame, top: float, bins: int) -> float:
    """1.2 x the largest bar or curve value away from the x^{-1/2} peak at 0 (first bin)."""
    width = top / bins
    bars = [p.get_height() for p in ax.patches if width / 2 < p.get_x() < top]
    return 1.2 * max(bars + [curves.loc[curves["x"] > width, "value"].max()])


def _beyond_note(bulk: pd.DataFrame, top: float) -> str:
    """The number of bulk values beyond the x axis (their bars are not shown) and, on a second
    line, the largest; empty when every value is in view."""
    n = int((bulk["value"] > top).sum())
    return f"{n} beyond axis\n(max {bulk['value'].max():.3g})" if n else ""


def _note_left_of(ax, lines: list[str], edge: float) -> None:
    """The non-empty ``lines`` in a box at the top of the panel, its right side just left of
    the data x ``edge`` (the leftmost edge line, which runs the panel's full height)."""
    if any(lines):
        ax.annotate(
            "\n".join(line for line in lines if line), xy=(edge, 0.96),
            xycoords=ax.get_xaxis_transform(), xytext=(-5, 0), textcoords="offset points",
            ha="right", va="top", bbox=NOTE_BOX,
        )  # fmt: skip


def _short_density_ticks(ax) -> None:
    """At most five density ticks at 1, 2 or 5 x 10^n steps, labelled with no trailing zeros
    (0.05, not 0.050)."""
    ax.yaxis.set_major_locator(MaxNLocator(nbins=4, steps=[1, 2, 5, 10]))
    ax.yaxis.set_major_formatter(StrMethodFormatter("{x:g}"))


def _bulk_first(handles: dict, bulk) -> dict:
    """Legend entries (label -> handle) with the bulk first, drawn by ``bulk``."""
    return {ATTENTION_LABEL: bulk} | {k: h for k, h in handles.items() if k != ATTENTION_LABEL}


def _curve(ax, frame: pd.DataFrame, series: str, **style) -> None:
    """The theory curve ``series`` of ``frame``."""
    rows = _series(frame, "theory", series)
    ax.plot(rows["x"], rows["value"], **style)


# A3 ---------------------------------------------------------------------------------------
def plot_bulk_laws(frame: pd.DataFrame, *, bins: int):
    """Figure A3, two columns wide: per beta (columns), top: density histogram of the pooled
    bulk with nu_inf, the MP surrogate and Y_lin, both right edges marked (values beyond the x
    axis counted at the top, left of both edges); bottom: the edge region, fraction of the bulk
    and of Y_lin at or above x on a log scale against both laws. One legend below the panels;
    the legend's bulk entry shows its bars (top) and its line (bottom). Panel letters row by
    row."""
    betas = list(dict.fromkeys(frame["beta"]))
    figure, axes = new_figure(2, len(betas), width=TWO_COLUMNS, height=4.3)
    for column, beta in enumerate(betas):
        top, bottom = axes[0, column], axes[1, column]
        panel = frame[frame["beta"] == beta]
        bulk = _series(panel, "data", "bulk")
        attention, linear = bulk[bulk["model"] == "attention"], bulk[bulk["model"] == "linear"]
        x_plus, mp_edge = _scalar(panel, "theory", "x_plus"), _scalar(panel, "theory", "mp_edge")
        theory = panel[panel["kind"] == "theory"]
        densities = theory[theory["series"].isin(["nu_inf_density", "mp_density"])]
        reach = float(densities["x"].max())
        _histogram(
            top, attention, reach, bins, element="bars", color=DATA_COLOUR, alpha=0.55, lw=0,
            label=ATTENTION_LABEL,
        )  # fmt: skip
        y_max = _density_ylim(top, densities, reach, bins)
        _histogram(
            top, linear, reach, bins, element="step", fill=False, color=REFERENCE_COLOUR,
            lw=0.8, label=LINEAR_LABEL,
        )  # fmt: skip
        _curve(top, panel, "nu_inf_density", color=THEORY_COLOUR, lw=1.3, label=r"$\nu_\infty$")
        _curve(
            top, panel, "mp_density", color=SURROGATE_COLOUR, lw=1.3, ls=ALTERNATIVE,
            label=r"MP surrogate $\theta_1\,\mathrm{MP}_1$",
        )  # fmt: skip
        for ax in (top, bottom):
            ax.axvline(
                x_plus, color=THEORY_COLOUR, ls=EDGE, lw=1.0, label=r"$x_+$ (edge of $\nu_\infty$)"
            )
            ax.axvline(
                mp_edge, color=SURROGATE_COLOUR, ls=EDGE, lw=1.0, label=r"$4\theta_1$ (MP edge)"
            )
        top.set_ylim(0, y_max)
        _short_density_ticks(top)
        top.set_xlim(0, reach)
        _note_left_of(top, [_beyond_note(attention, reach)], min(x_plus, mp_edge))
        top.set_title(f"$\\beta = {beta:g}$")
        top.set_xlabel("$s^2$")
        top.set_ylabel("density" if column == 0 else "")
        for values, colour, width in (
            (attention, DATA_COLOUR, 1.2),
            (linear, REFERENCE_COLOUR, 0.8),
        ):
            sns.ecdfplot(
                data=values, x="value", complementary=True, color=colour, lw=width, ax=bottom
            )
        _curve(bottom, panel, "nu_inf_fraction_above", color=THEORY_COLOUR, lw=1.3)
        _curve(bottom, panel, "mp_fraction_above", color=SURROGATE_COLOUR, lw=1.3, ls=ALTERNATIVE)
        log_axis(bottom.yaxis, nonpositive="mask")
        # Down to half the smallest empirical fraction, 1/n (n pooled values).
        bottom.set_ylim(0.5 / len(attention), 0.3)
        bottom.set_xlim(float(_series(panel, "theory", "nu_inf_fraction_above")["x"].min()), reach)
        bottom.set_xlabel("$s^2$ (edge region)")
        bottom.set_ylabel(r"fraction $\geq s^2$" if column == 0 else "")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    line = Line2D([], [], color=DATA_COLOUR, lw=1.2)
    handles = _bulk_first(
        dict(zip(labels, handles, strict=True)), (handles[labels.index(ATTENTION_LABEL)], line)
    )
    figure.legend(
        handles.values(), handles.keys(), loc="outside lower center", ncols=3, frameon=False,
        handler_map={tuple: HandlerTuple(ndivide=None)},
    )  # fmt: skip
    label_panels(axes.ravel())
    return figure


# A7 ---------------------------------------------------------------------------------------
def _ratio_title(panel: pd.DataFrame, n_tokens: int) -> str:
    first = panel.iloc[0]
    c, d_qk = float(first["c"]), int(first["d_qk"])
    if first["sampler"] == "literal":
        gamma = n_tokens / int(first["d_model"])
        return f"literal $X$: $\\gamma = \\ell/d = {gamma:.3g}$, $c = {c:.3g}$"
    return f"$c = {c:.3g}$ ($d_{{qk}} = {d_qk}$)"


def plot_ratios(frame: pd.DataFrame, *, n_tokens: int, bins: int):
    """Figure A7, two columns wide: one ``FacetGrid`` panel per c = ell/d_qk (then the
    literal-X case): density histogram of the pooled bulk with nu_inf(beta, c) (solid), its
    right edge (dotted), its internal gaps (shaded) and, dashed in the same colour,
    nu_inf at the swapped ratio d_qk/ell (the common mistake), the Kolmogorov distances to both
    at the top, left of x_+. One legend below the panels; panel letters row by row."""
    apply_style()
    bulk = _series(frame, "data", "bulk")
    grid = sns.FacetGrid(
        bulk, col="panel", col_wrap=3, sharex=False, sharey=False, height=1.9, aspect=1.2,
        despine=False,
    )  # fmt: skip
    set_print_size(grid.figure, width=TWO_COLUMNS, height=1.9 * np.ceil(grid.axes.size / 3) + 0.7)
    handles = {}
    for name, ax in grid.axes_dict.items():
        panel = frame[frame["panel"] == name]
        c = float(panel["c"].iloc[0])
        curve = _series(panel, "theory", "nu_inf_density")
        reach = float(curve["x"].max())
        values = _series(panel, "data", "bulk")
        _histogram(
            ax, values, reach, bins, element="bars", color=DATA_COLOUR, alpha=0.55, lw=0,
            label=ATTENTION_LABEL,
        )  # fmt: skip
        y_max = _density_ylim(ax, curve, reach, bins)
        ax.plot(
            curve["x"], curve["value"], color=THEORY_COLOUR, lw=1.3, label=r"$\nu_\infty(\beta, c)$"
        )
        if c != 1.0:
            _curve(
                ax, panel, "nu_inf_swapped_ratio_density", color=THEORY_COLOUR, lw=0.9,
                ls=ALTERNATIVE, label=r"$\nu_\infty(\beta, 1/c)$ (wrong $c = d_{qk}/\ell$)",
            )  # fmt: skip
        x_plus = _scalar(panel, "theory", "x_plus")
        ax.axvline(x_plus, color=THEORY_COLOUR, ls=EDGE, lw=1.0, label="$x_+$")
        for start, end in zip(
            _series(panel, "theory", "gap_start")["value"],
            _series(panel, "theory", "gap_end")["value"],
            strict=True,
        ):
            ax.axvspan(start, end, color=COLOURS["guide"], lw=0, label="gap in the support")
        ax.set_ylim(0, y_max)
        ax.set_xlim(0, reach)
        ks = f"KS {_scalar(panel, 'statistic', 'ks_to_nu_inf'):.3f}"
        if c != 1.0:
            ks += f"; at $1/c$: {_scalar(panel, 'statistic', 'ks_to_nu_inf_swapped_ratio'):.3f}"
        _note_left_of(ax, [ks, _beyond_note(values, reach)], x_plus)
        ax.set_title(_ratio_title(panel, n_tokens))
        ax.set_xlabel("$s^2$")
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    grid.set_ylabels("density")
    sns.despine(fig=grid.figure)
    label_panels(grid.axes_dict.values())
    handles = _bulk_first(handles, handles[ATTENTION_LABEL])
    grid.figure.legend(
        handles.values(), handles.keys(), loc="outside lower center", ncols=len(handles),
        frameon=False,
    )  # fmt: skip
    return grid.figure
