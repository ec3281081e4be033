"""Figures B5 and B6's statistics (paper B, claim B.3): the finite edges E_ell(Sigma) of the
conditional covariances over ell with their rate to x_+, the population spectra against
rho = a + b MP_c with the Tracy-Widom scale of their top eigenvalue, and the rows of tables B5
and B6 (the draws: :mod:`attnspec.papers.b.conditional`)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from attnspec.distances import kolmogorov_distance
from attnspec.papers.b.conditional import COVARIANCE_LABELS, COVARIANCES, key_dimension
from attnspec.papers.b.sticking_summary import Rate, fit_rate
from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.theory.edge import bulk_edge
from attnspec.theory.population import population_law
from attnspec.theory.r_transform import TRACY_WIDOM_1_MEAN, TRACY_WIDOM_1_Q99


def group_by_size(
    records: Sequence[Mapping[str, np.ndarray]],
) -> tuple[list[int], list[list[Mapping[str, np.ndarray]]]]:
    """(ell ascending, the :func:`conditional_draw` records at each ell in draw order)."""
    by_size: dict[int, list] = {}
    for record in records:
        by_size.setdefault(int(record["n_tokens"]), []).append(record)
    sizes = sorted(by_size)
    return sizes, [sorted(by_size[n], key=lambda r: int(r["draw"])) for n in sizes]


# --- figure B5 and row B.3: E_ell(Sigma) -> x_+ ------------------------------------------


@dataclass(frozen=True)
class ConditionalSeries:
    """E_ell(Sigma_f) and E_ell(Sigma_G) over ell (rows, ascending) and draws (columns)."""

    beta: float
    ratio: float
    n_tokens: np.ndarray  # (L,)
    edges: dict[str, np.ndarray]  # name -> (L, draws)
    x_plus: float
    rates: dict[str, Rate]  # name -> OLS of log |E_ell - x_+| on log ell, 95 % interval

    def gaps(self, name: str) -> np.ndarray:
        """E_ell - x_+ (signed), shape (L, draws)."""
        return self.edges[name] - self.x_plus

    def relative_gaps(self, name: str) -> np.ndarray:
        """(E_ell - x_+) / x_+, shape (L, draws)."""
        return self.gaps(name) / self.x_plus


def conditional_series(
    beta: float,
    ratio: float,
    n_tokens: Sequence[int],
    results: Sequence[Sequence[Mapping[str, np.ndarray]]],
) -> ConditionalSeries:
    """Collect :func:`conditional_draw` outputs (``results[i][draw]`` at ``n_tokens[i]``).

    Fits log |E_ell - x_+| = intercept + slope log ell over every (ell, draw) point with its
    95 % interval (:func:`attnspec.papers.b.sticking_summary.fit_rate`) for each covariance.
    x_+ is taken at the nominal c (d_qk = round(ell / c): exact when ell / c is an integer, as
    for c = 1).
    """
    ells = np.asarray(n_tokens, dtype=np.int64)
    order = np.argsort(ells)
    x_plus = bulk_edge(beta, ratio)
    edges = {
        name: np.array([[float(r[f"edge_{name}"]) for r in results[i]] for i in order])
        for name in COVARIANCES
    }
    rates = {name: fit_rate(ells[order], values - x_plus) for name, values in edges.items()}
    return ConditionalSeries(float(beta), float(ratio), ells[order], edges, x_plus, rates)


CONDITIONAL_TABLE_HEADER = (
    "covariance",
    "n_tokens",
    "draws",
    "median_edge",
    "min_edge",
    "max_edge",
    "x_plus",
    "relative_gap_of_median",
)


def conditional_table_rows(series: ConditionalSeries) -> list[tuple]:
    """One row per (covariance, ell): median, min and max of E_ell over draws against x_+."""
    rows = []
    for name, values in series.edges.items():
        for ell, edges in zip(series.n_tokens, values, strict=True):
            median = float(np.median(edges))
            rows.append(
                (
                    COVARIANCE_LABELS[name],
                    int(ell),
                    edges.size,
                    median,
                    float(edges.min()),
                    float(edges.max()),
                    series.x_plus,
                    median / series.x_plus - 1.0,
                )
            )
    return rows


# --- figure B6: the population spectrum against rho ----------------------------------------


def wishart_edge_scale(n_tokens: int, d_qk: int) -> tuple[float, float]:
    """Centre and scale of the largest eigenvalue of K K^T / d_qk (Johnstone 2001, real case).

    mu = (sqrt(ell - 1/2) + sqrt(d - 1/2))^2, sigma = sqrt(mu) (1/sqrt(ell - 1/2)
    + 1/sqrt(d - 1/2))^{1/3}; lambda_max(K K^T) ~ mu + sigma TW1. Returned divided by d_qk.
    """
    n, d = n_tokens - 0.5, d_qk - 0.5
    mu = (np.sqrt(n) + np.sqrt(d)) ** 2
    sigma = np.sqrt(mu) * (1 / np.sqrt(n) + 1 / np.sqrt(d)) ** (1 / 3)
    return float(mu / d_qk), float(sigma / d_qk)


class EdgeScale(NamedTuple):
    """Where the top eigenvalue of Sigma_G = a + b K K^T / d_qk sits at finite ell.

    lambda_max ~ centre + scale TW1 with centre = a + b mu / d_qk -> edge of rho and
    scale = b sigma / d_qk ~ ell^{-2/3} (:func:`wishart_edge_scale`).
    """

    rho_edge: float
    centre: float
    scale: float

    @property
    def tracy_widom_mean(self) -> float:
        return self.centre + TRACY_WIDOM_1_MEAN * self.scale

    @property
    def tracy_widom_q99(self) -> float:
        return self.centre + TRACY_WIDOM_1_Q99 * self.scale

    def units(self, value):
        """(value - edge of rho) / scale."""
        return (np.asarray(value) - self.rho_edge) / self.scale


def edge_scale(beta: float, ratio: float, n_tokens: int, d_qk: int) -> EdgeScale:
    """The edge of rho = a + b MP_c and the finite-ell Tracy–Widom centre and scale."""
    coefficients = nonlinearity_coefficients(beta)
    centre, scale = wishart_edge_scale(n_tokens, d_qk)
    return EdgeScale(
        rho_edge=float(population_law(beta, ratio).edge),
        centre=coefficients.a + coefficients.b * centre,
        scale=coefficients.b * scale,
    )


TOP_SHOWN = 10
"""Largest eigenvalues per draw marked against the edge of rho in figure B6."""


@dataclass(frozen=True)
class PopulationSeries:
    """Per ell (ascending): the edge scale, each draw's lambda_max and the pooled distance to rho.

    ``largest[name]`` (L, draws) = lambda_max; ``second[name]`` (L, draws) = lambda_2;
    ``kolmogorov[name]`` (L,) = sup |F_pooled - F_rho| over the draws pooled at that ell.
    """

    beta: float
    ratio: float
    n_tokens: np.ndarray
    scales: list[EdgeScale]
    largest: dict[str, np.ndarray]
    second: dict[str, np.ndarray]
    kolmogorov: dict[str, np.ndarray]

    def largest_units(self, name: str) -> np.ndarray:
        """(lambda_max - edge of rho) / scale, (L, draws): O(1) without a population outlier,
        growing like ell^{2/3} with one."""
        return np.array([s.units(v) for s, v in zip(self.scales, self.largest[name], strict=True)])


def population_series(
    beta: float,
    ratio: float,
    n_tokens: Sequence[int],
    results: Sequence[Sequence[Mapping[str, np.ndarray]]],
) -> PopulationSeries:
    """Collect :func:`conditional_draw` outputs (``results[i][draw]`` at ``n_tokens[i]``)."""
    law = population_law(beta, ratio)
    ells = np.asarray(n_tokens, dtype=np.int64)
    order = np.argsort(ells)
    ordered = [results[i] for i in order]
    top_two = {
        name: np.array(
            [[np.sort(d[f"eigenvalues_{name}"])[-2:][::-1] for d in draws] for draws in ordered]
        )
        for name in COVARIANCES
    }
    return PopulationSeries(
        beta=float(beta),
        ratio=float(ratio),
        n_tokens=ells[order],
        scales=[edge_scale(beta, ratio, ell, key_dimension(ell, ratio)) for ell in ells[order]],
        largest={name: values[..., 0] for name, values in top_two.items()},
        second={name: values[..., 1] for name, values in top_two.items()},
        kolmogorov={
            name: np.array(
                [
                    kolmogorov_distance(
                        np.concatenate([d[f"eigenvalues_{name}"] for d in draws]), law.cdf
                    )
                    for draws in ordered
                ]
            )
            for name in COVARIANCES
        },
    )


POPULATION_TABLE_HEADER = (
    "covariance",
    "n_tokens",
    "draws",
    "rho_edge",
    "tw_scale",
    "median_largest",
    "max_largest",
    "max_largest_in_tw_scale_units",
    "max_separation_in_tw_scale_units",
    "ks_pooled_to_rho",
)


def population_table_rows(series: PopulationSeries) -> list[tuple]:
    """One row per (covariance, ell): lambda_max against the edge of rho (in units of the
    Tracy–Widom scale s), the largest separation (lambda_1 - lambda_2) / s over draws, and the
    Kolmogorov distance of the pooled spectrum to rho."""
    rows = []
    for name in COVARIANCES:
        units = series.largest_units(name)
        for i, ell in enumerate(series.n_tokens):
            scale = series.scales[i]
            largest = series.largest[name][i]
            separation = (largest - series.second[name][i]) / scale.scale
            rows.append(
                (
                    COVARIANCE_LABELS[name],
                    int(ell),
                    largest.size,
                    scale.rho_edge,
                    scale.scale,
                    float(np.median(largest)),
                    float(largest.max()),
                    float(units[i].max()),
                    float(separation.max()),
                    float(series.kolmogorov[name][i]),
                )
            )
    return rows
