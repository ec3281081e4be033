"""Figures A3 and A7, drawn with seaborn from their tidy tables
(:data:`attnspec.experiments.bulk_laws.BULK_LAWS_PLOTTED_HEADER`, ``RATIOS_PLOTTED_HEADER``):
``sns.histplot`` (stat="density") of the pooled bulk against nu_inf and the MP surrogate,
``sns.ecdfplot`` (complementary) of the edge region, one ``sns.FacetGrid`` panel per c for A7.

The histograms have ``bins`` bins over the range of the panel's theory curves and continue with
the same width over every value beyond it, so the bars are normalised by all pooled values (the
bars beyond the axis are not shown; their number is)."""

import numpy as np
import pandas as pd
import seaborn as sns

from attnspec.plotting.style import (
    DATA_COLOUR,
    REFERENCE_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    apply_style,
    log_axis,
    new_figure,
)

ATTENTION_LABEL = r"$\sqrt{\ell}\,A^{\perp}$ bulk"
LINEAR_LABEL = r"$Y_{\mathrm{lin}}$ (limit $\nu_\infty$)"
ANNOTATION_BOX = {
    "boxstyle": "round,pad=0.25",
    "facecolor": "white",
    "edgecolor": "0.8",
    "alpha": 0.9,
}


def _series(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    return frame[frame["series"] == name]


def _scalar(frame: pd.DataFrame, name: str, model=None) -> float:
    rows = _series(frame, name)
    if model is not None:
        rows = rows[rows["model"] == model]
    return float(rows["value"].iloc[0])


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
    n = int((bulk["value"] > top).sum())
    return f"\n{n} value{'s' * (n != 1)} beyond axis (max {bulk['value'].max():.3g})" if n else ""


def _bulk_first(handles: dict) -> dict:
    """Legend entries (label -> handle) with the bulk's bars first."""
    return {ATTENTION_LABEL: handles[ATTENTION_LABEL]} | handles


def _curve(ax, frame: pd.DataFrame, series: str, **style) -> None:
    rows = _series(frame, series)
    ax.plot(rows["x"], rows["value"], **style)


# A3 ---------------------------------------------------------------------------------------
def plot_bulk_laws(frame: pd.DataFrame, *, n_tokens: int, bins: int, verdicts=None):
    """Figure A3: per beta (columns), top: density histogram of the pooled bulk with nu_inf,
    the MP surrogate and Y_lin, both right edges marked; bottom: the edge region, fraction of
    the bulk at or above x on a log scale, with the statistic of row A.4: the share of the bulk
    above 4 theta1 against nu_inf's mass there (the MP surrogate has none).
    ``verdicts`` maps a judged beta to the label of its A.4 row (from the claims table)."""
    verdicts = verdicts or {}
    betas = list(dict.fromkeys(frame["beta"]))
    figure, axes = new_figure(2, len(betas), width=3.1 * len(betas), height=5.6)
    for column, beta in enumerate(betas):
        top, bottom = axes[0, column], axes[1, column]
        panel = frame[frame["beta"] == beta]
        bulk = _series(panel, "bulk")
        attention, linear = bulk[bulk["model"] == "attention"], bulk[bulk["model"] == "linear"]
        x_plus, mp_edge = _scalar(panel, "x_plus"), _scalar(panel, "mp_edge")
        densities = panel[panel["series"].isin(["nu_inf_density", "mp_density"])]
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
            top, panel, "mp_density", color=SURROGATE_COLOUR, lw=1.3, ls="--",
            label=r"MP surrogate $\theta_1\,\mathrm{MP}_1$",
        )  # fmt: skip
        for ax in (top, bottom):
            ax.axvline(
                x_plus, color=THEORY_COLOUR, ls=":", lw=1.0, label=r"$x_+$ (edge of $\nu_\infty$)"
            )
            ax.axvline(
                mp_edge, color=SURROGATE_COLOUR, ls=":", lw=1.0, label=r"$4\theta_1$ (MP edge)"
            )
        top.set_ylim(0, y_max)
        top.set_xlim(0, reach)
        verdict = f"\n{verdicts[beta]}" if beta in verdicts else "\n(beta not judged: out of reach)"
        top.text(
            0.97,
            0.96,
            "distance of the bulk to\n"
            f"$\\nu_\\infty$: KS {_scalar(panel, 'pooled_ks', 'nu_inf'):.3f}, "
            f"$W_1$ {_scalar(panel, 'pooled_w1', 'nu_inf'):.3g}\n"
            f"MP: KS {_scalar(panel, 'pooled_ks', 'mp'):.3f}, "
            f"$W_1$ {_scalar(panel, 'pooled_w1', 'mp'):.3g}"
            + verdict
            + _beyond_note(attention, reach),
            transform=top.transAxes, ha="right", va="top", fontsize=6.5, bbox=ANNOTATION_BOX,
        )  # fmt: skip
        top.set_title(f"$\\beta = {beta:g}$:  $x_+ = {x_plus:.4g}$,  $4\\theta_1 = {mp_edge:.4g}$")
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
        _curve(bottom, panel, "mp_fraction_above", color=SURROGATE_COLOUR, lw=1.3, ls="--")
        log_axis(bottom.yaxis, nonpositive="mask")
        # Down to half the smallest empirical fraction, 1/n (n pooled values).
        bottom.set_ylim(0.5 / len(attention), 0.3)
        bottom.set_xlim(float(_series(panel, "nu_inf_fraction_above")["x"].min()), reach)
        mass = _series(panel, "mass_above_4theta1").groupby("model", sort=False)["value"]
        means, spread = mass.mean(), mass.std(ddof=1)
        bottom.text(
            0.97,
            0.96,
            r"A.4: share above $4\theta_1$ per draw, mean"
            f"\nbulk {means['attention']:.4f} (sd {spread['attention']:.4f})\n"
            f"$Y_{{\\mathrm{{lin}}}}$ {means['linear']:.4f}\n"
            f"$\\nu_\\infty$ {means['nu_inf']:.4f},  MP 0",
            transform=bottom.transAxes, ha="right", va="top", fontsize=6.5, bbox=ANNOTATION_BOX,
        )  # fmt: skip
        bottom.set_xlabel("$s^2$ (edge region)")
        bottom.set_ylabel(r"fraction of the bulk $\geq s^2$" if column == 0 else "")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    handles = _bulk_first(dict(zip(labels, handles, strict=True)))
    figure.legend(
        handles.values(), handles.keys(), loc="outside lower center", ncols=len(handles),
        frameon=False,
    )  # fmt: skip
    n_draws = _series(frame, "bulk").groupby(["beta", "model"])["draw"].nunique().min()
    figure.suptitle(
        "Claim A.4, $\\nu_\\infty$ is not Marchenko–Pastur: "
        f"bulk of $\\sqrt{{\\ell}}A^\\perp$ ($\\ell = {n_tokens}$, {n_draws} draws pooled)\n"
        r"against $\nu_\infty$ (red) and the iid-scores surrogate "
        r"$\theta_1\,\mathrm{MP}_1$ (green)",
        fontsize=9,
    )
    return figure


