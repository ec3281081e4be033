"""Figure B7's statistics (paper B, where sticking becomes visible): the model of theta_max, its
quantiles, the threshold 1/G* and the critical sizes ell*, and the rows of figure B7's key
tables (the draws: :mod:`attnspec.papers.b.sticking`).

The largest entry theta_max = max_ij |(sqrt(ell) A_perp)_ij| of a draw acts as a rank-one spike:
an outlier at K(1/theta)^2 above x_+ when theta_max > 1/G* (G* the edge's point of the
symmetrised Gaussian model's Cauchy transform,
:class:`attnspec.theory.r_transform.SymmetrisedLinearModel`), nothing otherwise. Sticking,
ell s_2(A)^2 -> x_+, can only be seen where theta_max < 1/G*.

Model of theta_max (what is derived, what is heuristic). Write A_ij = e^{X_ij} / sum_k e^{X_ik},
X_ij = beta S_ij - beta^2 r_i / 2, S_ij = q_i . k_j / sqrt(d_qk), r_i = |q_i|^2 / d_qk. Given q_i,
S_ij ~ N(0, r_i) exactly, so E[e^{X_ij} | q_i] = 1. Three approximations then give a closed form:

1. r_i = 1 and the ell^2 entries S_ij independent N(0, 1) (heuristic: they share rows and
   columns; their tails are Gaussian up to a factor exp(O(log(ell)^2 / d_qk)), excess kurtosis
   6/d_qk), so M = max_ij X_ij has P(M <= m) = Phi((m + beta^2/2) / beta)^(ell^2) (exact then);
2. the row of the largest entry sums to e^M + (ell - 1) (law of large numbers over the other
   ell - 1 entries of mean 1: heuristic, good when ell >> e^{beta^2}); the e^M keeps A_ij <= 1;
3. the largest |A_ij - 1/ell| is the largest A_ij (the smallest entries give at most 1/sqrt(ell)),
   at least 1/ell (a row's largest entry is at least its mean): M is taken as max(M, 0).

Then theta_max = sqrt(ell) / (1 + (ell - 1) e^{-M}) - 1/sqrt(ell), nondecreasing in M, so its
p-quantile is this map of M's p-quantile, beta z_p - beta^2/2 with Phi(z_p) = p^(1/ell^2)
(:func:`spike_quantile`; the typical theta_max is the median). It depends on beta and ell only,
not on c = ell/d_qk; the threshold 1/G* depends on (beta, c). For ell >> e^{4 beta^2},
log theta_max ~ 2 beta sqrt(log ell) - beta^2/2 - log(ell)/2, which falls below log(1/G*) at
log ell* ~ (2 beta + sqrt(3 beta^2 + 2 log G*))^2 (:func:`critical_size` solves the exact form).
The tests check the quantiles against a direct Monte Carlo of theta_max at small ell.
"""

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import brentq, minimize_scalar
from scipy.special import ndtri

from attnspec.theory.r_transform import SymmetrisedLinearModel
from attnspec.validation import check_beta, check_betas, check_ratio, check_real_array, shown

SMALLEST_SIZE = 2.0
"""The smallest ell of the model (two tokens)."""
LARGEST_LOG_SIZE = 300.0
"""log ell above which the model is not evaluated (ell^2 overflows float64 near log ell = 354)."""


def spike_quantile(n_tokens: ArrayLike, beta: float, probability: float = 0.5) -> NDArray:
    """The ``probability``-quantile of theta_max at each ell (module docstring's model):
    sqrt(ell) / (1 + (ell - 1) e^{-m}) - 1/sqrt(ell), m = max(beta z - beta^2/2, 0),
    Phi(z) = probability^(1/ell^2); vectorised in ``n_tokens`` (real, >= 2)."""
    ell = check_real_array(n_tokens, "n_tokens", allow_inf=False)
    if np.any(ell < SMALLEST_SIZE) or np.any(np.log(ell) > LARGEST_LOG_SIZE):
        bounds = f"[{SMALLEST_SIZE:g}, e^{LARGEST_LOG_SIZE:g}]"
        raise ValueError(f"n_tokens must lie in {bounds}, got {shown(n_tokens)}")
    beta = check_beta(beta)
    probability = float(probability)
    if not 0.0 < probability < 1.0:
        raise ValueError(f"probability must lie in (0, 1), got {probability!r}")
    # Phi(z) = p^(1/n): z = -ndtri(1 - p^(1/n)), 1 - p^(1/n) = -expm1(log(p)/n) accurate for huge n
    z = -ndtri(-np.expm1(np.log(probability) / ell**2))
    largest = np.maximum(beta * z - beta**2 / 2, 0.0)
    root = np.sqrt(ell)
    return root / (1.0 + (ell - 1.0) * np.exp(-largest)) - 1.0 / root


def typical_spike(n_tokens: ArrayLike, beta: float) -> NDArray:
    """The median of theta_max at each ell (:func:`spike_quantile` at 1/2)."""
    return spike_quantile(n_tokens, beta, 0.5)


