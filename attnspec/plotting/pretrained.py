"""Figure C5 (paper C, pretrained all-MiniLM-L6-v2), drawn with seaborn from its tidy table.

:func:`plot_pretrained` takes the figure's plotted table (a pandas DataFrame with the columns of
:data:`attnspec.experiments.pretrained_summary.PLOTTED_HEADER`, exactly the figure's CSV), the
eigen-angle tests (for the KS values in the legend and the Haar 95 % quantile) and the judged
claims-table rows; nothing here computes a result. 2 rows x 3 panels: eigen-angles (seaborn
``histplot`` and ``ecdfplot``); score spectra (``lineplot``, median with the quartile band over
passages and heads), top-k energy (``heatmap``) and stable rank (``swarmplot``).
"""

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib import colormaps
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator, NullFormatter, ScalarFormatter

from attnspec.experiments.degeneration_summary import numeric
from attnspec.experiments.pretrained import NULL_SPACE_CONVENTIONS
from attnspec.models.softmax import MASKS
from attnspec.plotting.degeneration import add_verdicts
from attnspec.plotting.style import (
    DATA_COLOUR,
    REFERENCE_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    apply_style,
    log_axis,
    new_figure,
)

CONVENTION_LABELS = {"haar": "Haar completion", "nearest_identity": "nearest-identity completion"}
CONVENTION_STYLES = {"haar": "-", "nearest_identity": "--"}
MASK_LABELS = {
    "bidirectional": "model's own (bidirectional) mask",
    "causal": "causal mask on the same scores",
}
MASK_COLOURS = {"bidirectional": DATA_COLOUR, "causal": SURROGATE_COLOUR}
HEAD_BAND = ("pi", 50)
"""seaborn ``errorbar`` of panel (d): the quartiles over passages and heads."""
PI_TICKS = ([0, np.pi / 2, np.pi], ["0", r"$\pi/2$", r"$\pi$"])


def _panel_title(axis, letter: str, text: str) -> None:
    axis.set_title(f"({letter}) {text}", loc="left")


def _rows(frame: pd.DataFrame, panel: str, series: str | None = None) -> pd.DataFrame:
    rows = frame[frame["panel"] == panel]
    return rows if series is None else rows[rows["series"] == series]


def _eigen_angle_histogram(axis, frame: pd.DataFrame, n_full: int, bins: int) -> None:
    """(a) Histograms (density) of the pooled eigen-angles from their bin counts."""
    options = {"x": "x", "weights": "y", "bins": bins, "binrange": (0.0, np.pi), "ax": axis}
    options["stat"] = "density"
    sns.histplot(
        data=_rows(frame, "eigen_angles", "model"), element="step", color=DATA_COLOUR,
        alpha=0.55, lw=0, label="MiniLM heads (U and V)", **options,
    )  # fmt: skip
    sns.histplot(
        data=_rows(frame, "eigen_angles", "isotropic"), element="step", fill=False,
        color=REFERENCE_COLOUR, lw=1.2, label="isotropic (Haar) reference", **options,
    )  # fmt: skip
    axis.axhline(1 / np.pi, color=THEORY_COLOUR, lw=1.2, label=r"uniform, $1/\pi$")
    axis.set_xlim(0, np.pi)
    axis.set_ylim(0, 1.6 / np.pi)
    axis.set_xticks(*PI_TICKS)
    axis.set(xlabel=r"eigen-angle $\theta = |\arg\lambda|$", ylabel="density")
    axis.legend(frameon=False, loc="lower center", fontsize=6.5)
    _panel_title(axis, "a", f"eigen-angles of U, V; n = {n_full} tokens (rank S = n)")


DISTANCE_SERIES = (
    ("model", "MiniLM heads", DATA_COLOUR, "-"),
    ("reference", "Haar reference", REFERENCE_COLOUR, "-"),
    ("aligned", "aligned control (known angles)", THEORY_COLOUR, "--"),
    ("local", "local-attention control", SURROGATE_COLOUR, ":"),
)


