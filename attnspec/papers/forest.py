"""The verdicts in one picture: each row of the claims table as its statistic's distance from its
target in margins, z = (statistic - target) / margin, with its 95 % interval, the pass region in
the same unit, the finite-size limit where the row has one, and every declared wrong theory
judged on the same data: :func:`forest_table` builds the figure's tidy table from the rows,
:func:`plot_forest` draws figures/claims-forest.png (and one file per paper) from that table
alone, coloured by verdict on a symmetric-log axis (linear within +-2 margins, logarithmic
beyond, so that every value is placed).

Pass regions in margins: equivalence [-1, 1]; at_most (-inf, 1]; at_least [1, inf);
below (-inf, -1] (:func:`attnspec.claims.rule.pass_region`).
"""

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import partial

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.ticker import NullLocator
from matplotlib.transforms import blended_transform_factory

from attnspec.claims.dashboard import REPLICATE_KEYS, headline_class, is_beyond, is_unstable
from attnspec.claims.rule import COMPARISONS, pass_region
from attnspec.claims.stability import FRAGILE_BELOW
from attnspec.plotting.style import (
    COLOURS,
    LEGEND_KEY,
    TWO_COLUMNS,
    VERDICT_COLOURS,
    label_panels,
    new_figure,
)
from attnspec.plotting.symbols import row_label
from attnspec.plotting.tidy import VERDICT, numeric, tidy_table

STATISTIC_SERIES = "statistic"
LIMIT_SERIES = "finite-size limit"
PAPER_SCALE_SERIES = "statistic at the papers' sizes"
ALTERNATIVE_SERIES = "declared alternative"
REPLICATE_SERIES = "replicate"
FOREST_COLUMNS = (
    "kind",
    "series",
    "paper",
    "row_id",
    "name",
    "verdict",
    "comparison",
    "evidence",
    "beyond_paper",
    "fragile",
    "stability",
    "z",
    "z_low",
    "z_high",
)
"""The forest's tidy table: per row of the claims table its statistic (series "statistic"), its
finite-size limit if it has one (in margins from the limit's target), and each declared
alternative (``name``, in margins from the alternative's own target: a wrong theory passes
inside [-1, 1]), as z, z_low, z_high; ``verdict`` is the row's headline verdict class (or the
alternative's own verdict), ``evidence`` whether the row is empirical (the others cannot fail
on data: models, identities, bounds), ``beyond_paper`` whether the row tests a stronger
statement than its paper's, ``fragile`` whether its verdict is not stable (stability under
resampling below 0.9, or another replicate reads otherwise) and ``stability`` that share. Where
the replicates were run (figures/claims-replicates.csv, made from the verdicts judged now), the
statistic of each other replicate (series "replicate", ``name`` "replicate r", its own headline
verdict class)."""

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


def paper_forest_caption(caption: str, paper: str) -> str:
    """One paper's forest caption from the combined one: its title names the paper's rows and
    says the replicates are stacked under them, the rest (what every mark means) is shared."""
    title, _, rest = caption.partition("\n")
    if not (title.startswith("**") and title.endswith("**")):
        raise ValueError(f"caption must start with a bold title line, got {title[:60]!r}")
    return (
        f"**Claims of paper {paper}: its verdicts in one picture, each row's replicates 1 and 2 "
        f"under its own where they were run (all papers together: "
        f"``figures/claims-forest.png``).**\n{rest}"
    )


def replicate_rows(replicates: Iterable[Mapping]) -> dict[str, list[dict]]:
    """Per row id, the other replicates' rows (r >= 1) of a replicates table
    (figures/claims-replicates.csv): replicate, verdict, stability, value, interval, target and
    margin, as claims-table keys, so that a replicate is judged and drawn like its row."""
    found = {}
    for table_row in replicates:
        numbers = sorted(
            int(key.removeprefix("value ")) for key in table_row if key.startswith("value ")
        )
        mine = []
        for r in (r for r in numbers if r > 0):
            verdict, _, stability = str(table_row[f"replicate {r}"]).rpartition(" (")
            mine.append(
                {"row_id": table_row["row_id"], "replicate": r, "verdict": verdict,
                 "stability": stability.rstrip(")"), "replicate_verdicts": "",
                 **{key: table_row[f"{key} {r}"] for key in REPLICATE_KEYS}}
            )  # fmt: skip
        found[table_row["row_id"]] = mine
    return found


