"""The verdicts in one picture: each row of the claims table as its statistic's distance from its
target in margins, z = (statistic - target) / margin, with its 95 % interval, the pass region in
the same unit, the finite-size limit where the row has one, and every declared wrong theory
judged on the same data: :func:`forest_table` builds the figure's tidy table from the rows,
:func:`plot_forest` draws figures/claims-forest.png from that table alone (one panel per paper,
coloured by verdict; values beyond the axis drawn at its edge as arrows).

Pass regions in margins: equivalence [-1, 1]; at_most (-inf, 1]; at_least [1, inf);
below (-inf, -1] (:func:`attnspec.claims.verdicts.pass_region`).
"""

import re
from collections.abc import Iterable, Mapping
from functools import partial

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from attnspec.claims.dashboard import headline_class
from attnspec.claims.verdicts import COMPARISONS, pass_region
from attnspec.plotting.style import COLOURS, LEGEND_KEY, TWO_COLUMNS, VERDICT_COLOURS, new_figure
from attnspec.plotting.tidy import VERDICT, numeric, tidy_table

STATISTIC_SERIES = "statistic"
LIMIT_SERIES = "finite-size limit"
ALTERNATIVE_SERIES = "declared alternative"
FOREST_COLUMNS = (
    "kind",
    "series",
    "paper",
    "row_id",
    "name",
    "verdict",
    "comparison",
    "evidence",
    "z",
    "z_low",
    "z_high",
)
"""The forest's tidy table: per row of the claims table its statistic (series "statistic"), its
finite-size limit if it has one (in margins from the limit's target), and each declared
alternative (``name``, in margins from the alternative's own target: a wrong theory passes
inside [-1, 1]), as z, z_low, z_high; ``verdict`` is the row's headline verdict class (or the
alternative's own verdict), ``evidence`` whether the row is empirical (the others cannot fail
on data: models, identities, bounds)."""

REGIONS = {comparison: pass_region(comparison, 0.0, 1.0) for comparison in COMPARISONS}
"""Each comparison's pass region in margins from the target."""

_ALTERNATIVE = re.compile(
    r"(?P<name>[^;]+?): (?P<verdict>[a-z -]+), value (?P<value>\S+) "
    r"\[(?P<low>\S+), (?P<high>\S+)\], target (?P<target>[^,;]+)"
)


def alternatives_of(row: Mapping) -> list[dict]:
    """The declared alternatives of a row as judged on its data (its ``alternatives`` text:
    ``name: verdict, value v [low, high], target t[, limit ...]; ...``): name, verdict, value,
    low, high and the alternative's own target (it is judged as an equivalence with it)."""
    text = str(row.get("alternatives", "") or "")
    found = []
    for part in text.split("; "):
        match = _ALTERNATIVE.match(part)
        if match:
            found.append(
                {
                    "name": match["name"],
                    "verdict": match["verdict"],
                    **{k: float(match[k]) for k in ("value", "low", "high", "target")},
                }
            )
    return found


def _float(row: Mapping, key: str) -> float:
    try:
        return float(row.get(key, "nan"))
    except (TypeError, ValueError):
        return float("nan")


def in_margins(row: Mapping, *values: float) -> list[float]:
    """``values`` as (value - target) / margin of ``row``; ValueError for a margin that is not
    positive (no unit to measure in)."""
    margin = _float(row, "margin")
    if not margin > 0:
        raise ValueError(f"row {row['row_id']}: margin must be > 0 to draw it, got {margin}")
    target = _float(row, "target")
    return [(v - target) / margin for v in values]


def _part(key: Mapping, series: str, z, name: str = "", *, verdict: str) -> dict:
    """One line of the forest's table: ``key``'s columns, the series and z, z_low, z_high."""
    return {**key, "series": [series], "name": [name], "verdict": [verdict],
            "z": [z[0]], "z_low": [z[1]], "z_high": [z[2]]}  # fmt: skip


