"""The tidy tables figures B1-B4 are drawn from (paper B): one row per observation, each figure's
CSV, read back as a pandas DataFrame by :mod:`attnspec.plotting.sticking` and
:mod:`attnspec.plotting.edge_formulas`.

- B1 (:data:`STICKING_PLOTTED_HEADER`): per (c, beta, ell, draw, k >= 2) the value
  ell s_k(A)^2, its Gaussian reference s_{k-1}(Y_lin)^2 from the same scores and the edge x_+.
- B2 (:data:`GAP_PLOTTED_HEADER`): panel ``gap`` the relative gaps (value - x_+) / x_+ of
  ell s_2(A)^2 (series ``attention``) and s_1(Y_lin)^2 (``Y_lin``) per draw, the Tracy-Widom
  expectation of the gap (``tracy_widom``, on a grid in ell) and the fitted power law of
  |gap| (``fit``, at the end sizes); panel ``spike`` per draw x = K(1/theta_max)^2
  (``supercritical``; ``subcritical``: x = x_+) against y = ell s_2(A)^2; panel ``ipr`` the
  IPR of the k = 2 singular vectors per draw (``left``, ``right``) and 3/ell (``delocalised``).
- B3 (:data:`UNIFORM_PLOTTED_HEADER`): per (beta, schedule, ell, draw) the uniform deviation D
  and its value at the classical locations of nu_inf.
- B4 (:data:`EDGE_FORMULA_PLOTTED_HEADER`): the theory curves (scalar formula, 4 theta_1,
  R-transform edges, square-model branches) and, at the largest ell of every (c, beta), each
  draw's ell s_2(A)^2 (``attention``) and s_1(Y_lin)^2 (``Y_lin``); panel ``x_plus_over_theta1``
  the same divided by theta_1 = e^{beta^2} - 1.
Empty cells: a column that does not apply to the row (a theory curve has no draw).
"""

from collections.abc import Iterator, Mapping, Sequence

import numpy as np

from attnspec.experiments.sticking import uniform_index_counts
from attnspec.experiments.sticking_summary import (
    SCHEDULES,
    StickingSeries,
    classical_deviations,
    gap_rate,
    linear_relative_gaps,
    relative_gaps,
    spike_predictions,
    tracy_widom_expectation,
    uniform_deviations,
)

STICKING_PLOTTED_HEADER = ("c", "beta", "ell", "draw", "k", "attention", "Y_lin", "x_plus")
GAP_PLOTTED_HEADER = ("panel", "beta", "series", "ell", "draw", "x", "y")
UNIFORM_PLOTTED_HEADER = ("beta", "schedule", "ell", "k_ell", "draw", "D", "classical_D")
EDGE_FORMULA_PLOTTED_HEADER = ("panel", "series", "c", "beta", "ell", "draw", "value")
CURVE_POINTS = 50
"""Points of the theory curves in ell of figure B2 (geometric grid between the end sizes)."""


def sticking_plotted_rows(series: Sequence[StickingSeries]) -> Iterator[tuple]:
    """Figure B1's table: rows of :data:`STICKING_PLOTTED_HEADER`, draws in index order."""
    for s in series:
        for ell, values, linear in zip(s.n_tokens, s.attention, s.linear, strict=True):
            for draw in range(values.shape[0]):
                for k in range(2, s.top_k + 1):
                    yield (
                        s.ratio,
                        s.beta,
                        int(ell),
                        draw,
                        k,
                        float(values[draw, k - 1]),
                        float(linear[draw, k - 2]),
                        s.x_plus,
                    )


def _ell_grid(series: StickingSeries) -> np.ndarray:
    return np.geomspace(float(series.n_tokens[0]), float(series.n_tokens[-1]), CURVE_POINTS)


def gap_plotted_rows(
    series: Sequence[StickingSeries], *, spike_betas: Sequence[float]
) -> Iterator[tuple]:
    """Figure B2's table: rows of :data:`GAP_PLOTTED_HEADER` (module docstring); panel
    ``spike`` only for the betas in ``spike_betas``."""
    for s in series:
        ells = s.n_tokens
        for name, gaps in (("attention", relative_gaps(s)), ("Y_lin", linear_relative_gaps(s))):
            for ell, values in zip(ells, gaps, strict=True):
                for draw, y in enumerate(values):
                    yield ("gap", s.beta, name, int(ell), draw, int(ell), float(y))
        grid = _ell_grid(s)
        expected = (tracy_widom_expectation(s, grid) - s.x_plus) / s.x_plus
        for x, y in zip(grid, expected, strict=True):
            yield ("gap", s.beta, "tracy_widom", "", "", float(x), float(y))
        fit = gap_rate(s)
        if np.isfinite(fit.slope):
            for ell in (ells[0], ells[-1]):
                y = float(np.exp(fit.intercept) * float(ell) ** fit.slope)
                yield ("gap", s.beta, "fit", int(ell), "", int(ell), y)
        if s.beta in spike_betas:
            for ell, predicted, a in zip(ells, spike_predictions(s), s.attention, strict=True):
                for draw, (x, y) in enumerate(zip(predicted, a[:, 1], strict=True)):
                    name, x = ("supercritical", x) if np.isfinite(x) else ("subcritical", s.x_plus)
                    yield ("spike", s.beta, name, int(ell), draw, float(x), float(y))
        for key, name in (("ipr_left", "left"), ("ipr_right", "right")):
            for ell, values in zip(ells, getattr(s, key), strict=True):
                for draw, y in enumerate(values[:, 0]):
                    yield ("ipr", s.beta, name, int(ell), draw, int(ell), float(y))
        for x in grid:
            yield ("ipr", s.beta, "delocalised", "", "", float(x), 3.0 / x)