# A7 ---------------------------------------------------------------------------------------
def _ratio_title(panel: pd.DataFrame, n_tokens: int) -> str:
    first = panel.iloc[0]
    c, d_qk = float(first["c"]), int(first["d_qk"])
    if first["sampler"] == "literal":
        d_model = int(first["d_model"])
        return (
            f"literal $X$: $\\gamma = \\ell/d = {n_tokens / d_model:.3g}$ ($d = {d_model}$), "
            f"$c = {c:.3g}$"
        )
    return f"$c = \\ell/d_{{qk}} = {c:.3g}$ ($d_{{qk}} = {d_qk}$)"


def plot_ratios(frame: pd.DataFrame, *, n_tokens: int, beta: float, bins: int):
    """Figure A7: one ``FacetGrid`` panel per c = ell/d_qk (then the literal-X case): density
    histogram of the pooled bulk with nu_inf(beta, c), its right edge, its internal gaps
    (shaded) and, in dark grey short dashes, nu_inf at the swapped ratio d_qk/ell (the common
    mistake)."""
    apply_style()
    bulk = _series(frame, "bulk")
    grid = sns.FacetGrid(
        bulk, col="panel", col_wrap=3, sharex=False, sharey=False, height=2.6, aspect=3.1 / 2.6,
        despine=False,
    )  # fmt: skip
    handles = {}
    for name, ax in grid.axes_dict.items():
        panel = frame[frame["panel"] == name]
        c = float(panel["c"].iloc[0])
        curve = _series(panel, "nu_inf_density")
        reach = float(curve["x"].max())
        values = _series(panel, "bulk")
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
                ax, panel, "nu_inf_swapped_ratio_density", color=REFERENCE_COLOUR, lw=0.8,
                ls=(0, (2, 2)), label=r"$\nu_\infty(\beta, 1/c)$ (wrong $c = d_{qk}/\ell$)",
            )  # fmt: skip
        x_plus = _scalar(panel, "x_plus")
        ax.axvline(x_plus, color=THEORY_COLOUR, ls=":", lw=1.0, label="$x_+$")
        for start, end in zip(
            _series(panel, "gap_start")["value"], _series(panel, "gap_end")["value"], strict=True
        ):
            ax.axvspan(start, end, color="0.85", lw=0, label="gap in the support")
        ax.set_ylim(0, y_max)
        ax.set_xlim(0, reach)
        ax.text(
            0.97,
            0.96,
            f"KS {_scalar(panel, 'ks'):.3f}, $W_1$ {_scalar(panel, 'w1'):.3g}\n"
            + (
                f"KS to $\\nu_\\infty(\\beta, 1/c)$: {_scalar(panel, 'ks_swapped'):.3f}\n"
                if c != 1.0
                else ""
            )
            + f"$x_+ = {x_plus:.4g}$"
            + _beyond_note(values, reach),
            transform=ax.transAxes, ha="right", va="top", fontsize=6.5, bbox=ANNOTATION_BOX,
        )  # fmt: skip
        ax.set_title(_ratio_title(panel, n_tokens), fontsize=8)
        ax.set_xlabel("$s^2$")
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    grid.set_ylabels("density")
    sns.despine(fig=grid.figure)
    n_draws = bulk.groupby("panel")["draw"].nunique().min()
    grid.figure.suptitle(
        f"$\\nu_\\infty$ across the proportional regime, $c = \\ell/d_{{qk}}$: bulk of "
        f"$\\sqrt{{\\ell}}A^\\perp$ ($\\ell = {n_tokens}$, $\\beta = {beta:g}$, {n_draws} draws "
        r"pooled), $\nu_\infty$ in red (right edge $x_+$ dotted)",
        fontsize=9,
    )
    grid.tight_layout(rect=(0, 0.05, 1, 1))
    handles = _bulk_first(handles)
    grid.figure.legend(
        handles.values(), handles.keys(), loc="lower center", ncols=len(handles), frameon=False
    )
    return grid.figure