def forest_table(rows: Iterable[Mapping]):
    """The forest's tidy table (:data:`FOREST_COLUMNS`) from the claims table's ``rows``, in
    their order; a row without a positive margin (a bound) has no z (NaN)."""
    parts = []
    for row in rows:
        if row["comparison"] not in COMPARISONS:
            raise ValueError(f"row {row['row_id']}: unknown comparison {row['comparison']!r}")
        key = {
            "kind": VERDICT,
            "paper": row["paper"],
            "row_id": row["row_id"],
            "comparison": row["comparison"],
            "evidence": row["kind"] == "empirical",
        }
        part = partial(_part, key, verdict=headline_class(row))
        if not _float(row, "margin") > 0:  # a bound: holds by construction, no unit
            parts.append(part(STATISTIC_SERIES, [np.nan] * 3))
            continue
        statistic = (_float(row, k) for k in ("value", "interval_low", "interval_high"))
        parts.append(part(STATISTIC_SERIES, in_margins(row, *statistic)))
        limit = [_float(row, k) for k in ("limit", "limit_low", "limit_high")]
        if np.isfinite(limit).all():
            own = {**row, "target": _float(row, "limit_target")}
            parts.append(part(LIMIT_SERIES, in_margins(own, *limit)))
        for alternative in alternatives_of(row):
            own = {**row, "target": alternative["target"]}
            z = in_margins(own, *(alternative[k] for k in ("value", "low", "high")))
            parts.append(
                part(ALTERNATIVE_SERIES, z, alternative["name"], verdict=alternative["verdict"])
            )
    return tidy_table(parts, FOREST_COLUMNS)


# Drawing ----------------------------------------------------------------------------------------
AXIS_LIMIT = 6.0
"""The x axis spans [-6, 6] margins; beyond it a value is drawn at the edge as an arrow."""
ROW_HEIGHT = 0.125
LABEL_PAD = 0.15
"""Inches between the figure's edge and the row ids (the layout engine's w_pad)."""
"""Inches per row of the claims table (6 pt labels with a little air)."""
OFFSETS = {STATISTIC_SERIES: 0.0, LIMIT_SERIES: 0.27, ALTERNATIVE_SERIES: -0.27}
"""Vertical place of each series within its row (the statistic on the row's line)."""


