"""Figures C5 and C6 (paper C, pretrained all-MiniLM-L6-v2), drawn with seaborn from their tidy
tables.

Each function takes the figure's tidy table (a pandas DataFrame from
:mod:`attnspec.papers.c.pretrained_summary`'s ``*_plotted_table``, exactly the figure's CSV)
and selects its rows by ``kind``, ``panel`` and ``series``; nothing here computes a result.
:func:`plot_eigen_angles` (C5): the eigen-angle histogram (seaborn ``histplot``), the per-head
distances with the Haar 95 % quantile and the null-space conventions (``ecdfplot``).
:func:`plot_score_spectra` (C6): score spectra (``lineplot``, median with the quartile band over
passages and heads), stable rank (``swarmplot``) and top-k energy (``heatmap``). Colours by meaning
(:data:`attnspec.plotting.style.COLOURS`): the model's heads are data, the isotropic (Haar)
reference the null model, the aligned and local-attention controls the control colour with
their own line styles, the masks their colours, the layers light (first) to dark (last). The
verdicts are not drawn: each caption lists them.
"""

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FixedLocator, NullFormatter, ScalarFormatter

from attnspec.models.softmax import MASKS
from attnspec.papers.c.pretrained import NULL_SPACE_CONVENTIONS
from attnspec.papers.c.pretrained_summary import REFERENCE_Q95
from attnspec.plotting.style import (
    COLOURS,
    DATA_COLOUR,
    LEGEND_KEY,
    LINE_STYLES,
    NULL_COLOUR,
    THEORY_COLOUR,
    TWO_COLUMNS,
    apply_style,
    label_panels,
    log_axis,
    new_canvas,
    new_figure,
    sequential_colours,
)
from attnspec.plotting.tidy import DATA, STATISTIC, numeric

CONTROL_COLOUR = COLOURS["control"]
MASK_COLOURS = {mask: COLOURS[mask] for mask in MASKS}
CONVENTION_LABELS = {"haar": "Haar completion", "nearest_identity": "nearest-identity completion"}
CONVENTION_STYLES = {"haar": "-", "nearest_identity": "--"}
MASK_LABELS = {
    "bidirectional": "bidirectional (the model's own)",
    "causal": "causal (on the same scores)",
}
HEAD_BAND = ("pi", 50)
"""seaborn ``errorbar`` of C6 (a): the quartiles over passages and heads."""
PI_TICKS = ([0, np.pi / 2, np.pi], ["0", r"$\pi/2$", r"$\pi$"])
BELOW_AXES = "outside lower center"
UNIFORM_STYLE = {"color": THEORY_COLOUR, "lw": 1.0, "ls": LINE_STYLES["limit law / theory"]}
"""The uniform law on [0, pi] (the limit law of Haar eigen-angles): solid, in the theory colour."""
QUANTILE_STYLE = {"color": NULL_COLOUR, "lw": 0.9, "ls": LINE_STYLES["alternative or quantile"]}
"""C5 (b): the Haar reference's 95 % quantile of D, dashed."""
UNIFORM_UNDER = 3.0
"""C5 (c): the width of the uniform distribution function, drawn under the curves that coincide
with it (the model's wide, the isotropic reference's thin on top), so that all three show."""
TUPLE_HANDLER = {tuple: HandlerTuple(ndivide=None, pad=0.3)}


def _rows(
    frame: pd.DataFrame, panel: str, series: str | None = None, kind: str = DATA
) -> pd.DataFrame:
    rows = frame[(frame["kind"] == kind) & (frame["panel"] == panel)]
    return rows if series is None else rows[rows["series"] == series]


