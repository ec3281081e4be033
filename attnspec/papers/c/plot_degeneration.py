"""Figures C1-C4 (paper C, spectral degeneration), drawn with seaborn from their tidy tables.

Each function takes the figure's tidy table (a pandas DataFrame from
:mod:`attnspec.papers.c.degeneration_summary`'s ``*_plotted_table``, exactly the figure's
CSV) and selects its rows by ``kind`` (data, theory, statistic) and ``series``; nothing here
computes a result (C2's differences F_n - F_{n_max} are running sums of the
table's bulk shares). Bands are seaborn's 10-90 % percentile interval of the draws (:data:`BAND`)
where every point has at least :data:`BAND_MIN_DRAWS` draws, else the draws themselves; theory
curves, reference lines and annotations are matplotlib on the seaborn axes, drawn above the
data. Colours by meaning (:data:`attnspec.plotting.style.COLOURS`): the masks, the unmasked
scores S, theory, the Cesaro matrix as a control with a known answer, n light (small) to dark
(large). The verdicts are not drawn: each caption lists them.
"""

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D

from attnspec.models.softmax import MASKS
from attnspec.papers.c.degeneration_plotted import (
    APPROACH,
    ATTENTION,
    BULK_GUIDE,
    BULK_LIMIT,
    FROBENIUS_SQUARED,
    HARMONIC,
    ISOTROPIC_ATTENTION,
    LIMIT,
    NORM,
    NORM_LIMIT,
    REFERENCE,
    SCORES,
    SPIKE_DIAGONAL,
    SPIKE_TIED,
    STABLE_RANK,
    TRANSITION,
)
from attnspec.papers.c.degeneration_summary import fit_line
from attnspec.papers.c.gaussian_stable_rank_summary import reference_slope
from attnspec.plotting.style import (
    BAND,
    BAND_MIN_DRAWS,
    COLOURS,
    LINE_STYLES,
    THEORY_COLOUR,
    TWO_COLUMNS,
    apply_style,
    label_panels,
    log_axis,
    new_canvas,
    new_figure,
    sequential_colours,
)
from attnspec.plotting.tidy import DATA, STATISTIC, THEORY, numeric

MASK_COLOURS = {
    "none": COLOURS["unmasked"],
    "bidirectional": COLOURS["bidirectional"],
    "causal": COLOURS["causal"],
}
CONTROL_COLOUR = COLOURS["control"]
GUIDE_COLOUR = COLOURS["guide"]
PROFILE_MARKERS = {"zeros": "s", "iid": "o"}
ISOTROPIC_MARKER = "x"
FLOOR = 1e-12
"""Singular values below this (exact zeros to rounding) are drawn at the floor in C1."""
FLOOR_NOTE = "values $< 10^{-12}$\ndrawn at $10^{-12}$"
PROFILE_NAMES = {"gaussian": "Gaussian"}
"""How a bulk profile is written in a title (a proper name capitalised; others as named)."""


def profile_name(profile: str) -> str:
    """The bulk profile ``profile`` as a title writes it."""
    return PROFILE_NAMES.get(profile, profile)


BAND_STYLE = {"alpha": 0.2, "lw": 0}
THEORY_SOLID = LINE_STYLES["limit law / theory"]
THEORY_ZORDER = 4
"""Theory and reference curves are drawn above the data (lines: 2, bands: 1)."""
BELOW_AXES = "outside lower center"
"""Where a figure's shared legend sits: below the panels, kept clear by the layout."""


def median_over_draws(ax, data, *, x, y, colour, marker="o", ls="-", **kwargs):
    """The median of ``y`` over draws against ``x`` (seaborn), with the 10-90 % band when every
    x has at least BAND_MIN_DRAWS draws, else every draw as a small marker."""
    draws = data.groupby(x)[y].count()
    banded = draws.min() >= BAND_MIN_DRAWS
    options = {"ms": 3, "lw": 0.9, "err_kws": BAND_STYLE} | kwargs
    sns.lineplot(
        data=data, x=x, y=y, estimator="median", errorbar=BAND if banded else None,
        color=colour, marker=marker, mec=colour, ls=ls, ax=ax, **options,
    )  # fmt: skip
    if not banded and draws.max() > 1:
        ax.plot(data[x], data[y], ls="none", marker=".", ms=2, color=colour, alpha=0.6)


