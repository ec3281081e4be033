"""Figure C7 (paper C, pretrained all-MiniLM-L6-v2): the attention's stable rank against the
passage length n, drawn with seaborn from its tidy table.

The function takes the figure's tidy table (a pandas DataFrame from
:func:`attnspec.papers.c.pretrained_stable_rank_plotted.stable_rank_plotted_table`, exactly the
figure's CSV) and selects its rows by ``kind`` and ``series``; nothing here computes a result
but the seaborn medians over heads and the fitted line a + b log n from the table's intercept
and slope. One column per mask (the model's own bidirectional mask, the causal mask on the same
scores): top, the heads' median with its 10-90 % band over heads (seaborn ``lineplot``), the
OLS fit of the median on log n, the constant-score control (Cesaro matrix, 1 1^T / n) and the
isotropic scores' derived reference; bottom, the median over each layer's heads (layers light to
dark). A dotted guide marks the longest fine-tuning input. Colours by meaning
(:data:`attnspec.plotting.style.COLOURS`).
"""

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FixedFormatter, FixedLocator, NullLocator

from attnspec.models.softmax import MASKS
from attnspec.papers.c.pretrained_stable_rank_summary import (
    CONSTANT_SCORES,
    FITS,
    HEAD_MEAN,
    INTERCEPT,
    ISOTROPIC,
    SLOPE,
)
from attnspec.plotting.style import (
    BAND,
    COLOURS,
    LEGEND_KEY,
    LINE_STYLES,
    THEORY_COLOUR,
    TWO_COLUMNS,
    apply_style,
    label_panels,
    new_figure,
    sequential_colours,
)
from attnspec.plotting.tidy import STATISTIC, THEORY, numeric

MASK_COLOURS = {mask: COLOURS[mask] for mask in MASKS}
CONTROL_COLOUR = COLOURS["control"]
GUIDE_STYLE = {"color": (0.55, 0.55, 0.55), "lw": 0.9, "ls": LINE_STYLES["edge or threshold"]}
"""The longest fine-tuning input (a threshold of the model, not a result): dotted, mid grey."""
FIT_STYLE = (0, (3, 2))
BAND_STYLE = {"alpha": 0.2, "lw": 0}
THEORY_ZORDER = 4
MASK_TITLES = {
    "bidirectional": "bidirectional (the model's own mask)",
    "causal": "causal mask on the same scores",
}
BELOW_AXES = "outside lower center"


def lengths_axis(axis, n) -> None:
    """A log axis labelled at the measured lengths n only (plain numbers, no minor ticks)."""
    axis.axes.set_xscale("log", base=2)
    axis.set_major_locator(FixedLocator(n))
    axis.set_major_formatter(FixedFormatter([f"{value:g}" for value in n]))
    axis.set_minor_locator(NullLocator())
    axis.axes.set_xlim(n[0] / 1.25, n[-1] * 1.25)


def _heads(frame: pd.DataFrame, mask: str) -> pd.DataFrame:
    rows = frame[(frame["kind"] == STATISTIC) & (frame["series"] == HEAD_MEAN)]
    return rows[rows["mask"] == mask]


def _theory(frame: pd.DataFrame, series: str, mask: str) -> pd.DataFrame:
    rows = frame[(frame["kind"] == THEORY) & (frame["series"] == series)]
    return rows[rows["mask"] == mask].sort_values("n")


def _fit(frame: pd.DataFrame, mask: str, series: str) -> float:
    rows = frame[(frame["kind"] == STATISTIC) & (frame["series"] == series)]
    return float(rows.loc[(rows["mask"] == mask) & (rows["fit"] == FITS[0]), "value"].iloc[0])


def _all_heads(ax, frame: pd.DataFrame, mask: str) -> None:
    """Top row: the heads' median with its 10-90 % band, the fit, the two references."""
    colour = MASK_COLOURS[mask]
    sns.lineplot(
        data=_heads(frame, mask), x="n", y="value", estimator="median", errorbar=BAND,
        color=colour, marker="o", ms=3.5, mec=colour, lw=1.3, err_kws=BAND_STYLE, ax=ax,
    )  # fmt: skip
    n = np.sort(_heads(frame, mask)["n"].unique())
    fitted = _fit(frame, mask, INTERCEPT) + _fit(frame, mask, SLOPE) * np.log(n)
    ax.plot(n, fitted, color=colour, lw=0.9, ls=FIT_STYLE, zorder=3)
    constant = _theory(frame, CONSTANT_SCORES, mask)
    ax.plot(constant["n"], constant["value"], color=CONTROL_COLOUR, lw=1.0, zorder=THEORY_ZORDER)
    isotropic = _theory(frame, ISOTROPIC, mask)
    ax.plot(
        isotropic["n"], isotropic["value"], color=THEORY_COLOUR, lw=1.0, ls="-.",
        zorder=THEORY_ZORDER,
    )  # fmt: skip
    ax.set_title(MASK_TITLES[mask])
    ax.set(ylabel=r"stable rank $\|A\|_F^2/\|A\|_2^2$")


