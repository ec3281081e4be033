"""Figures D1-D3 (paper D, multi-head attention), drawn with seaborn from their tidy tables at
two columns' width (7.0 in).

Each function takes the figure's tidy table (a pandas DataFrame with the columns of
:mod:`attnspec.papers.d.multihead_plotted`'s ``*_PLOTTED_COLUMNS``, exactly the figure's CSV) and
selects its rows by ``kind`` (data, theory, statistic, verdict) and ``series``; nothing here
computes a result.
- D1: relative W1 and KS of softmax against its Gaussian equivalent per table D.2
  configuration: each draw, the mean with its Student-t 95 % interval, the same for the floor
  of rows D.1 (two Gaussian equivalents of the same weights), and the published mean and
  half-width beside them; below, what rows D.1 judge (mean minus the published mean, mean
  minus the floor's), each over its pass band and coloured by its verdict.
- D2: histograms (stat="density") of all n eigenvalues pooled over draws, softmax and Gaussian
  equivalent, against the limit law's density, one panel per (stage, h); the density axis is
  logarithmic where the law reaches down to 0 (a peak at 0 and a long tail).
- D3: per sharing scheme the softmax spectrum against the independent-head and tied laws (log
  density), the KS distances to the laws against n, and in two panels of their own the
  statistics of rows D.2 (MQA, GQA) and D.3 (K = V) with their thresholds.
With fewer than :data:`attnspec.plotting.style.BAND_MIN_DRAWS` (10) draws at a point, D3's
curves show every draw instead of a mean with an interval.
"""

from textwrap import wrap

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import FormatStrFormatter, NullFormatter

from attnspec.intervals import student_t_interval
from attnspec.papers.d.multihead import SCHEME_LABELS
from attnspec.papers.d.multihead_plotted import (
    AGAINST_PUBLISHED,
    BEYOND_FLOOR,
    D2_EXCESS,
    D2_MARGIN,
    D3_DELTA,
    D3_THRESHOLD,
    FLOOR,
    LIMIT_LAW,
    OURS,
    PUBLISHED_HALF_WIDTH,
    PUBLISHED_MEAN,
    SPECTRUM,
    distance_series,
)
from attnspec.papers.d.multihead_summary import KS_METRIC, W1_METRIC
from attnspec.plotting.style import (
    BAND_MIN_DRAWS,
    COLOURS,
    LEGEND_KEY,
    LINE_STYLES,
    TWO_COLUMNS,
    VERDICT_COLOURS,
    label_panels,
    log_axis,
    new_canvas,
    new_figure,
    sequential_colours,
)
from attnspec.plotting.tidy import DATA, STATISTIC, THEORY, VERDICT, numeric, select

METRIC_LABELS = {
    W1_METRIC: r"relative $W_1$ distance (%)",
    KS_METRIC: "Kolmogorov–Smirnov distance",
}
SERIES_COLOURS = {"softmax": COLOURS["data"], "Gaussian equivalent": COLOURS["gaussian_reference"]}
SHARING_ORDER = [SCHEME_LABELS[scheme] for scheme in ("independent", "gqa", "mqa", "tied")]
"""The schemes' labels in their order of tying (the order of the sequential "sharing" colours):
independent, GQA, MQA, K = V."""
SCHEME_COLOURS = dict(
    zip(
        SHARING_ORDER,
        sequential_colours("sharing", range(len(SHARING_ORDER))).values(),
        strict=True,
    )
)
LAW_STYLES = {
    "independent-head law": {"color": COLOURS["theory"], "ls": "-"},
    "tied law": {"color": COLOURS["theory"], "ls": "--"},
}
"""Both laws are theory (one colour); the line style tells them apart, as it tells apart a
spectrum's KS distance to each in figure D3."""
THRESHOLD_STYLE = {"color": COLOURS["guide"], "ls": LINE_STYLES["edge or threshold"], "lw": 1.5}
"""The D.3 threshold in figure D3: a threshold, dotted, in the guide colour."""


def student_t_errorbar(values) -> tuple[float, float]:
    """(low, high) of the Student-t 95 % interval of a mean (paper D's convention); none
    (NaN) from one value. For seaborn's ``errorbar=``."""
    values = np.asarray(values, dtype=np.float64)
    if values.size < 2:
        return np.nan, np.nan
    interval = student_t_interval(values)
    return interval.mean - interval.half_width, interval.mean + interval.half_width


# D1 ---------------------------------------------------------------------------------------
D1_SOURCES = {
    OURS: (COLOURS["data"], "o"),
    FLOOR: (COLOURS["null_model"], "v"),
    PUBLISHED_MEAN: (COLOURS["published"], "s"),
}
"""Colour and marker of D1's series: softmax against its Gaussian equivalent (data), the floor
of two Gaussian equivalents (null model) and paper D's table D.2 (published)."""


