"""Figure A6 (paper A, claim A.2): the Perron mode, s_1(A) -> 1, and the stable rank -> e^{beta^2}.

A = row-softmax(beta Q K^T / sqrt(d_qk)) is row-stochastic, so A u = u (u = 1/sqrt(ell)) and
s_1(A) >= 1. One power-iteration step from u gives ||A^T u||^2 = (1/ell) sum_j c_j^2 with column
sums c_j of mean 1 and variance theta1/ell (rows) + beta^4/(2 d_qk) (key norms), hence
(papers.md section 3, derived, beta <= 1)

    s_1(A)^2 ~ 1 + (e^{beta^2} - 1)/ell + beta^4/(2 d_qk),

so |s_1(A) - 1| ~ (theta1 + beta^4/2)/(2 ell) at c = ell/d_qk = 1. Since u^T A_perp u = 0,
||A||_F^2 = 1 + ||A_perp||_F^2 -> 1 + theta1 = e^{beta^2}, and the stable rank
||A||_F^2/||A||^2 -> e^{beta^2} (papers.md section 2).
"""

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy.sparse.linalg import svds
from scipy.stats import t as student_t

from attnspec.claims import CLAIMS
from attnspec.experiments.progress import Stopwatch
from attnspec.experiments.spectra import draw_parameters
from attnspec.legacy_verdicts import (
    DOES_NOT_REPRODUCE,
    FINITE_SIZE_CAVEAT,
    HOLDS,
    WITHIN,
    ClaimCheck,
    describe_test,
    weakest,
)
from attnspec.models.sampling import attention_matrix, sample_queries_keys
from attnspec.seeding import rng_for
from attnspec.theory.constants import nonlinearity_coefficients

LOG = logging.getLogger(__name__)

CLAIM_ID = "A.2"
FIGURE = "A6-perron"
TARGET_SLOPE = -1.0
# Tolerances are half-widths of two-sided Student-t confidence intervals at this level.
CONFIDENCE = 0.95


def perron_squared_prediction(n_tokens, d_qk, beta: float):
    """s_1(A)^2 ~ 1 + (e^{beta^2} - 1)/ell + beta^4/(2 d_qk) (papers.md section 3); vectorised."""
    n_tokens = np.asarray(n_tokens, dtype=np.float64)
    d_qk = np.asarray(d_qk, dtype=np.float64)
    return 1.0 + nonlinearity_coefficients(beta).theta1 / n_tokens + beta**4 / (2.0 * d_qk)


def leading_singular_value(A: np.ndarray) -> float:
    """s_1(A) = ||A||, by implicitly restarted Lanczos (ARPACK) on A^T A to machine precision.

    The fixed start vector u = 1/sqrt(ell) (A u = u for a row-stochastic A, so u is close to the
    leading right singular vector) and a seeded generator for ARPACK's restart vectors make the
    result reproducible; no vector is returned.
    """
    start = np.full(A.shape[0], 1.0 / np.sqrt(A.shape[0]))
    # A 4-vector Krylov space suffices: s_2(A)^2 / s_1(A)^2 ~ x_+ / ell is small, and each
    # restart costs 4 products instead of the default 20 (3x faster at ell = 2048).
    return float(
        svds(
            A,
            k=1,
            ncv=4,
            v0=start,
            tol=0,
            return_singular_vectors=False,
            rng=np.random.default_rng(0),
        )[0]
    )


def perron_draws(n_tokens: int, beta: float, draws: int) -> dict[str, np.ndarray]:
    """s_1(A) and ||A||_F^2 for draws 0..draws-1 at c = 1 (d_qk = ell), Gaussian sampler.

    Draw i uses the stream ``queries_keys`` of :func:`attnspec.experiments.spectra.draw_parameters`,
    so it is the attention matrix of the generic spectrum rule's draw i at the same parameters.

    Returns
    -------
    dict with ``s1`` and ``frobenius_squared``, each of shape (draws,).
    """
    params = draw_parameters(n_tokens, n_tokens, beta, "gaussian", None)
    s1 = np.empty(draws)
    frobenius_squared = np.empty(draws)
    clock = Stopwatch()
    for draw in range(draws):
        Q, K = sample_queries_keys(rng_for(params, draw, "queries_keys"), n_tokens, n_tokens)
        A = attention_matrix(Q, K, beta)
        s1[draw] = leading_singular_value(A)
        frobenius_squared[draw] = np.vdot(A, A)
        LOG.info(
            "draw %d of %d, ell = %d, beta = %s: s_1(A) - 1 = %.4g, %.2f s",
            draw + 1,
            draws,
            n_tokens,
            beta,
            s1[draw] - 1.0,
            clock.lap(),
        )
    LOG.info("%d draws in %.2f s", draws, clock.total())
    return {"s1": s1, "frobenius_squared": frobenius_squared}


def confidence_halfwidth(standard_error: float, dof: int) -> float:
    """t_{(1 + CONFIDENCE)/2, dof} x standard error; nan without degrees of freedom."""
    if dof < 1:
        return float("nan")
    return float(student_t.ppf(0.5 + CONFIDENCE / 2, dof) * standard_error)


class PowerLawFit(NamedTuple):
    """log y = intercept + slope log x, with the standard error of the slope and its dof."""

    slope: float
    slope_se: float
    intercept: float
    dof: int