def _clipped(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(z clipped to the axis, -1 / 0 / +1 where it was below / inside / above)."""
    z = np.asarray(z, dtype=np.float64)
    side = np.where(z > AXIS_LIMIT, 1, np.where(z < -AXIS_LIMIT, -1, 0))
    return np.clip(z, -AXIS_LIMIT, AXIS_LIMIT), side


def _points(ax, x, y, colours, marker, *, size, hollow=None, edge=None, zorder=3):
    """Markers at (x, y), clipped values as arrows at the axis' edge."""
    x, side = _clipped(x)
    hollow = np.zeros(len(x), dtype=bool) if hollow is None else np.asarray(hollow)
    for i, (xi, yi) in enumerate(zip(x, y, strict=True)):
        shape = {1: ">", -1: "<"}.get(int(side[i]), marker)
        face = "white" if hollow[i] else colours[i]
        ax.plot(
            xi, yi, marker=shape, ms=size, color=colours[i], mfc=face,
            mec=edge or colours[i], mew=0.7, ls="none", zorder=zorder,
        )  # fmt: skip


def _intervals(ax, rows: pd.DataFrame, y: np.ndarray, colours, lw: float) -> None:
    low, _ = _clipped(rows["z_low"].to_numpy())
    high, _ = _clipped(rows["z_high"].to_numpy())
    for lo, hi, yi, colour in zip(low, high, y, colours, strict=True):
        if np.isfinite(lo) and np.isfinite(hi):
            ax.plot([lo, hi], [yi, yi], color=colour, lw=lw, solid_capstyle="butt", zorder=2)


def _paper_panel(ax, frame: pd.DataFrame, paper: str) -> None:
    mine = frame[frame["paper"] == paper]
    row_ids = list(dict.fromkeys(mine["row_id"]))
    place = {row_id: -i for i, row_id in enumerate(row_ids)}
    statistics = mine[mine["series"] == STATISTIC_SERIES].set_index("row_id").loc[row_ids]
    for row_id, row in statistics.iterrows():
        low, high = np.clip(REGIONS[row["comparison"]], -AXIS_LIMIT, AXIS_LIMIT)
        ax.fill_between(
            [low, high], place[row_id] - 0.42, place[row_id] + 0.42,
            color=COLOURS["guide"], lw=0, zorder=0,
        )  # fmt: skip
    ax.axvline(0.0, color=COLOURS["null_model"], lw=0.5, ls=":", zorder=1)
    for series, marker, size, lw in (
        (STATISTIC_SERIES, "o", 3.6, 1.3),
        (LIMIT_SERIES, "D", 2.6, 0.8),
        (ALTERNATIVE_SERIES, "x", 2.8, 0.0),
    ):
        rows = mine[mine["series"] == series]
        if rows.empty:
            continue
        y = rows["row_id"].map(place).to_numpy(dtype=float) + OFFSETS[series]
        colours = [VERDICT_COLOURS[v] for v in rows["verdict"]]
        if lw:
            _intervals(ax, rows, y, colours, lw)
        hollow = ~rows["evidence"].astype(str).isin(["True", "true", "1"]).to_numpy()
        drawn = np.isfinite(rows["z"].to_numpy())
        _points(
            ax, rows["z"].to_numpy()[drawn], y[drawn],
            [c for c, keep in zip(colours, drawn, strict=True) if keep], marker,
            size=size, hollow=hollow[drawn] if series != ALTERNATIVE_SERIES else None,
        )  # fmt: skip
        for yi, (_, row) in zip(y[~drawn], rows[~drawn].iterrows(), strict=True):
            ax.text(0.0, yi, f"{row['verdict']} (no margin)", fontsize=6, va="center",
                    ha="center")  # fmt: skip
    ax.set_yticks([place[r] for r in row_ids], row_ids)
    ax.set_ylim(-len(row_ids) + 0.5, 0.5)
    ax.set_xlim(-AXIS_LIMIT - 0.3, AXIS_LIMIT + 0.3)
    ax.tick_params(axis="y", length=0, labelsize=6)
    ax.set_title(f"Paper {paper}", loc="left", fontweight="bold")


def plot_forest(frame: pd.DataFrame):
    """The claims forest from its tidy table: one panel per paper, stacked, sharing the x axis
    (margins from the target)."""
    frame = numeric(frame, "z", "z_low", "z_high")
    papers = list(dict.fromkeys(frame["paper"]))
    counts = [frame.loc[frame["paper"] == p, "row_id"].nunique() for p in papers]
    figure, axes = new_figure(
        len(papers), 1, width=TWO_COLUMNS, height=ROW_HEIGHT * sum(counts) + 1.6,
        sharex=True, gridspec_kw={"height_ratios": counts},
    )  # fmt: skip
    # Room for the row ids, whose text runs up to 0.11 in wider at the PNG's 150 dpi than at the
    # 100 dpi the layout is computed at (font hinting); the default pad would clip the longest.
    figure.get_layout_engine().set(w_pad=LABEL_PAD)
    for ax, paper in zip(axes[:, 0], papers, strict=True):
        _paper_panel(ax, frame, paper)
    axes[-1, 0].set_xlabel(
        "distance from the target in margins, (statistic - target) / margin; the pass region shaded"
    )
    verdicts = [
        Line2D([], [], color=colour, marker="o", lw=1.3, ms=3.6, label=verdict)
        for verdict, colour in VERDICT_COLOURS.items()
    ]
    shapes = [
        Line2D([], [], color=LEGEND_KEY, marker="o", lw=1.3, ms=3.6,
               label="statistic at the judged size, 95 % interval"),
        Line2D([], [], color=LEGEND_KEY, marker="o", mfc="white", lw=0, ms=3.6,
               label="not evidence (model, identity, bound)"),
        Line2D([], [], color=LEGEND_KEY, marker="D", lw=0.8, ms=2.6,
               label="finite-size limit, union over the declared rates"),
        Line2D([], [], color=LEGEND_KEY, marker="x", lw=0, ms=2.8,
               label="declared wrong theory, from its own target"),
        Patch(color=COLOURS["guide"], label="pass region"),
    ]  # fmt: skip
    figure.legend(
        handles=verdicts + shapes, loc="outside lower center", ncol=3, frameon=False,
        fontsize=6,
    )  # fmt: skip
    return figure