JUDGED_MARKERS = {AGAINST_PUBLISHED: "s", BEYOND_FLOOR: "o"}
"""D1's judged panels: a square for paper D's statement (against the published mean, whose
square it is in the panels above), a circle for the row beyond the paper (beyond the floor)."""
JUDGED_LABELS = {
    W1_METRIC: r"mean minus target, relative $W_1$ (% points)",
    KS_METRIC: "mean minus target, KS",
}


def _judged_panel(ax, rows: pd.DataFrame, names: list[str]) -> None:
    """Rows D.1 of one metric: per configuration, value - target with its 95 % interval over
    its pass band (target ± margin, shaded), coloured by verdict."""
    ax.axhline(0.0, color=COLOURS["null_model"], lw=0.5, ls=":", zorder=1)
    for offset, series in ((-0.17, AGAINST_PUBLISHED), (0.17, BEYOND_FLOOR)):
        mine = rows[rows["series"] == series].set_index("name")
        for i, name in enumerate(names):
            if name not in mine.index:
                continue
            row = mine.loc[name]
            x = i + offset
            ax.fill_between(
                [x - 0.13, x + 0.13], -row["margin"], row["margin"], color=COLOURS["guide"],
                lw=0, zorder=0,
            )  # fmt: skip
            colour = VERDICT_COLOURS[row["verdict"]]
            ax.plot([x, x], [row["low"], row["high"]], color=colour, lw=1.2, zorder=2)
            ax.plot(x, row["value"], marker=JUDGED_MARKERS[series], color=colour, ms=4,
                    ls="none", zorder=3)  # fmt: skip


def plot_public_models(frame: pd.DataFrame):
    """Figure D1 from its tidy table: per metric panel (log scale) and model the draws, their
    mean with its Student-t 95 % interval, the same for the floor, and paper D's mean and
    half-width beside them; below, the rows D.1 that judge them (kind "verdict"), each as
    mean minus target with its interval over its pass band, coloured by verdict. Panel letters
    row by row."""
    frame = numeric(frame, "value", "low", "high", "margin")
    published = select(frame, STATISTIC, PUBLISHED_MEAN, PUBLISHED_HALF_WIDTH)
    judged = select(frame, VERDICT)
    names = list(dict.fromkeys(frame["name"]))
    ticks = ["\n".join(wrap(name, 10, break_long_words=False)) for name in names]
    rows = 2 if len(judged) else 1
    figure, axes = new_figure(rows, 2, width=TWO_COLUMNS, height=2.9 + 2.1 * (rows - 1))
    for ax, metric in zip(axes[0], METRIC_LABELS, strict=True):
        for source in (OURS, FLOOR):
            colour, marker = D1_SOURCES[source]
            data = select(frame, DATA, source)
            data = data[data["metric"] == metric]
            sns.stripplot(
                data=data, x="name", y="value", order=names, ax=ax, color=colour, alpha=0.4,
                size=2.5, jitter=False, marker=marker,
            )  # fmt: skip
            sns.pointplot(
                data=data, x="name", y="value", order=names, ax=ax, color=colour,
                errorbar=student_t_errorbar, linestyle="none", markers=marker, capsize=0.15,
                err_kws={"linewidth": 1.2},
            )  # fmt: skip
        found = published[published["metric"] == metric].pivot(
            index="name", columns="series", values="value"
        )
        found = found.loc[names]
        colour, marker = D1_SOURCES[PUBLISHED_MEAN]
        ax.errorbar(
            np.arange(len(names)) + 0.3, found[PUBLISHED_MEAN], yerr=found[PUBLISHED_HALF_WIDTH],
            fmt=marker, color=colour, ms=4, capsize=2.5, lw=1.2,
        )  # fmt: skip
        ax.set_xlabel("")
        ax.set_ylabel(METRIC_LABELS[metric])
        # log scale only after the means and intervals are drawn (seaborn would average logs)
        log_axis(ax.yaxis)
        ax.set_xticks(range(len(names)), ticks)
    handles = [
        Line2D([], [], color=COLOURS["data"], marker="o", ls="none", alpha=0.4, ms=3,
               label="draws"),
        Line2D([], [], color=COLOURS["data"], marker="o",
               label="softmax against its Gaussian equivalent: mean, Student-t 95 %"),
        Line2D([], [], color=COLOURS["null_model"], marker="v",
               label="floor, two Gaussian equivalents: mean, Student-t 95 %"),
        Line2D([], [], color=COLOURS["published"], marker="s",
               label="paper D, table D.2: mean, 95 %"),
    ]  # fmt: skip
    if rows == 2:
        for ax, metric in zip(axes[1], METRIC_LABELS, strict=True):
            _judged_panel(ax, judged[judged["metric"] == metric], names)
            ax.set_ylabel(JUDGED_LABELS[metric])
            ax.set_xticks(range(len(names)), ticks)
            ax.set_xlim(axes[0][0].get_xlim())
        present = list(dict.fromkeys(judged["verdict"]))
        handles += [
            Line2D([], [], color=LEGEND_KEY, marker=JUDGED_MARKERS[AGAINST_PUBLISHED], ls="none",
                   label="judged: mean minus the published mean (paper D's statement)"),
            Line2D([], [], color=LEGEND_KEY, marker=JUDGED_MARKERS[BEYOND_FLOOR], ls="none",
                   label="judged: mean minus the floor's (beyond the paper)"),
            Patch(color=COLOURS["guide"], label="pass band, target ± margin"),
        ] + [
            Line2D([], [], color=VERDICT_COLOURS[v], marker="o", ls="-", label=v)
            for v in VERDICT_COLOURS if v in present
        ]  # fmt: skip
    figure.legend(handles=handles, loc="outside lower center", ncol=2, frameon=False)
    label_panels(axes.ravel())
    return figure