def theory_line(ax, x, y, ls) -> None:
    """A theory curve (theory colour) above the data."""
    ax.plot(x, y, color=THEORY_COLOUR, ls=ls, lw=1.0, zorder=THEORY_ZORDER)


def mask_pair(label: str, **style) -> tuple:
    """A legend entry showing one marker or line style in both mask colours."""
    pair = tuple(Line2D([], [], color=MASK_COLOURS[m], mec=MASK_COLOURS[m], **style) for m in MASKS)
    return pair, label


def shared_legend(figure, *rows, title: str | None = None) -> None:
    """One legend below the panels, one row per list of (handle, label) entries in ``rows``
    (a tuple handle shows its lines side by side), under ``title`` if given."""
    ncol = max(len(row) for row in rows)
    blank = (Line2D([], [], ls="none"), "")
    padded = [[*row, *[blank] * (ncol - len(row))] for row in rows]
    handles, labels = zip(
        *(entry for column in zip(*padded, strict=True) for entry in column), strict=True
    )
    figure.legend(
        handles, labels, loc=BELOW_AXES, ncol=ncol, frameon=False, columnspacing=1.2,
        handler_map={tuple: HandlerTuple(ndivide=None, pad=0.3)}, title=title,
    )  # fmt: skip


# C1 ---------------------------------------------------------------------------------------
MATRIX_DASHES = {SCORES: "", ATTENTION: "", ISOTROPIC_ATTENTION: (4, 2)}
ISOTROPIC_PANEL = "isotropic"


def spectra_panels(frame: pd.DataFrame) -> pd.DataFrame:
    """C1's table with a ``panel`` column: each bulk profile, then the isotropic model in its own
    panel with the singular values of S of its profile (the same sigma: U Sigma V^T and
    diag(sigma) share them)."""
    frame = frame[frame["kind"] == DATA]
    frame = frame.assign(panel=frame["profile"])
    isotropic = frame["series"] == ISOTROPIC_ATTENTION
    frame.loc[isotropic, "panel"] = ISOTROPIC_PANEL
    profiles = set(frame.loc[isotropic, "profile"])
    scores = frame[(frame["series"] == SCORES) & frame["profile"].isin(profiles)]
    return pd.concat([frame, scores.assign(panel=ISOTROPIC_PANEL)], ignore_index=True)


def plot_spectra(frame: pd.DataFrame, *, spikes: int):
    """C1: every singular value of S = diag(sigma) and of A = softmax(S) (bidirectional,
    causal) against the rank, one panel per bulk profile, and a last panel with the isotropic
    model softmax(U Sigma V^T) (dashed) and its S (seaborn ``lineplot``); dotted guides at rank
    r + 1 and s = 1; values below FLOOR drawn at FLOOR (said in each panel that has them); panel
    letters left to right."""
    apply_style()
    frame = spectra_panels(numeric(frame, "rank", "singular_value"))
    frame["drawn"] = np.maximum(frame["singular_value"], FLOOR)
    panels = [*(p for p in dict.fromkeys(frame["panel"]) if p != ISOTROPIC_PANEL), ISOTROPIC_PANEL]
    figure, axes = new_figure(1, len(panels), width=TWO_COLUMNS, height=2.55, sharey=True)
    for panel, ax in zip(panels, axes[0], strict=True):
        data = frame[frame["panel"] == panel]
        sns.lineplot(
            data=data, x="rank", y="drawn", hue="mask", palette=MASK_COLOURS, style="series",
            dashes=MATRIX_DASHES, estimator=None, lw=1.1, legend=False, ax=ax,
        )  # fmt: skip
        ax.axvline(spikes + 1, color=GUIDE_COLOUR, lw=0.8, ls=":", zorder=1)
        ax.axhline(1.0, color=GUIDE_COLOUR, lw=0.8, ls=":", zorder=1)
        log_axis(ax.xaxis)
        log_axis(ax.yaxis)
        ax.set_ylim(FLOOR / 3, None)
        if panel == ISOTROPIC_PANEL:
            profile = data.loc[data["series"] == ISOTROPIC_ATTENTION, "profile"].iloc[0]
            title = rf"softmax$(U\Sigma V^T)$, {profile_name(profile)} $\sigma$"
        else:
            title = f"{profile_name(panel)} bulk"
        if (data["singular_value"] < FLOOR).any():
            ax.text(0.97, 10 * FLOOR, FLOOR_NOTE, transform=ax.get_yaxis_transform(), ha="right",
                    va="bottom", fontsize=6)  # fmt: skip
        ax.set(xlabel="rank $k$", ylabel="singular value $s_k$", title=title)
    entries = [
        (Line2D([], [], color=MASK_COLOURS["none"], lw=1.1), "scores $S$"),
        *((Line2D([], [], color=MASK_COLOURS[m], lw=1.1), f"$A$, {m}") for m in MASKS),
        mask_pair(r"softmax$(U\Sigma V^T)$", lw=1.1, dashes=MATRIX_DASHES[ISOTROPIC_ATTENTION]),
        (Line2D([], [], color=GUIDE_COLOUR, lw=0.8, ls=":"), f"rank $r+1={spikes + 1}$, $s=1$"),
    ]
    shared_legend(figure, entries)
    label_panels(axes[0])
    return figure


