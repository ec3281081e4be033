"""Distribution function and quantiles of a density with square-root edges, in t = sqrt(x).

F(x) = int_0^x p(y) dy = sum over support intervals [lo, hi] of int 2 t p(t^2) dt, t = sqrt(y).
The symmetrised density 2 t p(t^2) stays bounded at t = 0 where p ~ x^{-1/2} (nu_inf, paper A).
On [sqrt lo, sqrt hi] put t = t0 + (t1 - t0) sin^2(theta/2), theta in [0, pi]: the integrand
h(theta) = 2 t p(t^2) dt/dtheta is then analytic at square-root edges too. h is interpolated by
Chebyshev polynomials of degree 64 on panels of theta; a panel whose trailing coefficients are
too large for the error budget (see :func:`_panels`) is halved, so a singularity close to the
interval (the complex edges of an internal gap about to open, or the x^{1/3} cusp where it
opens, papers.md section 3) is resolved by geometric refinement towards it rather than by one
interpolant of unbounded degree. Each panel's interpolant is integrated exactly, F is the running
sum of the panel masses, and quantiles invert it by safeguarded Newton steps on one panel.
"""

from collections.abc import Callable
from functools import cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

from attnspec.validation import check_levels, check_real_array

_DEGREE = 64
_TAIL = 8
_MIN_PANEL_WIDTH = np.pi * 2.0**-40
_MAX_PANELS = 4096
_NEWTON_STEPS = 100  # safeguarded: a bisection step whenever Newton leaves the bracket
_Z_TOLERANCE = 1e-15


@cache
def _interpolation() -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """First-kind Chebyshev points of degree _DEGREE and the matrix values -> coefficients
    (as chebyshev.chebinterpolate); numpy.polynomial is imported on first use only."""
    from numpy.polynomial import chebyshev  # lazy: keeps `import attnspec.theory` light

    nodes = chebyshev.chebpts1(_DEGREE + 1)
    values_to_coefficients = chebyshev.chebvander(nodes, _DEGREE) * (2.0 / (_DEGREE + 1))
    values_to_coefficients[:, 0] /= 2.0
    return nodes, values_to_coefficients


def _sin2_half(theta: NDArray[np.float64]) -> NDArray[np.float64]:
    """sin^2(theta / 2) = (1 - cos theta) / 2 without cancellation near theta = 0."""
    return np.sin(0.5 * theta) ** 2


def _panels(integrand: Callable, tolerance: float) -> tuple[NDArray, NDArray, NDArray]:
    """Panels [start, end] of [0, pi] and the Chebyshev coefficients of h on each (in z).

    Pending panels are interpolated together (one vectorised call of ``integrand`` per level).
    A panel of width w whose last _TAIL coefficients are at most ``tail`` is accepted when
    w * tail <= tolerance * H * max(sqrt(pi w), pi / 1000), H = max(1/pi, max |h| seen so far):
    tail <= tolerance * H on the whole [0, pi], looser for narrow panels so that the error stays
    ~ tolerance * H in all and the refinement stops at the noise of the density.

    Raises
    ------
    RuntimeError
        If a panel narrower than pi 2^-40 or more than _MAX_PANELS panels would be needed.
    """
    nodes, values_to_coefficients = _interpolation()
    pending = np.array([[0.0, np.pi]])
    starts, ends, coefficients = [], [], []
    scale = 1.0 / np.pi  # h integrates to the mass of the interval (<= 1) over [0, pi]
    while pending.size:
        middle, half = pending.mean(axis=1), 0.5 * (pending[:, 1] - pending[:, 0])
        values = integrand((middle[:, None] + half[:, None] * nodes[None, :]).ravel())
        values = values.reshape(len(pending), _DEGREE + 1)
        if not np.all(np.isfinite(values)):
            raise RuntimeError("the density is not finite on its support")
        scale = max(scale, float(np.max(np.abs(values))))
        coef = values @ values_to_coefficients
        # The integral errors w * tail of a dyadic refinement towards a point sum to
        # < 8 pi tolerance H; the density's noise (its quartic roots are ~ eps^{1/3}-accurate
        # near a cusp) is accepted once w * noise is below pi tolerance H / 1000.
        width = 2.0 * half
        budget = tolerance * scale * np.maximum(np.sqrt(np.pi * width), np.pi / 1000)
        resolved = width * np.max(np.abs(coef[:, -_TAIL:]), axis=1) <= budget
        starts.append(pending[resolved, 0])
        ends.append(pending[resolved, 1])
        coefficients.append(coef[resolved])
        split = pending[~resolved]
        if split.size and np.min(split[:, 1] - split[:, 0]) < 2 * _MIN_PANEL_WIDTH:
            raise RuntimeError("the cdf integrand is not resolved by panels of width pi 2^-40")
        cut = split.mean(axis=1)
        pending = np.concatenate(
            [np.column_stack([split[:, 0], cut]), np.column_stack([cut, split[:, 1]])]
        )
        if sum(len(s) for s in starts) + len(pending) > _MAX_PANELS:
            raise RuntimeError(f"the cdf integrand needs more than {_MAX_PANELS} panels")
    starts, ends = np.concatenate(starts), np.concatenate(ends)
    order = np.argsort(starts)
    return starts[order], ends[order], np.concatenate(coefficients)[order]


