"""Figure C5 layout: 2 rows x 3 panels (eigen-angles; score spectra and stable rank)."""

import numpy as np
from matplotlib import colormaps

from attnspec.experiments.pretrained import NULL_SPACE_CONVENTIONS
from attnspec.models.softmax import MASKS
from attnspec.plotting.degeneration import add_verdicts
from attnspec.plotting.style import (
    DATA_COLOUR,
    REFERENCE_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    apply_style,
    new_figure,
)

CONVENTION_LABELS = {"haar": "Haar completion", "nearest_identity": "nearest-identity completion"}
MASK_LABELS = {
    "bidirectional": "model's own (bidirectional) mask",
    "causal": "causal mask on the same scores",
}
MASK_COLOURS = {"bidirectional": DATA_COLOUR, "causal": SURROGATE_COLOUR}


def _panel_title(axis, letter: str, text: str) -> None:
    axis.set_title(f"({letter}) {text}", loc="left")


def _eigen_angle_histogram(axis, summary: dict, n_full: int) -> None:
    edges = summary["edges"]
    axis.stairs(
        summary["density_model"],
        edges,
        fill=True,
        color=DATA_COLOUR,
        alpha=0.55,
        label="MiniLM heads (U and V)",
    )
    axis.stairs(
        summary["density_isotropic"],
        edges,
        color=REFERENCE_COLOUR,
        lw=1.2,
        label="isotropic (Haar) reference",
    )
    axis.axhline(1 / np.pi, color=THEORY_COLOUR, lw=1.2, label=r"uniform, $1/\pi$")
    axis.set_xlim(0, np.pi)
    axis.set_ylim(0, 1.6 / np.pi)
    axis.set_xticks([0, np.pi / 2, np.pi], ["0", r"$\pi/2$", r"$\pi$"])
    axis.set_xlabel(r"eigen-angle $\theta = |\arg\lambda|$")
    axis.set_ylabel("density")
    axis.legend(frameon=False, loc="lower center", fontsize=6.5)
    _panel_title(axis, "a", f"eigen-angles of U, V; n = {n_full} tokens (rank S = n)")


DISTANCE_SERIES = (
    ("model", "MiniLM heads", DATA_COLOUR, "-"),
    ("reference", "Haar reference", REFERENCE_COLOUR, "-"),
    ("aligned", "aligned control (known angles)", THEORY_COLOUR, "--"),
    ("local", "local-attention control", SURROGATE_COLOUR, ":"),
)


def _distance_cdfs(axis, summary: dict, tests: dict) -> None:
    """Distribution functions of the per-head distances D to uniform (the C.5 test's data)."""
    for name, label, colour, style in DISTANCE_SERIES:
        key = f"distance/{name}"
        if key not in summary:
            continue
        values = summary[key]
        text = label
        if name != "reference":
            text += f": KS {float(tests[f'{name}/ks']):.3f}"
        axis.step(
            values,
            np.arange(1, values.size + 1) / values.size,
            where="post",
            color=colour,
            ls=style,
            lw=1.2,
            label=f"{text} ({values.size})",
        )
    axis.axvline(
        float(tests["reference_q95"]), color=REFERENCE_COLOUR, ls=":", lw=0.8, label="Haar q95"
    )
    from matplotlib.ticker import FixedLocator, NullFormatter, ScalarFormatter

    axis.set_xscale("log")
    axis.xaxis.set_major_locator(FixedLocator([0.05, 0.1, 0.2, 0.5, 1.0]))
    axis.xaxis.set_major_formatter(ScalarFormatter())
    axis.xaxis.set_minor_formatter(NullFormatter())
    axis.set_ylim(0, 1)
    axis.set_xlabel(r"Kolmogorov distance $D$ of a head's angles to uniform on $[0,\pi]$")
    axis.set_ylabel("distribution function")
    axis.legend(frameon=False, loc="lower right", fontsize=6)
    _panel_title(axis, "b", "per-head distances against Haar (two-sample tests)")