def uniform_plotted_rows(series: Sequence[StickingSeries]) -> Iterator[tuple]:
    """Figure B3's table: rows of :data:`UNIFORM_PLOTTED_HEADER` for every schedule."""
    for s in series:
        for schedule in SCHEDULES:
            classical = classical_deviations(s, schedule)
            deviations = uniform_deviations(s, schedule)
            for ell, values, reference in zip(s.n_tokens, deviations, classical, strict=True):
                k_ell = uniform_index_counts(int(ell))[schedule]
                for draw, value in enumerate(values):
                    yield (s.beta, schedule, int(ell), k_ell, draw, float(value), float(reference))


def _theta1(beta) -> np.ndarray:
    """theta_1 = e^{beta^2} - 1."""
    return np.expm1(np.asarray(beta, dtype=np.float64) ** 2)


def _other_branches(branches: Mapping, key: str) -> np.ndarray:
    """The two non-physical entries of ``branches[key]`` per beta, shape (B, 2)."""
    values = branches[key]
    keep = np.ones(values.shape, dtype=bool)
    keep[np.arange(values.shape[0]), branches["physical_index"]] = False
    return values[keep].reshape(values.shape[0], 2)


def _physical(branches: Mapping, key: str) -> np.ndarray:
    values = branches[key]
    return values[np.arange(values.shape[0]), branches["physical_index"]].real


def edge_formula_plotted_rows(
    curves: Mapping, markers: Mapping, branches: Mapping, series: Sequence[StickingSeries]
) -> Iterator[tuple]:
    """Figure B4's table: rows of :data:`EDGE_FORMULA_PLOTTED_HEADER` from
    :func:`attnspec.experiments.edge_formulas.edge_curves`, ``r_transform_points``,
    ``square_cubic_branches`` and the sticking series (their largest ell).

    Panels ``x_plus`` and ``x_plus_over_theta1``: series ``scalar_formula``,
    ``mp_edge_4theta1`` (first panel only), ``r_transform``, ``attention`` and ``Y_lin`` (each
    draw); panels ``square_roots`` and ``square_candidate_edges`` (c = 1): series ``physical``,
    ``other_abs_real`` and ``other_abs_imag`` (the larger |Im| of the complex pair).
    """
    for i, c in enumerate(curves["ratio"]):
        for b, x, t in zip(curves["beta"], curves["x_plus"][i], curves["theta1"], strict=True):
            yield ("x_plus", "scalar_formula", c, b, "", "", x)
            yield ("x_plus_over_theta1", "scalar_formula", c, b, "", "", x / t)
    for b, x in zip(curves["beta"], curves["mp_edge"], strict=True):
        yield ("x_plus", "mp_edge_4theta1", "", b, "", "", x)
    for j, c in enumerate(markers["ratio"]):
        for b, x in zip(markers["beta"], markers["x_plus"][j], strict=True):
            yield ("x_plus", "r_transform", c, b, "", "", x)
            yield ("x_plus_over_theta1", "r_transform", c, b, "", "", x / _theta1(b))
    for s in sorted(series, key=lambda s: (s.ratio, s.beta)):
        ell, theta1 = int(s.n_tokens[-1]), float(_theta1(s.beta))
        top, linear = s.attention[-1][:, 1], s.linear[-1][:, 0]
        for name, values in (("attention", top), ("Y_lin", linear)):
            for draw, x in enumerate(values):
                yield ("x_plus", name, s.ratio, s.beta, ell, draw, float(x))
                yield ("x_plus_over_theta1", name, s.ratio, s.beta, ell, draw, float(x) / theta1)
    physical = {"roots": _physical(branches, "roots"), "edges": _physical(branches, "edges")}
    others = {
        "roots": _other_branches(branches, "roots"),
        "edges": _other_branches(branches, "edges"),
    }
    for key, panel in (("roots", "square_roots"), ("edges", "square_candidate_edges")):
        for i, b in enumerate(branches["beta"]):
            yield (panel, "physical", 1.0, b, "", "", physical[key][i])
            yield (panel, "other_abs_real", 1.0, b, "", "", abs(others[key][i, 0].real))
            yield (
                panel,
                "other_abs_imag",
                1.0,
                b,
                "",
                "",
                float(np.abs(others[key][i].imag).max()),
            )