# C5 ---------------------------------------------------------------------------------------
DISTANCE_SERIES = (
    ("model", DATA_COLOUR, "-", 2.0),
    ("reference", NULL_COLOUR, "-", 1.0),
    ("aligned", CONTROL_COLOUR, "--", 1.0),
    ("local", CONTROL_COLOUR, ":", 1.2),
)
"""Per series of C5 (b): colour, line style and width (the coinciding curves wide below thin)."""
SERIES_LABELS = {
    "model": "MiniLM heads ($U$ and $V$)",
    "reference": "isotropic (Haar) reference",
    "aligned": "aligned control (known angles)",
    "local": "local-attention control",
}


def _eigen_angle_histogram(axis, frame: pd.DataFrame, n_full: int, bins: int) -> None:
    """(a) Histograms (density) of the pooled eigen-angles from their bin counts: the Haar
    reference filled, the model's heads as a step line above it."""
    options = {"x": "x", "weights": "y", "bins": bins, "binrange": (0.0, np.pi), "ax": axis}
    options |= {"stat": "density", "element": "step"}
    sns.histplot(
        data=_rows(frame, "eigen_angles", "isotropic"), color=NULL_COLOUR, alpha=0.45, lw=0,
        **options,
    )  # fmt: skip
    sns.histplot(
        data=_rows(frame, "eigen_angles", "model"), fill=False, color=DATA_COLOUR, lw=1.2,
        **options,
    )  # fmt: skip
    axis.axhline(1 / np.pi, **UNIFORM_STYLE)
    axis.set_xlim(0, np.pi)
    axis.set_ylim(0, 1.6 / np.pi)
    axis.set_xticks(*PI_TICKS)
    axis.set(xlabel=r"eigen-angle $\theta = |\arg\lambda|$", ylabel="density")
    axis.set_title(f"$n = {n_full}$ tokens (rank $S = n$)")


def _distance_cdfs(axis, frame: pd.DataFrame) -> None:
    """(b) Distribution functions of the per-head distances D to uniform (the C.5 test's data),
    with the Haar reference's 95 % quantile."""
    distances = _rows(frame, "distances")
    reference_q95 = float(_rows(frame, "distances", REFERENCE_Q95, STATISTIC)["x"].iloc[0])
    for name, colour, style, width in DISTANCE_SERIES:
        values = distances[distances["series"] == name]
        if len(values):
            sns.ecdfplot(data=values, x="x", color=colour, ls=style, lw=width, ax=axis)
    axis.axvline(reference_q95, **QUANTILE_STYLE)
    axis.set_xscale("log")
    axis.xaxis.set_major_locator(FixedLocator([0.05, 0.1, 0.2, 0.5, 1.0]))
    axis.xaxis.set_major_formatter(ScalarFormatter())
    axis.xaxis.set_minor_formatter(NullFormatter())
    axis.set_ylim(0, 1)
    axis.set(xlabel="distance $D$ of a head's angles to uniform", ylabel="distribution function")
    axis.set_title("per-head distances $D$")


def _null_space_cdfs(axis, frame: pd.DataFrame, n_long: int) -> None:
    """(c) Distribution functions of the eigen-angles of U at n > head width (step counts on a
    grid as weights), under both null-space completions, above the uniform law (widest): the
    model's heads wide, the isotropic reference thin above them."""
    steps = _rows(frame, "null_space")
    grid = np.sort(steps["x"].unique())
    axis.plot(grid, grid / np.pi, **(UNIFORM_STYLE | {"lw": UNIFORM_UNDER}), zorder=1.5)
    for convention in NULL_SPACE_CONVENTIONS:
        for source, colour, lw in (("model", DATA_COLOUR, 1.8), ("isotropic", NULL_COLOUR, 0.9)):
            sns.ecdfplot(
                data=steps[(steps["series"] == source) & (steps["convention"] == convention)],
                x="x", weights="y",
                color=colour, ls=CONVENTION_STYLES[convention], lw=lw, ax=axis,
            )  # fmt: skip
    axis.text(
        0.97, 0.04, "model and isotropic\ncoincide under\neach completion",
        transform=axis.transAxes, ha="right", va="bottom", fontsize=6.5,
    )  # fmt: skip
    axis.set_xlim(0, np.pi)
    axis.set_ylim(0, 1)
    axis.set_xticks(*PI_TICKS)
    axis.set(xlabel=r"eigen-angle $\theta$ of $U$", ylabel="distribution function")
    axis.set_title(f"$n = {n_long}$ > head width")


