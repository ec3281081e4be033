"""The tidy tables figures B1-B3 are drawn from (paper B): one row per observation, each figure's
CSV, read back as a pandas DataFrame by :mod:`attnspec.papers.b.plot_sticking` (figure B4's:
:mod:`attnspec.papers.b.edge_formulas_plotted`).

Every table starts with ``kind`` (``data``: simulated values, each draw; ``theory``: theory
curves, limits and predictions; ``statistic``: what the experiment derives from the draws, such
as fits) and ``series`` (what the row is within its kind), then the row's identifiers, then its
value(s). A number that is one value per panel (x_+, a fitted slope) is a row of its own.

- B1 (:func:`sticking_plotted_table`): data ``attention`` (ell s_k(A)^2) and ``Y_lin`` (its
  Gaussian reference s_{k-1}(Y_lin)^2 from the same scores) per (c, beta, ell, draw, k >= 2);
  theory ``x_plus`` per (c, beta).
- B2 (:func:`gap_plotted_table`): panel ``gap``: data ``attention`` and ``Y_lin``, the relative
  gaps (value - x_+) / x_+ of ell s_2(A)^2 and s_1(Y_lin)^2 per (beta, ell, draw); theory
  ``tracy_widom``, the Tracy-Widom expectation of the gap on a grid in ell; statistic ``fit``,
  the fitted power law of |gap| at the end sizes, and ``fit_slope``, ``fit_slope_low``,
  ``fit_slope_high``, its slope and 95 % interval. Panel ``spike``: data ``supercritical``, ell
  s_2(A)^2 per draw with its ``prediction`` K(1/theta_max)^2, and ``subcritical`` (no
  prediction: drawn at x_+); theory ``x_plus``; statistic ``spike_correlation``, the Pearson
  correlation of the supercritical draws. Panel ``ipr``: data ``left`` and ``right``, the IPR of
  the k = 2 singular vectors per draw; theory ``delocalised``, 3/ell on a grid in ell.
- B3 (:func:`uniform_plotted_table`): data ``D``, the uniform deviation per (beta, schedule, ell,
  draw); theory ``classical_D``, its value at the classical locations of nu_inf per (beta,
  schedule, ell).
Empty cells: an identifier that does not apply to the row (a theory curve has no draw).
"""

from collections.abc import Sequence

import numpy as np

from attnspec.papers.b.sticking import uniform_index_counts
from attnspec.papers.b.sticking_summary import (
    SCHEDULES,
    StickingSeries,
    classical_deviations,
    gap_rate,
    linear_relative_gaps,
    relative_gaps,
    spike_correlation,
    spike_predictions,
    tracy_widom_expectation,
    uniform_deviations,
)
from attnspec.plotting.tidy import tidy_table

CURVE_POINTS = 50
"""Points of the theory curves in ell of figure B2 (geometric grid between the end sizes)."""


def _part(kind: str, series: str, **columns) -> dict:
    return {"kind": kind, "series": series, **columns}


STICKING_COLUMNS = ("kind", "series", "c", "beta", "ell", "draw", "k", "value")


def sticking_plotted_table(series: Sequence[StickingSeries]):
    """Figure B1's tidy table (module docstring), draws in index order."""
    parts = []
    for s in series:
        for name, key, first in (("attention", "attention", 1), ("Y_lin", "linear", 0)):
            for ell, values in zip(s.n_tokens, getattr(s, key), strict=True):
                block = np.asarray(values[:, first : first + s.top_k - 1], dtype=np.float64)
                draws, ks = np.meshgrid(
                    np.arange(block.shape[0]), np.arange(2, s.top_k + 1), indexing="ij"
                )
                parts.append(
                    _part(
                        "data",
                        name,
                        c=s.ratio,
                        beta=s.beta,
                        ell=int(ell),
                        draw=draws.ravel(),
                        k=ks.ravel(),
                        value=block.ravel(),
                    )  # fmt: skip
                )
        parts.append(_part("theory", "x_plus", c=[s.ratio], beta=s.beta, value=s.x_plus))
    return tidy_table(parts, STICKING_COLUMNS, integers=("ell", "draw", "k"))


def _ell_grid(series: Sequence[StickingSeries]) -> np.ndarray:
    low = min(float(s.n_tokens[0]) for s in series)
    high = max(float(s.n_tokens[-1]) for s in series)
    return np.geomspace(low, high, CURVE_POINTS)


