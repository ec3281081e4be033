"""Figures A3 and A7 layout: bulk histograms against nu_inf, the MP surrogate and the ratio c."""

import math
from collections.abc import Iterator, Mapping, Sequence

import numpy as np

from attnspec.experiments.bulk_laws import separations
from attnspec.plotting.style import (
    DATA_COLOUR,
    REFERENCE_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    apply_style,
    new_figure,
)

BULK_LAWS_PLOTTED_HEADER = ("beta", "panel", "series", "x", "y")
RATIOS_PLOTTED_HEADER = ("panel", "c", "series", "x", "y")
ATTENTION_LABEL = r"$\sqrt{\ell}\,A^{\perp}$ bulk"
LINEAR_LABEL = r"$Y_{\mathrm{lin}}$ (limit $\nu_\infty$)"
ANNOTATION_BOX = {
    "boxstyle": "round,pad=0.25",
    "facecolor": "white",
    "edgecolor": "0.8",
    "alpha": 0.9,
}


def _density_ylim(panel: Mapping, histogram_key: str, curves: Sequence[str]) -> float:
    """Upper y limit: 1.2 x the largest bar or curve value away from the x^{-1/2} peak at 0."""
    edges, x = panel["edges"], panel["theory_x"]
    away = x > edges[1]
    peaks = [np.max(panel[histogram_key][1:])] + [np.max(panel[c][away]) for c in curves]
    return 1.2 * max(peaks)


def _beyond_note(panel: Mapping) -> str:
    n = int(panel["n_beyond"])
    return (
        f"\n{n} value{'s' * (n != 1)} beyond axis (max {float(panel['largest']):.3g})" if n else ""
    )


def plot_bulk_laws(
    panels: Sequence[Mapping],
    *,
    n_tokens: int,
    n_draws: int,
    verdicts: Mapping[float, str] | None = None,
):
    """Figure A3: per beta (columns), top: density histogram of the pooled bulk with nu_inf,
    the MP surrogate and Y_lin, both right edges marked; bottom: the edge region, fraction of
    the bulk at or above x on a log scale (the MP surrogate has none above 4 theta1).
    ``verdicts`` maps a judged beta to the label of its A.4 row (from the claims table)."""
    verdicts = verdicts or {}
    apply_style()
    figure, axes = new_figure(2, len(panels), width=3.1 * len(panels), height=5.6)
    for column, panel in enumerate(panels):
        top, bottom = axes[0, column], axes[1, column]
        x_plus, mp_edge = float(panel["x_plus"]), float(panel["mp_edge"])
        edges = panel["edges"]
        top.stairs(
            panel["density_attention"],
            edges,
            fill=True,
            color=DATA_COLOUR,
            alpha=0.55,
            label=ATTENTION_LABEL,
        )
        top.stairs(
            panel["density_linear"], edges, color=REFERENCE_COLOUR, lw=0.8, label=LINEAR_LABEL
        )
        top.plot(
            panel["theory_x"],
            panel["density_nu_inf"],
            color=THEORY_COLOUR,
            lw=1.3,
            label=r"$\nu_\infty$",
        )
        top.plot(
            panel["theory_x"],
            panel["density_mp"],
            color=SURROGATE_COLOUR,
            lw=1.3,
            ls="--",
            label=r"MP surrogate $\theta_1\,\mathrm{MP}_1$",
        )
        for ax in (top, bottom):
            ax.axvline(
                x_plus, color=THEORY_COLOUR, ls=":", lw=1.0, label=r"$x_+$ (edge of $\nu_\infty$)"
            )
            ax.axvline(
                mp_edge, color=SURROGATE_COLOUR, ls=":", lw=1.0, label=r"$4\theta_1$ (MP edge)"
            )
        top.set_ylim(0, _density_ylim(panel, "density_attention", ["density_nu_inf", "density_mp"]))
        top.set_xlim(0, edges[-1])
        beta = float(panel["beta"])
        verdict = f"\n{verdicts[beta]}" if beta in verdicts else "\n(beta not judged: out of reach)"
        top.text(
            0.97,
            0.96,
            "distance of the bulk to\n"
            f"$\\nu_\\infty$: KS {float(panel['pooled_ks_attention_nu_inf']):.3f}, "
            f"$W_1$ {float(panel['pooled_w1_attention_nu_inf']):.3g}\n"
            f"MP: KS {float(panel['pooled_ks_attention_mp']):.3f}, "
            f"$W_1$ {float(panel['pooled_w1_attention_mp']):.3g}\n"
            f"mean $\\Delta$KS per draw {np.mean(separations(panel)):.4f}\n"
            f"KS($\\nu_\\infty$, MP) = {float(panel['ks_nu_inf_mp']):.4f}"
            + verdict
            + _beyond_note(panel),
            transform=top.transAxes,
            ha="right",
            va="top",
            fontsize=6.5,
            bbox=ANNOTATION_BOX,
        )
        top.set_title(
            f"$\\beta = {float(panel['beta']):g}$:  $x_+ = {x_plus:.4g}$,  "
            f"$4\\theta_1 = {mp_edge:.4g}$"
        )
        top.set_xlabel("$s^2$")
        for model, colour, width in (
            ("attention", DATA_COLOUR, 1.2),
            ("linear", REFERENCE_COLOUR, 0.8),
        ):
            x, above = panel[f"survival_x_{model}"], panel[f"survival_{model}"]
            bottom.step(x, above, where="pre", color=colour, lw=width)
        bottom.plot(
            panel["survival_theory_x"], panel["survival_nu_inf"], color=THEORY_COLOUR, lw=1.3
        )
        bottom.plot(
            panel["survival_theory_x"],
            panel["survival_mp"],
            color=SURROGATE_COLOUR,
            lw=1.3,
            ls="--",
        )
        bottom.set_yscale("log", nonpositive="mask")
        # Down to half the smallest empirical fraction, 1/n (n pooled values).
        bottom.set_ylim(0.5 * np.min(panel["survival_attention"]), 0.3)
        bottom.set_xlim(float(panel["survival_theory_x"][0]), edges[-1])
        bottom.text(
            0.97,
            0.96,
            r"mass above $4\theta_1$"
            f"\nbulk {np.mean(panel['edge_mass_attention']):.4f} "
            f"(sd {np.std(panel['edge_mass_attention'], ddof=1):.4f})\n"
            f"$Y_{{\\mathrm{{lin}}}}$ {np.mean(panel['edge_mass_linear']):.4f}\n"
            f"$\\nu_\\infty$ {float(panel['edge_mass_theory']):.4f},  MP 0",
            transform=bottom.transAxes,
            ha="right",
            va="top",
            fontsize=6.5,
            bbox=ANNOTATION_BOX,
        )
        bottom.set_xlabel("$s^2$ (edge region)")
    axes[0, 0].set_ylabel("density")
    axes[1, 0].set_ylabel(r"fraction of the bulk $\geq s^2$")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=len(labels), frameon=False)
    figure.suptitle(
        "Claim A.4, $\\nu_\\infty$ is not Marchenko–Pastur: "
        f"bulk of $\\sqrt{{\\ell}}A^\\perp$ ($\\ell = {n_tokens}$, {n_draws} draws pooled)\n"
        r"against $\nu_\infty$ (red) and the iid-scores surrogate "
        r"$\theta_1\,\mathrm{MP}_1$ (green)",
        fontsize=9,
    )
    return figure


