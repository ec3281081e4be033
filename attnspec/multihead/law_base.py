"""Shared verbs of paper D's limit laws: density, cdf, quantile, support, edge, atom, moments.

A law nu on [0, inf) is described, in mean-one units (nu scaled by 1 / m_1), by
- its S-transform series (moments: :func:`attnspec.multihead.series.moments_from_s_transform`);
- an equation F(v, z) = 0 for an auxiliary unknown v with psi(1/z) = w(v), so that the Cauchy
  transform is G(z) = (1 + w) / z (from z w S(w) = 1 + w, (C.2)-(C.3)), followed from far above
  the axis (:mod:`attnspec.multihead.continuation`); p(x) = -Im G(x + i0) / pi;
- real subordinate points x_1(p), ..., x_k(p) of the free factors on the real axis, whose
  monotone runs give the gaps of the support (:mod:`attnspec.multihead.support`).
The density is that of the continuous part; ``atom`` is the mass at 0.
"""

import numpy as np
from numpy.typing import ArrayLike, NDArray

from attnspec.multihead.continuation import follow_root
from attnspec.multihead.series import moments_from_s_transform
from attnspec.multihead.support import support_intervals
from attnspec.theory.cumulative import SqrtEdgeCumulative
from attnspec.theory.law import LimitLaw
from attnspec.validation import check_levels, check_real

RATIO_RANGE = (1e-2, 1e3)
"""Width ratios gamma_K, gamma_V, gamma_O the laws are tested on."""
HEADS_MAX = 10_000

_SERIES_ORDER = 12
_START_TERMS = 8
# Imaginary part where the density is read, relative to the distance to 0 and to the nearest
# support edge (mean-one units, at most _ETA_STOP), then polished at eta = 0.
_ETA_STOP = 1e-9
_ETA_RELATIVE = 1e-6
_POLISH_STEPS = 8
_POLISH_TOLERANCE = 1e-6
_CDF_TOLERANCE = 1e-11
# Points closer than this (relative to the right edge, mean-one units) to a positive end of the
# support get density 0: the continuation cannot separate the two roots that meet there, and at
# a square-root edge the density is below sqrt(3e-13) ~ 6e-7 of its scale at that distance.
_EDGE_GUARD = 3e-13


def check_ratio_for_laws(name: str, ratio) -> float:
    """A width ratio as a float in RATIO_RANGE, else ValueError naming it and the range."""
    value = check_real(ratio, name)
    if not RATIO_RANGE[0] <= value <= RATIO_RANGE[1]:
        raise ValueError(f"{name} must lie in [{RATIO_RANGE[0]}, {RATIO_RANGE[1]}], got {ratio!r}")
    return value


