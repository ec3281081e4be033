"""Follow the physical root of an equation F(v, z) = 0 from far above the real axis down to it.

A law's Cauchy transform G(z) is analytic in the upper half-plane, so the root v(z) that
defines it (e.g. v = S-transform value) is an analytic function of z there and stays separated
from the other roots. Starting at z = x + i eta_0 (|z| above the support radius, where a series
gives v), eta is lowered point by point to eta_stop: a secant predictor in log(eta), then
Newton. A step is accepted only if Newton converged, did not move far from the predictor, and
the root is physical by a necessary test: for a probability law on [0, R],
-Im G(x + i eta) >= eta / ((|x| + R)^2 + eta^2). A rejected step is retried with half the step
in log(eta); an accepted one lets the next grow.
"""

from collections.abc import Callable

import numpy as np

_NEWTON_STEPS = 40
_RELATIVE_TOLERANCE = 1e-13
_ROUNDING = 16
_STALLED = 1e-10
_FIRST_STEP = np.log(1 / 0.9)  # log(eta) decrease of a first step
_LARGEST_STEP = np.log(1 / 0.5)
# A step is rejected when Newton moves the root by more than _CORRECTOR times the predicted
# change (plus _FLOOR |v|: near the axis the root barely moves).
_CORRECTOR = 0.5
_FLOOR = 1e-3
_SMALLEST_STEP = 1e-8
_MAX_ROUNDS = 4000
# Fraction of the Nevanlinna lower bound a computed root must reach (rounding allowance).
_BOUND_FRACTION = 0.5


def _newton(residual, v, z):
    """Newton iterations on every point; returns (v, converged).

    A point has converged when the step is below the relative tolerance or the residual is at
    rounding level (at most _ROUNDING eps times the size of its terms, so a small slope cannot
    keep it cycling), or, after the last step, below _STALLED times that size.
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
            return v, converged
    # Next to a support edge the root is nearly double and rounding stalls Newton above the
    # tolerances; such a point is accepted once its residual is small.
    value, _, size = residual(v, z)
    return v, converged | (np.abs(value) <= _STALLED * size)


def follow_root(
    residual: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]],
    cauchy: Callable[[np.ndarray, np.ndarray], np.ndarray],
    start: Callable[[np.ndarray], np.ndarray],
    x: np.ndarray,
    *,
    radius: float,
    eta_start: float,
    eta_stop: float | np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Root v(x + i eta_stop) continued from v(x + i eta_start) = Newton(start(z)).

    Parameters
    ----------
    residual : callable
        (v, z) -> (F(v, z), dF/dv, size of F's terms), vectorised, complex (size real).
    cauchy : callable
        (v, z) -> G(z) from the root.
    start : callable
        z -> an approximation of the physical root at z = x + i eta_start.
    x : ndarray of float
        Real parts.
    radius : float
        R with the law supported in [0, R].
    eta_start : float
        First imaginary part (the start must be physical there).
    eta_stop : float or ndarray of float
        Last imaginary part, per point or common (0 < eta_stop < eta_start).

    Returns
    -------
    v, z : ndarray of complex, shape of x

    Raises
    ------
    RuntimeError
        If the start is not physical or a step below _SMALLEST_STEP in log(eta) is needed.
    """
    x = np.asarray(x, dtype=np.float64)
    stop = np.broadcast_to(np.asarray(eta_stop, dtype=np.float64), x.shape)

    def physical(v, z):
        bound = z.imag / ((np.abs(z.real) + radius) ** 2 + z.imag**2)
        return -cauchy(v, z).imag >= _BOUND_FRACTION * bound

    eta = np.full(x.shape, float(eta_start))
    z = x + 1j * eta
    v, ok = _newton(residual, start(z), z)
    if not np.all(ok & physical(v, z)):
        raise RuntimeError("the continuation does not start on the physical root")
    # Secant predictor in log(eta) from the last accepted step (none before the first).
    velocity = np.zeros(x.shape, dtype=np.complex128)  # dv / d(log eta) of the last step
    step = np.full(x.shape, _FIRST_STEP)
    for _ in range(_MAX_ROUNDS):
        active = np.flatnonzero(eta > stop)
        if active.size == 0:
            return v, x + 1j * eta
        target = np.maximum(eta[active] * np.exp(-step[active]), stop[active])
        change = np.log(target / eta[active])
        predicted = v[active] + velocity[active] * change
        trial_z = x[active] + 1j * target
        trial, converged = _newton(residual, predicted, trial_z)
        # A jump to another root shows as a corrector far from the predictor.
        corrector = np.abs(trial - predicted)
        allowed = _CORRECTOR * (np.abs(predicted - v[active]) + _FLOOR * np.abs(v[active]))
        accepted = converged & physical(trial, trial_z) & (corrector <= allowed)
        take = active[accepted]
        velocity[take] = (trial[accepted] - v[take]) / change[accepted]
        v[take], eta[take] = trial[accepted], target[accepted]
        step[take] = np.minimum(1.5 * step[take], _LARGEST_STEP)
        step[active[~accepted]] *= 0.5
        if np.any(step[active] < _SMALLEST_STEP):
            bad = active[step[active] < _SMALLEST_STEP]
            raise RuntimeError(
                f"root continuation failed at {bad.size} of {x.size} points (e.g. x = {x[bad][:3]})"
            )
    raise RuntimeError(f"root continuation did not reach eta_stop in {_MAX_ROUNDS} rounds")
