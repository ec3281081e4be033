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
(Benaych-Georges–Nadakuditi). This route shares no code with the u-quartic of
:mod:`attnspec.theory.nu_infinity`, so the two densities and edges test each other.
"""

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.optimize import brentq

from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.theory.parameters import check_parameters

TRACY_WIDOM_1_MEAN = -1.2065335745820
"""E[TW1], the mean of the GOE Tracy–Widom law."""

# Continuation in eta = Im z (units of sqrt(theta1) (1 + sqrt c)): start where the fixed point
# contracts (|G| <= 1/eta, far from the pole of R), shrink eta adaptively to _ETA_STOP, then 0.
_ETA_START = 4.0
_ETA_STOP = 1e-10
_FIXED_POINT_STEPS = 40
_CORRECTOR_STEPS = 4
_MAX_CONTINUATION_STEPS = 400
_NEWTON_FINAL = 40


class SymmetrisedLinearModel:
    """R-transform description of Y_lin (paper A section 2; papers.md section 3).

    Parameters
    ----------
    beta : float
        Inverse temperature, > 0.
    ratio : float
        c = ell / d_qk > 0.

    Attributes
    ----------
    critical_point : float
        G*, the root of K'(G) = 0 on (0, 1/sqrt(c b)) (K' increases there from -inf to +inf).
    edge : float
        x_+ = K(G*)^2.
    tracy_widom_scale : float
        gamma_TW = sqrt(x_+) K''(G*)^{1/3}; 2^{4/3} for the Ginibre limit a = 1, b -> 0.
    """

    def __init__(self, beta: float, ratio: float = 1.0):
        self.beta, ratio = check_parameters(beta, ratio)
        coefficients = nonlinearity_coefficients(self.beta)
        self._set_coefficients(coefficients.a, coefficients.b, ratio)

    @classmethod
    def from_coefficients(cls, a: float, b: float, ratio: float = 1.0) -> "SymmetrisedLinearModel":
        """The same law for (sqrt(a) W + sqrt(b) Q K^T / sqrt(d_qk)) / sqrt(ell), any a >= 0, b > 0.

        a = 1, b -> 0 is the Ginibre limit (MP_1 with edge 4). ``beta`` is None on the result.
        """
        a, b = float(a), float(b)
        if not (np.isfinite(a) and a >= 0 and np.isfinite(b) and b > 0):
            raise ValueError(f"need finite a >= 0 and b > 0, got a={a!r}, b={b!r}")
        _, ratio = check_parameters(0.0, ratio, allow_zero_beta=True)
        model = cls.__new__(cls)
        model.beta = None
        model._set_coefficients(a, b, ratio)
        return model

    def _set_coefficients(self, a: float, b: float, ratio: float) -> None:
        self._a, self._b, self.ratio = a, b, ratio
        self._scale = np.sqrt(a + b)
        pole = 1.0 / np.sqrt(ratio * b)
        self.critical_point = brentq(
            self._k_prime,
            pole * 1e-12,
            pole * (1 - 1e-12),
            xtol=1e-300,
            rtol=4 * np.finfo(float).eps,
            maxiter=500,
        )
        self.edge = float(self.inverse_cauchy(self.critical_point) ** 2)
        self.tracy_widom_scale = float(
            np.sqrt(self.edge) * self._k_second(self.critical_point) ** (1 / 3)
        )

    def r_transform(self, G: ArrayLike) -> NDArray:
        """R(G) = a G + b G / (1 - c b G^2), vectorised (real or complex G)."""
        G = np.asarray(G)
        return self._a * G + self._b * G / (1 - self.ratio * self._b * G * G)

    def inverse_cauchy(self, G: ArrayLike) -> NDArray:
        """K(G) = 1/G + R(G), the functional inverse of the Cauchy transform of mu_sym."""
        G = np.asarray(G)
        return 1 / G + self.r_transform(G)

    def _k_prime(self, G: float) -> float:
        """K'(G) = -1/G^2 + a + b (1 + q G^2) / (1 - q G^2)^2, q = c b."""
        q = self.ratio * self._b
        return -1 / G**2 + self._a + self._b * (1 + q * G * G) / (1 - q * G * G) ** 2

    def _k_second(self, G: float) -> float:
        """K''(G) = 2/G^3 + 2 b q G (3 + q G^2) / (1 - q G^2)^3, q = c b."""
        q = self.ratio * self._b
        return 2 / G**3 + 2 * self._b * q * G * (3 + q * G * G) / (1 - q * G * G) ** 3

    def spike_outlier(self, theta: ArrayLike) -> NDArray[np.float64]:
        """K(1/theta)^2 if theta > 1/G* (an outlier above the bulk), else nan; vectorised."""
        theta = np.asarray(theta, dtype=np.float64)
        supercritical = theta > 1 / self.critical_point
        safe = np.where(supercritical, theta, 1 / self.critical_point)
        return np.where(supercritical, self.inverse_cauchy(1 / safe) ** 2, np.nan)

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
        unit = 1j * self._scale * (1 + np.sqrt(self.ratio))
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
        decreases to _ETA_STOP; Newton at eta = 0 finishes. Vectorised over s.
        """
        s = np.asarray(s, dtype=np.float64)
        shape = s.shape
        s = s.ravel()
        z = s + 1j * _ETA_START * self._scale * (1 + np.sqrt(self.ratio))
        G = 1 / z
        for _ in range(_FIXED_POINT_STEPS):
            G = 0.5 * (G + 1 / (z - self.r_transform(G)))
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
        return self._newton(G, s.astype(np.complex128), _NEWTON_FINAL).reshape(shape)

    def density(self, x: ArrayLike) -> NDArray[np.float64]:
        """Squared-singular-value density p(x) = -Im G(sqrt x + i0) / (pi sqrt x), x > 0.

        Zero for x <= 0 and off the support (where G is real).
        """
        x = np.asarray(x, dtype=np.float64)
        positive = x > 0
        s = np.sqrt(np.where(positive, x, 1.0))
        p_sym = np.clip(-self.cauchy(s).imag, 0.0, None) / np.pi
        return np.where(positive, p_sym / s, 0.0)