def fit_power_law(x, y) -> PowerLawFit:
    """Ordinary least squares of log y on log x over all points (e.g. every (ell, draw) pair).

    slope_se = sqrt(sum r_i^2 / (n - 2) / sum (log x_i - mean log x)^2) with r_i the residuals:
    the scatter over draws and any misfit of the power law both widen it.
    """
    lx = np.log(np.asarray(x, dtype=np.float64).ravel())
    ly = np.log(np.asarray(y, dtype=np.float64).ravel())
    if lx.shape != ly.shape or lx.size < 3 or np.ptp(lx) == 0:
        raise ValueError("a power-law fit needs >= 3 points at >= 2 distinct x")
    centred = lx - lx.mean()
    spread = np.sum(centred**2)
    slope = float(np.sum(centred * (ly - ly.mean())) / spread)
    intercept = float(ly.mean() - slope * lx.mean())
    residuals = ly - intercept - slope * lx
    slope_se = float(np.sqrt(np.sum(residuals**2) / (lx.size - 2) / spread))
    return PowerLawFit(slope, slope_se, intercept, lx.size - 2)


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


class PerronCheck(NamedTuple):
    """The numbers that judge claim A.2 at one beta (largest = at the largest ell)."""

    beta: float
    slope: float
    slope_tolerance: float  # confidence half-width of the slope
    largest_n_tokens: int
    largest_mean: float  # mean over draws of |s_1 - 1|
    largest_tolerance: float  # confidence half-width of that mean (nan for one draw)
    largest_prediction: float


def perron_check(series: PerronSeries) -> PerronCheck:
    """Slope of the fit and the mean |s_1 - 1| at the largest ell, with the half-widths of their
    Student-t confidence intervals (slope: n - 2 dof; mean: std over draws / sqrt(draws),
    draws - 1 dof)."""
    last = series.deviation[-1]
    se = float(np.std(last, ddof=1) / np.sqrt(last.size)) if last.size > 1 else float("nan")
    return PerronCheck(
        beta=series.beta,
        slope=series.fit.slope,
        slope_tolerance=confidence_halfwidth(series.fit.slope_se, series.fit.dof),
        largest_n_tokens=int(series.n_tokens[-1]),
        largest_mean=float(np.mean(last)),
        largest_tolerance=confidence_halfwidth(se, last.size - 1),
        largest_prediction=float(series.predicted_deviation[-1]),
    )


def judge_perron(check: PerronCheck) -> str:
    """Verdict on s_1(A) -> 1 at one beta.

    - holds: the slope of log|s_1 - 1| on log ell is -1 within its confidence interval, and at
      the largest ell the finite-ell prediction lies in the confidence interval of the mean
      |s_1 - 1| over draws;
    - holds with a finite-size caveat: either comparison fails, but |s_1 - 1| decays
      significantly (the whole confidence interval of the slope is below 0), towards s_1 = 1;
    - does not reproduce: no significant decay.

    With one draw there is no spread at the largest ell (nan tolerance), so at most the caveat.
    """
    slope_ok = WITHIN(check.slope, TARGET_SLOPE, check.slope_tolerance)
    level_ok = WITHIN(check.largest_mean, check.largest_prediction, check.largest_tolerance)
    if slope_ok and level_ok:
        return HOLDS
    return FINITE_SIZE_CAVEAT if check.slope + check.slope_tolerance < 0 else DOES_NOT_REPRODUCE


PERRON_TEST = describe_test(
    WITHIN,
    "at the largest ell the finite-ell prediction of s_1 - 1 lies in the "
    f"{CONFIDENCE:.0%} Student-t interval of the mean over draws",
    caveat="value + tolerance < 0 (s_1 - 1 decays significantly)",
)
"""The test of :func:`judge_perron` (A.2), on a row whose value is the slope."""


def describe_check(check: PerronCheck) -> str:
    """One beta's numbers in words, for the verdict's note."""
    return (
        f"beta={check.beta:g}: slope {check.slope:.4f} +- {check.slope_tolerance:.4f} (target -1); "
        f"mean s1-1 at ell={check.largest_n_tokens} {check.largest_mean:.4g} +- "
        f"{check.largest_tolerance:.2g} vs predicted {check.largest_prediction:.4g}: "
        f"{judge_perron(check)}"
    )


def perron_claim(checks: Sequence[PerronCheck], *, draws: int) -> ClaimCheck:
    """The A.2 verdict row: the worst beta decides, its slope is the row's value.

    value = fitted slope of log|s_1(A) - 1| on log ell (c = 1) at the deciding beta,
    target = -1, tolerance = the half-width of its confidence interval; the note gives
    every beta's slope and its comparison with s_1^2 ~ 1 + theta1/ell + beta^4/(2 d_qk) at the
    largest ell.
    """
    if not checks:
        raise ValueError("need at least one beta")
    verdicts = [judge_perron(check) for check in checks]
    worst = weakest(verdicts, [check.beta for check in checks])
    deciding = checks[worst]
    note = "; ".join(describe_check(check) for check in checks)
    if verdicts[worst] == FINITE_SIZE_CAVEAT:
        note += (
            ". s1-1 decays significantly towards 0, but its rate or its level at the largest ell "
            "misses the finite-ell prediction, which neglects O(1/ell^2) terms and the "
            "log-normal tails of the entries"
        )
    return ClaimCheck(
        claim_id=CLAIM_ID,
        claim=CLAIMS[CLAIM_ID],
        figure=FIGURE,
        quantity=(
            f"slope of log(s_1(A)-1) against log ell (c = 1, beta = {deciding.beta:g}, "
            f"ell up to {deciding.largest_n_tokens}, {draws} draws)"
        ),
        value=deciding.slope,
        target=TARGET_SLOPE,
        tolerance=deciding.slope_tolerance,
        tolerance_basis=(
            f"{CONFIDENCE:.0%} Student-t interval of the OLS slope over all (ell, draw) points "
            "(residual scatter); the level at the largest ell: the prediction inside the "
            f"{CONFIDENCE:.0%} Student-t interval of the mean over draws"
        ),
        test=PERRON_TEST,
        verdict=verdicts[worst],
        note=note,
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