# C2 ---------------------------------------------------------------------------------------
STATISTIC_STYLES = {"median": "-", "0.9 quantile": LINE_STYLES["alternative or quantile"]}
GUIDE_STYLE = "-."
"""C2's 1/n slope guide, dash-dotted: apart from the dashed 0.9 quantile."""
ZERO_WIDTH = 1.8
"""C2's zero line under the differences F_n - F_{n_max}: wider than them, so that it shows where
they lie on it."""


def resolved_bulks(frame: pd.DataFrame) -> list[tuple[str, str]]:
    """The (profile, mask) pairs of C2 whose bulk is not exactly 0 (every quantile defined), in
    the table's order."""
    quantiles = frame[frame["kind"] == STATISTIC]
    defined = quantiles.groupby(["profile", "mask"], sort=False)["y"].agg(lambda y: y.notna().all())
    return [pair for pair, ok in defined.items() if ok]


def distribution_functions(distribution: pd.DataFrame) -> pd.DataFrame:
    """Per n, profile and mask the bulk distribution function F_n at each grid point x (the
    running sum of the table's bulk shares) and its difference ``gap`` to F at the largest n."""
    frame = distribution.sort_values(["profile", "mask", "n", "x"], kind="stable")
    frame = frame.assign(F=frame.groupby(["profile", "mask", "n"])["y"].cumsum())
    largest = frame[frame["n"] == frame["n"].max()][["profile", "mask", "x", "F"]]
    frame = frame.merge(largest, on=["profile", "mask", "x"], suffixes=("", "_largest"))
    return frame.assign(gap=frame["F"] - frame["F_largest"])


