"""Follow the physical root of an equation F(v, z) = 0 from far above the real axis down to it.

A law's Cauchy transform G(z) is analytic in the upper half-plane, so the root v(z) that
defines it (e.g. v = S-transform value) is an analytic function of z there and stays separated
from the other roots. Starting at z = x + i eta_0 (|z| above the support radius, where a series
gives v), eta is shrunk geometrically to eta_stop and v is refined by Newton at each level,
vectorised over x. The density is then -Im G(x + i eta_stop) / pi: an O(eta_stop) bias.
"""

from collections.abc import Callable

import numpy as np

_NEWTON_STEPS = 40
_RELATIVE_TOLERANCE = 1e-13
_ROUNDING = 16
_SHRINKS = (0.8, 0.92, 0.97)


def _newton(residual, v, z):
    """Newton iterations on every point; returns (v, converged).

    A point has converged when the step is below the relative tolerance or the residual is at
    rounding level (at most _ROUNDING eps times the size of its terms, so a small slope cannot
    keep it cycling).
    """
    converged = np.zeros(v.shape, dtype=bool)
    for _ in range(_NEWTON_STEPS):
        value, slope, size = residual(v, z)
        converged |= np.abs(value) <= _ROUNDING * np.finfo(float).eps * size
        with np.errstate(divide="ignore", invalid="ignore"):
            step = value / slope
        step = np.where(converged | ~np.isfinite(step), 0.0, step)
        v = v - step
        converged |= np.abs(step) <= _RELATIVE_TOLERANCE * np.maximum(np.abs(v), 1e-300)
        if converged.all():
            break
    return v, converged


def follow_root(
    residual: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]],
    start: Callable[[np.ndarray], np.ndarray],
    x: np.ndarray,
    *,
    eta_start: float,
    eta_stop: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Root v(x + i eta_stop) continued from v(x + i eta_start) = Newton(start(z)).

    Parameters
    ----------
    residual : callable
        (v, z) -> (F(v, z), dF/dv, size of F's terms), vectorised, complex (size real).
    start : callable
        z -> an approximation of the physical root at z = x + i eta_start.
    x : ndarray of float
        Real parts.
    eta_start, eta_stop : float
        First and last imaginary parts (eta_start > eta_stop > 0).

    Returns
    -------
    v, z : ndarray of complex, shape of x

    Raises
    ------
    RuntimeError
        If Newton fails at some point even with the finest schedule.
    """
    x = np.asarray(x, dtype=np.float64)
    for shrink in _SHRINKS:
        levels = int(np.ceil(np.log(eta_stop / eta_start) / np.log(shrink)))
        etas = eta_start * shrink ** np.arange(levels + 1)
        etas[-1] = eta_stop
        z = x + 1j * etas[0]
        v, ok = _newton(residual, start(z), z)
        for eta in etas[1:]:
            z = x + 1j * eta
            v, converged = _newton(residual, v, z)
            ok &= converged
        if ok.all():
            return v, z
    raise RuntimeError(
        f"root continuation failed at {np.count_nonzero(~ok)} of {x.size} points "
        f"(e.g. x = {x[~ok][:3]})"
    )
