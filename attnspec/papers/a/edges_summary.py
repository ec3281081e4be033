"""Figure A4's statistics (paper A): the theory curves of the right edge x_+(beta) of nu_inf
against 4 theta1 (square model c = 1), the top values of Y_lin per draw against x_+ and their
Tracy-Widom expectation, and the rows of table A4.

Theory: x_+ from the physical root of the stationary cubic a g (1 - g)^2 + b (3g - 1) = 0
(:func:`attnspec.theory.edge.bulk_edge`), the edge 4 theta1 = 4 (e^{beta^2} - 1) of the
iid-scores Marchenko–Pastur surrogate, the small-beta expansion
x_+ ~ (27/4) beta^2 + (3/2) beta^4 + (5/9) beta^6 and the large-beta one
x_+ ~ 4 theta1 + 4 beta^4 / a, a = e^{beta^2} - 1 - beta^2 (papers.md section 2).
Simulation: the largest squared singular value of Y_lin = (beta S + sqrt(a) W) / sqrt(ell) per
draw (Y_lin has no Perron mode and its limit law is exactly nu_inf), against the Tracy–Widom
expectation x_+ + gamma_TW ell^{-2/3} E[TW1] (papers.md section 3).
"""

from collections.abc import Sequence

import numpy as np

from attnspec.theory.asymptotics import edge_large_beta, edge_small_beta
from attnspec.theory.edge import bulk_edge
from attnspec.theory.marchenko_pastur import mp_edge
from attnspec.theory.r_transform import TRACY_WIDOM_1_MEAN, SymmetrisedLinearModel


def tracy_widom_shift(beta: float, n_tokens: int) -> float:
    """gamma_TW ell^{-2/3}: the scale of the fluctuations of the top value of Y_lin (c = 1).

    lambda_max ~ x_+ + gamma_TW ell^{-2/3} TW1, gamma_TW = sqrt(x_+) K''(G*)^{1/3} from the
    R-transform of Y_lin (:class:`attnspec.theory.r_transform.SymmetrisedLinearModel`).
    """
    return SymmetrisedLinearModel(beta).tracy_widom_scale * float(n_tokens) ** (-2 / 3)


def edge_theory_curves(beta_min: float, beta_max: float, points: int, n_tokens: int) -> dict:
    """The theory curves of figure A4 on ``points`` values of beta, evenly spaced.

    Returns
    -------
    dict of arrays, one value per beta
        ``beta``; ``x_plus``; ``mp_edge`` = 4 theta1; ``small_beta`` and ``large_beta``, the
        two expansions of x_+; ``edge_ratio`` = x_+ / (4 theta1) (27/16 as beta -> 0, -> 1 as
        beta -> infinity); ``tracy_widom_expectation`` = x_+ + gamma_TW ell^{-2/3} E[TW1], the
        mean top value of Y_lin at ``n_tokens``.
    """
    betas = np.linspace(beta_min, beta_max, points)
    x_plus = np.array([bulk_edge(beta) for beta in betas])
    four_theta1 = mp_edge(betas)
    shift = np.array([tracy_widom_shift(beta, n_tokens) for beta in betas])
    return {
        "beta": betas,
        "x_plus": x_plus,
        "mp_edge": four_theta1,
        "small_beta": edge_small_beta(betas),
        "large_beta": edge_large_beta(betas),
        "edge_ratio": x_plus / four_theta1,
        "tracy_widom_expectation": x_plus + TRACY_WIDOM_1_MEAN * shift,
    }


def simulated_edges(
    spectra: Sequence[Sequence[np.ndarray]], betas: Sequence[float], n_tokens: int
) -> dict:
    """Top values of Y_lin per draw against x_+ and its Tracy–Widom expectation.

    Parameters
    ----------
    spectra : sequence (one per beta) of sequences (one per draw) of arrays
        Squared singular values of Y_lin at ``n_tokens`` (any order).
    betas : sequence of float
        The inverse temperatures of ``spectra``.
    n_tokens : int
        ell.

    Returns
    -------
    dict of arrays, one row per beta
        ``beta``; ``top`` (beta x draw: the largest squared singular value of each draw);
        ``median``, ``low``, ``high`` (median, min and max over draws); ``x_plus``;
        ``mp_edge``; ``tracy_widom_shift`` = gamma_TW ell^{-2/3};
        ``tracy_widom_expectation`` = x_+ + E[TW1] gamma_TW ell^{-2/3};
        ``tracy_widom_units`` = (median - x_+) / (gamma_TW ell^{-2/3}), to compare with
        E[TW1] = -1.2065.
    """
    if len(spectra) != len(betas):
        raise ValueError(f"{len(spectra)} groups of spectra for {len(betas)} betas")
    top = np.array([[np.max(values) for values in draws] for draws in spectra])
    x_plus = np.array([bulk_edge(beta) for beta in betas])
    shift = np.array([tracy_widom_shift(beta, n_tokens) for beta in betas])
    median = np.median(top, axis=1)
    return {
        "beta": np.asarray(betas, dtype=np.float64),
        "top": top,
        "median": median,
        "low": top.min(axis=1),
        "high": top.max(axis=1),
        "x_plus": x_plus,
        "mp_edge": mp_edge(np.asarray(betas, dtype=np.float64)),
        "tracy_widom_shift": shift,
        "tracy_widom_expectation": x_plus + TRACY_WIDOM_1_MEAN * shift,
        "tracy_widom_units": (median - x_plus) / shift,
    }


EDGE_TABLE_HEADER = (
    "beta",
    "x_plus",
    "4_theta1",
    "x_plus_over_4_theta1",
    "tw_expectation",
    "ylin_top_median",
    "ylin_top_min",
    "ylin_top_max",
    "median_minus_x_plus_in_tw_units",
)


def edge_table_rows(simulated: dict) -> list[tuple]:
    """One row per simulated beta (:data:`EDGE_TABLE_HEADER`); TW units: E[TW1] = -1.2065."""
    return [
        (beta, x_plus, mp, x_plus / mp, tw, median, low, high, units)
        for beta, x_plus, mp, tw, median, low, high, units in zip(
            simulated["beta"],
            simulated["x_plus"],
            simulated["mp_edge"],
            simulated["tracy_widom_expectation"],
            simulated["median"],
            simulated["low"],
            simulated["high"],
            simulated["tracy_widom_units"],
            strict=True,
        )
    ]