class FreeCompoundLaw(LimitLaw):
    """Base class; a subclass sets ``mean`` (m_1, original units), ``atom`` (the mass at 0) and
    implements the hooks below."""

    # Hooks (mean-one units) -------------------------------------------------------------
    def _s_series(self, order: int) -> np.ndarray:
        """Coefficients of the mean-one S-transform S(w), powers 0..order-1."""
        raise NotImplementedError

    def _start(self, w: np.ndarray) -> np.ndarray:
        """The auxiliary unknown v at psi(1/z) = w for small |w| (large |z|)."""
        raise NotImplementedError

    def _residual(self, v: np.ndarray, z: np.ndarray) -> tuple[np.ndarray, ...]:
        """(F(v, z), dF/dv, |terms of F|); the physical root v(z) gives z G(z) = 1 + w(v)."""
        raise NotImplementedError

    def _one_plus_w(self, v: np.ndarray) -> np.ndarray:
        """1 + w = 1 + psi(1/z) = z G(z) from the auxiliary unknown (no cancellation near 0)."""
        raise NotImplementedError

    def _real_curve(self):
        """(levels_of, pieces, orientation) for :func:`support.support_intervals`."""
        raise NotImplementedError

    # Shared machinery ---------------------------------------------------------------------
    def _finish(self) -> None:
        """Moments, support and edge from the hooks (call at the end of __init__)."""
        self._unit_moments = moments_from_s_transform(self._s_series(_SERIES_ORDER))
        levels_of, pieces, orientation = self._real_curve()
        self._unit_support = support_intervals(levels_of, pieces, orientation)
        self.edge = float(self._unit_support[-1][1] * self.mean)
        self._cumulative = None

    @property
    def second_moment(self) -> float:
        """m_2."""
        return float(self.moments(2)[1])

    def moments(self, order: int) -> NDArray[np.float64]:
        """m_1..m_order (order <= 12) from the S-transform series (paper D, (C.3)-(C.6))."""
        if not 1 <= order <= _SERIES_ORDER:
            raise ValueError(f"order must lie in [1, {_SERIES_ORDER}], got {order!r}")
        return self._unit_moments[:order] * self.mean ** np.arange(1, order + 1)

    def normalised_moments(self, order: int) -> NDArray[np.float64]:
        """m_q / m_1^q, q = 1..order (the mean-one law's moments; paper D, (C.16), (C.6.1))."""
        return self._unit_moments[:order].copy()

    def support(self) -> list[tuple[float, float]]:
        """Support of the continuous part: disjoint intervals, the last ending at ``edge``."""
        return [(lo * self.mean, hi * self.mean) for lo, hi in self._unit_support]

    def _unit_cauchy(self, x: NDArray[np.float64]) -> NDArray[np.complex128]:
        """G(x + i0) of the mean-one law at real x inside its support."""
        eta_start = 2.0 * self._unit_support[-1][1] + 1.0

        def start(z):
            w = sum(m / z ** (q + 1) for q, m in enumerate(self._unit_moments[:_START_TERMS]))
            return self._start(w)

        edges = np.array([0.0] + [e for interval in self._unit_support for e in interval])
        distance = np.min(np.abs(x[:, None] - edges[None, :]), axis=1)
        eta_stop = np.minimum(_ETA_STOP, _ETA_RELATIVE * distance)
        v, z = follow_root(
            self._residual,
            lambda v, z: self._one_plus_w(v) / z,
            start,
            x,
            radius=self._unit_support[-1][1],
            eta_start=eta_start,
            eta_stop=eta_stop,
        )
        # Polish at eta = 0 (removes the O(eta) bias); keep the eta_stop root where Newton moves
        # far (next to an edge, where the root is nearly double).
        polished = v.copy()
        real = x.astype(np.complex128)
        for _ in range(_POLISH_STEPS):
            value, slope, _ = self._residual(polished, real)
            with np.errstate(divide="ignore", invalid="ignore"):
                polished = polished - value / slope
        near = np.abs(polished - v) <= _POLISH_TOLERANCE * np.abs(v)
        near &= np.isfinite(polished)
        v = np.where(near, polished, v)
        z = np.where(near, real, z)
        return self._one_plus_w(v) / z

    def density(self, x: ArrayLike) -> NDArray[np.float64]:
        """Density of the continuous part, -Im G(x + i0) / pi; zero off the support and within
        3e-13 (relative to the right edge) of its positive ends."""
        x = np.asarray(x, dtype=np.float64)
        flat = x.ravel() / self.mean
        inside = np.zeros(flat.shape, dtype=bool)
        guard = _EDGE_GUARD * self._unit_support[-1][1]
        for lo, hi in self._unit_support:
            inside |= (flat > (lo + guard if lo > 0 else lo)) & (flat < hi - guard)
        out = np.zeros(flat.shape)
        if inside.any():
            values = -self._unit_cauchy(flat[inside]).imag / np.pi
            out[inside] = np.clip(values, 0.0, None)
        return (out / self.mean).reshape(x.shape)

    def _cumulative_law(self) -> SqrtEdgeCumulative:
        """Continuous part in y = x^{1/3}: x = t^6 near a support touching 0 is analytic in t."""
        if self._cumulative is None:

            def cube_root_density(y):
                return 3.0 * y * y * self.density(y**3)

            intervals = [(np.cbrt(lo), np.cbrt(hi)) for lo, hi in self.support()]
            self._cumulative = SqrtEdgeCumulative(cube_root_density, intervals, _CDF_TOLERANCE)
        return self._cumulative

    def cdf(self, x: ArrayLike) -> NDArray[np.float64]:
        """F(x) = atom [x >= 0] + int_0^x p."""
        x = np.asarray(x, dtype=np.float64)
        continuous = self._cumulative_law().cdf(np.cbrt(np.clip(x, 0.0, None)))
        return np.where(x >= 0, self.atom + continuous, 0.0)

    def quantile(self, q: ArrayLike) -> NDArray[np.float64]:
        """inf{x : F(x) >= q} for q in [0, 1] (0 for q <= atom)."""
        q = check_levels(q, "quantile levels")
        levels = np.clip(q - self.atom, 0.0, 1.0)
        values = self._cumulative_law().quantile(levels) ** 3
        return np.where(q <= self.atom, 0.0, values)