def _check_intervals(intervals) -> NDArray[np.float64]:
    """(n, 2) array of the intervals; ValueError unless finite, 0 <= lo < hi, increasing."""
    try:
        bounds = np.array(intervals, dtype=np.float64).reshape(-1, 2)
    except (TypeError, ValueError):
        raise ValueError(f"intervals must be a list of (lo, hi) pairs, got {intervals!r}") from None
    flat = bounds.ravel()
    if not (
        len(bounds)
        and np.all(np.isfinite(flat))
        and flat[0] >= 0
        and np.all(np.diff(flat) > 0)
        and len(bounds) == len(intervals)
    ):
        raise ValueError(
            "intervals must be a non-empty list of disjoint finite (lo, hi) with "
            f"0 <= lo < hi, in increasing order, got {intervals!r}"
        )
    return bounds


def _chebval(z: NDArray[np.float64], c: NDArray[np.float64]) -> NDArray[np.float64]:
    """sum_k c_k T_k(z) by Clenshaw's recurrence, in place (len(c) >= 2)."""
    b0 = np.full_like(z, c[-1])
    b1 = np.zeros_like(z)
    work = np.empty_like(z)
    twice = 2.0 * z
    for k in range(len(c) - 2, 0, -1):
        np.multiply(twice, b0, out=work)
        work -= b1
        work += c[k]
        b0, b1, work = work, b0, b1
    return c[0] + z * b0 - b1


def _grouped_chebval(rows: NDArray[np.float64], panel: NDArray[np.intp], z: NDArray[np.float64]):
    """sum_k rows[k, panel_i] T_k(z_i) for ``panel`` sorted ascending (one series per panel)."""
    if panel.size and panel[0] == panel[-1]:
        return _chebval(z, rows[:, panel[0]])
    out = np.empty_like(z)
    cuts = np.concatenate(([0], np.flatnonzero(np.diff(panel)) + 1, [panel.size]))
    for lo, hi in zip(cuts[:-1], cuts[1:], strict=True):
        if hi > lo:
            out[lo:hi] = _chebval(z[lo:hi], rows[:, panel[lo]])
    return out