def _null_space_cdfs(axis, summary: dict, n_long: int) -> None:
    grid = summary["cdf_grid"]
    axis.plot(grid, grid / np.pi, color=THEORY_COLOUR, lw=1.0, label="uniform")
    styles = {"haar": "-", "nearest_identity": "--"}
    for convention in NULL_SPACE_CONVENTIONS:
        axis.plot(
            grid,
            summary[f"cdf/model/{convention}"],
            color=DATA_COLOUR,
            ls=styles[convention],
            lw=1.4,
            label=f"MiniLM, {CONVENTION_LABELS[convention]}",
        )
        axis.plot(
            grid,
            summary[f"cdf/isotropic/{convention}"],
            color=REFERENCE_COLOUR,
            ls=styles[convention],
            lw=0.9,
            label=f"isotropic, {CONVENTION_LABELS[convention]}",
        )
    axis.text(
        0.97,
        0.35,
        "MiniLM and isotropic curves\ncoincide under each convention",
        transform=axis.transAxes,
        ha="right",
        fontsize=6.5,
    )
    axis.set_xlim(0, np.pi)
    axis.set_ylim(0, 1)
    axis.set_xticks([0, np.pi / 2, np.pi], ["0", r"$\pi/2$", r"$\pi$"])
    axis.set_xlabel(r"eigen-angle $\theta$ of U")
    axis.set_ylabel("distribution function")
    axis.legend(frameon=False, loc="lower right", fontsize=6)
    _panel_title(axis, "c", f"n = {n_long} > head width: null-space convention")


def _normalised_spectra(axis, summary: dict) -> None:
    median = summary["normalised_median"]
    k = np.arange(1, median.shape[1] + 1)
    colours = colormaps["viridis"](np.linspace(0.0, 0.9, median.shape[0]))
    for layer, colour in enumerate(colours):
        axis.plot(k, median[layer], color=colour, lw=1.2, label=f"layer {layer}")
        axis.fill_between(
            k,
            summary["normalised_lower"][layer],
            summary["normalised_upper"][layer],
            color=colour,
            alpha=0.12,
            lw=0,
        )
    axis.plot(k, summary["normalised_isotropic"], color="k", ls="--", lw=1.1, label="isotropic")
    axis.set_yscale("log")
    axis.set_xlabel("index k")
    axis.set_ylabel(r"$\sigma_k / \sigma_1$ (median, quartile band)")
    axis.legend(frameon=False, fontsize=6, ncol=2, loc="lower left")
    _panel_title(axis, "d", "normalised score singular values")


def _energy_map(figure, axis, summary: dict, top_k: int) -> None:
    energy = summary["energy_top_k"]
    image = axis.imshow(energy, vmin=0, vmax=1, cmap="magma", aspect="auto")
    for (layer, head), value in np.ndenumerate(energy):
        axis.text(
            head,
            layer,
            f"{value:.2f}",
            ha="center",
            va="center",
            fontsize=5,
            color="white" if value < 0.6 else "black",
        )
    axis.set_xticks(range(energy.shape[1]))
    axis.set_yticks(range(energy.shape[0]))
    axis.set_xlabel("head")
    axis.set_ylabel("layer")
    bar = figure.colorbar(image, ax=axis, shrink=0.9)
    bar.set_label(f"$E_{top_k}$")
    bar.ax.axhline(float(summary["energy_isotropic"]), color="cyan", lw=2.5)
    _panel_title(
        axis,
        "e",
        f"energy in the top {top_k} directions (isotropic median "
        f"{float(summary['energy_isotropic']):.2f}: cyan tick)",
    )


