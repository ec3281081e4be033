"""Claim A.3 (paper A): the non-Perron spectrum of softmax attention has the law of Y_lin.

Measured by two-sample Kolmogorov distances between single draws: D_AL over pairs (attention
draw i, Y_lin draw j != i) against the noise floor D_LL over pairs of distinct Y_lin draws (two
samples of the same law at the same ell). Gaussian equivalence at this ell means
mean D_AL <= mean D_LL within the spread of D_LL; the excess D_AL - D_LL over several ell
shows whether a finite-size gap closes.
"""

from collections.abc import Mapping, Sequence
from itertools import combinations, permutations

import numpy as np

from attnspec.claims import CLAIMS
from attnspec.distances import kolmogorov_distance
from attnspec.legacy_verdicts import AT_MOST, ClaimCheck, describe_test, judge_at_most


def pair_distances(attention: Sequence[np.ndarray], linear: Sequence[np.ndarray]) -> tuple:
    """(D_AL over ordered pairs i != j, D_LL over unordered pairs i < j), as arrays."""
    if len(linear) < 2:
        raise ValueError("the noise floor needs at least two Y_lin draws")
    n = min(len(attention), len(linear))
    d_al = [kolmogorov_distance(attention[i], linear[j]) for i, j in permutations(range(n), 2)]
    d_ll = [
        kolmogorov_distance(linear[i], linear[j]) for i, j in combinations(range(len(linear)), 2)
    ]
    return np.array(d_al), np.array(d_ll)


def excess_trend(excess_by_ell: Mapping[int, float]) -> tuple[float, bool]:
    """Least-squares slope of log(excess) against log(ell), and whether the gap is closing.

    Closing means every excess is positive, the slope is negative and the excess at the largest
    ell is below the one at the smallest; an excess <= 0 anywhere means no gap to close.
    """
    ells = np.array(sorted(excess_by_ell), dtype=float)
    excess = np.array([excess_by_ell[int(ell)] for ell in ells])
    if len(ells) < 2 or np.any(excess <= 0):
        return float("nan"), False
    slope = float(np.polyfit(np.log(ells), np.log(excess), 1)[0])
    return slope, bool(slope < 0 and excess[-1] < excess[0])


EQUIVALENCE_TEST = describe_test(
    AT_MOST,
    caveat="the excess D_AL - D_LL closes with ell (positive at every ell, least-squares slope of "
    "log excess on log ell < 0, smaller at the largest ell than at the smallest)",
)
"""The test of claim A.3: :func:`judge_at_most` with :func:`excess_trend` as the caveat."""


def gaussian_equivalence_check(
    attention: Sequence[np.ndarray],
    linear: Sequence[np.ndarray],
    *,
    n_tokens: int,
    beta: float,
    trend: Mapping[int, tuple[Sequence[np.ndarray], Sequence[np.ndarray]]],
) -> tuple[ClaimCheck, list[tuple]]:
    """The A.3 verdict row and the per-ell rows (ell, mean D_AL, mean D_LL, excess) behind it."""
    d_al, d_ll = pair_distances(attention, linear)
    excess_by_ell = {}
    rows = []
    for ell, (att, lin) in sorted({**trend, n_tokens: (attention, linear)}.items()):
        al, ll = pair_distances(att, lin)
        excess_by_ell[int(ell)] = float(al.mean() - ll.mean())
        rows.append((int(ell), float(al.mean()), float(ll.mean()), excess_by_ell[int(ell)]))
    slope, closing = excess_trend(excess_by_ell)
    tolerance = 2.0 * float(d_ll.std(ddof=1)) if d_ll.size > 1 else 0.0
    verdict = judge_at_most(float(d_al.mean()), float(d_ll.mean()), tolerance, improving=closing)
    trend_text = ", ".join(f"ell={e}: {x:+.4f}" for e, x in excess_by_ell.items())
    check = ClaimCheck(
        claim_id="A.3",
        claim=CLAIMS["A.3"],
        figure="A1-stepwise, A-T2-stepwise",
        quantity=(
            f"mean two-sample Kolmogorov distance between single draws of sqrt(ell) A_perp and "
            f"Y_lin (ell={n_tokens}, beta={beta:g}, c=1), against the Y_lin-vs-Y_lin floor"
        ),
        value=float(d_al.mean()),
        target=float(d_ll.mean()),
        tolerance=tolerance,
        tolerance_basis=(
            f"2 sd of the floor over {d_ll.size} pairs of independent Y_lin draws"
            if d_ll.size > 1
            else "none: one pair of Y_lin draws gives no spread"
        ),
        test=EQUIVALENCE_TEST,
        verdict=verdict,
        note=(
            f"excess D_AL - D_LL by ell: {trend_text}; log-log slope {slope:.2f}"
            + ("; the gap closes as ell grows" if closing else "; no closing gap measured")
        ),
    )
    return check, rows