def spike_threshold(beta: float, ratio: float = 1.0) -> float:
    """1/G*: a spike theta leaves the bulk of the Gaussian model (beta, c) when theta > 1/G*."""
    return 1.0 / SymmetrisedLinearModel(check_beta(beta), check_ratio(ratio)).critical_point


def critical_size(beta: float, ratio: float = 1.0, probability: float = 0.5) -> float:
    """ell*: the size above which the ``probability``-quantile of theta_max stays below 1/G*
    (the largest root in ell >= 2 of spike_quantile = 1/G*, the quantile being unimodal in log
    ell); SMALLEST_SIZE when it is below 1/G* at every ell. ValueError when ell* or the
    quantile's peak (log ell ~ 4 beta^2) exceeds e^LARGEST_LOG_SIZE."""
    beta = check_beta(beta)
    threshold = spike_threshold(beta, ratio)

    def excess(log_size: float) -> float:
        return float(spike_quantile(np.exp(log_size), beta, probability)[()] / threshold - 1.0)

    low = np.log(SMALLEST_SIZE)
    high = max(8.0 * beta**2, 4.0)  # past the quantile's peak (log ell ~ 4 beta^2)
    if high > LARGEST_LOG_SIZE:
        raise ValueError(
            f"beta = {beta!r} too large: theta_max peaks beyond e^{LARGEST_LOG_SIZE:g}"
        )
    while excess(high) >= 0.0:
        if high == LARGEST_LOG_SIZE:
            raise ValueError(f"beta = {beta!r} too large: ell* exceeds e^{LARGEST_LOG_SIZE:g}")
        high = min(2.0 * high, LARGEST_LOG_SIZE)
    peak = minimize_scalar(lambda s: -excess(s), bounds=(low, high), method="bounded")
    if excess(peak.x) < 0.0:
        return SMALLEST_SIZE
    return float(np.exp(brentq(excess, peak.x, high, xtol=1e-12, rtol=1e-12)))


def critical_sizes(betas: ArrayLike, ratio: float = 1.0, probability: float = 0.5) -> NDArray:
    """:func:`critical_size` at each beta."""
    betas = check_betas(betas)
    return np.array([critical_size(b, ratio, probability) for b in betas.ravel()])


def supercritical_fraction(theta_max: ArrayLike, beta: float, ratio: float = 1.0) -> float:
    """The fraction of draws whose theta_max exceeds 1/G* (an outlier is predicted)."""
    theta = check_real_array(theta_max, "theta_max", allow_inf=False)
    if theta.size == 0 or theta.min() < 0:
        raise ValueError(f"theta_max must be one or more values >= 0, got {theta!r}")
    return float(np.mean(theta > spike_threshold(beta, ratio)))


SQUARE = 1.0
"""The aspect ratio c = ell / d_qk of the figure's data (paper B's sticking grid)."""
QUANTILES = (0.1, 0.5, 0.9)
"""The quantiles of theta_max drawn: 10 %, median, 90 %."""


CRITICAL_KEY_HEADER = ("c", "beta", "ell* (10 %)", "ell* (median)", "ell* (90 %)")
BELOW_EVERY_SIZE = "none"
"""A cell of the critical sizes whose quantile of theta_max stays below 1/G* at every ell."""


def _size_cell(size: float):
    return BELOW_EVERY_SIZE if size == SMALLEST_SIZE else size


def critical_size_rows(betas: Sequence[float], ratios: Sequence[float]) -> list[tuple]:
    """The caption's key numbers: ell* of the median of theta_max at each (c, beta), and at
    c = 1 those of its 10 % and 90 % quantiles (empty elsewhere); BELOW_EVERY_SIZE where the
    quantile never reaches 1/G*."""
    rows = []
    for c in sorted({float(r) for r in ratios} | {SQUARE}):
        for beta in betas:
            cells = [_size_cell(critical_size(beta, c, p)) if c == SQUARE or p == 0.5 else ""
                     for p in QUANTILES]  # fmt: skip
            rows.append((c, float(beta), *cells))
    return rows


SPIKE_KEY_HEADER = ("beta", "ell", "draws", "median theta_max", "model median", "measured / model",
                    "supercritical")  # fmt: skip


def spike_key_rows(frame) -> list[tuple]:
    """The caption's check of the model: per (beta, ell) of the figure's measured draws, their
    number, the median theta_max against the model's median, and the fraction supercritical."""
    draws = frame[(frame["kind"] == "data") & (frame["series"] == "theta_max")]
    rows = []
    for (beta, ell), mine in draws.groupby(["beta", "ell"]):
        theta = mine["value"].to_numpy(dtype=np.float64)
        measured, model = float(np.median(theta)), float(spike_quantile(int(ell), beta)[()])
        supercritical = float(np.mean(theta > spike_threshold(beta, SQUARE)))
        rows.append((float(beta), int(ell), len(theta), measured, model, measured / model,
                     supercritical))  # fmt: skip
    return rows