def _layers(ax, frame: pd.DataFrame, mask: str, palette: dict) -> None:
    """Bottom row: the median over each layer's heads."""
    heads = _heads(frame, mask).astype({"layer": int})
    sns.lineplot(
        data=heads, x="n", y="value", hue="layer", palette=palette, estimator="median",
        errorbar=None, marker="o", ms=3, lw=1.1, legend=False, ax=ax,
    )  # fmt: skip
    ax.set_title(f"{mask}: median over each layer's heads")
    ax.set(ylabel="stable rank (median)")


def plot_pretrained_stable_rank(frame: pd.DataFrame, *, fine_tuned_tokens: int, head_width: int):
    """C7: (a, b) the stable rank of every head's attention against n under the bidirectional
    and the causal mask (median, 10-90 % band over heads, OLS fit on log n, the constant-score
    control and the isotropic reference at d = ``head_width``); (c, d) the median over each
    layer's heads. A dotted guide at n = ``fine_tuned_tokens`` when it lies within the lengths;
    one legend below the panels."""
    apply_style()
    frame = numeric(frame, "n", "layer", "head", "value")
    layers = frame.loc[frame["series"] == HEAD_MEAN, "layer"].dropna().astype(int)
    palette = sequential_colours("layer", layers)
    figure, axes = new_figure(2, 2, width=TWO_COLUMNS, height=5.0, sharex=True)
    for column, mask in enumerate(MASKS):
        _all_heads(axes[0, column], frame, mask)
        _layers(axes[1, column], frame, mask, palette)
    n = np.sort(frame.loc[frame["series"] == HEAD_MEAN, "n"].unique())
    guide = n[0] <= fine_tuned_tokens <= n[-1]  # drawn (and named) only inside the lengths
    for row in axes:
        shared = [ax.get_ylim() for ax in row]
        low, high = min(lim[0] for lim in shared), max(lim[1] for lim in shared)
        for ax in row:
            if guide:
                ax.axvline(fine_tuned_tokens, **GUIDE_STYLE, zorder=1)
            ax.set_ylim(low, high)
            lengths_axis(ax.xaxis, n)
    for ax in axes[1]:
        ax.set(xlabel="passage length $n$ (tokens)")
    for ax in axes[0]:
        ax.set(xlabel="")
    line = {"lw": 1.0}
    mask_entries = [
        (
            (
                Patch(color=MASK_COLOURS[mask], alpha=BAND_STYLE["alpha"], lw=0),
                Line2D([], [], color=MASK_COLOURS[mask], marker="o", ms=3.5, lw=1.3),
            ),
            f"{mask}: median of the heads, 10–90 % band",
        )
        for mask in MASKS
    ]
    entries = [
        *mask_entries,
        (
            Line2D([], [], color=LEGEND_KEY, lw=0.9, ls=FIT_STYLE),
            "OLS fit of the median on log $n$",
        ),
        (
            Line2D([], [], color=CONTROL_COLOUR, **line),
            r"constant scores (causal: Cesàro $C_n$; bidirectional: $\mathbf{1}\mathbf{1}^T/n$)",
        ),
        (
            Line2D([], [], color=THEORY_COLOUR, ls="-.", **line),
            rf"isotropic scores, $\beta = 1$, $d = {head_width}$ (derived)",
        ),
        *(
            [
                (
                    Line2D([], [], **GUIDE_STYLE),
                    f"$n = {fine_tuned_tokens}$: longest fine-tuning input",
                )
            ]
            if guide
            else []
        ),
        *(
            (Line2D([], [], color=colour, marker="o", ms=3, lw=1.1), f"layer {layer}")
            for layer, colour in palette.items()
        ),
    ]
    figure.legend(
        *zip(*entries, strict=True), loc=BELOW_AXES, ncol=3, frameon=False,
        handler_map={tuple: HandlerTuple(ndivide=1, pad=0.0)},
    )  # fmt: skip
    label_panels(axes.ravel())
    return figure
