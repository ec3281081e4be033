"""Second route to nu_inf: the R-transform of the symmetrised singular-value law of Y_lin.

Y_lin = (beta S + sqrt(a) W) / sqrt(ell) (paper A section 2). Its symmetrised singular-value law
mu_sym (the law of +-s_i) has R(G) = a G + b G / (1 - c b G^2): a semicircle of variance a plus
the product of two Gaussian matrices. With K(G) = 1/G + R(G) the inverse Cauchy transform,
G(z) solves K(G) = z, i.e. the quartic

    a c b G^4 - z c b G^3 + (c b - a - b) G^2 + z G - 1 = 0,

p_sym(s) = -Im G(s + i0) / pi and the squared singular values have p(x) = p_sym(sqrt x)/sqrt x.
The edge is x_+ = K(G*)^2 with G* the root of K' on (0, 1/sqrt(c b)); the Tracy–Widom scale is
gamma_TW = sqrt(x_+) K''(G*)^{1/3} (lambda_max ~ x_+ + gamma_TW ell^{-2/3} TW1; papers.md
section 3), and a rank-one spike theta > 1/G* gives an outlier at K(1/theta)^2
(Benaych-Georges–Nadakuditi). K'(G) = 0 clears to a cubic in G^2; when it has two more positive
roots G2 < G3 beyond the pole 1/sqrt(c b) of R with 0 < K(G3) < K(G2) < K(G*), K decreases
between them (G(s) is real there), so mu_sym has the gaps +-(K(G3), K(G2)) and the squared law
the internal gap (K(G3)^2, K(G2)^2) (c > 1 and small beta, as nu_inf's). This route shares no
code with the u-quartic of :mod:`attnspec.theory.nu_infinity`, so the two test each other.
"""

import numpy as np
from numpy.typing import ArrayLike, NDArray

from attnspec.theory.constants import nonlinearity_coefficients, nonlinearity_ratio
from attnspec.theory.cumulative import SqrtEdgeCumulative
from attnspec.theory.law import LimitLaw
from attnspec.validation import (
    check_beta_in,
    check_finite_complex_array,
    check_parameters,
    check_ratio,
    check_real,
    check_real_array,
)

TRACY_WIDOM_1_MEAN = -1.2065335745820
"""E[TW1], the mean of the GOE Tracy–Widom law."""
TRACY_WIDOM_1_Q99 = 2.0234
"""The 99th percentile of TW1 (Bejan 2005 tables)."""

# Continuation in eta = Im z (units of sqrt(theta1) (1 + sqrt c)): start where the fixed point
# contracts (|G| <= 1/eta, far from the pole of R), shrink eta adaptively to _ETA_STOP, then 0.
_ETA_START = 4.0
_ETA_STOP = 1e-10
_FIXED_POINT_STEPS = 40
_CORRECTOR_STEPS = 4
_MAX_CONTINUATION_STEPS = 400
_NEWTON_FINAL = 40
# from_coefficients: a + b up to this, b / (a + b) at least its inverse.
_COEFFICIENT_LIMIT = 1e300
POLE_TOLERANCE = 16 * np.finfo(float).eps
"""|1 - c b G^2| at or below this is the pole of R (a value there would exceed 1e14 x R's scale)."""
# Smallest a / (a + b) (beta^2 / 2 at beta = 1e-6, BETA_RANGES["nu_inf"]'s low end): below,
# G(s + i0) near s = 0, ~ (a / (a + b))^{-1/4}, leaves the range the quartic handles.
_NOISE_SHARE_MIN = 5e-13


