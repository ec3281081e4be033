"""Paper D's limit law for Gaussian, untied K/V (independent or shared across heads).

Attention law nu_{inf,h} = rho_{gamma_K} ⊠ MP_{1/h} (C.9)-(C.10), rho_t = theta1 - theta2 +
theta2 MP_{1/t} (C.8); with values nu_{inf,h} ⊠ pi_{gamma_V} (proposition C.5); with values and
output nu_{inf,h} ⊠ MP_{1/gamma_V} ⊠ pi_{gamma_O} (corollary C.4, (C.15)). Across-head sharing of
keys and values leaves these laws unchanged (C.10 uses only each head's key law; C.4 allows
shared values). Mean theta1 (times gamma_V, resp. gamma_O). In mean-one units
S(w) = S_rho(w) / Pi(w), Pi(w) = prod_g (1 + w / g) over g in (h, gamma_V, gamma_O) present, and
S_rho(w) = s solves (1 + c w / t) s - c (1 - c) w s^2 / t = 1 (section C.6.1; c = theta2 /
theta1, t = gamma_K). With s = 1 - c^2 sigma this is rational in sigma,
w = t sigma / (s (1 + c (1 - c) sigma)), so z w s = (1 + w) Pi(w) becomes a polynomial equation
z A(sigma) = B(sigma) of degree 2 k + 2 (k factors in Pi) with O(1) coefficients at any beta.
On the real axis the support follows from subordination through rho_beta: x = y Pi(psi_rho(1/y))
at real y off supp rho (paper A's x_+ = min u^2 G_rho(u) when k = 1).
h = 1 without values is paper A's nu_inf = rho ⊠ MP_1 with c = n / d_K.
"""

import numpy as np
from numpy.polynomial import polynomial as P

from attnspec.multihead.law_base import FreeCompoundLaw
from attnspec.multihead.series import (
    free_poisson_moments,
    multiply,
    polynomial_pushforward_moments,
    reciprocal,
    s_transform_from_moments,
)
from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.theory.marchenko_pastur import MarchenkoPastur
from attnspec.theory.parameters import check_parameters


def _check_ratio(name: str, value) -> float:
    value = float(value)
    if not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return value


class MultiHeadLaw(FreeCompoundLaw):
    """Limit of the squared singular values of MHA_perp(X) for untied Gaussian K/V (paper D).

    Parameters
    ----------
    beta : float
        Inverse temperature, > 0.
    heads : int
        h >= 1.
    gamma_k : float
        gamma_K = h d_K / n > 0.
    gamma_v : float, optional
        gamma_V = h d_V / n > 0 (omit for the attention law of sqrt(n / h) A_perp).
    gamma_o : float, optional
        gamma_O = d_O / n > 0 (needs ``gamma_v``; omit for the value outputs).

    Attributes
    ----------
    mean : float
        theta1, theta1 gamma_V or theta1 gamma_O.
    atom : float
        Mass at 0: 1 - min(1, gamma_V, gamma_O) over the ratios present.
    edge : float
        Right end of the support.
    """

    def __init__(self, beta: float, heads: int, gamma_k: float, gamma_v=None, gamma_o=None):
        self.beta, _ = check_parameters(beta)
        if isinstance(heads, bool) or not isinstance(heads, int | np.integer) or heads < 1:
            raise ValueError(f"heads must be an integer >= 1, got {heads!r}")
        if gamma_o is not None and gamma_v is None:
            raise ValueError("gamma_o needs gamma_v: the output projection acts on the values")
        self.heads = int(heads)
        self.gamma_k = _check_ratio("gamma_k", gamma_k)
        self.gamma_v = None if gamma_v is None else _check_ratio("gamma_v", gamma_v)
        self.gamma_o = None if gamma_o is None else _check_ratio("gamma_o", gamma_o)
        coefficients = nonlinearity_coefficients(self.beta)
        self._theta1 = coefficients.theta1
        self._c = coefficients.theta2 / coefficients.theta1
        self._factors = [float(self.heads)] + [
            g for g in (self.gamma_v, self.gamma_o) if g is not None
        ]
        ratios = [g for g in (self.gamma_v, self.gamma_o) if g is not None]
        self.mean = self._theta1 * (ratios[-1] if ratios else 1.0)
        self.atom = max([0.0] + [1.0 - g for g in ratios])
        self._build_polynomials()
        self._finish()

    def _build_polynomials(self) -> None:
        c, t = self._c, self.gamma_k
        # s = 1 - c^2 sigma (S_rho - 1 = O(c^2): sigma is O(1) for every beta), w = N / D.
        s_of_sigma = np.array([1.0, -c * c])
        numerator = np.array([0.0, t])  # N = t sigma
        denominator = P.polymul(s_of_sigma, [1.0, c * (1 - c)])  # D = s (1 + c (1 - c) sigma)
        a = P.polymul(P.polymul(numerator, s_of_sigma), P.polypow(denominator, len(self._factors)))
        b = P.polyadd(denominator, numerator)
        for g in self._factors:
            b = P.polymul(b, P.polyadd(denominator, numerator / g))
        self._numerator, self._denominator = numerator, denominator
        self._a, self._b = a, b
        self._da, self._db = P.polyder(a), P.polyder(b)

    def _s_series(self, order: int) -> np.ndarray:
        c, t = self._c, self.gamma_k
        # rho_beta = 1 - c + c X, X ~ MP_{1/t} = D_{1/t} pi_t: moments t^{-k} m_k(pi_t).
        base = free_poisson_moments(t, order) / t ** np.arange(order + 1)
        series = s_transform_from_moments(
            polynomial_pushforward_moments(np.array([1 - c, c]), base, order)
        )
        for g in self._factors:
            series = multiply(series, reciprocal(np.array([1.0, 1.0 / g] + [0.0] * (order - 2))))
        return series

    def _start(self, w):
        # S_rho(w) = 1 - c^2 w / t + O(w^2).
        return w / self.gamma_k

    def _residual(self, sigma, z):
        value = z * P.polyval(sigma, self._a) - P.polyval(sigma, self._b)
        slope = z * P.polyval(sigma, self._da) - P.polyval(sigma, self._db)
        size = np.abs(z) * P.polyval(np.abs(sigma), np.abs(self._a)) + P.polyval(
            np.abs(sigma), np.abs(self._b)
        )
        return value, slope, size

    def _w_of(self, sigma):
        return P.polyval(sigma, self._numerator) / P.polyval(sigma, self._denominator)

    def _real_curve(self):
        c, t = self._c, self.gamma_k
        # Subordination through rho_beta = 1 - c + c MP_{1/t}: at a real y off its support,
        # w = psi(1/y) = y G(y) - 1 and the levels are x_j = y prod_{i <= j} (1 + w / g_i).
        rho = MarchenkoPastur(ratio=1.0 / t, scale=c, shift=1.0 - c)
        lower, upper = rho.support()[0]

        def levels_of(y):
            w = (y * rho.stieltjes(y)).real - 1.0
            return y * np.cumprod([1.0 + w / g for g in self._factors], axis=0)

        splits = [1.0 - c] if rho.atom > 0 else []
        ends = [0.0, *splits, lower]
        pieces = [(-np.inf, 0.0), *zip(ends[:-1], ends[1:], strict=True), (upper, np.inf)]
        # w decreases in y on every gap of rho: physical where each level increases.
        return levels_of, pieces, 1