def bulk_laws_plotted_rows(panels: Sequence[Mapping]) -> Iterator[tuple]:
    """Every number drawn in :func:`plot_bulk_laws` as rows (beta, panel, series, x, y);
    vertical lines have an empty y, annotations an empty x."""
    for panel in panels:
        beta = float(panel["beta"])
        centres = 0.5 * (panel["edges"][1:] + panel["edges"][:-1])
        for model in ("attention", "linear"):
            for x, y in zip(centres, panel[f"density_{model}"], strict=True):
                yield (beta, "histogram", f"{model}_density", x, y)
            for x, y in zip(panel[f"survival_x_{model}"], panel[f"survival_{model}"], strict=True):
                yield (beta, "edge_region", f"{model}_fraction_at_or_above", x, y)
        for law in ("nu_inf", "mp"):
            for x, y in zip(panel["theory_x"], panel[f"density_{law}"], strict=True):
                yield (beta, "histogram", f"{law}_density", x, y)
            for x, y in zip(panel["survival_theory_x"], panel[f"survival_{law}"], strict=True):
                yield (beta, "edge_region", f"{law}_fraction_above", x, y)
        for name in ("x_plus", "mp_edge"):
            yield (beta, "both", name, float(panel[name]), "")
        for law in ("nu_inf", "mp"):
            for distance in ("ks", "w1"):
                key = f"pooled_{distance}_attention_{law}"
                yield (beta, "histogram", key, "", float(panel[key]))
        yield (beta, "histogram", "mean_delta_ks", "", float(np.mean(separations(panel))))
        yield (beta, "histogram", "ks_nu_inf_mp", "", float(panel["ks_nu_inf_mp"]))
        for model in ("attention", "linear"):
            yield (
                beta,
                "edge_region",
                f"edge_mass_{model}",
                "",
                float(np.mean(panel[f"edge_mass_{model}"])),
            )
        yield (
            beta,
            "edge_region",
            "edge_mass_attention_sd",
            "",
            float(np.std(panel["edge_mass_attention"], ddof=1)),
        )
        yield (beta, "edge_region", "edge_mass_nu_inf", "", float(panel["edge_mass_theory"]))


def ratio_panel_name(panel: Mapping) -> str:
    """Short identifier of an A7 panel: gaussian-dqk<d_qk> or literal-d<d>-dqk<d_qk>."""
    if str(panel["sampler"]) == "literal":
        return f"literal-d{int(panel['d_model'])}-dqk{int(panel['d_qk'])}"
    return f"gaussian-dqk{int(panel['d_qk'])}"


