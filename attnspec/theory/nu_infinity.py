"""The limit law nu_inf = rho ⊠ MP_1 of the squared singular values of sqrt(ell) A^perp.

rho = a + b MP_c (paper A section 2). With m(z) = int dnu(x)/(x - z) put m = -1/u; then
z = u^2 G_rho(u), G_rho(u) = G_MP((u - a)/b)/b, which clears to the quartic

    u^4 - x u^3 + x (a + b - b c) u^2 + b c x^2 u - a b c x^2 = 0,

and p(x) = Im u / (pi |u|^2) for the root u with Im u > 0 that satisfies z = u^2 G_rho(u) on
the principal branch of G_rho (the quartic also has roots from the other sheet of the MP square
root). The support is [0, x_+] or, for c > 1 and small beta, [0, e1] ∪ [e2, x_+]; there is no
atom, and p ~ x^{-1/2} at 0. Moments m1 = theta1, m2 = 2 theta1^2 + beta^4 c. The cdf is the
panel integral of p (:mod:`attnspec.theory.cumulative`), checked on every build against the
closed form F(x) = 1 + x p(x) - E_rho arg(u - X) / pi (see :meth:`NuInfinity._closed_form_cdf`).
"""

import numpy as np
from numpy.typing import ArrayLike, NDArray

from attnspec.theory.constants import nonlinearity_coefficients, nonlinearity_ratio
from attnspec.theory.cumulative import SqrtEdgeCumulative
from attnspec.theory.edge import (
    _edge_over_b,
    _other_roots,
    _physical_root,
    bulk_edge,
    edge_cubic_coefficients,
    edge_cubic_roots,
)
from attnspec.theory.law import LimitLaw
from attnspec.theory.marchenko_pastur import _stieltjes
from attnspec.validation import check_beta_in, check_parameters, check_real_array

__all__ = [
    "NuInfinity",
    "bulk_density",
    "bulk_edge",
    "edge_cubic_coefficients",
    "edge_cubic_roots",
]

# Below y = x / theta1 = _SMALL_Y the density is C x^{-1/2} (see _quartic_density).
_SMALL_Y = 1e-100
# A root is on the principal sheet when |x - u^2 G_rho(u)| <= _SHEET_TOLERANCE * x; roots on the
# other sheet miss by O(x), correct roots by the eigenvalue error (<~ 1e-8 at a double root).
_SHEET_TOLERANCE = 1e-6
# The panel-integrated cdf must match the closed form F to this absolute accuracy.
_CDF_CHECK_TOLERANCE = 1e-12


