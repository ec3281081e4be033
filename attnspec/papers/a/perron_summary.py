"""Figure A6's statistics (paper A, claim A.2): per beta, |s_1(A) - 1| and the stable rank at each
ell against their finite-ell predictions, the fitted power law of |s_1(A) - 1| and its local
slopes, and the rows of table A6 (the draws: :mod:`attnspec.papers.a.perron`)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from attnspec.papers.a.perron import perron_squared_prediction
from attnspec.theory.constants import nonlinearity_coefficients


class PowerLawFit(NamedTuple):
    """log y = intercept + slope log x (ordinary least squares)."""

    slope: float
    intercept: float


def fit_power_law(x, y) -> PowerLawFit:
    """Ordinary least squares of log y on log x over all points (e.g. every (ell, draw) pair),
    by scipy.stats.linregress: the line figure A6 draws; its slope is the statistic of the A.2
    rows."""
    from scipy import stats  # lazy: jobs that never call it skip the import

    lx = np.log(np.asarray(x, dtype=np.float64).ravel())
    ly = np.log(np.asarray(y, dtype=np.float64).ravel())
    if lx.shape != ly.shape or lx.size < 2 or np.ptp(lx) == 0:
        raise ValueError("a power-law fit needs >= 2 points at >= 2 distinct x")
    fit = stats.linregress(lx, ly)
    return PowerLawFit(float(fit.slope), float(fit.intercept))


@dataclass(frozen=True)
class PerronSeries:
    """Everything figure A6 shows for one beta; arrays of shape (L,) or (L, draws)."""

    beta: float
    n_tokens: np.ndarray
    deviation: np.ndarray  # |s_1(A) - 1|
    stable_rank: np.ndarray  # ||A||_F^2 / s_1(A)^2
    predicted_deviation: np.ndarray  # sqrt(perron_squared_prediction) - 1
    predicted_stable_rank: np.ndarray  # e^{beta^2} / perron_squared_prediction
    limit_stable_rank: float  # e^{beta^2}
    fit: PowerLawFit

    @property
    def rescaled(self) -> np.ndarray:
        """ell (s_1^2 - 1), predicted to be theta1 + beta^4/2 at c = 1."""
        return self.n_tokens[:, None] * ((1.0 + self.deviation) ** 2 - 1.0)

    @property
    def rescaled_prediction(self) -> float:
        return nonlinearity_coefficients(self.beta).theta1 + self.beta**4 / 2


def perron_series(beta: float, n_tokens: Sequence[int], results: Sequence[Mapping]) -> PerronSeries:
    """Collect the outputs of :func:`perron_draws` at each ell (same order) into a series."""
    ells = np.asarray(n_tokens, dtype=np.int64)
    order = np.argsort(ells)
    ells = ells[order]
    s1 = np.stack([np.asarray(results[i]["s1"]) for i in order])
    frobenius_squared = np.stack([np.asarray(results[i]["frobenius_squared"]) for i in order])
    predicted = perron_squared_prediction(ells, ells, beta)
    deviation = np.abs(s1 - 1.0)
    return PerronSeries(
        beta=float(beta),
        n_tokens=ells,
        deviation=deviation,
        stable_rank=frobenius_squared / s1**2,
        predicted_deviation=np.sqrt(predicted) - 1.0,
        predicted_stable_rank=np.exp(beta**2) / predicted,
        limit_stable_rank=float(np.exp(beta**2)),
        fit=fit_power_law(np.broadcast_to(ells[:, None], deviation.shape), deviation),
    )


def series_of_sizes(beta: float, sizes: Mapping[str, np.ndarray]) -> PerronSeries:
    """The :class:`PerronSeries` of one output of :func:`perron_sizes`."""
    results = [
        {"s1": s1, "frobenius_squared": f2}
        for s1, f2 in zip(sizes["s1"], sizes["frobenius_squared"], strict=True)
    ]
    return perron_series(beta, sizes["n_tokens"], results)


def local_slopes(series: PerronSeries) -> tuple[np.ndarray, np.ndarray]:
    """Per draw, the slope of log|s_1 - 1| between consecutive ell: (sizes (S - 1,), the
    geometric means of consecutive ell; slopes (draws, S - 1))."""
    logs = np.log(series.deviation.T)
    steps = np.diff(np.log(series.n_tokens.astype(np.float64)))
    return np.sqrt(series.n_tokens[1:] * series.n_tokens[:-1].astype(np.float64)), (
        np.diff(logs, axis=1) / steps
    )


PERRON_TABLE_HEADER = (
    "beta",
    "n_tokens",
    "draws",
    "mean_abs_s1_minus_1",
    "std_abs_s1_minus_1",
    "predicted_abs_s1_minus_1",
    "mean_ell_s1sq_minus_1",
    "predicted_ell_s1sq_minus_1",
    "mean_stable_rank",
    "predicted_stable_rank",
    "limit_stable_rank",
)


def perron_table_rows(series: Sequence[PerronSeries]) -> list[tuple]:
    """One row per (beta, ell): measured means (and spread) against the finite-ell predictions."""
    rows = []
    for s in series:
        rescaled = s.rescaled
        for i, ell in enumerate(s.n_tokens):
            deviation = s.deviation[i]
            rows.append(
                (
                    s.beta,
                    int(ell),
                    deviation.size,
                    float(np.mean(deviation)),
                    float(np.std(deviation, ddof=1)) if deviation.size > 1 else float("nan"),
                    float(s.predicted_deviation[i]),
                    float(np.mean(rescaled[i])),
                    s.rescaled_prediction,
                    float(np.mean(s.stable_rank[i])),
                    float(s.predicted_stable_rank[i]),
                    s.limit_stable_rank,
                )
            )
    return rows