def plot_bulk(frame: pd.DataFrame):
    """C2: per (profile, mask) whose bulk is not exactly 0, one column: on top the bulk
    distribution function of n s_k(A) at the largest n (with the derived limit law where the
    table has it), below the difference F_n - F_{n_max} for every other n (seaborn
    ``lineplot``); in a last column, one panel per profile: the median and 0.9 quantile of the
    bulk s over draws against n, with the 1/n guide. Panel letters row by row, the first
    quantile panel ending the top row."""
    apply_style()
    frame = numeric(frame, "n", "draw", "x", "y")
    pairs = resolved_bulks(frame)
    profiles = list(dict.fromkeys(profile for profile, _ in pairs))
    figure = new_canvas(width=TWO_COLUMNS, height=3.9)
    left, right = figure.subfigures(1, 2, width_ratios=[len(pairs), 1.15], wspace=0.0)
    axes = left.subplots(2, len(pairs), squeeze=False)
    quantile_axes = right.subplots(len(profiles), 1, squeeze=False)[:, 0]
    functions = distribution_functions(frame[frame["kind"] == DATA].astype({"n": int}))
    sizes = sorted(functions["n"].unique())
    palette = sequential_colours("size", sizes)
    largest = sizes[-1]
    theory = frame[frame["kind"] == THEORY]
    for col, (profile, mask) in enumerate(pairs):
        top, bottom = axes[0, col], axes[1, col]
        data = functions[(functions["profile"] == profile) & (functions["mask"] == mask)]
        sns.lineplot(
            data=data[data["n"] == largest], x="x", y="F", color=MASK_COLOURS[mask], lw=1.4,
            estimator=None, ax=top,
        )  # fmt: skip
        limit = theory[
            (theory["series"] == BULK_LIMIT)
            & (theory["profile"] == profile)
            & (theory["mask"] == mask)
        ]
        if len(limit):  # thin, solid, above the wide data line it coincides with
            theory_line(top, limit["x"], limit["y"], THEORY_SOLID)
        top.set_ylim(-0.02, 1.02)
        top.set(xlabel="", ylabel=f"$F_{{{largest}}}$" if col == 0 else "")
        # two lines: room for the panel letter
        top.set_title(f"{mask}\n{profile_name(profile)} bulk")
        bottom.sharex(top)
        top.tick_params(labelbottom=False)
        bottom.axhline(0.0, color=GUIDE_COLOUR, lw=ZERO_WIDTH, zorder=1)
        sns.lineplot(
            data=data[data["n"] < largest], x="x", y="gap", hue="n", palette=palette, lw=1.0,
            estimator=None, legend=False, ax=bottom,
        )  # fmt: skip
        bottom.set(xlabel=r"$n\,s_k(A)$", ylabel=f"$F_n - F_{{{largest}}}$" if col == 0 else "")
        log_axis(bottom.xaxis)
        bottom.set_xlim(data["x"].min(), data["x"].max())
    for ax, profile in zip(quantile_axes, profiles, strict=True):
        _bulk_quantiles(ax, frame, profile)
    sizes_row = [(Line2D([], [], color=palette[n], lw=1.0), f"$n={n}$") for n in sizes[:-1]]
    shared_legend(
        figure,
        sizes_row,
        [
            (Line2D([], [], color=THEORY_COLOUR, lw=1.0), r"limit $|e^{\beta\xi}-1|$"),
            *((Line2D([], [], color=MASK_COLOURS[m], lw=1.1), m) for m in MASKS),
            *(mask_pair(name, lw=1.0, ls=style) for name, style in STATISTIC_STYLES.items()),
            (Line2D([], [], color=GUIDE_COLOUR, lw=1.0, ls=GUIDE_STYLE), r"$\propto 1/n$"),
        ],
    )
    label_panels([*axes[0], quantile_axes[0], *axes[1], *quantile_axes[1:]])
    return figure


def _bulk_quantiles(ax, frame: pd.DataFrame, profile: str) -> None:
    """Median and 0.9 quantile of the bulk s against n over draws, with the 1/n guide."""
    quantiles = frame[(frame["kind"] == STATISTIC) & (frame["profile"] == profile)]
    resolved = quantiles.groupby("mask", sort=False)["y"].transform(lambda y: y.notna().all())
    quantiles = quantiles[resolved.astype(bool)]
    for (mask, statistic), data in quantiles.groupby(["mask", "series"], sort=False):
        median_over_draws(
            ax, data, x="n", y="y", colour=MASK_COLOURS[mask], ls=STATISTIC_STYLES[statistic],
            ms=2.5,
        )  # fmt: skip
    guide = frame[
        (frame["kind"] == THEORY) & (frame["series"] == BULK_GUIDE) & (frame["profile"] == profile)
    ]
    ax.plot(guide["n"], guide["y"], color=GUIDE_COLOUR, lw=1.0, ls=GUIDE_STYLE, zorder=1)
    # log scales only after seaborn's medians and bands (it would take them of the logs)
    log_axis(ax.xaxis)
    log_axis(ax.yaxis)
    ax.set(xlabel="$n$", ylabel="bulk singular value $s$")
    ax.set_title(f"{profile} bulk: quantiles")