def _stable_ranks(axis, summary: dict) -> None:
    ranks = summary["stable_rank"]
    layers, heads = ranks.shape[:2]
    jitter = (np.arange(heads) - (heads - 1) / 2) / heads * 0.3
    for m, mask in enumerate(MASKS):
        offset = -0.2 if mask == "bidirectional" else 0.2
        for layer in range(layers):
            axis.scatter(
                layer + offset + jitter,
                ranks[layer, :, m],
                s=7,
                color=MASK_COLOURS[mask],
                alpha=0.8,
                label=MASK_LABELS[mask] if layer == 0 else None,
            )
        axis.axhline(
            summary["stable_rank_isotropic"][m],
            color=MASK_COLOURS[mask],
            ls=":",
            lw=0.9,
            label=f"isotropic scores, {mask}",
        )
    axis.set_yscale("log")
    axis.set_ylim(0.8, 6 * max(float(ranks.max()), float(summary["stable_rank_isotropic"].max())))
    axis.set_xticks(range(layers))
    axis.set_xlabel("layer (points: heads, median over passages)")
    axis.set_ylabel(r"stable rank $\|A\|_F^2 / \|A\|_2^2$")
    axis.legend(frameon=False, fontsize=6, loc="upper right", ncol=2)
    _panel_title(axis, "f", "stable rank of the attention")


def plot_pretrained(
    summary: dict,
    *,
    n_full: int,
    n_long: int,
    top_k: int,
    tests: dict,
    verdicts=(),
):
    """Top row: eigen-angles (histogram at n = head width, distances per head, the null-space
    conventions at n > head width); bottom row: normalised score singular values, top-k energy
    per layer/head, stable rank with the model's own and with a causal mask."""
    apply_style()
    figure, axes = new_figure(2, 3, width=13.0, height=7.6)
    _eigen_angle_histogram(axes[0, 0], summary, n_full)
    _distance_cdfs(axes[0, 1], summary, tests)
    _null_space_cdfs(axes[0, 2], summary, n_long)
    _normalised_spectra(axes[1, 0], summary)
    _energy_map(figure, axes[1, 1], summary, top_k)
    _stable_ranks(axes[1, 2], summary)
    figure.suptitle(
        "Pretrained all-MiniLM-L6-v2 (6 layers x 12 heads, head width 32) on public-domain "
        f"text: eigen-angles of the token-space singular matrices (top) and score spectra "
        f"(bottom, n = {n_long})",
        fontsize=9,
    )
    add_verdicts(figure, verdicts)
    return figure


def pretrained_plotted_rows(summary: dict):
    """Every number drawn in :func:`plot_pretrained` as rows (panel, series, x, y)."""
    centres = 0.5 * (summary["edges"][1:] + summary["edges"][:-1])
    for series in ("density_model", "density_isotropic"):
        for x, y in zip(centres, summary[series], strict=True):
            yield ("a_eigen_angles", series, x, y)
    for x in centres:
        yield ("a_eigen_angles", "uniform_density", x, 1 / np.pi)
    for key in (k for k in summary if k.startswith("distance/")):
        values = summary[key]
        for i, x in enumerate(values, start=1):
            yield ("b_distance_cdf", key.removeprefix("distance/"), x, i / values.size)
    for key in (k for k in summary if k.startswith("cdf/")):
        for x, y in zip(summary["cdf_grid"], summary[key], strict=True):
            yield ("c_null_space_cdf", key.removeprefix("cdf/"), x, y)
    for layer in range(summary["normalised_median"].shape[0]):
        for quantity in ("median", "lower", "upper"):
            for k, y in enumerate(summary[f"normalised_{quantity}"][layer], start=1):
                yield ("d_normalised_singular_values", f"layer{layer}_{quantity}", k, y)
    for k, y in enumerate(summary["normalised_isotropic"], start=1):
        yield ("d_normalised_singular_values", "isotropic_median", k, y)
    for (layer, head), y in np.ndenumerate(summary["energy_top_k"]):
        yield ("e_energy_top_k", f"layer{layer}", head, y)
    yield ("e_energy_top_k", "isotropic", -1, summary["energy_isotropic"])
    for (layer, head, m), y in np.ndenumerate(summary["stable_rank"]):
        yield ("f_stable_rank", f"{MASKS[m]}_layer{layer}", head, y)
    for m, y in enumerate(summary["stable_rank_isotropic"]):
        yield ("f_stable_rank", f"{MASKS[m]}_isotropic", -1, y)