class SymmetrisedLinearModel(LimitLaw):
    """R-transform description of Y_lin (paper A section 2; papers.md section 3).

    Everything is computed in units of theta1 = a + b (G scaled by sqrt(theta1), z by
    1/sqrt(theta1), so a + b = 1), which keeps every beta in range as accurate as beta = 1.

    Parameters
    ----------
    beta : float
        Inverse temperature, in [1e-6, 26.6] (``BETA_RANGES["nu_inf"]`` of
        :mod:`attnspec.validation`, as for :class:`attnspec.theory.nu_infinity.NuInfinity`).
    ratio : float
        c = ell / d_qk, in [1e-8, 1e8].

    Attributes
    ----------
    critical_point : float
        G*, the root of K'(G) = 0 on (0, 1/sqrt(c b)) (K' increases there from -inf to +inf).
    edge : float
        x_+ = K(G*)^2.
    mean, second_moment : float
        a + b = theta1 and 2 (a + b)^2 + c b^2 (the free cumulants a + b and c b^2 of mu_sym);
        for beta, theta1 and 2 theta1^2 + beta^4 c, as for NuInfinity.
    atom : float
        0.0 (no atom).
    tracy_widom_scale : float
        gamma_TW = sqrt(x_+) K''(G*)^{1/3}; 2^{4/3} for the Ginibre limit a = 1, b -> 0.

    Raises
    ------
    ValueError
        If beta or ratio is outside its range.
    """

    def __init__(self, beta: float, ratio: float = 1.0):
        self.beta, ratio = check_parameters(beta, ratio)
        check_beta_in(self.beta, "nu_inf", "the R-transform model")
        r = nonlinearity_ratio(self.beta)  # a / b, accurate where a underflows
        theta1 = nonlinearity_coefficients(self.beta).theta1
        self._set_coefficients(theta1, r / (1 + r), 1 / (1 + r), ratio)

    @classmethod
    def from_coefficients(cls, a: float, b: float, ratio: float = 1.0) -> "SymmetrisedLinearModel":
        """The same law for (sqrt(a) W + sqrt(b) Q K^T / sqrt(d_qk)) / sqrt(ell).

        a > 0 and b > 0 finite with a + b <= 1e300, b / (a + b) >= 1e-300 and
        a / (a + b) >= 5e-13 (the noise share at beta = 1e-6), c in [1e-8, 1e8] (else
        ValueError). a = 1, b -> 0 is the Ginibre limit (MP_1 with edge 4). ``beta`` is None
        on the result.
        """
        a, b = check_real(a, "a"), check_real(b, "b")
        if not (np.isfinite(a) and a > 0 and np.isfinite(b) and b > 0):
            raise ValueError(f"need finite a > 0 and b > 0, got a={a!r}, b={b!r}")
        theta1 = a + b
        if not (
            theta1 <= _COEFFICIENT_LIMIT
            and b / theta1 >= 1 / _COEFFICIENT_LIMIT
            and a / theta1 >= _NOISE_SHARE_MIN
        ):
            raise ValueError(
                f"need a + b <= {_COEFFICIENT_LIMIT:g}, b / (a + b) >= "
                f"{1 / _COEFFICIENT_LIMIT:g} and a / (a + b) >= {_NOISE_SHARE_MIN:g}, got "
                f"a={a!r}, b={b!r}"
            )
        model = cls.__new__(cls)
        model.beta = None
        model._set_coefficients(theta1, a / theta1, b / theta1, check_ratio(ratio))
        return model

    def _set_coefficients(self, theta1: float, a: float, b: float, ratio: float) -> None:
        """theta1 = a + b of the law and the scaled a / theta1, b / theta1 (summing to 1)."""
        from scipy.optimize import brentq  # lazy: keeps `import attnspec.theory` light

        self._theta1, self._root = theta1, np.sqrt(theta1)
        self._a, self._b, self.ratio = a, b, ratio
        pole = 1.0 / np.sqrt(ratio * b)
        # K'(G) < -4 + a + 2.3 b < 0 at G = min(1, pole) / 2 (a + b = 1); K' -> +inf at the pole.
        lower = 0.5 * min(1.0, pole)
        upper = 2.0 if 2.0 < pole and self._k_prime(2.0) > 0 else pole * (1 - 1e-12)
        critical = brentq(
            self._k_prime, lower, upper, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500
        )
        k = float(self._k(critical))
        self.critical_point = critical / self._root
        self.edge = theta1 * k * k
        self.tracy_widom_scale = float(theta1 * k * self._k_second(critical) ** (1 / 3))
        self._support = self._find_support()
        self._cumulative = None

    def _find_support(self) -> list[tuple[float, float]]:
        """[(0, x_+)] or [(0, K(G3)^2), (K(G2)^2, x_+)] (module docstring): the critical points
        of K are the positive roots v = q G^2 of q G^2 (1 - v)^2 K'(G) = a v^3 + (b - q - 2 a) v^2
        + (a + b + 2 q) v - q, q = c b (scaled units; R's pole is at v = 1)."""
        a, b, q = self._a, self._b, self.ratio * self._b
        roots = np.roots([a, b - q - 2 * a, a + b + 2 * q, -q])
        v = np.sort(roots[roots.imag == 0].real)
        v = v[v > 0]
        if v.size == 3 and v[1] > 1:
            high, low = self._theta1 * self._k(np.sqrt(v[1:] / q)) ** 2
            if 0 < low < high < self.edge:
                return [(0.0, float(low)), (float(high), self.edge)]
        return [(0.0, self.edge)]

    @property
    def mean(self) -> float:
        """m1 = a + b (theta1 for beta), the variance of mu_sym."""
        return self._theta1 * (self._a + self._b)

    @property
    def second_moment(self) -> float:
        """m2 = 2 (a + b)^2 + c b^2, the fourth moment of mu_sym (ValueError where it overflows
        float64, beta > ~18.9)."""
        a, b, c = self._a, self._b, self.ratio
        with np.errstate(over="ignore"):
            value = float(np.float64(self._theta1) ** 2 * (2 * (a + b) ** 2 + c * b * b))
        if not np.isfinite(value):
            raise ValueError(
                "the second moment 2 (a + b)^2 + c b^2 overflows float64 (supported: a + b "
                "below ~1e154, beta <= 18.9)"
            )
        return value

    def support(self) -> list[tuple[float, float]]:
        """Support intervals [(0, x_+)] or, with an internal gap, [(0, e1), (e2, x_+)]."""
        return list(self._support)

    def _r(self, G):
        """R in scaled units: a G + b G / (1 - c b G^2) with a + b = 1; NaN within
        :data:`POLE_TOLERANCE` of the pole (1 - c b G^2 rounds to 0 or to a few ulp of it
        depending on the machine's exp and sqrt: R there is not a number on any machine)."""
        denominator = 1 - self.ratio * self._b * G * G
        at_pole = np.abs(denominator) <= POLE_TOLERANCE
        return self._a * G + self._b * G / np.where(at_pole, np.nan, denominator)

    def _k(self, G):
        """K in scaled units, 1/G + R(G)."""
        return 1 / G + self._r(G)

    def _evaluate(self, G: ArrayLike, scaled_function, what: str) -> NDArray:
        """sqrt(theta1) f(sqrt(theta1) G) for finite real or complex G; ValueError if not finite."""
        points = np.asarray(G)
        if np.iscomplexobj(points):
            points = check_finite_complex_array(points, "G")
        else:
            points = check_real_array(points, "G", allow_inf=False)
        with np.errstate(all="ignore"):
            value = self._root * scaled_function(self._root * points)
        if not np.all(np.isfinite(value)):
            raise ValueError(
                f"G: {what} is not finite there (G = 0, the pole c b G^2 = 1, or overflow)"
            )
        return value

    def r_transform(self, G: ArrayLike) -> NDArray:
        """R(G) = a G + b G / (1 - c b G^2), vectorised over finite real or complex G.

        ValueError at the poles c b G^2 = 1 or where R(G) overflows float64.
        """
        return self._evaluate(G, self._r, "R(G)")

    def inverse_cauchy(self, G: ArrayLike) -> NDArray:
        """K(G) = 1/G + R(G), the functional inverse of the Cauchy transform of mu_sym.

        Vectorised over finite real or complex G; ValueError at G = 0, at c b G^2 = 1 or where
        K(G) overflows float64.
        """
        return self._evaluate(G, self._k, "K(G)")

    def _k_prime(self, G: float) -> float:
        """K'(G) = -1/G^2 + a + b (1 + q G^2) / (1 - q G^2)^2, q = c b (scaled units)."""
        q = self.ratio * self._b
        return -1 / (G * G) + self._a + self._b * (1 + q * G * G) / (1 - q * G * G) ** 2

    def _k_second(self, G: float) -> float:
        """K''(G) = 2/G^3 + 2 b q G (3 + q G^2) / (1 - q G^2)^3, q = c b (scaled units)."""
        q = self.ratio * self._b
        return 2 / (G * G * G) + 2 * self._b * q * G * (3 + q * G * G) / (1 - q * G * G) ** 3

    def spike_outlier(self, theta: ArrayLike) -> NDArray[np.float64]:
        """K(1/theta)^2 if theta > 1/G* (an outlier above the bulk), else nan; vectorised.

        ``theta`` >= 0 and finite (else ValueError); ValueError where the outlier
        ~ theta^2 + 2 theta1 overflows float64 (theta above ~1e154).
        """
        theta = check_real_array(theta, "theta (spike strength)", allow_inf=False)
        if np.any(theta < 0):
            raise ValueError(
                f"theta (spike strength) must be >= 0, got {float(theta[theta < 0][0])!r}"
            )
        supercritical = theta > 1 / self.critical_point
        safe = np.where(supercritical, theta, 1 / self.critical_point)
        with np.errstate(over="ignore", divide="ignore", under="ignore"):
            outlier = self._theta1 * self._k(self._root / safe) ** 2  # K(1/theta)^2
        if not np.all(np.isfinite(outlier)):
            raise ValueError(
                "theta (spike strength): the outlier K(1/theta)^2 ~ theta^2 overflows float64; "
                "supported: theta < ~1e154"
            )
        return np.where(supercritical, outlier, np.nan)

    def _quartic(self, G, z):
        """P(G) = a c b G^4 - z c b G^3 + (c b - a - b) G^2 + z G - 1 and P'(G)."""
        a, b, c = self._a, self._b, self.ratio
        value = (((a * c * b * G - z * c * b) * G + (c * b - a - b)) * G + z) * G - 1
        slope = ((4 * a * c * b * G - 3 * z * c * b) * G + 2 * (c * b - a - b)) * G + z
        return value, slope

    def _newton(self, G, z, steps):
        for _ in range(steps):
            value, slope = self._quartic(G, z)
            G = G - np.divide(value, slope, out=np.zeros_like(G), where=slope != 0)
        return G

    def _continuation_step(self, G, s, eta, eta_new):
        """Tangent predictor dG/dz = -P_z / P_G, Newton corrector at z = s + i eta_new.

        A step is accepted when the corrector lands in the lower half plane (the physical sheet
        for Im z > 0) and moves G by at most half the predictor step (it stayed on the path).
        """
        unit = 1j * (1 + np.sqrt(self.ratio))
        z_old, z_new = s + unit * eta, s + unit * eta_new
        _, slope = self._quartic(G, z_old)
        tangent = -(G - self.ratio * self._b * G**3) / slope
        predicted = G + tangent * (z_new - z_old)
        corrected = self._newton(predicted, z_new, _CORRECTOR_STEPS)
        drift = np.abs(corrected - predicted)
        accepted = (
            np.isfinite(corrected)
            & (corrected.imag < 0)
            & (drift <= 0.5 * np.abs(predicted - G) + 1e-12 * np.abs(corrected))
        )
        return corrected, accepted

    def cauchy(self, s: ArrayLike) -> NDArray[np.complex128]:
        """G(s + i0) of mu_sym at real s, by continuation in eta from the fixed point.

        At z = s + i eta_0 the damped iteration G <- (G + 1/(z - R(G)))/2 from G = 1/z converges
        to the physical root. A predictor-corrector continuation (tangent step, Newton on the
        quartic, step halved on log scale when the corrector leaves the path) follows it as eta
        decreases to _ETA_STOP; Newton at eta = 0 finishes (all in units of theta1, then
        G = G~(s / sqrt theta1) / sqrt theta1). Vectorised over finite real s (else ValueError).
        """
        points = check_real_array(s, "s", allow_inf=False)
        with np.errstate(over="ignore"):
            s = points.ravel() / self._root
        # Far outside the support (4 times its edge) G is real and ~ 1/s: Newton from 1/s;
        # beyond |s| = 1e100 sqrt(theta1), G = 1/s (1 + O(theta1 / s^2)) is 1/s in float64.
        far = np.abs(s) > 4 * np.sqrt(self.edge / self._theta1)
        G = np.empty(s.shape, dtype=np.complex128)
        with np.errstate(under="ignore", over="ignore", invalid="ignore"):
            G[far] = self._newton(1 / s[far].astype(np.complex128), s[far], _NEWTON_FINAL)
        G[~far] = self._continued(s[~far])
        huge = np.abs(s) > 1e100
        G = G / self._root
        G[huge] = 1 / points.ravel()[huge].astype(np.complex128)
        return G.reshape(points.shape)

    def _continued(self, s: NDArray[np.float64]) -> NDArray[np.complex128]:
        """G(s + i0) in units of theta1 by the continuation of :meth:`cauchy`."""
        z = s + 1j * _ETA_START * (1 + np.sqrt(self.ratio))
        G = 1 / z
        for _ in range(_FIXED_POINT_STEPS):
            G = 0.5 * (G + 1 / (z - self._r(G)))
        eta = np.full(s.shape, _ETA_START)
        factor = np.full(s.shape, 0.5)
        for _ in range(_MAX_CONTINUATION_STEPS):
            active = eta > _ETA_STOP
            if not active.any():
                break
            eta_new = np.maximum(eta[active] * factor[active], _ETA_STOP)
            corrected, accepted = self._continuation_step(
                G[active], s[active], eta[active], eta_new
            )
            G[active] = np.where(accepted, corrected, G[active])
            eta[active] = np.where(accepted, eta_new, eta[active])
            factor[active] = np.where(
                accepted, np.maximum(factor[active] ** 2, 1e-2), np.sqrt(factor[active])
            )
        if np.any(eta > _ETA_STOP):
            raise RuntimeError("continuation of the Cauchy transform did not reach the real axis")
        return self._newton(G, s.astype(np.complex128), _NEWTON_FINAL)

    def density(self, x: ArrayLike) -> NDArray[np.float64]:
        """Squared-singular-value density p(x) = -Im G(sqrt x + i0) / (pi sqrt x), x > 0.

        Zero for x <= 0 and off the support (where G is real). Vectorised over real x
        (+-inf allowed, NaN raises ValueError).
        """
        x = check_real_array(x, "x")
        positive = (x > 0) & np.isfinite(x)
        s = np.sqrt(np.where(positive, x, 1.0))
        p_sym = np.clip(-self.cauchy(s).imag, 0.0, None) / np.pi
        return np.where(positive, p_sym / s, 0.0)

    def _cumulative_law(self) -> SqrtEdgeCumulative:
        if self._cumulative is None:
            self._cumulative = SqrtEdgeCumulative(self.density, self._support)
        return self._cumulative

    def cdf(self, x: ArrayLike) -> NDArray[np.float64]:
        """F(x) = int_0^x p, integrated in t = sqrt(x) (:mod:`attnspec.theory.cumulative`);
        real x (+-inf allowed, NaN raises ValueError)."""
        return self._cumulative_law().cdf(x)

    def quantile(self, q: ArrayLike) -> NDArray[np.float64]:
        """inf{x : F(x) >= q} for q in [0, 1] (else ValueError), by inversion of the cdf."""
        return self._cumulative_law().quantile(q)