def _distance_cdfs(axis, frame: pd.DataFrame, tests: dict) -> None:
    """(b) Distribution functions of the per-head distances D to uniform (the C.5 test's data)."""
    distances = _rows(frame, "distances")
    for name, label, colour, style in DISTANCE_SERIES:
        values = distances[distances["series"] == name]
        if values.empty:
            continue
        text = label if name == "reference" else f"{label}: KS {float(tests[f'{name}/ks']):.3f}"
        sns.ecdfplot(
            data=values, x="x", color=colour, ls=style, lw=1.2, label=f"{text} ({len(values)})",
            ax=axis,
        )  # fmt: skip
    axis.axvline(
        float(tests["reference_q95"]), color=REFERENCE_COLOUR, ls=":", lw=0.8, label="Haar q95"
    )
    axis.set_xscale("log")
    axis.xaxis.set_major_locator(FixedLocator([0.05, 0.1, 0.2, 0.5, 1.0]))
    axis.xaxis.set_major_formatter(ScalarFormatter())
    axis.xaxis.set_minor_formatter(NullFormatter())
    axis.set_ylim(0, 1)
    axis.set(
        xlabel=r"Kolmogorov distance $D$ of a head's angles to uniform on $[0,\pi]$",
        ylabel="distribution function",
    )
    axis.legend(frameon=False, loc="lower right", fontsize=6)
    _panel_title(axis, "b", "per-head distances against Haar (two-sample tests)")


def _null_space_cdfs(axis, frame: pd.DataFrame, n_long: int) -> None:
    """(c) Distribution functions of the eigen-angles of U at n > head width (step counts on a
    grid as weights), under both null-space completions."""
    steps = _rows(frame, "null_space")
    grid = np.sort(steps["x"].unique())
    axis.plot(grid, grid / np.pi, color=THEORY_COLOUR, lw=1.0, label="uniform")
    for convention in NULL_SPACE_CONVENTIONS:
        for source, colour, lw, name in (
            ("model", DATA_COLOUR, 1.4, "MiniLM"),
            ("isotropic", REFERENCE_COLOUR, 0.9, "isotropic"),
        ):
            sns.ecdfplot(
                data=steps[steps["series"] == f"{source}/{convention}"], x="x", weights="y",
                color=colour, ls=CONVENTION_STYLES[convention], lw=lw,
                label=f"{name}, {CONVENTION_LABELS[convention]}", ax=axis,
            )  # fmt: skip
    axis.text(
        0.97, 0.35, "MiniLM and isotropic curves\ncoincide under each convention",
        transform=axis.transAxes, ha="right", fontsize=6.5,
    )  # fmt: skip
    axis.set_xlim(0, np.pi)
    axis.set_ylim(0, 1)
    axis.set_xticks(*PI_TICKS)
    axis.set(xlabel=r"eigen-angle $\theta$ of U", ylabel="distribution function")
    axis.legend(frameon=False, loc="lower right", fontsize=6)
    _panel_title(axis, "c", f"n = {n_long} > head width: null-space convention")


def _normalised_spectra(axis, frame: pd.DataFrame) -> None:
    """(d) sigma_k / sigma_1 per layer: median and quartiles over passages and heads."""
    model = _rows(frame, "spectra", "model").astype({"layer": int})
    layers = sorted(model["layer"].unique())
    colours = colormaps["viridis"](np.linspace(0.0, 0.9, len(layers)))
    palette = dict(zip(layers, map(tuple, colours), strict=True))
    sns.lineplot(
        data=model, x="x", y="y", hue="layer", palette=palette, estimator="median",
        errorbar=HEAD_BAND, err_kws={"alpha": 0.12, "lw": 0}, lw=1.2, legend=False, ax=axis,
    )  # fmt: skip
    sns.lineplot(
        data=_rows(frame, "spectra", "isotropic"), x="x", y="y", estimator="median",
        errorbar=None, color="k", ls="--", lw=1.1, ax=axis,
    )  # fmt: skip
    handles = [Line2D([], [], color=c, lw=1.2, label=f"layer {k}") for k, c in palette.items()]
    handles.append(Line2D([], [], color="k", ls="--", lw=1.1, label="isotropic"))
    # log scale only after seaborn's medians and quartiles (it would take them of the logs)
    log_axis(axis.yaxis)
    axis.set(xlabel="index k", ylabel=r"$\sigma_k / \sigma_1$ (median, quartile band)")
    axis.legend(handles=handles, frameon=False, fontsize=6, ncol=2, loc="lower left")
    _panel_title(axis, "d", "normalised score singular values")


