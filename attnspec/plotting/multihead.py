"""Figures D1-D3 (paper D, multi-head attention), drawn with seaborn from their tidy tables.

Each function takes the figure's plotted table (a pandas DataFrame with the columns of
:mod:`attnspec.multihead.summary`'s ``*_PLOTTED_HEADER``, exactly the figure's CSV) and the
verdict labels read from the claims table; nothing here computes a result.
- D1: relative W1 and KS of softmax against its Gaussian equivalent per table D.2
  configuration: each draw, the mean with its Student-t 95 % interval, the same for the floor
  of rows D.1 (two Gaussian equivalents of the same weights), and the published mean and
  half-width beside them.
- D2: histograms (stat="density") of all n eigenvalues pooled over draws, softmax and Gaussian
  equivalent, against the limit law's density, one panel per (stage, h).
- D3: per sharing scheme the softmax spectrum against the independent-head and tied laws, the
  KS distances to the laws against n, and the statistics of rows D.2 and D.3 with their
  thresholds.
With fewer than :data:`attnspec.plotting.style.BAND_MIN_DRAWS` (10) draws at a point, D3's
curves show every draw instead of a mean with an interval.
"""

from collections.abc import Mapping

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib import pyplot as plt
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FormatStrFormatter, NullFormatter

from attnspec.multihead.metrics import student_t_interval
from attnspec.multihead.summary import FLOOR, KS_METRIC, OURS, PUBLISHED, W1_METRIC
from attnspec.plotting.style import (
    BAND_MIN_DRAWS,
    PALETTE,
    REFERENCE_COLOUR,
    THEORY_COLOUR,
    apply_style,
    log_axis,
)

METRIC_LABELS = {
    W1_METRIC: r"relative $W_1$ distance (%)",
    KS_METRIC: "Kolmogorov–Smirnov distance",
}
SERIES_COLOURS = {"softmax": PALETTE[0], "Gaussian equivalent": PALETTE[1]}
SCHEME_COLOURS = {
    "independent": PALETTE[0],
    "MQA": PALETTE[1],
    "GQA": PALETTE[2],
    "K = V": PALETTE[4],
}
LAW_STYLES = {
    "independent-head law": {"color": THEORY_COLOUR, "ls": "-"},
    "tied law": {"color": "0.15", "ls": "--"},
}
FLOOR_COLOUR = "0.45"


def student_t_errorbar(values) -> tuple[float, float]:
    """(low, high) of the Student-t 95 % interval of a mean (paper D's convention); none
    (NaN) from one value. For seaborn's ``errorbar=``."""
    values = np.asarray(values, dtype=np.float64)
    if values.size < 2:
        return np.nan, np.nan
    interval = student_t_interval(values)
    return interval.mean - interval.half_width, interval.mean + interval.half_width