def forest_table(
    rows: Iterable[Mapping], paper_scale: Iterable[Mapping] = (), replicates: Iterable[Mapping] = ()
):
    """The forest's tidy table (:data:`FOREST_COLUMNS`) from the claims table's ``rows``, in
    their order; a row without a positive margin (a bound) has no z (NaN). ``paper_scale``: the
    paper preset's rows, where it was run; each one's statistic is added to its row (series
    PAPER_SCALE_SERIES, in margins from its own target, coloured by its own headline verdict).
    ``replicates``: the rows of the replicates table, where it was run from these verdicts;
    each other replicate's statistic is added (series REPLICATE_SERIES)."""
    at_scale = {row["row_id"]: row for row in paper_scale}
    others = replicate_rows(replicates)
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
            "beyond_paper": is_beyond(row),
            "fragile": is_unstable(row),
            "stability": _float(row, "stability"),
        }
        part = partial(_part, key, verdict=headline_class(row))
        if not _float(row, "margin") > 0:  # a bound: holds by construction, no unit
            parts.append(part(STATISTIC_SERIES, [np.nan] * 3))
            continue
        statistic = (_float(row, k) for k in ("value", "interval_low", "interval_high"))
        parts.append(part(STATISTIC_SERIES, in_margins(row, *statistic)))
        large = at_scale.get(row["row_id"])
        if large is not None and _float(large, "margin") > 0:
            statistic = (_float(large, k) for k in ("value", "interval_low", "interval_high"))
            parts.append(
                part(PAPER_SCALE_SERIES, in_margins(large, *statistic),
                     verdict=headline_class(large))
            )  # fmt: skip
        for other in others.get(row["row_id"], ()):
            if _float(other, "margin") > 0:
                statistic = (_float(other, k) for k in ("value", "interval_low", "interval_high"))
                parts.append(
                    part(REPLICATE_SERIES, in_margins(other, *statistic),
                         f"replicate {other['replicate']}", verdict=headline_class(other))
                )  # fmt: skip
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
LINEAR_SPAN = 2.0
"""The axis is linear within +-2 margins (the pass regions' edges at +-1 and their neighbourhood)
and logarithmic beyond (a symmetric-log scale), so that every value is placed."""
AXIS_LIMIT = 1e4
"""The x axis spans [-1e4, 1e4] margins; beyond it a value is drawn at the edge as an arrow."""
TICKS = (-1000.0, -100.0, -10.0, -2.0, -1.0, 0.0, 1.0, 2.0, 10.0, 100.0, 1000.0)
ROW_HEIGHT = 0.11
"""Inches per row of the claims table (6.5 pt labels with a little air; the whole forest stays
under a journal page's 9 in of text height)."""
PANEL_EXTRA = 0.3
"""Inches per paper's panel for its title and the x axis."""
LEGEND_HEIGHT = 1.0
"""Inches below the panels for the axis label and the legend."""
OFFSETS = {
    STATISTIC_SERIES: 0.0,
    PAPER_SCALE_SERIES: 0.2,
    LIMIT_SERIES: 0.36,
    ALTERNATIVE_SERIES: -0.4,
}
"""Vertical place of each series within its row (the statistic on the row's line)."""
REPLICATE_OFFSETS = {1: -0.17, 2: -0.3}
"""With the replicates drawn: replicate r's statistic stacked under the row's own (replicate
0), the declared wrong theories under them (REPLICATE_ALTERNATIVE_OFFSET), in taller rows
(REPLICATE_ROW_HEIGHT)."""
REPLICATE_ALTERNATIVE_OFFSET = -0.43
REPLICATE_ROW_HEIGHT = 0.19
RULED_OUT = "does not reproduce"
"""An alternative with this verdict is ruled out on the row's data."""
ALTERNATIVE_MARKS = {
    True: {"marker": "x", "color": LEGEND_KEY, "alpha": 0.45, "ms": 3.0, "mew": 0.8},
    False: {"marker": "X", "color": LEGEND_KEY, "ms": 4.4, "mew": 0.3, "mec": "white"},
}
"""A declared wrong theory ruled out on the row's data (a faint cross) or not ruled out (a heavy
filled cross, drawn on top): its shape carries the meaning, never a verdict colour."""
BEYOND_MARK = "\u2020"
"""Appended to the id of a row that tests a statement beyond its paper's."""
BOUND_TEXT = "a bound: holds by construction, no margin"


