"""The judged finite-size limits in one picture: for each row of the claims table with a
finite-size model, its statistic at each size (95 % percentile interval over resampled draws),
the model g + a ell^-p fitted at every declared rate p (their envelope, and the fit at the best
rate), and the limit's 95 % interval (the union over the rates, as the engine judged it) against
the limit's pass region at ell = infinity. :func:`limits_table` builds the figure's tidy table
from the committed evidence (figures/paper<X>/claims-evidence.npz) and the claims rows;
:func:`plot_limits` draws figures/claims-limits.png from that table alone.

The fits weight each size by the inverse variance of its statistic over the resamples, as the
engine does (:func:`attnspec.claims.resampling.limit_intervals`); the engine's own numbers (the
limit, its interval, the best rate) are the claims row's, drawn as they are.
"""

import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import NullLocator

from attnspec.claims.dashboard import headline_class
from attnspec.claims.evidence import STATISTICS, Evidence
from attnspec.claims.finite_size import exponent_grid, inverse_variances
from attnspec.claims.rule import CONFIDENCE, pass_region
from attnspec.plotting.style import (
    COLOURS,
    TWO_COLUMNS,
    VERDICT_COLOURS,
    label_panels,
    new_figure,
)
from attnspec.plotting.symbols import row_label
from attnspec.plotting.tidy import STATISTIC, VERDICT, numeric, tidy_table
from attnspec.seeding import rng_for

SIZE_SERIES = "statistic at each size"
ENVELOPE_SERIES = "fits over the declared rates"
BEST_SERIES = "fit at the best rate"
LIMIT_SERIES = "limit, union over the declared rates"
REGION_SERIES = "pass region of the limit"
LIMITS_COLUMNS = ("kind", "series", "paper", "row_id", "verdict", "x", "y", "y_low", "y_high")
"""The figure's tidy table: per row, its statistic at each size x = ell (y, with y_low, y_high
its 95 % interval), the envelope (y_low, y_high) of the fits over the declared rates and the fit
at the best rate (y) on a grid of ell, the limit (y, y_low, y_high, x empty: ell = infinity) and
the limit's pass region (y_low, y_high) with the row's headline verdict."""
RESAMPLES = 2000
FIT_REACH = 4.0
"""The fitted curves run from the smallest size to this many times the largest."""
GRID_POINTS = 60
_BEST_RATE = re.compile(r"best p = ([0-9.eE+-]+)")


def size_intervals(evidence: Evidence, statistic: str, rng) -> tuple[np.ndarray, np.ndarray]:
    """(statistic, resampled statistics (RESAMPLES, S)) at each size of ``evidence``'s
    finite-size data; each size's draws resampled with replacement on their own."""
    reduce, names = STATISTICS[statistic].reduce, STATISTICS[statistic].resampled
    values, boots = [], []
    for samples in evidence.by_size:
        draws = {key: samples[key].shape[0] for key in names}
        identity = {key: np.arange(n)[None, :] for key, n in draws.items()}
        values.append(float(reduce(samples, identity)[0]))
        index = {key: rng.integers(0, n, size=(RESAMPLES, n)) for key, n in draws.items()}
        boots.append(reduce(samples, index) if names else np.full(RESAMPLES, values[-1]))
    return np.array(values), np.stack(boots, axis=1)


