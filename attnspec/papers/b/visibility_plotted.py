"""Figure B7's tidy table (paper B, where sticking becomes visible; the model of theta_max in
:mod:`attnspec.papers.b.visibility_summary`).

Columns ``kind, series, panel, preset, c, beta, ell, draw, draws, probability, value``; empty
cells are identifiers that do not apply to the row.

- panel ``plane``: theory ``critical_size``, ell* (``value``) at which the ``probability``-quantile
  of theta_max falls below 1/G*, on a grid of beta, at each c (the median) and at c = 1 also the
  10 % and 90 % quantiles; data ``grid``, each (beta, ell) of the sticking grid of this preset
  and of the paper preset at c = 1 (``preset``: ``both``, ``run`` or ``paper``), ``value`` the
  fraction of its measured draws with theta_max > 1/G* (``draws`` of them; empty when none).
- panel ``spike``: data ``theta_max`` per draw (``preset``: ``run``, this preset's draws, or
  ``stored``, the paper preset's committed draws at sizes this preset does not simulate);
  theory ``quantile``, the ``probability``-quantile of theta_max on a grid of ell; theory
  ``threshold``, 1/G* at c = 1.
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.papers.b.sticking_summary import StickingSeries
from attnspec.papers.b.visibility_summary import (
    QUANTILES,
    SQUARE,
    critical_sizes,
    spike_quantile,
    spike_threshold,
)
from attnspec.plotting.tidy import tidy_table

BETA_RANGE = (0.25, 2.0)
"""The betas of panel (a)'s critical curves."""
SIZE_RANGE = (1e2, 1e12)
"""The sizes ell of panel (b)'s theory curves (and of both panels' ell axes); they start at
half the smallest size of a grid when it is lower (a preset of small sizes)."""
CURVE_POINTS = 120
"""Points of each theory curve (linear in beta, geometric in ell)."""
COLUMNS = ("kind", "series", "panel", "preset", "c", "beta", "ell", "draw", "draws",
           "probability", "value")  # fmt: skip


def _part(kind: str, series: str, **columns) -> dict:
    return {"kind": kind, "series": series, **columns}


def _by_point(series: Sequence[StickingSeries]) -> dict[tuple[float, int], np.ndarray]:
    """theta_max of every draw per (beta, ell)."""
    return {
        (s.beta, int(ell)): np.asarray(theta, dtype=np.float64)
        for s in series
        for ell, theta in zip(s.n_tokens, s.theta_max, strict=True)
    }


def _grid_rows(grids: Mapping[str, tuple], measured: Mapping) -> dict:
    """One row per (beta, ell) of the union of the grids, with its preset(s) and the fraction
    of its measured draws that are supercritical."""
    members = {}
    for name, (n_tokens, betas) in grids.items():
        for beta in betas:
            for ell in n_tokens:
                members.setdefault((float(beta), int(ell)), set()).add(name)
    rows = {"preset": [], "beta": [], "ell": [], "draws": [], "value": []}
    for (beta, ell), names in sorted(members.items()):
        theta = measured.get((beta, ell), np.array([]))
        rows["preset"].append("both" if len(names) > 1 else next(iter(names)))
        rows["beta"].append(beta)
        rows["ell"].append(ell)
        rows["draws"].append(len(theta))
        rows["value"].append(
            float(np.mean(theta > spike_threshold(beta, SQUARE))) if len(theta) else np.nan
        )
    return rows


def visibility_plotted_table(
    series: Sequence[StickingSeries],
    stored: Sequence[StickingSeries],
    grids: Mapping[str, tuple],
    ratios: Sequence[float],
):
    """Figure B7's tidy table (module docstring) from this preset's draws at c = 1 (``series``),
    the paper preset's stored draws at c = 1 (``stored``; those at an (ell, beta) of ``series``
    are left out), the sticking ``grids`` {"run": (n_tokens, betas), "paper": (...)} and the
    aspect ratios of the critical curves (``ratios``, c = 1 included)."""
    if any(s.ratio != SQUARE for s in (*series, *stored)):
        raise ValueError(f"series and stored must be at c = {SQUARE:g}")
    if not series:
        raise ValueError("series must hold at least one (c = 1, beta) of draws")
    betas = np.linspace(*BETA_RANGE, CURVE_POINTS)
    parts = []
    for c in sorted({float(r) for r in ratios} | {SQUARE}):
        for p in QUANTILES if c == SQUARE else (0.5,):
            parts.append(_part("theory", "critical_size", panel="plane", c=c, beta=betas,
                               probability=p, value=critical_sizes(betas, c, p)))  # fmt: skip
    run = _by_point(series)
    extra = {key: theta for key, theta in _by_point(stored).items() if key not in run}
    parts.append(_part("data", "grid", panel="plane", **_grid_rows(grids, run | extra)))
    smallest = min(int(ell) for n_tokens, _ in grids.values() for ell in n_tokens)
    ells = np.geomspace(min(SIZE_RANGE[0], smallest / 2), SIZE_RANGE[1], CURVE_POINTS)
    for beta in sorted({s.beta for s in series}):
        for preset, points in (("run", run), ("stored", extra)):
            for (b, ell), theta in sorted(points.items()):
                if b == beta:
                    parts.append(_part("data", "theta_max", panel="spike", preset=preset,
                                       beta=beta, ell=ell, draw=np.arange(len(theta)),
                                       value=theta))  # fmt: skip
        for p in QUANTILES:
            parts.append(_part("theory", "quantile", panel="spike", beta=beta, ell=ells,
                               probability=p, value=spike_quantile(ells, beta, p)))  # fmt: skip
        parts.append(_part("theory", "threshold", panel="spike", c=[SQUARE], beta=beta,
                           value=spike_threshold(beta, SQUARE)))  # fmt: skip
    return tidy_table(parts, COLUMNS, integers=("ell", "draw", "draws"))