def _energy_map(axis, frame: pd.DataFrame, top_k: int) -> None:
    """(e) Top-k energy per layer and head (median over passages) as a seaborn heatmap."""
    energy = _rows(frame, "energy", "model").astype({"layer": int, "head": int})
    isotropic = float(_rows(frame, "energy", "isotropic")["y"].iloc[0])
    sns.heatmap(
        energy.pivot(index="layer", columns="head", values="y"), vmin=0, vmax=1, cmap="magma",
        annot=True, fmt=".2f", annot_kws={"fontsize": 5}, cbar_kws={"shrink": 0.9},
        ax=axis,
    )  # fmt: skip
    bar = axis.collections[0].colorbar
    bar.set_label(f"$E_{top_k}$")
    bar.ax.axhline(isotropic, color="cyan", lw=2.5)
    axis.tick_params(axis="y", rotation=0)
    text = f"energy in the top {top_k} directions (isotropic median {isotropic:.2f}: cyan tick)"
    _panel_title(axis, "e", text)


def _stable_ranks(axis, frame: pd.DataFrame) -> None:
    """(f) Stable rank per head (median over passages), by layer and mask (seaborn swarms)."""
    model = _rows(frame, "stable_rank", "model").astype({"layer": int})
    isotropic = _rows(frame, "stable_rank", "isotropic").set_index("mask")["y"]
    log_axis(axis.yaxis)
    axis.set_ylim(0.8, 6 * max(float(model["y"].max()), float(isotropic.max())))
    sns.swarmplot(
        data=model, x="layer", y="y", hue="mask", hue_order=list(MASKS), palette=MASK_COLOURS,
        dodge=True, size=3, alpha=0.8, legend=False, ax=axis,
    )  # fmt: skip
    handles = []
    for mask in MASKS:
        colour = MASK_COLOURS[mask]
        axis.axhline(isotropic[mask], color=colour, ls=":", lw=0.9)
        handles += [
            Line2D([], [], color=colour, marker="o", ls="none", ms=3, label=MASK_LABELS[mask]),
            Line2D([], [], color=colour, ls=":", lw=0.9, label=f"isotropic scores, {mask}"),
        ]
    axis.set(
        xlabel="layer (points: heads, median over passages)",
        ylabel=r"stable rank $\|A\|_F^2 / \|A\|_2^2$",
    )
    axis.legend(handles=handles, frameon=False, fontsize=6, loc="upper right", ncol=2)
    _panel_title(axis, "f", "stable rank of the attention")


def plot_pretrained(
    frame: pd.DataFrame,
    *,
    n_full: int,
    n_long: int,
    top_k: int,
    bins: int,
    tests: dict,
    verdicts=(),
):
    """Top row: eigen-angles (histogram at n = head width, distances per head, the null-space
    conventions at n > head width); bottom row: normalised score singular values, top-k energy
    per layer/head, stable rank with the model's own and with a causal mask. ``bins``: the
    histogram bins of panel (a) on [0, pi]."""
    apply_style()
    frame = numeric(frame, "layer", "head", "passage", "x", "y")
    figure, axes = new_figure(2, 3, width=13.0, height=7.6)
    _eigen_angle_histogram(axes[0, 0], frame, n_full, bins)
    _distance_cdfs(axes[0, 1], frame, tests)
    _null_space_cdfs(axes[0, 2], frame, n_long)
    _normalised_spectra(axes[1, 0], frame)
    _energy_map(axes[1, 1], frame, top_k)
    _stable_ranks(axes[1, 2], frame)
    figure.suptitle(
        "Pretrained all-MiniLM-L6-v2 (6 layers x 12 heads, head width 32) on public-domain "
        f"text: eigen-angles of the token-space singular matrices (top) and score spectra "
        f"(bottom, n = {n_long})",
        fontsize=9,
    )
    add_verdicts(figure, verdicts)
    return figure