def _ratio_title(panel: Mapping) -> str:
    c, d_qk = float(panel["ratio"]), int(panel["d_qk"])
    if str(panel["sampler"]) == "literal":
        gamma = int(panel["n_tokens"]) / int(panel["d_model"])
        return (
            f"literal $X$: $\\gamma = \\ell/d = {gamma:.3g}$ ($d = {int(panel['d_model'])}$), "
            f"$c = {c:.3g}$"
        )
    return f"$c = \\ell/d_{{qk}} = {c:.3g}$ ($d_{{qk}} = {d_qk}$)"


def plot_ratios(panels: Sequence[Mapping], *, n_tokens: int, n_draws: int):
    """Figure A7: one panel per c = ell/d_qk (then the literal-X case): density histogram of the
    pooled bulk with nu_inf(beta, c), its right edge, its internal gaps (shaded) and, faint,
    nu_inf at the swapped ratio d_qk/ell (the common mistake)."""
    apply_style()
    n_cols = min(3, len(panels))
    n_rows = math.ceil(len(panels) / n_cols)
    figure, axes = new_figure(n_rows, n_cols, width=3.1 * n_cols, height=2.6 * n_rows)
    for ax in axes.flat[len(panels) :]:
        ax.set_visible(False)
    for ax, panel in zip(axes.flat, panels, strict=False):
        c = float(panel["ratio"])
        ax.stairs(
            panel["density"],
            panel["edges"],
            fill=True,
            color=DATA_COLOUR,
            alpha=0.55,
            label=ATTENTION_LABEL,
        )
        ax.plot(
            panel["theory_x"],
            panel["density_nu_inf"],
            color=THEORY_COLOUR,
            lw=1.3,
            label=r"$\nu_\infty(\beta, c)$",
        )
        if c != 1.0:
            ax.plot(
                panel["theory_x"],
                panel["density_swapped"],
                color=REFERENCE_COLOUR,
                lw=0.8,
                ls=(0, (2, 2)),
                label=r"$\nu_\infty(\beta, 1/c)$ (wrong $c = d_{qk}/\ell$)",
            )
        ax.axvline(float(panel["x_plus"]), color=THEORY_COLOUR, ls=":", lw=1.0, label="$x_+$")
        support = panel["support"]
        for (_, gap_start), (gap_end, _) in zip(support[:-1], support[1:], strict=True):
            ax.axvspan(gap_start, gap_end, color="0.85", lw=0, label="gap in the support")
        ax.set_ylim(0, _density_ylim(panel, "density", ["density_nu_inf"]))
        ax.set_xlim(0, panel["edges"][-1])
        ax.text(
            0.97,
            0.96,
            f"KS {float(panel['ks']):.3f}, $W_1$ {float(panel['w1']):.3g}\n"
            + (
                f"KS to $\\nu_\\infty(\\beta, 1/c)$: {float(panel['ks_swapped']):.3f}\n"
                if c != 1.0
                else ""
            )
            + f"$x_+ = {float(panel['x_plus']):.4g}$"
            + _beyond_note(panel),
            transform=ax.transAxes,
            ha="right",
            va="top",
            fontsize=6.5,
            bbox=ANNOTATION_BOX,
        )
        ax.set_title(_ratio_title(panel), fontsize=8)
        ax.set_xlabel("$s^2$")
    for row in axes[:, 0]:
        row.set_ylabel("density")
    handles = {}
    for ax in axes.flat[: len(panels)]:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            handles.setdefault(label, handle)
    figure.legend(
        handles.values(),
        handles.keys(),
        loc="outside lower center",
        ncols=len(handles),
        frameon=False,
    )
    beta = float(panels[0]["beta"])
    figure.suptitle(
        f"$\\nu_\\infty$ across the proportional regime, $c = \\ell/d_{{qk}}$: bulk of "
        f"$\\sqrt{{\\ell}}A^\\perp$ ($\\ell = {n_tokens}$, $\\beta = {beta:g}$, {n_draws} draws "
        r"pooled), $\nu_\infty$ in red (right edge $x_+$ dotted)",
        fontsize=9,
    )
    return figure


def ratios_plotted_rows(panels: Sequence[Mapping]) -> Iterator[tuple]:
    """Every number drawn in :func:`plot_ratios` as rows (panel, c, series, x, y); vertical
    lines and gap ends have an empty y, annotations an empty x."""
    for panel in panels:
        name, c = ratio_panel_name(panel), float(panel["ratio"])
        centres = 0.5 * (panel["edges"][1:] + panel["edges"][:-1])
        for x, y in zip(centres, panel["density"], strict=True):
            yield (name, c, "attention_density", x, y)
        for x, y in zip(panel["theory_x"], panel["density_nu_inf"], strict=True):
            yield (name, c, "nu_inf_density", x, y)
        if c != 1.0:
            for x, y in zip(panel["theory_x"], panel["density_swapped"], strict=True):
                yield (name, c, "nu_inf_swapped_ratio_density", x, y)
        yield (name, c, "x_plus", float(panel["x_plus"]), "")
        support = panel["support"]
        for (_, gap_start), (gap_end, _) in zip(support[:-1], support[1:], strict=True):
            yield (name, c, "gap_start", float(gap_start), "")
            yield (name, c, "gap_end", float(gap_end), "")
        for key in ("ks", "w1", "ks_swapped"):
            yield (name, c, key, "", float(panel[key]))
