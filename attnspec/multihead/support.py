"""Support of a free multiplicative chain nu_k = nu_0 ⊠ eta_1 ⊠ ... ⊠ eta_k from real subordination.

Off the support of a law nu on [0, inf), w = psi_nu(1/x) is real and strictly decreasing in x
(negative x included). Along the chain psi is preserved: psi_{nu_j}(1/x_j) = psi_{nu_0}(1/p)
at subordinate points x_j(p), p a real point where nu_0's transform is single-valued (a gap of
nu_0). A real p is physical for nu_k iff every level is strictly monotone in the direction
that keeps w decreasing (sigma dx_j/dp > 0 for j = 1..k); the gaps of nu_k in (0, inf) are the
images x_k(run) of the maximal physical runs (Silverstein-Choi for one free Poisson factor,
level by level for several), and the support edges are critical values of some level.
"""

from collections.abc import Callable

import numpy as np

_SAMPLES = 4001
_LOG_RANGE = 35.0
# Gaps closer than this (relative to the support's right edge) are merged: rounding noise.
_MERGE = 1e-10


def _grid(lo: float, hi: float) -> np.ndarray:
    """Points of [lo, hi], dense near both ends, the finite ends included (a level that is
    finite at an end, e.g. x_j = 0 at p = 0, then enters with its exact limit)."""
    if np.isfinite(lo) and np.isfinite(hi):
        theta = np.linspace(0.0, np.pi, _SAMPLES)
        return lo + (hi - lo) * 0.5 * (1.0 - np.cos(theta))
    offsets = np.exp(np.linspace(-_LOG_RANGE, _LOG_RANGE, _SAMPLES))
    if np.isfinite(lo):
        return np.concatenate(([lo], lo + offsets))
    if np.isfinite(hi):
        return np.concatenate((hi - offsets[::-1], [hi]))
    raise ValueError("a parameter interval needs at least one finite end")


def _boundary_value(levels_of, p, i, j, top, sign):
    """x_top at the extremum of level j on [p[i-1], p[i+1]] (a minimum of sign * x_j)."""
    from scipy.optimize import minimize_scalar  # lazy: jobs that never call it skip the import

    result = minimize_scalar(
        lambda q: sign * float(levels_of(np.array([q]))[j, 0]),
        bounds=(p[i - 1], p[i + 1]),
        method="bounded",
        options={"xatol": 1e-15 * max(abs(p[i]), 1e-300)},
    )
    return float(levels_of(np.array([result.x]))[top, 0])


def _gaps_of_piece(levels_of, lo, hi, orientation):
    """Images of the physical runs of one parameter interval (see module docstring)."""
    p = _grid(lo, hi)
    with np.errstate(all="ignore"):
        levels = np.asarray(levels_of(p), dtype=np.float64)
    keep = np.all(np.isfinite(levels), axis=0)
    p, levels = p[keep], levels[:, keep]
    top = levels.shape[0] - 1
    step_ok = orientation * np.diff(levels, axis=1) > 0
    physical = np.all(step_ok, axis=0)
    gaps = []
    i = 0
    while i < physical.size:
        if not physical[i]:
            i += 1
            continue
        start = i
        while i < physical.size and physical[i]:
            i += 1
        end = i  # run covers grid points start..end
        if start == 0:
            first = levels[top, 0]
        else:
            turning = int(np.flatnonzero(~step_ok[:, start - 1])[0])
            # Level `turning` stops being monotone: a minimum of orientation * x_j.
            first = _boundary_value(levels_of, p, start, turning, top, orientation)
        if end == p.size - 1:
            last = levels[top, -1]
        else:
            turning = int(np.flatnonzero(~step_ok[:, end])[0])
            last = _boundary_value(levels_of, p, end, turning, top, -orientation)
        low, high = sorted((first, last))
        if high > 0:
            gaps.append((max(low, 0.0), high))
    return gaps


def support_intervals(
    levels_of: Callable[[np.ndarray], np.ndarray],
    pieces: list[tuple[float, float]],
    orientation: int,
) -> list[tuple[float, float]]:
    """Support of the continuous part of nu_k in [0, inf): disjoint increasing intervals.

    Parameters
    ----------
    levels_of : callable
        Real p (1-D array) -> array of shape (k, p.size): the subordinate points x_1(p), ...,
        x_k(p) (non-finite values near poles are ignored).
    pieces : list of (lo, hi)
        Open intervals of p on which nu_0's transform is real and single-valued.
    orientation : {+1, -1}
        -sign(dw/dp): physical where orientation * dx_j/dp > 0 for every level.
    """
    gaps = sorted(g for lo, hi in pieces for g in _gaps_of_piece(levels_of, lo, hi, orientation))
    if not gaps:
        raise RuntimeError("no gap above the support was found: the parametrisation is wrong")
    tolerance = _MERGE * max(low for low, _ in gaps)
    merged = []
    for low, high in gaps:
        if merged and low <= merged[-1][1] + tolerance:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    intervals, left = [], 0.0
    for low, high in merged:
        if low > left + tolerance:
            intervals.append((left, low))
        left = high
    # The top gap, (edge, inf), ends at a sampled point near a pole: nothing lies above it.
    return intervals