def weighted_line(x: np.ndarray, y: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """(g, a) of the weighted least-squares line y = g + a x."""
    design = np.stack([np.ones_like(x), x], axis=1) * np.sqrt(weights)[:, None]
    (g, a), *_ = np.linalg.lstsq(design, y * np.sqrt(weights), rcond=None)
    return float(g), float(a)


def row_limits(row: Mapping, evidence: Evidence, statistic: str, rates: tuple[float, float]):
    """The tidy parts of one row: statistic per size, fits, limit and its pass region."""
    key = {"paper": row["paper"], "row_id": row["row_id"], "verdict": headline_class(row)}
    sizes = np.asarray(evidence.sizes, dtype=np.float64)
    values, boot = size_intervals(
        evidence, statistic, rng_for({"row_id": row["row_id"]}, 0, "claims-limits")
    )
    tail = 50.0 * (1.0 - CONFIDENCE)
    low, high = np.percentile(boot, [tail, 100.0 - tail], axis=0)
    weights = inverse_variances(boot[None])[0]
    weights = np.where(np.isfinite(weights), weights, 1.0)
    grid = np.geomspace(sizes[0], FIT_REACH * sizes[-1], GRID_POINTS)
    curves = []
    for p in exponent_grid(rates):
        g, a = weighted_line(sizes**-p, values, weights)
        curves.append(g + a * grid**-p)
    best = _BEST_RATE.search(str(row.get("limit_fit", "")))
    best_p = float(best[1]) if best else float(np.sqrt(rates[0] * rates[1]))
    g, a = weighted_line(sizes**-best_p, values, weights)
    margin, target = float(row["margin"]), float(row["limit_target"])
    region = pass_region(row["comparison"], target, margin)
    return [
        {**key, "kind": STATISTIC, "series": SIZE_SERIES, "x": sizes, "y": values,
         "y_low": low, "y_high": high},
        {**key, "kind": STATISTIC, "series": ENVELOPE_SERIES, "x": grid,
         "y_low": np.min(curves, axis=0), "y_high": np.max(curves, axis=0)},
        {**key, "kind": STATISTIC, "series": BEST_SERIES, "x": grid, "y": g + a * grid**-best_p},
        {**key, "kind": VERDICT, "series": LIMIT_SERIES, "y": [float(row["limit"])],
         "y_low": [float(row["limit_low"])], "y_high": [float(row["limit_high"])]},
        {**key, "kind": VERDICT, "series": REGION_SERIES, "y": [target],
         "y_low": [region[0]], "y_high": [region[1]]},
    ]  # fmt: skip


def limits_table(rows: Sequence[Mapping], evidence: Mapping[str, Evidence], tests: Mapping):
    """The tidy table (:data:`LIMITS_COLUMNS`) of every claims row with a finite limit, in the
    rows' order; ``evidence`` and ``tests`` (declared tests) by row id. ValueError for a row
    whose evidence has no finite-size data."""
    parts = []
    for row in rows:
        if not np.isfinite(pd.to_numeric(row.get("limit"), errors="coerce")):
            continue
        row_id = row["row_id"]
        found = evidence.get(row_id)
        if found is None or found.by_size is None:
            raise ValueError(f"row {row_id}: no finite-size evidence to draw its limit from")
        test = tests[row_id]
        parts += row_limits(row, found, test.statistic, test.finite_size.exponents)
    if not parts:
        raise ValueError("rows must include one with a finite-size limit; none has")
    return tidy_table(parts, LIMITS_COLUMNS, integers=("x",))


# Drawing ----------------------------------------------------------------------------------------
COLUMNS = 3
PANEL_HEIGHT = 1.35
"""Inches per row of panels."""
TICK_RATIO = 4.0
"""The smallest and largest size are both labelled when this far apart (else the largest only)."""
INFINITY_SLOT = 4.0
"""The limit is drawn at this many times the fits' reach (a gap, then "infinity")."""


def _panel(ax, mine: pd.DataFrame) -> None:
    """One row's panel: sizes on a log axis, then the limit at the infinity slot."""
    at = {series: rows for series, rows in mine.groupby("series", sort=False)}
    sizes = at[SIZE_SERIES]
    grid = at[ENVELOPE_SERIES]
    reach = float(grid["x"].max())
    slot = reach * INFINITY_SLOT
    region = at[REGION_SERIES].iloc[0]
    limit = at[LIMIT_SERIES].iloc[0]
    colour = VERDICT_COLOURS[limit["verdict"]]
    span = [float(sizes["x"].min()) / 1.3, slot * 1.5]
    ax.fill_between(grid["x"], grid["y_low"], grid["y_high"], color=COLOURS["data"], alpha=0.2,
                    lw=0, zorder=1)  # fmt: skip
    best = at[BEST_SERIES]
    ax.plot(best["x"], best["y"], color=COLOURS["data"], lw=0.9, zorder=2)
    ax.errorbar(sizes["x"], sizes["y"], yerr=[sizes["y"] - sizes["y_low"],
                sizes["y_high"] - sizes["y"]], color=COLOURS["data"], marker="o", ms=3,
                lw=0, elinewidth=1.0, capsize=0, zorder=3)  # fmt: skip
    ax.errorbar([slot], [limit["y"]], yerr=[[limit["y"] - limit["y_low"]],
                [limit["y_high"] - limit["y"]]], color=colour, marker="D", ms=3.5, lw=0,
                elinewidth=1.4, capsize=0, zorder=4)  # fmt: skip
    ax.set_xscale("log")
    ax.set_xlim(*span)
    first, last = float(sizes["x"].min()), float(sizes["x"].max())
    shown = [first, last] if last >= TICK_RATIO * first else [last]  # apart at 6.5 pt
    ax.set_xticks([*shown, slot], [f"{t:g}" for t in shown] + [r"$\infty$"])
    ax.xaxis.set_minor_locator(NullLocator())
    lows = [region["y_low"], limit["y_low"], *sizes["y_low"]]
    highs = [region["y_high"], limit["y_high"], *sizes["y_high"]]
    finite = [v for v in lows + highs if np.isfinite(v)]
    pad = 0.08 * (max(finite) - min(finite))
    bottom, top = min(finite) - pad, max(finite) + pad
    ax.set_ylim(bottom, top)
    band = np.clip([region["y_low"], region["y_high"]], bottom, top)  # one-sided: to the edge
    ax.fill_between(span, *band, color=COLOURS["guide"], lw=0, zorder=0)
    ax.set_title(row_label(mine["row_id"].iloc[0]), fontsize=6.5)


def plot_limits(frame: pd.DataFrame):
    """The finite-size limits from their tidy table: one panel per row, three to a line."""
    frame = numeric(frame, "x", "y", "y_low", "y_high")
    row_ids = list(dict.fromkeys(frame["row_id"]))
    lines = -(-len(row_ids) // COLUMNS)
    figure, axes = new_figure(lines, COLUMNS, width=TWO_COLUMNS, height=PANEL_HEIGHT * lines + 0.6)
    panels = list(axes.flat)
    for ax, row_id in zip(panels, row_ids, strict=False):
        _panel(ax, frame[frame["row_id"] == row_id])
    for ax in panels[len(row_ids) :]:
        ax.set_visible(False)
    for ax in panels[len(row_ids) - COLUMNS : len(row_ids)]:
        ax.set_xlabel(r"$\ell$ (log scale)")
    for ax in panels[: len(row_ids) : COLUMNS]:
        ax.set_ylabel("the row's statistic")
    label_panels(panels[: len(row_ids)])
    present = dict.fromkeys(frame.loc[frame["series"] == LIMIT_SERIES, "verdict"])
    handles = [
        *(Line2D([], [], color=VERDICT_COLOURS[v], marker="D", ms=3.5, lw=1.4, label=f"limit: {v}")
          for v in VERDICT_COLOURS if v in present),
        Line2D([], [], color=COLOURS["data"], marker="o", ms=3, lw=1.0,
               label="statistic at each size, 95 % interval"),
        Patch(color=COLOURS["data"], alpha=0.2, lw=0,
              label=r"fits $g + a\,\ell^{-p}$ over the declared rates $p$"),
        Line2D([], [], color=COLOURS["data"], lw=0.9, label="fit at the best rate"),
        Patch(color=COLOURS["guide"], label="pass region of the limit"),
    ]  # fmt: skip
    figure.legend(handles=handles, loc="outside lower center", ncol=3, frameon=False)
    return figure
