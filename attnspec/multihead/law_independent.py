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
z A(sigma) = B(sigma) of degree 2 k + 2 (k factors in Pi) with O(1) coefficients at any beta,
solved for delta = sigma - sigma(w = -1) with B kept factored (exact as x -> 0).
On the real axis the support follows from subordination through rho_beta: x = y Pi(psi_rho(1/y))
at real y off supp rho (paper A's x_+ = min u^2 G_rho(u) when k = 1).
h = 1 without values is paper A's nu_inf = rho ⊠ MP_1 with c = n / d_K.
"""

import numpy as np
from numpy.polynomial import Polynomial

from attnspec.multihead.law_base import (
    HEADS_MAX,
    FreeCompoundLaw,
    check_ratio_for_laws,
)
from attnspec.multihead.series import (
    free_poisson_moments,
    multiply,
    polynomial_pushforward_moments,
    reciprocal,
    s_transform_from_moments,
)
from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.theory.marchenko_pastur import MarchenkoPastur
from attnspec.validation import check_beta_in, check_count


class MultiHeadLaw(FreeCompoundLaw):
    """Limit of the squared singular values of MHA_perp(X) for untied Gaussian K/V (paper D).

    Parameters
    ----------
    beta : float
        Inverse temperature, in [0.05, 4] (``BETA_RANGES["multihead"]``,
        :mod:`attnspec.validation`).
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
        self.beta = check_beta_in(beta, "multihead", "MultiHeadLaw")
        if gamma_o is not None and gamma_v is None:
            raise ValueError("gamma_o needs gamma_v: the output projection acts on the values")
        self.heads = check_count(heads, "heads", 1, HEADS_MAX)
        self.gamma_k = check_ratio_for_laws("gamma_k", gamma_k)
        self.gamma_v = None if gamma_v is None else check_ratio_for_laws("gamma_v", gamma_v)
        self.gamma_o = None if gamma_o is None else check_ratio_for_laws("gamma_o", gamma_o)
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
        # s = 1 - c^2 sigma (S_rho - 1 = O(c^2): sigma is O(1) for every beta), w = N / D with
        # N = t sigma, D = s (1 + c (1 - c) sigma).
        s_sigma = Polynomial([1.0, -c * c])
        n_sigma = Polynomial([0.0, t])
        linear = Polynomial([1.0, c * (1 - c)])
        d_sigma = s_sigma * linear
        # The unknown is delta = sigma - sigma0, sigma0 the physical sigma at w = -1 (x = 0):
        # 1 + w = (D + N) / D = delta L(delta) / D keeps full relative precision as x -> 0, where
        # B has the root delta = 0 with multiplicity 1 + (number of unit ratios g = 1).
        sigma0 = self._sigma_at_minus_one(d_sigma + n_sigma)
        shift = Polynomial([sigma0, 1.0])
        self._n, self._d = n_sigma(shift), d_sigma(shift)
        self._deflated = Polynomial((self._d + self._n).coef[1:])  # (D + N) / delta
        unit_power = 1 + sum(g == 1.0 for g in self._factors)
        # A = N s D^k = N s^{k+1} (1 + c (1 - c) sigma)^k and B = (D + N) prod_g (D + N / g)
        # as products of low-degree factors
        # (factor, power): evaluated factor by factor, without the cancellation of expanded
        # coefficients.
        k = len(self._factors)
        self._a_factors = [(self._n, 1), (s_sigma(shift), k + 1), (linear(shift), k)]
        self._b_factors = [(Polynomial([0.0, 1.0]), unit_power), (self._deflated, unit_power)]
        self._b_factors += [(self._d + self._n / g, 1) for g in self._factors if g != 1.0]
        self._sigma0 = sigma0

    def _sigma_at_minus_one(self, one_plus_w_times_d: Polynomial) -> float:
        """sigma0 with w(sigma0) = -1 on the physical branch: S_rho(-1) from the principal root,
        refined by Newton on the quadratic (D + N)(sigma) = 0."""
        c, t = self._c, self.gamma_k
        s = 2.0 / (1 - c / t + np.sqrt((1 + c / t) ** 2 - 4 * c * c / t))
        sigma = (1.0 - s) / (c * c)
        slope = one_plus_w_times_d.deriv()
        for _ in range(8):
            sigma -= one_plus_w_times_d(sigma) / slope(sigma)
        return float(sigma)

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
        # Principal root s = S_rho(w) = 2 / (1 + a + r), a = c w / t, r = sqrt((1 - a)^2 + 4 c a),
        # written without cancellation: sigma = (1 - s) / c^2 = 4 w / (t ((r + 1)^2 - a^2)).
        c, t = self._c, self.gamma_k
        a = c * w / t
        r = np.sqrt((1 - a) ** 2 + 4 * c * a)
        return 4 * w / (t * ((r + 1) ** 2 - a * a)) - self._sigma0

    @staticmethod
    def _product(factors, delta):
        """prod_i f_i(delta)^{e_i} and its derivative (product rule, no division by f_i)."""
        values = [(f(delta), f.deriv()(delta), e) for f, e in factors]
        total = np.ones_like(delta)
        slope = np.zeros_like(delta)
        for i, (value, derivative, power) in enumerate(values):
            others = np.ones_like(delta)
            for j, (other, _, other_power) in enumerate(values):
                if j != i:
                    others = others * other**other_power
            slope = slope + power * value ** (power - 1) * derivative * others
            total = total * value**power
        return total, slope

    def _residual(self, delta, z):
        a, da = self._product(self._a_factors, delta)
        b, db = self._product(self._b_factors, delta)
        return z * a - b, z * da - db, np.abs(z * a) + np.abs(b)

    def _one_plus_w(self, delta):
        return delta * self._deflated(delta) / self._d(delta)

    def _real_curve(self):
        c, t = self._c, self.gamma_k
        # Subordination through rho_beta = 1 - c + c MP_{1/t}: at a real y off its support,
        # w = psi(1/y) = y G(y) - 1 and the levels are x_j = y prod_{i <= j} (1 + w / g_i).
        rho = MarchenkoPastur(ratio=1.0 / t, scale=c, shift=1.0 - c)
        lower, upper = rho.support()[0]

        atom = 1.0 - c

        def levels_of(y):
            w = np.full(y.shape, np.nan)
            # G_rho is singular at 1 - c when MP_{1/t} has an atom or its edge at 0 (t <= 1).
            regular = y != atom if t <= 1 else np.ones(y.shape, dtype=bool)
            w[regular] = (y[regular] * rho.stieltjes(y[regular])).real - 1.0
            return y * np.cumprod([1.0 + w / g for g in self._factors], axis=0)

        splits = [atom] if rho.atom > 0 else []
        ends = [0.0, *splits, lower]
        pieces = [(-np.inf, 0.0), *zip(ends[:-1], ends[1:], strict=True), (upper, np.inf)]
        # w decreases in y on every gap of rho: physical where each level increases.
        return levels_of, pieces, 1