class NuInfinity(LimitLaw):
    """nu_inf = rho ⊠ MP_1 with rho = a + b MP_c (paper A section 2; paper B section 4).

    Parameters
    ----------
    beta : float
        Inverse temperature, in [1e-6, 26.6] (``BETA_RANGES["nu_inf"]``,
        :mod:`attnspec.validation`; beta = 0 is a point mass at 0, see :func:`bulk_edge`).
    ratio : float
        c = ell / d_qk, in [1e-8, 1e8].

    Raises
    ------
    ValueError
        If beta or ratio is outside its range.

    Attributes
    ----------
    edge : float
        Right edge x_+ (:func:`bulk_edge`).
    mean, second_moment : float
        theta1 and 2 theta1^2 + beta^4 c.
    atom : float
        0.0 (nu_inf has no atom).
    """

    def __init__(self, beta: float, ratio: float = 1.0):
        self.beta, self.ratio = check_parameters(beta, ratio)
        check_beta_in(self.beta, "nu_inf", "nu_inf")
        coefficients = nonlinearity_coefficients(self.beta)
        self._theta1 = coefficients.theta1
        # Work in units of theta1 = a + b so the quartic is well scaled for every beta.
        self._a = coefficients.a / self._theta1
        self._b = coefficients.b / self._theta1
        self.edge = bulk_edge(self.beta, self.ratio)
        self._support = self._find_support()
        self._cumulative = None

    @property
    def mean(self) -> float:
        """m1 = theta1 = e^{beta^2} - 1."""
        return self._theta1

    @property
    def second_moment(self) -> float:
        """m2 = 2 theta1^2 + beta^4 c (ValueError where it overflows float64, beta > ~18.9)."""
        with np.errstate(over="ignore"):
            value = float(2 * np.float64(self._theta1) ** 2 + self.beta**4 * self.ratio)
        if not np.isfinite(value):
            raise ValueError(
                f"the second moment 2 theta1^2 + beta^4 c overflows float64 at beta = {self.beta:g}"
                " (supported: beta <= 18.9)"
            )
        return value

    def support(self) -> list[tuple[float, float]]:
        """Support intervals [(0, x_+)] or, with an internal gap, [(0, e1), (e2, x_+)].

        Gap edges are the critical values of x(g) at the two real roots of the stationary cubic
        with g > 1/(sqrt(c)(sqrt(c) - 1)), i.e. u = a + b w with w in (0, (1 - sqrt c)^2)
        between the atom of rho and its continuous part (c > 1 only).
        """
        return list(self._support)

    def _find_support(self) -> list[tuple[float, float]]:
        c = self.ratio
        if c > 1:
            g_minus = 1.0 / (np.sqrt(c) * (np.sqrt(c) - 1.0))
            r = nonlinearity_ratio(self.beta)
            others, _ = _other_roots(_physical_root(r, c), r, c)
            if np.all(others.imag == 0) and np.all(others.real > g_minus):
                e1, e2 = sorted(self.beta**2 * _edge_over_b(others.real, r, c))
                if 0 < e1 < e2 < self.edge:
                    return [(0.0, float(e1)), (float(e2), self.edge)]
        return [(0.0, self.edge)]

    def _physical_root(self, y: NDArray[np.float64]) -> tuple[NDArray, NDArray]:
        """Root u (Im u > 0, principal sheet) of the quartic at 1-D y = x / theta1 > 0.

        Returns (u, found); found is False where no root qualifies (off the support).
        """
        a, b, c = self._a, self._b, self.ratio
        companion = np.zeros((y.size, 4, 4))
        companion[:, 0, 0] = y
        companion[:, 0, 1] = -y * (a + b - b * c)
        companion[:, 0, 2] = -b * c * y * y
        companion[:, 0, 3] = a * b * c * y * y
        companion[:, 1, 0] = companion[:, 2, 1] = companion[:, 3, 2] = 1.0
        v = np.linalg.eigvals(companion)
        with np.errstate(invalid="ignore"):  # a root exactly at the atom of rho gives nan
            g_rho = _stieltjes((v - a) / b, c) / b
            residual = np.abs(v * v * g_rho - y[:, None]) / y[:, None]
        accepted = (v.imag > 0) & (residual <= _SHEET_TOLERANCE)
        best = np.argmin(np.where(accepted, residual, np.inf), axis=1)
        u = np.take_along_axis(v, best[:, None], axis=1)[:, 0]
        found = np.take_along_axis(accepted, best[:, None], axis=1)[:, 0]
        return u, found

    def _quartic_density(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """Root-selected quartic density at 1-D x > 0, no support mask.

        Below y = x / theta1 = _SMALL_Y the quartic's y^2 terms near underflow; there
        p(x) = C x^{-1/2} with C = sqrt(x0) p(x0) at y0 = _SMALL_Y (the correction is
        O(sqrt(y / (a / theta1))) <= 1e-44 for beta >= 1e-6, nu_inf's smallest).
        """
        y = x / self._theta1
        small = y < _SMALL_Y
        u, found = self._physical_root(np.where(small, _SMALL_Y, y))
        p = np.where(found, u.imag / (np.pi * np.abs(u) ** 2), 0.0) / self._theta1
        root_x0 = np.sqrt(_SMALL_Y * self._theta1)
        return np.where(small, p * (root_x0 / np.sqrt(np.where(small, x, root_x0**2))), p)

    def _closed_form_cdf(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """F(x) = 1 + x p(x) - (1/pi) E_rho arg(u - X) at 1-D x inside the support (else nan).

        From m dz = -(2 G_rho + u G_rho') du with z = u^2 G_rho(u): int m dz = -u G_rho(u) -
        E_rho log(u - X), and u G_rho(u) = z / u. For rho = a + b MP_c, with w = (u - a)/b and
        g = G_MP(w) (so w = 1/g + 1/(1 - c g)), E log(w - Y) = g/(1 - c g) - log g + log(1 - c g)/c.
        Used to check the panel integration of :meth:`cdf` (an independent route).
        """
        y = x / self._theta1
        u, found = self._physical_root(y)
        with np.errstate(invalid="ignore", divide="ignore"):
            g = _stieltjes((u - self._a) / self._b, self.ratio)
        one_minus = 1.0 - self.ratio * g
        potential = (g / one_minus).imag - np.angle(g) + np.angle(one_minus) / self.ratio
        value = 1.0 + y * u.imag / (np.pi * np.abs(u) ** 2) - potential / np.pi
        return np.where(found, value, np.nan)

    def density(self, x: ArrayLike) -> NDArray[np.float64]:
        """p(x) = Im u / (pi |u|^2) on the support, 0 elsewhere; vectorised over real x (+-inf
        allowed, NaN raises ValueError)."""
        x = check_real_array(x, "x")
        flat = x.ravel()
        inside = np.zeros(flat.shape, dtype=bool)
        for lo, hi in self._support:
            inside |= (flat > lo) & (flat < hi)
        out = np.zeros(flat.shape)
        out[inside] = self._quartic_density(flat[inside])
        return out.reshape(x.shape)

    def _cumulative_law(self) -> SqrtEdgeCumulative:
        """Panel integration of the density, checked against :meth:`_closed_form_cdf`.

        F at every interior panel boundary must match the closed form, and the support
        intervals must carry 1 (no gap) or 1 - 1/c and 1/c (the atom of rho and its continuous
        part, exact separation), each to _CDF_CHECK_TOLERANCE; otherwise RuntimeError.
        """
        if self._cumulative is None:
            cumulative = SqrtEdgeCumulative(self.density, self._support)
            x, integrated = cumulative.interior_boundaries()
            expected = [1.0] if len(self._support) == 1 else [1 - 1 / self.ratio, 1 / self.ratio]
            error = max(
                float(np.max(np.abs(self._closed_form_cdf(x) - integrated), initial=0.0)),
                float(np.max(np.abs(cumulative.interval_masses() - expected))),
            )
            if not error <= _CDF_CHECK_TOLERANCE:
                raise RuntimeError(
                    f"NuInfinity(beta={self.beta!r}, ratio={self.ratio!r}).cdf: the integrated "
                    f"density differs from the closed-form F by {error:.2g} "
                    f"(> {_CDF_CHECK_TOLERANCE:g})"
                )
            self._cumulative = cumulative
        return self._cumulative

    def cdf(self, x: ArrayLike) -> NDArray[np.float64]:
        """F(x) = int_0^x p, integrated in t = sqrt(x) (see :mod:`attnspec.theory.cumulative`).

        Vectorised over real x (+-inf allowed, NaN raises ValueError); absolute error below
        1e-12 (checked against the closed form at every panel boundary, typically ~1e-15).
        """
        return self._cumulative_law().cdf(x)

    def quantile(self, q: ArrayLike) -> NDArray[np.float64]:
        """inf{x : F(x) >= q} for q in [0, 1] (else ValueError), by inversion of the cdf."""
        return self._cumulative_law().quantile(q)


def bulk_density(x: ArrayLike, beta: float, ratio: float = 1.0) -> NDArray[np.float64]:
    """Density of nu_inf at x (``NuInfinity(beta, ratio).density(x)``).

    x real (+-inf allowed, NaN raises ValueError), beta in [1e-6, 26.6], c in [1e-8, 1e8].
    """
    return NuInfinity(beta, ratio).density(x)