def _numeric(frame: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """A copy with ``columns`` as floats (empty CSV cells -> NaN)."""
    frame = frame.copy()
    for column in columns:
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    return frame


# D1 ---------------------------------------------------------------------------------------
def plot_public_models(frame: pd.DataFrame, labels: Mapping[str, Mapping[str, str]]):
    """Figure D1 from its tidy table (``labels``: metric -> model id -> verdict text of row
    D.1/<model>/<metric>, shown under the model's name in that metric's panel)."""
    apply_style()
    frame = _numeric(frame, "value", "half_width")
    published = frame[frame["source"] == PUBLISHED]
    ids = list(dict.fromkeys(frame["model"]))
    names = [frame.loc[frame["model"] == m, "name"].iloc[0] for m in ids]
    figure, axes = plt.subplots(1, 2, figsize=(7.4, 3.6), layout="constrained")
    for ax, metric in zip(axes, METRIC_LABELS, strict=True):
        for source, colour, marker in ((OURS, PALETTE[0], "o"), (FLOOR, FLOOR_COLOUR, "v")):
            data = frame[(frame["source"] == source) & (frame["metric"] == metric)]
            sns.stripplot(
                data=data, x="name", y="value", order=names, ax=ax, color=colour, alpha=0.35,
                size=2.5, jitter=False, marker=marker,
            )  # fmt: skip
            sns.pointplot(
                data=data, x="name", y="value", order=names, ax=ax, color=colour,
                errorbar=student_t_errorbar, linestyle="none", markers=marker, capsize=0.15,
                err_kws={"linewidth": 1.2},
            )  # fmt: skip
        rows = published[published["metric"] == metric].set_index("name").loc[names]
        ax.errorbar(
            np.arange(len(names)) + 0.3, rows["value"], yerr=rows["half_width"], fmt="s",
            color=PALETTE[3], ms=4, capsize=2.5, lw=1.2,
        )  # fmt: skip
        ax.set_xlabel("")
        ax.set_ylabel(METRIC_LABELS[metric])
        # log scale only after the means and intervals are drawn (seaborn would average logs)
        log_axis(ax.yaxis)
        own = labels.get(metric, {})
        ax.set_xticks(
            range(len(names)),
            [f"{name}\n{own.get(m, '')}" for m, name in zip(ids, names, strict=True)],
            rotation=35,
            ha="right",
            fontsize=6,
        )
    handles = [
        Line2D([], [], color=PALETTE[0], marker="o", ls="none", alpha=0.35, ms=3, label="draws"),
        Line2D([], [], color=PALETTE[0], marker="o", label="mean, Student-t 95 % (attnspec)"),
        Line2D([], [], color=FLOOR_COLOUR, marker="v", label="floor: two Gaussian equivalents"),
        Line2D([], [], color=PALETTE[3], marker="s", label="mean, 95 % (paper D, table D.2)"),
    ]
    figure.legend(handles=handles, loc="outside lower center", ncol=4, frameon=False)
    figure.suptitle(
        "D1: softmax against its same-weights Gaussian equivalent at public-model dimensions "
        r"($\beta = 1$, $d_O = d$, all $n$ eigenvalues)",
        fontsize=9,
    )
    return figure


# D2 ---------------------------------------------------------------------------------------
STAGE_TITLES = {"attention": "attention stage", "output": "layer with $V$, $W^O$"}


def plot_heads(frame: pd.DataFrame, bins: int):
    """Figure D2 from its tidy table: rows = stage, columns = h; ``bins`` bins per histogram
    over the range of the panel's theory curve (eigenvalues beyond it are not drawn)."""
    apply_style()
    frame = _numeric(frame, "x", "y", "heads")
    samples = frame[frame["series"] != "theory"]
    theory = frame[frame["series"] == "theory"]
    grid = sns.FacetGrid(
        samples,
        row="stage",
        col="heads",
        row_order=list(STAGE_TITLES),
        sharex=False,
        sharey=False,
        height=2.0,
        aspect=1.3,
    )
    for (stage, heads), ax in grid.axes_dict.items():
        curve = theory[(theory["stage"] == stage) & (theory["heads"] == heads)]
        panel = samples[(samples["stage"] == stage) & (samples["heads"] == heads)]
        for series, colour in SERIES_COLOURS.items():
            sns.histplot(
                data=panel[panel["series"] == series], x="x", stat="density", bins=bins,
                binrange=(0.0, curve["x"].max()), element="step", fill=False, lw=0.9,
                color=colour, ax=ax,
            )  # fmt: skip
        ax.plot(curve["x"], curve["y"], color=THEORY_COLOUR, lw=1.1)
        ax.set_title(f"{STAGE_TITLES[stage]}, h = {int(heads)}", fontsize=8)
        ax.set_xlabel("eigenvalue")
        ax.set_ylabel("density")
    handles = [Line2D([], [], color=c, lw=1, label=s) for s, c in SERIES_COLOURS.items()]
    handles.append(Line2D([], [], color=THEORY_COLOUR, lw=1.1, label="limit law (paper D)"))
    grid.figure.suptitle(
        "D2: spectra against the limit law for several head counts h at a fixed per-head width",
        fontsize=9,
    )
    grid.tight_layout(rect=(0, 0.05, 1, 1))
    grid.figure.legend(handles=handles, loc="lower center", ncol=3, frameon=False)
    return grid.figure


# D3 ---------------------------------------------------------------------------------------
def _per_point(ax, data, *, hue, style=None, colours=None):
    """Mean with Student-t 95 % bars against n when every point has >= BAND_MIN_DRAWS draws,
    else every draw as its own line."""
    draws = data.groupby(["n", hue] + ([style] if style else []))["y"].count()
    many = len(draws) and draws.min() >= BAND_MIN_DRAWS
    options = {"estimator": "mean", "errorbar": student_t_errorbar, "err_style": "bars"}
    if not many:
        options = {"estimator": None, "units": "draw", "lw": 0.7}
    sns.lineplot(
        data=data, x="n", y="y", hue=hue, style=style, palette=colours, marker="o", ms=3,
        legend=False, ax=ax, **options,
    )  # fmt: skip
    ax.set_xscale("log", base=2)
    sizes = sorted(data["n"].unique())
    ax.set_xticks(sizes)
    ax.xaxis.set_major_formatter(FormatStrFormatter("%d"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("n")


def plot_sharing(frame: pd.DataFrame, labels: Mapping[str, str], bins: int):
    """Figure D3 from its tidy table (``labels``: scheme label -> verdict text)."""
    apply_style()
    frame = _numeric(frame, "x", "y", "n", "draw")
    schemes = list(dict.fromkeys(frame.loc[frame["panel"] == "spectrum", "scheme"]))
    mosaic = [
        schemes,
        ["distance"] * (len(schemes) // 2) + ["judged"] * (len(schemes) - len(schemes) // 2),
    ]
    figure = plt.figure(figsize=(7.6, 5.2), layout="constrained")
    axes = figure.subplot_mosaic(mosaic)
    spectrum = frame[frame["panel"] == "spectrum"]
    laws = frame[frame["panel"] == "law"]
    largest = int(spectrum["n"].max())
    for scheme in schemes:
        ax = axes[scheme]
        sns.histplot(
            data=spectrum[spectrum["scheme"] == scheme], x="x", stat="density", bins=bins,
            element="step", color=SCHEME_COLOURS[scheme], alpha=0.3, lw=0.8, ax=ax,
        )  # fmt: skip
        for law, style in LAW_STYLES.items():
            curve = laws[laws["series"] == law]
            ax.plot(curve["x"], curve["y"], lw=1.0, label=law, **style)
        ax.set_title(f"{scheme}, n = {largest}\n{labels.get(scheme, '')}", fontsize=7)
        ax.set_xlabel("eigenvalue")
        ax.set_ylabel("density" if scheme == schemes[0] else "")
    axes[schemes[0]].legend(frameon=False, fontsize=6)
    distance = frame[frame["panel"] == "distance"]
    _per_point(axes["distance"], distance, hue="scheme", style="series", colours=SCHEME_COLOURS)
    axes["distance"].set_ylabel("KS of the softmax spectrum to a law")
    log_axis(axes["distance"].yaxis)
    judged = frame[(frame["panel"] == "judged") & frame["n"].notna()]
    thresholds = frame[(frame["panel"] == "judged") & frame["n"].isna()]
    ax = axes["judged"]
    _per_point(ax, judged, hue="scheme", style="series", colours=SCHEME_COLOURS)
    d2 = thresholds.loc[thresholds["series"] == "D.2 margin", "y"]
    ax.axhspan(d2.min(), d2.max(), color=REFERENCE_COLOUR, alpha=0.12, lw=0)
    ax.axhline(0.0, color=REFERENCE_COLOUR, lw=0.6)
    for value in thresholds.loc[thresholds["series"] == "D.3 threshold", "y"]:
        ax.axhline(value, color=PALETTE[4], ls=":", lw=1)
    ax.set_ylabel("statistics of rows D.2 and D.3")
    handles = [
        Line2D([], [], color=c, marker="o", ms=3, label=s) for s, c in SCHEME_COLOURS.items()
    ]
    handles += [
        Line2D([], [], color="0.3", ls="-", label="KS to the independent-head law; D.2: minus "
               "independent heads' mean"),
        Line2D([], [], color="0.3", ls="--", label="KS to the tied law; D.3: Delta"),
        Patch(color=REFERENCE_COLOUR, alpha=0.12, label="D.2 margin"),
        Line2D([], [], color=PALETTE[4], ls=":", label="D.3 threshold"),
    ]  # fmt: skip
    figure.legend(handles=handles, loc="outside lower center", ncol=4, frameon=False, fontsize=6)
    figure.suptitle(
        "D3: K/V sharing across heads keeps the limit law, tying K = V within heads changes it "
        "(softmax spectra; grey band: D.2 margin, dotted: D.3 threshold)",
        fontsize=8.5,
    )
    return figure