class SqrtEdgeCumulative:
    """cdf and quantile of a density p supported on disjoint intervals of [0, inf).

    Parameters
    ----------
    density : callable
        Vectorised p(x), float64 in and out, of a law of total mass <= 1.
    intervals : list of (lo, hi)
        Disjoint support intervals, increasing, with 0 <= lo < hi.
    tolerance : float
        Relative size of the trailing Chebyshev coefficients accepted on a panel of degree 64,
        against max(max |h|, 1/pi) (see :func:`_panels`); F is then accurate to ~ tolerance.

    Raises
    ------
    RuntimeError
        If the panels do not resolve the integrand (see :func:`_panels`).
    """

    def __init__(self, density: Callable, intervals, tolerance: float = 1e-13):
        from numpy.polynomial import chebyshev  # lazy: keeps `import attnspec.theory` light

        bounds = _check_intervals(intervals)
        if not (isinstance(tolerance, int | float) and 0 < tolerance < 1):
            raise ValueError(f"tolerance must be a number in (0, 1), got {tolerance!r}")
        self._t0, self._t1 = np.sqrt(bounds[:, 0]), np.sqrt(bounds[:, 1])
        keys, starts, ends, slopes, primitives = [], [], [], [], []
        for k, (t0, t1) in enumerate(zip(self._t0, self._t1, strict=True)):

            def integrand(theta, t0=t0, t1=t1):
                t = t0 + (t1 - t0) * _sin2_half(theta)
                return t * density(t * t) * (t1 - t0) * np.sin(theta)

            start, end, coef = _panels(integrand, tolerance)
            keys.append(4.0 * k + start)  # panels of interval k sit in [4k, 4k + pi]
            starts.append(start)
            ends.append(end)
            half = 0.5 * (end - start)
            slopes.append(coef.T * half[None, :])  # dF/dz on the panel, z in [-1, 1]
            primitives.append(chebyshev.chebint(coef.T, lbnd=-1.0) * half[None, :])
        self._key = np.concatenate(keys)
        self._start, self._end = np.concatenate(starts), np.concatenate(ends)
        self._slope = np.concatenate(slopes, axis=1)
        self._primitive = np.concatenate(primitives, axis=1)  # (degree + 2, panels), 0 at z = -1
        self._mass = chebyshev.chebval(1.0, self._primitive)
        self._offsets = np.concatenate(([0.0], np.cumsum(self._mass)))
        self._interval = np.repeat(np.arange(len(keys)), [len(k) for k in keys])

    def interior_boundaries(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Panel boundaries x strictly inside a support interval, and F at each of them."""
        inside = self._start > 0
        k = self._interval[inside]
        t0, t1 = self._t0[k], self._t1[k]
        t = t0 + (t1 - t0) * _sin2_half(self._start[inside])
        return t * t, self._offsets[:-1][inside]

    def interval_masses(self) -> NDArray[np.float64]:
        """Mass of each support interval (sum of its panels' masses)."""
        return np.bincount(self._interval, weights=self._mass, minlength=len(self._t0))

    def cdf(self, x: ArrayLike) -> NDArray[np.float64]:
        """F(x) = int_0^x p, vectorised over x (x must not be NaN; F(-inf) = 0, F(inf) = F(max))."""
        x = check_real_array(x, "x")
        t = np.sqrt(np.clip(x, 0.0, np.inf)).ravel()
        k = np.maximum(np.searchsorted(self._t0, t, side="right") - 1, 0)
        t0, t1 = self._t0[k], self._t1[k]
        # theta in [0, pi] with sin^2(theta/2) = (t - t0)/(t1 - t0), clipped to interval k.
        theta = 2.0 * np.arctan2(
            np.sqrt(np.clip(t - t0, 0.0, None)), np.sqrt(np.clip(t1 - t, 0.0, None))
        )
        panel = np.searchsorted(self._key, 4.0 * k + theta, side="right") - 1
        start, end = self._start[panel], self._end[panel]
        z = np.clip((2.0 * theta - start - end) / (end - start), -1.0, 1.0)
        if len(self._mass) == 1:
            partial = _chebval(z, self._primitive[:, 0])
        else:
            order = np.argsort(panel, kind="stable")
            partial = np.empty_like(z)
            partial[order] = _grouped_chebval(self._primitive, panel[order], z[order])
        partial = np.where(z <= -1.0, 0.0, np.clip(partial, 0.0, self._mass[panel]))
        total = np.where(t <= self._t0[0], 0.0, self._offsets[panel] + partial)
        return total.reshape(x.shape)

    def quantile(self, q: ArrayLike) -> NDArray[np.float64]:
        """inf{x : F(x) >= q} for q in [0, 1]: safeguarded Newton on the panel holding q."""
        q = check_levels(q)
        flat = q.ravel()
        last = len(self._mass) - 1
        panel = np.minimum(np.searchsorted(self._offsets[1:], flat, side="left"), last)
        order = np.argsort(panel, kind="stable")
        panel = panel[order]
        mass = self._mass[panel]
        target = np.clip(flat[order] - self._offsets[panel], 0.0, mass)
        z = self._solve(panel, target, mass)
        start, end = self._start[panel], self._end[panel]
        theta = 0.5 * (start + end) + 0.5 * (end - start) * z
        k = self._interval[panel]
        t = np.empty_like(z)
        t[order] = self._t0[k] + (self._t1[k] - self._t0[k]) * _sin2_half(theta)
        # The primitive is flat at the ends (to third order at a square-root edge): pin q = 0
        # and q = 1 to the ends of the support exactly.
        t[flat <= 0] = self._t0[0]
        t[flat >= 1] = self._t1[-1]
        return (t * t).reshape(q.shape)

    def _solve(self, panel, target, mass):
        """z in [-1, 1] with primitive(panel, z) = target (``panel`` sorted): Newton steps with
        slope dF/dz, replaced by bisection whenever they leave the bracket [lo, hi]."""
        with np.errstate(divide="ignore", invalid="ignore"):
            z = np.clip(2.0 * target / mass - 1.0, -1.0, 1.0)
        z = np.where(np.isfinite(z), z, -1.0)
        lo, hi = np.full(z.shape, -1.0), np.ones(z.shape)
        active = np.flatnonzero((target > 0) & (target < mass))
        z[target <= 0] = -1.0
        z[target >= mass] = 1.0
        for _ in range(_NEWTON_STEPS):
            if not active.size:
                break
            p, current = panel[active], z[active]
            value = _grouped_chebval(self._primitive, p, current) - target[active]
            slope = _grouped_chebval(self._slope, p, current)
            low = np.where(value < 0, current, lo[active])
            high = np.where(value < 0, hi[active], current)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                newton = current - value / slope
            inside = (newton > low) & (newton < high)
            # Converged: F within its rounding noise (~eps * mass) of the target (then one last
            # Newton step if it is a polish, < 1e-12 in z: not where F is flat), or z fixed.
            converged = np.abs(value) <= 4 * np.finfo(float).eps * mass[active]
            polish = inside & (np.abs(newton - current) < 1e-12)
            step = np.where(inside, newton, 0.5 * (low + high))
            step = np.where(converged, np.where(polish, newton, current), step)
            lo[active], hi[active], z[active] = low, high, step
            done = converged | (np.abs(step - current) <= _Z_TOLERANCE)
            done |= high - low <= _Z_TOLERANCE
            active = active[~done]
        return z