# D2 ---------------------------------------------------------------------------------------
STAGE_TITLES = {"attention": "attention stage", "output": r"layer with $V$, $W^O$"}
STAGE_MATRICES = {
    "attention": r"eigenvalue of $(n/h)\,A_\perp A_\perp^\top$",
    "output": r"eigenvalue of $\mathrm{MHA}_\perp \mathrm{MHA}_\perp^\top$",
}
"""D2's x-labels: the matrix whose eigenvalues each row shows (A_perp = [A_1_perp, ..., A_h_perp];
the Gaussian equivalent's histogram is of the same matrix built from Y_r^G)."""


def _reaches_zero(curve: pd.DataFrame) -> bool:
    """Whether a law's density (its curve from the left end of the figure's range) is still
    positive at that end: a law whose support reaches down to 0, peaked there with a long tail,
    which a linear density axis squashes."""
    return bool(curve["density"].iloc[0] > 0)


def plot_heads(frame: pd.DataFrame, bins: int):
    """Figure D2 from its tidy table: rows = stage, columns = h; the data's eigenvalues in
    ``bins`` bins per histogram over the range of the panel's limit-law curve (theory;
    eigenvalues beyond it are not drawn); a log density axis in the panels whose law reaches
    down to 0; panel letters row by row."""
    frame = numeric(frame, "eigenvalue", "density", "heads")
    samples = select(frame, DATA)
    theory = select(frame, THEORY, LIMIT_LAW)
    head_counts = sorted(samples["heads"].unique())
    figure, axes = new_figure(len(STAGE_TITLES), len(head_counts), width=TWO_COLUMNS, height=4.2)
    for row, stage in zip(axes, STAGE_TITLES, strict=True):
        for ax, heads in zip(row, head_counts, strict=True):
            curve = theory[(theory["stage"] == stage) & (theory["heads"] == heads)]
            panel = samples[(samples["stage"] == stage) & (samples["heads"] == heads)]
            for series, colour in SERIES_COLOURS.items():
                sns.histplot(
                    data=panel[panel["series"] == series], x="eigenvalue", stat="density",
                    bins=bins, binrange=(0.0, curve["eigenvalue"].max()), element="step",
                    fill=False, lw=0.9, color=colour, ax=ax,
                )  # fmt: skip
            ax.plot(curve["eigenvalue"], curve["density"], color=COLOURS["theory"], lw=1.1)
            if _reaches_zero(curve):
                log_axis(ax.yaxis)
            ax.set_title(f"{STAGE_TITLES[stage]}, $h = {int(heads)}$")
            ax.set_xlabel(STAGE_MATRICES[stage])
            ax.set_ylabel("density" if heads == head_counts[0] else "")
    handles = [Line2D([], [], color=c, lw=1, label=s) for s, c in SERIES_COLOURS.items()]
    handles.append(Line2D([], [], color=COLOURS["theory"], lw=1.1, label="limit law (paper D)"))
    figure.legend(handles=handles, loc="outside lower center", ncol=3, frameon=False)
    label_panels(axes.ravel())
    return figure


