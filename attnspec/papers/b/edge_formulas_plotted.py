"""Figure B4's tidy table (paper B, claim B.4): theory curves, the square-model branches and the
simulated points, one row per plotted value, drawn by :mod:`attnspec.papers.b.plot_edge_formulas`
(columns as in :mod:`attnspec.papers.b.sticking_plotted`).

- B4 (:func:`edge_formula_plotted_table`): theory curves over beta (``scalar_formula``,
  ``mp_edge_4theta1``, ``r_transform``, and the square-model branches ``physical``,
  ``other_abs_real``, ``other_abs_imag``) and, at the largest ell of every (c, beta), data
  ``attention`` (ell s_2(A)^2) and ``Y_lin`` (s_1(Y_lin)^2) per draw; panel
  ``x_plus_over_theta1`` the same divided by theta_1 = e^{beta^2} - 1 (and the limit 4).
Empty cells: an identifier that does not apply to the row (a theory curve has no draw).
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.papers.b.sticking_summary import StickingSeries
from attnspec.plotting.tidy import tidy_table


def _part(kind: str, series: str, **columns) -> dict:
    return {"kind": kind, "series": series, **columns}


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


EDGE_FORMULA_COLUMNS = ("kind", "series", "panel", "c", "beta", "ell", "draw", "value")
MP_EDGE_LIMIT = 4.0
"""x_+ / theta_1 of the Marchenko-Pastur surrogate 4 theta_1 (figure B4(b))."""


def edge_formula_plotted_table(
    curves: Mapping, markers: Mapping, branches: Mapping, series: Sequence[StickingSeries]
):
    """Figure B4's tidy table (module docstring) from
    :func:`attnspec.papers.b.edge_formulas_summary.edge_curves`, ``r_transform_points``,
    ``square_cubic_branches`` and the sticking series (their largest ell).

    Panels ``x_plus`` and ``x_plus_over_theta1``: theory ``scalar_formula``,
    ``mp_edge_4theta1`` (its curve in the first panel, its limit 4 in the second) and
    ``r_transform``, data ``attention`` and ``Y_lin`` (each draw); panels ``square_roots`` and
    ``square_candidate_edges`` (c = 1): theory ``physical``, ``other_abs_real`` and
    ``other_abs_imag`` (the larger |Im| of the complex pair).
    """
    parts = []
    beta, theta1 = np.asarray(curves["beta"]), np.asarray(curves["theta1"])
    for i, c in enumerate(curves["ratio"]):
        x = np.asarray(curves["x_plus"][i])
        parts.append(_part("theory", "scalar_formula", panel="x_plus", c=c, beta=beta, value=x))
        parts.append(_part("theory", "scalar_formula", panel="x_plus_over_theta1", c=c,
                           beta=beta, value=x / theta1))  # fmt: skip
    parts.append(_part("theory", "mp_edge_4theta1", panel="x_plus", beta=beta,
                       value=np.asarray(curves["mp_edge"])))  # fmt: skip
    parts.append(_part("theory", "mp_edge_4theta1", panel="x_plus_over_theta1",
                       value=[MP_EDGE_LIMIT]))  # fmt: skip
    marked = np.asarray(markers["beta"])
    for j, c in enumerate(markers["ratio"]):
        x = np.asarray(markers["x_plus"][j])
        parts.append(_part("theory", "r_transform", panel="x_plus", c=c, beta=marked, value=x))
        parts.append(_part("theory", "r_transform", panel="x_plus_over_theta1", c=c,
                           beta=marked, value=x / _theta1(marked)))  # fmt: skip
    for s in sorted(series, key=lambda s: (s.ratio, s.beta)):
        ell, theta = int(s.n_tokens[-1]), float(_theta1(s.beta))
        for name, values in (("attention", s.attention[-1][:, 1]), ("Y_lin", s.linear[-1][:, 0])):
            values = np.asarray(values, dtype=np.float64)
            draws = np.arange(len(values))
            for panel, scaled in (("x_plus", values), ("x_plus_over_theta1", values / theta)):
                parts.append(_part("data", name, panel=panel, c=s.ratio, beta=s.beta, ell=ell,
                                   draw=draws, value=scaled))  # fmt: skip
    physical = {"roots": _physical(branches, "roots"), "edges": _physical(branches, "edges")}
    others = {
        "roots": _other_branches(branches, "roots"),
        "edges": _other_branches(branches, "edges"),
    }
    square = np.asarray(branches["beta"])
    for key, panel in (("roots", "square_roots"), ("edges", "square_candidate_edges")):
        for name, value in (
            ("physical", physical[key]),
            ("other_abs_real", np.abs(others[key][:, 0].real)),
            ("other_abs_imag", np.abs(others[key].imag).max(axis=1)),
        ):
            parts.append(_part("theory", name, panel=panel, c=1.0, beta=square, value=value))
    return tidy_table(parts, EDGE_FORMULA_COLUMNS, integers=("ell", "draw"))