# C3 ---------------------------------------------------------------------------------------
FIT_STYLE = (0, (3, 2))
PROFILE_WIDTHS = {"zeros": 1.8, "iid": 0.9}
"""C3's median lines: the zeros bulk wide, drawn first, under the iid bulk (and the Gaussian
model), so that both show where they coincide (bidirectional)."""
FIT_HEADING = "causal, slope per log $n$ (OLS):"
LIMIT_LABEL = r"limit: $r+1$; (b) $e^{\beta^2}$; (c) 2"


def _profile_width(profile: str) -> float:
    """The width of a median line of C3 for the bulk ``profile`` (:data:`PROFILE_WIDTHS`)."""
    return PROFILE_WIDTHS.get(profile, PROFILE_WIDTHS["iid"])


def _fit_text(data: pd.DataFrame) -> str:
    """An OLS fit of the stable rank on log n over every (n, draw): slope [95 % interval]."""
    fit = fit_line(np.log(data["n"]), data["value"])
    low, high = fit.interval()
    return f"{fit.slope:.3f} [{low:.3f}, {high:.3f}]"


def _draws_with_fit(ax, data: pd.DataFrame, *, marker: str = "o") -> list[str]:
    """Median over draws with its band (or the draws) and, causal, seaborn's OLS fit on log n
    (thin dashed); the fit's text, if any."""
    mask = data["mask"].iloc[0]
    width = _profile_width(data["profile"].iloc[0])
    median_over_draws(
        ax, data, x="n", y="value", colour=MASK_COLOURS[mask], marker=marker, lw=width
    )
    if mask != "causal" or data["n"].nunique() < 2:
        return []
    sns.regplot(
        data=data, x="n", y="value", logx=True, scatter=False, ci=None,
        color=MASK_COLOURS[mask], line_kws={"lw": 0.8, "ls": FIT_STYLE}, ax=ax,
    )  # fmt: skip
    return [_fit_text(data)]


def _note(ax, lines, x: float, y: float) -> None:
    """Small text, right-aligned, its lower right corner at (x, y) in axes coordinates."""
    ax.text(x, y, "\n".join(lines), transform=ax.transAxes, ha="right", va="bottom", fontsize=6)


def _small_number(value: float) -> str:
    """A non-negative number for a note: "0" when it is exactly 0, else two significant digits
    in powers of ten ($1.2\times10^{-13}$)."""
    if value == 0:
        return "0"
    mantissa, exponent = f"{value:.1e}".split("e")
    return rf"${mantissa}\times10^{{{int(exponent)}}}$"


def _level(theory: pd.DataFrame, series: str, model: str) -> float:
    """A theory row's value without n (a limit)."""
    rows = theory[(theory["series"] == series) & (theory["model"] == model)]
    return float(rows["value"].iloc[0])