def _clipped(z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(z clipped to the axis, -1 / 0 / +1 where it was below / inside / above)."""
    z = np.asarray(z, dtype=np.float64)
    side = np.where(z > AXIS_LIMIT, 1, np.where(z < -AXIS_LIMIT, -1, 0))
    return np.clip(z, -AXIS_LIMIT, AXIS_LIMIT), side


def _points(ax, x, y, colours, marker, *, size, hollow=None, zorder=3, **style):
    """Markers at (x, y), clipped values as arrows at the axis' edge."""
    x, side = _clipped(x)
    hollow = np.zeros(len(x), dtype=bool) if hollow is None else np.asarray(hollow)
    for i, (xi, yi) in enumerate(zip(x, y, strict=True)):
        shape = {1: ">", -1: "<"}.get(int(side[i]), marker)
        face = "white" if hollow[i] else colours[i]
        mark = {"mec": colours[i], "mew": 0.7, **style}
        ax.plot(xi, yi, marker=shape, ms=size, color=colours[i], mfc=face, ls="none",
                zorder=zorder, **mark)  # fmt: skip


def _intervals(ax, rows: pd.DataFrame, y: np.ndarray, colours, lw: float) -> None:
    low, _ = _clipped(rows["z_low"].to_numpy())
    high, _ = _clipped(rows["z_high"].to_numpy())
    for lo, hi, yi, colour in zip(low, high, y, colours, strict=True):
        if np.isfinite(lo) and np.isfinite(hi):
            ax.plot([lo, hi], [yi, yi], color=colour, lw=lw, solid_capstyle="butt", zorder=2)


def _flag(row: pd.Series) -> str:
    """The text right of a row whose verdict is not stable: its stability, or that another
    replicate reads otherwise."""
    if not _true(row["fragile"]):
        return ""
    stability = float(row["stability"])
    return (
        f"fragile ({100 * stability:.0f} % stable)"
        if stability < FRAGILE_BELOW
        else "fragile: replicates differ"
    )


def _true(value) -> bool:
    return str(value) in ("True", "true", "1")


def _alternatives(ax, rows: pd.DataFrame, y: np.ndarray) -> None:
    """Each declared wrong theory's value, marked by whether the row's data rule it out."""
    for ruled_out, style in ALTERNATIVE_MARKS.items():
        chosen = ((rows["verdict"] == RULED_OUT) == ruled_out).to_numpy() & np.isfinite(
            rows["z"].to_numpy()
        )
        if chosen.any():
            _points(ax, rows["z"].to_numpy()[chosen], y[chosen], [style["color"]] * chosen.sum(),
                    style["marker"], size=style["ms"], zorder=5 if not ruled_out else 4,
                    **{k: v for k, v in style.items() if k in ("mew", "mec", "alpha")})  # fmt: skip


def _replicates(ax, rows: pd.DataFrame, place: Mapping[str, float]) -> None:
    """Each other replicate's statistic and 95 % interval, thin, under its row's own."""
    numbers = rows["name"].str.removeprefix("replicate ").astype(int)
    offsets = numbers.map(lambda r: REPLICATE_OFFSETS.get(r, np.nan)).to_numpy()
    y = rows["row_id"].map(place).to_numpy(dtype=float) + offsets
    keep = np.isfinite(y)
    rows, y = rows[keep], y[keep]
    colours = [VERDICT_COLOURS[v] for v in rows["verdict"]]
    _intervals(ax, rows, y, colours, 0.8)
    _points(ax, rows["z"].to_numpy(), y, colours, "o", size=2.4)


ALTERNATIVE_LANE = 0.09
"""Half-height (in rows) of the unshaded lane of the declared wrong theories: the row's pass
region is not theirs (each is measured from its own target, where [-1, 1] would pass it)."""


def _paper_panel(ax, frame: pd.DataFrame, paper: str, replicates: bool) -> None:
    mine = frame[frame["paper"] == paper]
    lane = REPLICATE_ALTERNATIVE_OFFSET if replicates else OFFSETS[ALTERNATIVE_SERIES]
    row_ids = list(dict.fromkeys(mine["row_id"]))
    place = {row_id: -i for i, row_id in enumerate(row_ids)}
    statistics = mine[mine["series"] == STATISTIC_SERIES].set_index("row_id").loc[row_ids]
    transform = blended_transform_factory(ax.transAxes, ax.transData)
    for row_id, row in statistics.iterrows():
        low, high = np.clip(REGIONS[row["comparison"]], -AXIS_LIMIT, AXIS_LIMIT)
        ax.fill_between(
            [low, high], place[row_id] + lane + ALTERNATIVE_LANE, place[row_id] + 0.47,
            color=COLOURS["guide"], lw=0, zorder=0,
        )  # fmt: skip
        if flag := _flag(row):
            ax.text(1.005, place[row_id], flag, transform=transform, fontsize=6, va="center")
    ax.axvline(0.0, color="white", lw=0.8, zorder=1)  # the target: a cut through the region
    ax.hlines(  # rows apart: every mark belongs to the band it is in (guides, not series)
        [0.5 - boundary for boundary in range(1, len(row_ids))], 0, 1,
        transform=ax.get_yaxis_transform(), color=COLOURS["guide"], lw=0.4, zorder=0,
    )  # fmt: skip
    for series, marker, size, lw in (
        (STATISTIC_SERIES, "o", 3.6, 1.3),
        (PAPER_SCALE_SERIES, "s", 3.0, 1.0),
        (LIMIT_SERIES, "D", 2.6, 0.8),
    ):
        rows = mine[mine["series"] == series]
        if rows.empty:
            continue
        y = rows["row_id"].map(place).to_numpy(dtype=float) + OFFSETS[series]
        colours = [VERDICT_COLOURS[v] for v in rows["verdict"]]
        _intervals(ax, rows, y, colours, lw)
        hollow = ~rows["evidence"].map(_true).to_numpy()
        z = rows["z"].to_numpy()
        bound = ~np.isfinite(z) & ~np.isfinite(rows["z_low"].to_numpy())
        _points(ax, np.where(bound, 0.0, z), y, colours, marker, size=size, hollow=hollow | bound)
        for yi in y[bound]:
            ax.text(1.3, yi, BOUND_TEXT, fontsize=6, va="center")
    if replicates:
        _replicates(ax, mine[mine["series"] == REPLICATE_SERIES], place)
    alternatives = mine[mine["series"] == ALTERNATIVE_SERIES]
    y = alternatives["row_id"].map(place).to_numpy(dtype=float) + lane
    _alternatives(ax, alternatives, y)
    beyond = set(statistics.index[statistics["beyond_paper"].map(_true)])
    labels = [row_label(r) + (f" {BEYOND_MARK}" if r in beyond else "") for r in row_ids]
    ax.set_yticks([place[r] for r in row_ids], labels)
    ax.set_ylim(-len(row_ids) + 0.38, 0.62)  # room for the marks of the first and last rows
    ax.set_xscale("symlog", linthresh=LINEAR_SPAN, linscale=1.5)
    ax.set_xlim(-AXIS_LIMIT * 1.3, AXIS_LIMIT * 1.3)
    ax.set_xticks(TICKS, [f"{t:g}" for t in TICKS])
    ax.xaxis.set_minor_locator(NullLocator())
    ax.tick_params(axis="y", length=0, labelsize=6)
    ax.set_title(f"Paper {paper}", fontweight="bold")


def _legend_handles(frame: pd.DataFrame, replicates: bool) -> list:
    """The verdicts present (colours), then what each mark is (shapes, in the neutral key)."""
    drawn = frame["series"] != ALTERNATIVE_SERIES
    if not replicates:
        drawn &= frame["series"] != REPLICATE_SERIES
    present = set(frame.loc[drawn, "verdict"])
    statistics = frame[frame["series"] == STATISTIC_SERIES]
    alternatives = frame[frame["series"] == ALTERNATIVE_SERIES]
    ruled = set((alternatives["verdict"] == RULED_OUT).tolist())
    verdicts = [
        Line2D([], [], color=colour, marker="o", lw=1.3, ms=3.6, label=verdict)
        for verdict, colour in VERDICT_COLOURS.items()
        if verdict in present
    ]
    alternative = {True: "wrong theory: ruled out", False: "wrong theory: not ruled out"}
    shapes = [
        Line2D([], [], color=LEGEND_KEY, marker="o", lw=1.3, ms=3.6,
               label="statistic, 95 % interval"),
        *([Line2D([], [], color=LEGEND_KEY, marker="o", mfc="white", lw=0, ms=3.6,
                   label="not evidence (model, identity, bound)")]
          if not statistics["evidence"].map(_true).all() else []),
        *([Line2D([], [], color=LEGEND_KEY, marker="s", lw=1.0, ms=3.0,
                   label="statistic at the papers' sizes (paper preset)")]
          if (frame["series"] == PAPER_SCALE_SERIES).any() else []),
        *([Line2D([], [], color=LEGEND_KEY, marker="D", lw=0.8, ms=2.6,
                   label="finite-size limit (all declared rates)")]
          if (frame["series"] == LIMIT_SERIES).any() else []),
        *([Line2D([], [], color=LEGEND_KEY, marker="o", lw=0.8, ms=2.4,
                   label="replicates 1, 2 (independent streams), under the row's own")]
          if replicates else []),
        *(Line2D([], [], lw=0, label=alternative[out], **style)
          for out, style in ALTERNATIVE_MARKS.items() if out in ruled),
        Patch(color=COLOURS["guide"], label="pass region"),
        *([Line2D([], [], lw=0, marker=f"${BEYOND_MARK}$", color=LEGEND_KEY, ms=4,
                   label="beyond the paper")]
          if statistics["beyond_paper"].map(_true).any() else []),
    ]  # fmt: skip
    return verdicts + shapes


def plot_forest(
    frame: pd.DataFrame, papers: Sequence[str] | None = None, *, replicates: bool = False
):
    """The claims forest from its tidy table: one panel per paper (``papers``, all by default),
    stacked and lettered, sharing the x axis (margins from the target, symmetric-log beyond
    +-2); with ``replicates`` (and replicate rows in the table), each row's other replicates
    stacked under its own statistic, in taller rows."""
    frame = numeric(frame, "z", "z_low", "z_high", "stability")
    papers = list(dict.fromkeys(frame["paper"])) if papers is None else list(papers)
    frame = frame[frame["paper"].isin(papers)]
    if frame.empty:
        raise ValueError(f"papers must name papers of the table; got {papers}")
    replicates = replicates and (frame["series"] == REPLICATE_SERIES).any()
    counts = [frame.loc[frame["paper"] == p, "row_id"].nunique() for p in papers]
    row_height = REPLICATE_ROW_HEIGHT if replicates else ROW_HEIGHT
    height = row_height * sum(counts) + PANEL_EXTRA * len(papers) + LEGEND_HEIGHT
    figure, axes = new_figure(
        len(papers), 1, width=TWO_COLUMNS, height=height, sharex=True,
        gridspec_kw={"height_ratios": counts},
    )  # fmt: skip
    for ax, paper in zip(axes[:, 0], papers, strict=True):
        _paper_panel(ax, frame, paper, replicates)
    label_panels(axes[:, 0])
    axes[-1, 0].set_xlabel(
        "(statistic - target) / margin: linear within \u00b12 margins, logarithmic beyond"
    )
    figure.legend(
        handles=_legend_handles(frame, replicates), loc="outside lower center", ncol=3,
        frameon=False,
        fontsize=6,
    )  # fmt: skip
    return figure
