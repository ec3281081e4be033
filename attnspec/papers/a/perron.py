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

from attnspec.claims.evidence import Evidence
from attnspec.models.sampling import attention_matrix, sample_queries_keys
from attnspec.papers.progress import Stopwatch
from attnspec.papers.spectra import draw_parameters
from attnspec.seeding import rng_for
from attnspec.theory.constants import nonlinearity_coefficients

LOG = logging.getLogger(__name__)

TARGET_SLOPE = -1.0
# The betas of the registry rows A.2/beta=<beta> (attnspec.papers.a.declared_tests).
JUDGED_BETAS = (0.5, 1.0)


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
    from scipy.sparse.linalg import svds  # lazy: only the simulation job needs ARPACK

    start = np.full(A.shape[0], 1.0 / np.sqrt(A.shape[0]))
    # A 4-vector Krylov space suffices: s_2(A)^2 / s_1(A)^2 ~ x_+ / ell is small, and each
    # restart costs 4 products instead of the default 20 (timing: docs/benchmark.md).
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


def perron_draw(n_tokens: int, beta: float, draw: int, *, replicate: int = 0) -> tuple:
    """(s_1(A), ||A||_F^2) of one draw at c = 1 (d_qk = ell), Gaussian sampler.

    The draw uses the stream ``queries_keys`` of
    :func:`attnspec.papers.spectra.draw_parameters` (re-keyed by ``replicate``), so it is
    the attention matrix of the spectrum rule's draw at the same parameters.
    """
    params = draw_parameters(n_tokens, n_tokens, beta, "gaussian", None)
    rng = rng_for(params, draw, "queries_keys", replicate=replicate)
    Q, K = sample_queries_keys(rng, n_tokens, n_tokens)
    A = attention_matrix(Q, K, beta)
    return leading_singular_value(A), float(np.vdot(A, A))


def perron_draws(
    n_tokens: int, beta: float, draws: int, *, replicate: int = 0
) -> dict[str, np.ndarray]:
    """:func:`perron_draw` for draws 0..draws-1: ``s1`` and ``frobenius_squared``, shape (draws,);
    each draw is the same whatever ``draws`` is."""
    s1 = np.empty(draws)
    frobenius_squared = np.empty(draws)
    clock = Stopwatch()
    for draw in range(draws):
        s1[draw], frobenius_squared[draw] = perron_draw(n_tokens, beta, draw, replicate=replicate)
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


def perron_sizes(
    n_tokens: Sequence[int], beta: float, draws: int, *, replicate: int = 0
) -> dict[str, np.ndarray]:
    """:func:`perron_draws` at every ell of ``n_tokens`` (one job per beta): ``n_tokens`` (L,),
    ``s1`` and ``frobenius_squared`` (L, draws)."""
    results = [perron_draws(int(n), beta, draws, replicate=replicate) for n in n_tokens]
    return {
        "n_tokens": np.asarray(n_tokens, dtype=np.int64),
        "s1": np.stack([r["s1"] for r in results]),
        "frobenius_squared": np.stack([r["frobenius_squared"] for r in results]),
    }


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


# Row A.2's alternatives: the slope of log(s_1 - 1) on log ell under each wrong theory.
SLOPE_ALTERNATIVES = {"slope -0.5": -0.5, "slope -0.67": -2.0 / 3.0}


def perron_evidence(series: PerronSeries) -> Evidence:
    """The evidence of registry row A.2/beta=<beta>: samples ``values`` = s_1(A) - 1 per
    (draw, ell), ``sizes`` = ell, for the OLS slope of log(s_1 - 1) on log ell (target -1);
    alternatives (:data:`SLOPE_ALTERNATIVES`): the same samples against the slopes -1/2 and
    -2/3."""
    samples = {"values": series.deviation.T, "sizes": series.n_tokens.astype(np.float64)}
    row_id = f"A.2/beta={series.beta:g}"
    quantity = (
        f"OLS slope of log(s_1(A) - 1) on log ell over every (draw, ell), c = 1, beta = "
        f"{series.beta:g}, ell = {', '.join(str(int(n)) for n in series.n_tokens)}"
    )
    alternatives = {
        name: Evidence(
            row_id,
            samples,
            target=slope,
            quantity=quantity,
            note=f"s_1(A) - 1 ~ ell^({slope:.3g})",
        )
        for name, slope in SLOPE_ALTERNATIVES.items()
    }
    sizes, slopes = local_slopes(series)
    local = ", ".join(
        f"ell~{size:.0f}: {slope:+.3f}"
        for size, slope in zip(sizes, slopes.mean(axis=0), strict=True)
    )
    mean, predicted = series.deviation[-1].mean(), series.predicted_deviation[-1]
    last = int(series.n_tokens[-1])
    return Evidence(
        row_id=row_id,
        samples=samples,
        target=TARGET_SLOPE,
        quantity=quantity,
        note=(
            f"mean s_1 - 1 at ell = {last}: {mean:.4g} against the finite-ell prediction "
            f"{predicted:.4g} (ratio {mean / predicted:.3f}); mean local slope between "
            f"consecutive ell: {local}; mean stable rank at ell = {last} "
            f"{series.stable_rank[-1].mean():.4g} against its limit e^(beta^2) = "
            f"{series.limit_stable_rank:.4g}"
        ),
        alternatives=alternatives,
    )