def plot_eigen_angles(frame: pd.DataFrame, *, n_full: int, n_long: int, bins: int):
    """C5: (a) the pooled eigen-angles of U and V at n = ``n_full`` <= head width against
    uniform and the Haar reference (``bins`` bins on [0, pi]); (b) the distribution functions
    of the per-head distances D to uniform for the model, the Haar reference and the two
    controls, with the table's statistic: the Haar reference's 95 % quantile; (c) the distribution
    functions of the eigen-angles of U at n = ``n_long`` > head width under both null-space
    completions. One legend for the figure, below the panels; panel letters a-c."""
    apply_style()
    frame = numeric(frame, "layer", "head", "passage", "x", "y")
    figure, axes = new_figure(1, 3, width=TWO_COLUMNS, height=2.75)
    _eigen_angle_histogram(axes[0, 0], frame, n_full, bins)
    _distance_cdfs(axes[0, 1], frame)
    _null_space_cdfs(axes[0, 2], frame, n_long)

    def line(color, **style):
        return Line2D([], [], color=color, **({"lw": 1.2} | style))

    entries = [
        (line(DATA_COLOUR), SERIES_LABELS["model"]),
        (
            (Patch(color=NULL_COLOUR, alpha=0.45, lw=0), line(NULL_COLOUR)),
            SERIES_LABELS["reference"],
        ),
        (line(**UNIFORM_STYLE), "uniform on $[0, \\pi]$"),
        (line(**QUANTILE_STYLE), "(b) Haar 95 % quantile of $D$"),
        *((line(c, ls=s), SERIES_LABELS[name]) for name, c, s, _ in DISTANCE_SERIES[2:]),
        # one line each in the neutral key: its style is the completion, the colours are those of
        # the model and the reference above (two colours side by side read as a dash)
        *(
            (line(LEGEND_KEY, ls=s), f"(c) {CONVENTION_LABELS[c]}")
            for c, s in CONVENTION_STYLES.items()
        ),
    ]
    order = [0, 4, 1, 5, 2, 6, 3, 7]  # two rows, filled column by column
    figure.legend(
        [entries[i][0] for i in order], [entries[i][1] for i in order], loc=BELOW_AXES, ncol=4,
        frameon=False, handler_map=TUPLE_HANDLER,
    )  # fmt: skip
    label_panels(axes[0])
    return figure


# C6 ---------------------------------------------------------------------------------------
def _normalised_spectra(axis, frame: pd.DataFrame) -> None:
    """(a) sigma_k / sigma_1 per layer: median and quartiles over passages and heads; the
    isotropic reference's median dashed."""
    model = _rows(frame, "spectra", "model").astype({"layer": int})
    palette = sequential_colours("layer", model["layer"])
    sns.lineplot(
        data=model, x="x", y="y", hue="layer", palette=palette, estimator="median",
        errorbar=HEAD_BAND, err_kws={"alpha": 0.12, "lw": 0}, lw=1.1, legend=False, ax=axis,
    )  # fmt: skip
    sns.lineplot(
        data=_rows(frame, "spectra", "isotropic"), x="x", y="y", estimator="median",
        errorbar=None, color=NULL_COLOUR, ls="--", lw=1.3, ax=axis,
    )  # fmt: skip
    handles = [Line2D([], [], color=c, lw=1.1, label=f"layer {k}") for k, c in palette.items()]
    handles.append(Line2D([], [], color=NULL_COLOUR, ls="--", lw=1.3, label="isotropic"))
    # log scale only after seaborn's medians and quartiles (it would take them of the logs)
    log_axis(axis.yaxis)
    axis.set(xlabel="index $k$", ylabel=r"$\sigma_k / \sigma_1$ (median, quartiles)")
    # right of the panel: inside, it would lie over the curves of the last layers
    axis.legend(handles=handles, frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))
    axis.set_title("normalised score singular values")