def plot_stable_rank(frame: pd.DataFrame, *, beta: float):
    """C3: (a) canonical srank against n, bidirectional approaching r + 1 like
    (r + 1) / (1 + sqrt(r / n)), causal growing like log n with its OLS fit, the Cesaro
    matrix (control) with its asymptote H_n / 4, and the isotropic model (crosses); (b) the
    Gaussian model with its derived references and limit; (c) the Cesaro norm -> 2 and
    max |‖C_n‖_F^2 - H_n|. Medians with 10-90 % bands over >= 10 draws (fewer: every draw),
    seaborn ``lineplot`` and ``regplot``; theory above the data; one legend for the figure."""
    apply_style()
    frame = numeric(frame, "n", "draw", "value")
    draws, theory = frame[frame["kind"] == DATA], frame[frame["kind"] == THEORY]
    figure, axes = new_figure(1, 3, width=TWO_COLUMNS, height=2.9)
    ax = axes[0, 0]
    fits = []
    canonical = draws[draws["model"] == "canonical"]
    groups = canonical.groupby(["mask", "profile"], sort=False)
    for (_, profile), data in sorted(groups, key=lambda group: -_profile_width(group[0][1])):
        fits += [
            f"{profile} bulk {text}"
            for text in _draws_with_fit(ax, data, marker=PROFILE_MARKERS[profile])
        ]
    isotropic = draws[draws["model"] == "isotropic"]
    for mask, data in isotropic.groupby("mask", sort=False):
        median_over_draws(
            ax, data, x="n", y="value", colour=MASK_COLOURS[mask], marker=ISOTROPIC_MARKER,
            ls="none", ms=4.5, mew=1.0, err_style="bars", err_kws={"elinewidth": 0.8},
        )  # fmt: skip
    cesaro = frame[
        (frame["model"] == "cesaro")
        & frame["series"].isin([STABLE_RANK, NORM, FROBENIUS_SQUARED, HARMONIC])
    ].pivot(index="n", columns="series", values="value")
    ax.plot(cesaro.index, cesaro[STABLE_RANK], color=CONTROL_COLOUR, lw=1.0, zorder=THEORY_ZORDER)
    theory_line(ax, cesaro.index, cesaro[HARMONIC] / 4, ":")
    limit = _level(theory, LIMIT, "canonical")
    ax.axhline(limit, color=THEORY_COLOUR, lw=1.0, ls=THEORY_SOLID, zorder=THEORY_ZORDER)
    approach = theory[(theory["series"] == APPROACH) & (theory["model"] == "canonical")]
    theory_line(ax, approach["n"], approach["value"], "-.")
    ax.set_xscale("log", base=2)
    ax.set(xlabel="$n$", ylabel=r"stable rank $\|A\|_F^2/\|A\|^2$")
    ax.set_title(r"canonical model diag$(\sigma)$")
    gaussian_fits = _gaussian_panel(axes[0, 1], theory, draws, beta)
    _cesaro_panel(axes[0, 2], cesaro, _level(theory, NORM_LIMIT, "cesaro"))
    line = {"lw": 1.0}
    entries = [
        *((Line2D([], [], color=MASK_COLOURS[m], **line), m) for m in MASKS),
        mask_pair("zeros bulk", marker=PROFILE_MARKERS["zeros"], ms=3, lw=PROFILE_WIDTHS["zeros"]),
        mask_pair("iid bulk; (b) Gaussian model", marker="o", ms=3, lw=PROFILE_WIDTHS["iid"]),
        mask_pair(r"isotropic softmax$(U\Sigma V^T)$", marker=ISOTROPIC_MARKER, ms=4, ls="none"),
        (Line2D([], [], color=MASK_COLOURS["causal"], lw=0.8, ls=FIT_STYLE), "OLS fit on log $n$"),
        (Line2D([], [], color=THEORY_COLOUR, ls=THEORY_SOLID, **line), LIMIT_LABEL),
        (Line2D([], [], color=THEORY_COLOUR, ls="-.", **line), "derived finite-$n$ reference"),
        (Line2D([], [], color=CONTROL_COLOUR, **line), r"Cesàro $C_n$ ($\beta=0$, no spike)"),
        (Line2D([], [], color=THEORY_COLOUR, ls=":", **line), r"$H_n/4$ (Hardy: $\|C_n\|\to 2$)"),
    ]  # fmt: skip
    title = f"{FIT_HEADING} (a) {', '.join(fits)}; (b) {', '.join(gaussian_fits)}"
    shared_legend(figure, entries[:4], entries[4:8], entries[8:], title=title)
    label_panels(axes[0])
    return figure


def _gaussian_panel(ax, theory: pd.DataFrame, draws: pd.DataFrame, beta: float) -> list[str]:
    """C3 (b): the Gaussian model's draws, OLS fit and derived references, its limit; returns
    the texts of the causal fit and of the derived reference's slope."""
    fits = []
    for _, data in draws[draws["model"] == "gaussian"].groupby("mask", sort=False):
        fits += _draws_with_fit(ax, data)
    derived = theory[(theory["series"] == REFERENCE) & (theory["model"] == "gaussian")]
    for mask, curve in derived.groupby("mask", sort=False):
        theory_line(ax, curve["n"], curve["value"], "-.")
        if mask == "causal":
            fits.append(f"derived: {reference_slope(curve['n'], curve['value']):.3f}")
    limit = _level(theory, LIMIT, "gaussian")
    ax.axhline(limit, color=THEORY_COLOUR, lw=1.0, ls=THEORY_SOLID, zorder=THEORY_ZORDER)
    ax.set_xscale("log", base=2)
    ax.set(xlabel=r"$n = \ell = d_{qk}$", ylabel="stable rank")
    ax.set_title(rf"softmax$(\beta QK^T/\sqrt{{d_{{qk}}}})$, $\beta={beta:g}$")
    return fits