def perron_evidence_rows(series: Sequence[PerronSeries]) -> list[Evidence]:
    """The A.2 evidence at each judged beta (:data:`JUDGED_BETAS`), from the series of every
    simulated beta; ValueError naming the config key if a judged beta was not simulated."""
    by_beta = {float(s.beta): s for s in series}
    missing = [beta for beta in JUDGED_BETAS if beta not in by_beta]
    if missing:
        raise ValueError(
            f"paperA.perron.betas must contain the judged betas {list(JUDGED_BETAS)}; "
            f"missing {missing}"
        )
    return [perron_evidence(by_beta[beta]) for beta in JUDGED_BETAS]


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


def perron_plotted_table(series: Sequence[PerronSeries]):
    """Figure A6's tidy table (a pandas DataFrame), columns ``kind``, ``series``, ``panel``
    (``abs_s1_minus_1``, ``ell_s1sq_minus_1``, ``stable_rank``), ``beta``, ``n_tokens``,
    ``draw``, ``value``, per beta:

    - data ``draw``: every draw at every ell, in each panel;
    - theory ``prediction``: the finite-ell prediction at every ell of |s_1 - 1| and of the
      stable rank, and the constant theta1 + beta^4/2 of ell (s_1^2 - 1) (one row, no ell);
      ``limit``: the limit e^{beta^2} of the stable rank (one row, no ell);
    - statistic ``fit``: the fitted power law of |s_1 - 1| at the smallest and largest ell,
      and its slope ``fit_slope`` (one row, no ell).

    A row without ell is a level, drawn across the simulated ell."""
    import pandas as pd

    blocks = []
    for s in series:
        sizes = np.asarray(s.n_tokens, dtype=np.int64)
        measured = {
            "abs_s1_minus_1": s.deviation,
            "ell_s1sq_minus_1": s.rescaled,
            "stable_rank": s.stable_rank,
        }
        for panel, values in measured.items():
            values = np.asarray(values, dtype=np.float64)
            blocks.append(
                pd.DataFrame(
                    {"kind": "data", "series": "draw", "panel": panel, "beta": s.beta,
                     "n_tokens": np.repeat(sizes, values.shape[1]),
                     "draw": np.tile(np.arange(values.shape[1]), sizes.size),
                     "value": values.reshape(-1)}
                )
            )  # fmt: skip
        ends = sizes[[0, -1]]
        curves = [
            ("theory", "prediction", "abs_s1_minus_1", sizes, s.predicted_deviation),
            ("theory", "prediction", "ell_s1sq_minus_1", None, [s.rescaled_prediction]),
            ("theory", "prediction", "stable_rank", sizes, s.predicted_stable_rank),
            ("theory", "limit", "stable_rank", None, [s.limit_stable_rank]),
            ("statistic", "fit", "abs_s1_minus_1", ends,
             np.exp(s.fit.intercept) * ends.astype(np.float64) ** s.fit.slope),
            ("statistic", "fit_slope", "abs_s1_minus_1", None, [s.fit.slope]),
        ]  # fmt: skip
        blocks += [
            pd.DataFrame(
                {"kind": kind, "series": name, "panel": panel, "beta": s.beta,
                 "n_tokens": ells, "value": np.asarray(values, dtype=np.float64)}
            )
            for kind, name, panel, ells, values in curves
        ]  # fmt: skip
    columns = ["kind", "series", "panel", "beta", "n_tokens", "draw", "value"]
    table = pd.concat(blocks, ignore_index=True).reindex(columns=columns)
    return table.astype({"n_tokens": "Int64", "draw": "Int64"})