def _stable_ranks(axis, frame: pd.DataFrame) -> None:
    """(b) Stable rank per head (median over passages), by layer and mask (seaborn swarms),
    with the isotropic scores' medians dotted."""
    model = _rows(frame, "stable_rank", "model", STATISTIC).astype({"layer": int})
    isotropic = _rows(frame, "stable_rank", "isotropic", STATISTIC).set_index("mask")["y"]
    log_axis(axis.yaxis)
    axis.set_ylim(0.8, 5 * max(float(model["y"].max()), float(isotropic.max())))
    sns.swarmplot(
        data=model, x="layer", y="y", hue="mask", hue_order=list(MASKS), palette=MASK_COLOURS,
        dodge=True, size=2.5, legend=False, ax=axis,
    )  # fmt: skip
    for mask in MASKS:
        axis.axhline(isotropic[mask], color=MASK_COLOURS[mask], ls=":", lw=1.0, zorder=1)
    handles = [
        *(
            (Line2D([], [], color=MASK_COLOURS[m], marker="o", ms=3, ls="none"), MASK_LABELS[m])
            for m in MASKS
        ),
        (
            tuple(Line2D([], [], color=MASK_COLOURS[m], ls=":", lw=1.0) for m in MASKS),
            "isotropic scores",
        ),
    ]
    axis.legend(
        *zip(*handles, strict=True), frameon=False, loc="upper right", handler_map=TUPLE_HANDLER
    )
    axis.set(xlabel="layer (points: heads)", ylabel=r"stable rank $\|A\|_F^2 / \|A\|_2^2$")
    axis.set_title("stable rank of the attention")


def _energy_map(axis, frame: pd.DataFrame, top_k: int) -> None:
    """(c) Top-k energy per layer and head (median over passages) as a seaborn heatmap; the
    isotropic median as a line on the colour bar."""
    energy = _rows(frame, "energy", "model", STATISTIC).astype({"layer": int, "head": int})
    isotropic = float(_rows(frame, "energy", "isotropic", STATISTIC)["y"].iloc[0])
    sns.heatmap(
        energy.pivot(index="layer", columns="head", values="y"), vmin=0, vmax=1, cmap="magma",
        annot=True, fmt=".2f", annot_kws={"fontsize": 6.5}, cbar_kws={"pad": 0.02},
        ax=axis,
    )  # fmt: skip
    bar = axis.collections[0].colorbar
    bar.set_label(f"$E_{top_k}$")
    bar.ax.axhline(isotropic, color=NULL_COLOUR, lw=2.5)
    axis.tick_params(axis="y", rotation=0)
    text = (
        f"energy $E_{top_k}$ in the top {top_k} directions, median over passages "
        f"(isotropic: {isotropic:.2f}, grey line on the colour bar)"
    )
    axis.set_title(text)


def plot_score_spectra(frame: pd.DataFrame, *, top_k: int):
    """C6: (a) normalised score singular values per layer against the isotropic reference;
    (b) the attention's stable rank per head with the model's own (bidirectional) and a causal
    mask; (c) the top-``top_k`` energy per layer and head."""
    apply_style()
    frame = numeric(frame, "layer", "head", "passage", "x", "y")
    figure = new_canvas(width=TWO_COLUMNS, height=4.7)
    axes = figure.subplot_mosaic([["spectra", "ranks"], ["energy", "energy"]])
    _normalised_spectra(axes["spectra"], frame)
    _stable_ranks(axes["ranks"], frame)
    _energy_map(axes["energy"], frame, top_k)
    label_panels(axes[name] for name in ("spectra", "ranks", "energy"))
    return figure