# D3 ---------------------------------------------------------------------------------------
def _per_point(ax, data, *, style=None):
    """Mean with Student-t 95 % bars against n (log 2 axis) per scheme when every point has
    >= BAND_MIN_DRAWS draws, else every draw as its own line."""
    draws = data.groupby(["n", "scheme"] + ([style] if style else []))["value"].count()
    many = len(draws) and draws.min() >= BAND_MIN_DRAWS
    options = {"estimator": "mean", "errorbar": student_t_errorbar, "err_style": "bars"}
    if not many:
        options = {"estimator": None, "units": "draw", "lw": 0.7}
    sns.lineplot(
        data=data, x="n", y="value", hue="scheme", style=style, palette=SCHEME_COLOURS, marker="o",
        ms=3, legend=False, ax=ax, **options,
    )  # fmt: skip
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(data["n"].unique()))
    ax.xaxis.set_major_formatter(FormatStrFormatter("%d"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("$n$")


def plot_sharing(frame: pd.DataFrame, bins: int):
    """Figure D3 from its tidy table: top, per scheme (in order of tying) the softmax spectrum
    at the largest n against both laws (log density); bottom, the KS distances to the laws
    against n, the statistic of rows D.2 (MQA, GQA) with its margin and that of row D.3 (K = V)
    with its threshold; panel letters row by row."""
    frame = numeric(frame, "eigenvalue", "density", "value", "n", "draw")
    spectrum = select(frame, DATA, SPECTRUM)
    present = set(spectrum["scheme"])
    schemes = [scheme for scheme in SHARING_ORDER if scheme in present]
    figure = new_canvas(width=TWO_COLUMNS, height=4.6)
    top, bottom = figure.subfigures(2, 1, height_ratios=[1.0, 1.08])
    spectra_axes = top.subplots(1, len(schemes), sharey=True)
    laws = select(frame, THEORY, *LAW_STYLES)
    largest = int(spectrum["n"].max())
    for ax, scheme in zip(spectra_axes, schemes, strict=True):
        sns.histplot(
            data=spectrum[spectrum["scheme"] == scheme], x="eigenvalue", stat="density",
            bins=bins, element="step", color=SCHEME_COLOURS[scheme], alpha=0.35, lw=0.8, ax=ax,
        )  # fmt: skip
        for law, style in LAW_STYLES.items():
            curve = laws[laws["series"] == law]
            ax.plot(curve["eigenvalue"], curve["density"], lw=1.0, label=law, **style)
        log_axis(ax.yaxis)
        ax.set_title(f"{scheme}, $n = {largest}$")
        ax.set_xlabel(r"eigenvalue of $\mathrm{MHA}_\perp \mathrm{MHA}_\perp^\top$")
        ax.set_ylabel("density" if scheme == schemes[0] else "")
    distance_ax, excess_ax, delta_ax = bottom.subplots(1, 3)
    distances = select(frame, DATA, *(distance_series(law) for law in LAW_STYLES))
    _per_point(distance_ax, distances, style="series")
    distance_ax.set_ylabel("KS distance")
    distance_ax.set_title("KS to each law")
    log_axis(distance_ax.yaxis)
    _per_point(excess_ax, select(frame, STATISTIC, D2_EXCESS))
    margin = select(frame, THEORY, D2_MARGIN)["value"]
    excess_ax.axhspan(margin.min(), margin.max(), color=COLOURS["guide"], alpha=0.6, lw=0)
    excess_ax.axhline(0.0, color=COLOURS["guide"], lw=0.8)
    excess_ax.set_ylabel("KS(independent-head law)\n− independent heads' mean")
    excess_ax.set_title("row D.2 (MQA, GQA)")
    _per_point(delta_ax, select(frame, STATISTIC, D3_DELTA))
    for value in select(frame, THEORY, D3_THRESHOLD)["value"]:
        delta_ax.axhline(value, **THRESHOLD_STYLE)
    delta_ax.axhline(0.0, color=COLOURS["guide"], lw=0.8)
    delta_ax.set_ylabel("KS(independent-head law)\n− KS(tied law)")
    delta_ax.set_title(r"row D.3 (K = V): $\Delta$")
    handles = [Line2D([], [], color=SCHEME_COLOURS[s], marker="o", ms=3, label=s) for s in schemes]
    handles += [Line2D([], [], lw=1.0, label=law, **style) for law, style in LAW_STYLES.items()]
    handles += [
        Patch(color=COLOURS["guide"], alpha=0.6, lw=0, label=D2_MARGIN),
        Line2D([], [], label=D3_THRESHOLD, **THRESHOLD_STYLE),
    ]
    bottom.legend(handles=handles, loc="outside lower center", ncol=4, frameon=False)
    label_panels([*spectra_axes, distance_ax, excess_ax, delta_ax])
    return figure