GAP_COLUMNS = ("kind", "series", "panel", "beta", "ell", "draw", "prediction", "value")


def _per_draw(values: Sequence[np.ndarray], ells) -> dict:
    """ell, draw and value columns of per-ell arrays of draws."""
    return {
        "ell": np.repeat(np.asarray(ells, dtype=int), [len(v) for v in values]),
        "draw": np.concatenate([np.arange(len(v)) for v in values]),
        "value": np.concatenate([np.asarray(v, dtype=np.float64) for v in values]),
    }


def gap_plotted_table(series: Sequence[StickingSeries], *, spike_betas: Sequence[float]):
    """Figure B2's tidy table (module docstring); panel ``spike`` only for the betas in
    ``spike_betas``."""
    parts, grid = [], _ell_grid(series)
    for s in series:
        ells, beta = s.n_tokens, s.beta
        for name, gaps in (("attention", relative_gaps(s)), ("Y_lin", linear_relative_gaps(s))):
            parts.append(_part("data", name, panel="gap", beta=beta, **_per_draw(gaps, ells)))
        expected = (tracy_widom_expectation(s, grid) - s.x_plus) / s.x_plus
        parts.append(_part("theory", "tracy_widom", panel="gap", beta=beta, ell=grid,
                           value=expected))  # fmt: skip
        fit = gap_rate(s)
        if np.isfinite(fit.slope):
            ends = np.array([int(ells[0]), int(ells[-1])])
            fitted = np.exp(fit.intercept) * ends.astype(np.float64) ** fit.slope
            parts.append(_part("statistic", "fit", panel="gap", beta=beta, ell=ends,
                               value=fitted))  # fmt: skip
            for name, value in (("fit_slope", fit.slope), ("fit_slope_low", fit.low),
                                ("fit_slope_high", fit.high)):  # fmt: skip
                parts.append(_part("statistic", name, panel="gap", beta=[beta], value=value))
        if beta in spike_betas:
            predicted = np.concatenate(spike_predictions(s))
            draws = _per_draw([a[:, 1] for a in s.attention], ells)
            for name, keep in (("supercritical", np.isfinite(predicted)),
                               ("subcritical", ~np.isfinite(predicted))):  # fmt: skip
                rows = {key: values[keep] for key, values in draws.items()}
                if name == "supercritical":
                    rows["prediction"] = predicted[keep]
                parts.append(_part("data", name, panel="spike", beta=beta, **rows))
            parts.append(_part("theory", "x_plus", panel="spike", beta=[beta], value=s.x_plus))
            r, _ = spike_correlation(s)
            parts.append(_part("statistic", "spike_correlation", panel="spike", beta=[beta],
                               value=r))  # fmt: skip
        for key, name in (("ipr_left", "left"), ("ipr_right", "right")):
            ipr = [values[:, 0] for values in getattr(s, key)]
            parts.append(_part("data", name, panel="ipr", beta=beta, **_per_draw(ipr, ells)))
    parts.append(_part("theory", "delocalised", panel="ipr", ell=grid, value=3.0 / grid))
    return tidy_table(parts, GAP_COLUMNS, integers=("ell", "draw"))


UNIFORM_COLUMNS = ("kind", "series", "beta", "schedule", "ell", "k_ell", "draw", "value")


def uniform_plotted_table(series: Sequence[StickingSeries]):
    """Figure B3's tidy table (module docstring) for every schedule."""
    parts = []
    for s in series:
        for schedule in SCHEDULES:
            deviations = uniform_deviations(s, schedule)
            k_ell = [uniform_index_counts(int(ell))[schedule] for ell in s.n_tokens]
            draws = _per_draw(deviations, s.n_tokens)
            counts = np.repeat(k_ell, [len(v) for v in deviations])
            parts.append(_part("data", "D", beta=s.beta, schedule=schedule, k_ell=counts, **draws))
            parts.append(
                _part(
                    "theory",
                    "classical_D",
                    beta=s.beta,
                    schedule=schedule,
                    ell=s.n_tokens.astype(int),
                    k_ell=k_ell,
                    value=classical_deviations(s, schedule).astype(np.float64),
                )  # fmt: skip
            )
    return tidy_table(parts, UNIFORM_COLUMNS, integers=("ell", "k_ell", "draw"))