def _cesaro_panel(ax, cesaro: pd.DataFrame, limit: float) -> None:
    """C3 (c): ||C_n|| against its Hardy limit (2), with max_n | ||C_n||_F^2 - H_n |."""
    ax.plot(cesaro.index, cesaro[NORM], color=CONTROL_COLOUR, marker="o", ms=3, lw=1.0)
    ax.axhline(limit, color=THEORY_COLOUR, lw=1.0, ls=THEORY_SOLID, zorder=THEORY_ZORDER)
    gap = np.max(np.abs(cesaro[FROBENIUS_SQUARED] - cesaro[HARMONIC]))
    _note(ax, [rf"max$_n\,|\|C_n\|_F^2 - H_n|$ = {_small_number(gap)}"], 0.98, 0.04)
    ax.set_xscale("log", base=2)
    ax.set(xlabel="$n$", ylabel=r"$\|C_n\|$ (Lanczos)")
    ax.set_title(r"Cesàro matrix $C_n$")


# C4 ---------------------------------------------------------------------------------------
def plot_survival(frame: pd.DataFrame, *, spikes: int, profile: str):
    """C4: mean over spikes and draws of the spike-tied singular values of A against kappa
    (spikes sigma = kappa log n) for every n (markers), with the mean explicit diagonal A_pp
    (dashed), one panel per mask (seaborn ``lineplot``); transition near kappa = 1."""
    apply_style()
    frame = numeric(frame, "n", "kappa", "value")
    transition = float(frame.loc[frame["series"] == TRANSITION, "kappa"].iloc[0])
    frame = frame[frame["kind"] == DATA].astype({"n": int})
    palette = sequential_colours("size", frame["n"])
    options = {"x": "kappa", "y": "value", "hue": "n", "palette": palette, "legend": False}
    options |= {"estimator": "mean", "errorbar": None}
    figure, axes = new_figure(1, len(MASKS), width=TWO_COLUMNS, height=2.6, sharey=True)
    for mask, ax in zip(MASKS, axes[0], strict=True):
        data = frame[frame["mask"] == mask]
        sns.lineplot(
            data=data[data["series"] == SPIKE_TIED], marker="o", ms=3, mew=0, lw=1.1, ax=ax,
            **options,
        )  # fmt: skip
        sns.lineplot(data=data[data["series"] == SPIKE_DIAGONAL], lw=0.8, ls="--", ax=ax, **options)
        ax.axvline(transition, color=THEORY_COLOUR, lw=0.9, ls=":", zorder=1)
        ax.set(
            xlabel=r"$\kappa$ (spikes $\sigma_p = \kappa \log n$)", title=f"{mask}, {profile} bulk"
        )
        ax.set(ylabel=f"mean of the {spikes} spike-tied $s(A)$")
        ax.set_ylim(-0.03, 1.05)
    largest = palette[max(palette)]
    handles = [Line2D([], [], color=c, lw=1.1, label=f"$n={n}$") for n, c in palette.items()]
    handles += [
        Line2D([], [], color=largest, marker="o", ms=3, mew=0, lw=1.1, label="spike-tied $s(A)$"),
        Line2D([], [], color=largest, lw=0.8, ls="--", label=r"explicit $A_{pp}$"),
        Line2D([], [], color=THEORY_COLOUR, lw=0.9, ls=":", label=rf"$\kappa = {transition:g}$"),
    ]
    axes[0, 0].legend(handles=handles, frameon=False, loc="upper left")
    label_panels(axes[0])
    return figure
