"""Distribution function and quantiles of a density with square-root edges, in t = sqrt(x).

F(x) = int_0^x p(y) dy = sum over support intervals [lo, hi] of int 2 t p(t^2) dt, t = sqrt(y).
The symmetrised density 2 t p(t^2) stays bounded at t = 0 where p ~ x^{-1/2} (nu_inf, paper A).
On [sqrt lo, sqrt hi] put t = t0 + (t1 - t0)(1 - cos theta)/2, theta in [0, pi]: the
integrand h(theta) = 2 t p(t^2) dt/dtheta is then analytic at square-root edges too, so its
Chebyshev interpolant converges geometrically and is integrated exactly.
"""

from collections.abc import Callable

import numpy as np
from numpy.polynomial import Chebyshev
from numpy.typing import ArrayLike, NDArray

_DEGREES = (64, 128, 256, 512, 1024, 2048)
_TAIL = 8
_BISECTION_STEPS = 64


class _Piece:
    """The primitive of h on one support interval, as a Chebyshev series in theta."""

    def __init__(self, density: Callable, lo: float, hi: float, tolerance: float):
        self.t0, self.t1 = np.sqrt(lo), np.sqrt(hi)
        half = 0.5 * (self.t1 - self.t0)

        def integrand(theta):
            t = self.t0 + half * (1.0 - np.cos(theta))
            return 2.0 * t * density(t * t) * half * np.sin(theta)

        for degree in _DEGREES:
            series = Chebyshev.interpolate(integrand, degree, domain=[0.0, np.pi])
            scale = np.max(np.abs(series.coef))
            if np.max(np.abs(series.coef[-_TAIL:])) <= tolerance * max(scale, 1e-300):
                break
        self.primitive = series.integ(lbnd=0.0)
        self.mass = float(self.primitive(np.pi))

    def theta(self, t: NDArray[np.float64]) -> NDArray[np.float64]:
        """theta in [0, pi] of t, clipped to the interval."""
        return np.arccos(np.clip(1.0 - 2.0 * (t - self.t0) / (self.t1 - self.t0), -1.0, 1.0))


class SqrtEdgeCumulative:
    """cdf and quantile of a density p supported on disjoint intervals of [0, inf).

    Parameters
    ----------
    density : callable
        Vectorised p(x), float64 in and out.
    intervals : list of (lo, hi)
        Disjoint support intervals, increasing, with 0 <= lo < hi.
    tolerance : float
        Relative size of the trailing Chebyshev coefficients accepted (the degree is doubled
        from 64 to 2048 until it is met).
    """

    def __init__(self, density: Callable, intervals, tolerance: float = 1e-13):
        self._pieces = [_Piece(density, lo, hi, tolerance) for lo, hi in intervals]
        masses = np.array([piece.mass for piece in self._pieces])
        self._offsets = np.concatenate(([0.0], np.cumsum(masses)))

    def cdf(self, x: ArrayLike) -> NDArray[np.float64]:
        """F(x) = int_0^x p, vectorised over x."""
        t = np.sqrt(np.clip(np.asarray(x, dtype=np.float64), 0.0, None))
        total = np.zeros_like(t)
        for piece in self._pieces:
            partial = piece.primitive(piece.theta(t))
            total += np.where(t <= piece.t0, 0.0, np.where(t >= piece.t1, piece.mass, partial))
        return total

    def quantile(self, q: ArrayLike) -> NDArray[np.float64]:
        """inf{x : F(x) >= q}: bisection in theta on the piece holding level q (q in [0, 1])."""
        q = np.asarray(q, dtype=np.float64)
        if np.any((q < 0) | (q > 1)) or np.any(np.isnan(q)):
            raise ValueError("quantile levels must lie in [0, 1]")
        index = np.clip(np.searchsorted(self._offsets, q) - 1, 0, len(self._pieces) - 1)
        t = np.empty_like(q)
        for k, piece in enumerate(self._pieces):
            mine = index == k
            target = np.minimum(q[mine] - self._offsets[k], piece.mass)
            lo = np.zeros_like(target)
            hi = np.full_like(target, np.pi)
            for _ in range(_BISECTION_STEPS):
                mid = 0.5 * (lo + hi)
                below = piece.primitive(mid) < target
                lo = np.where(below, mid, lo)
                hi = np.where(below, hi, mid)
            t[mine] = piece.t0 + 0.5 * (piece.t1 - piece.t0) * (1.0 - np.cos(hi))
        # The primitive is flat at the ends (to third order at a square-root edge): pin q = 0
        # and q = 1 to the ends of the support exactly.
        t[q <= 0] = self._pieces[0].t0
        t[q >= 1] = self._pieces[-1].t1
        return t * t
