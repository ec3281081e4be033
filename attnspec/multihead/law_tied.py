"""Paper D's limit law for values tied to keys within each head (W_r^V = W_r^K, corollary C.7).

mu_KV = phi_# pi_a with a = gamma_K / h and phi(y) = (theta1 - theta2) y + (h theta2 / gamma_K) y^2
(C.18). Without an output projection Z_KV = [A_1_perp K_1, ..., A_h_perp K_h] has the law
pi(mu_KV, h) (C.19), mean gamma_K theta1 + h theta2 (C.20); with W^O = G_O / sqrt(h d_K) the
output has D_{1/gamma_K}(pi(mu_KV, h) ⊠ pi_{gamma_O}) (C.21), mean
gamma_O (theta1 + h theta2 / gamma_K). The proof uses each head's key law only, so K = V tying
combined with across-head sharing has the same law.

With u = chi_mu(w / h) (psi_mu(u) = w / h), S_{pi(mu, h)}(w) = u / w and z u = 1 + h psi_mu(u)
without output, gamma_K u z = (1 + w)(gamma_O + w) with it (w = h psi_mu(u)): one unknown u.
psi_mu(u) = int u phi / (1 - u phi) dpi_a is a divided difference of the Cauchy transform of
pi_a at the roots of phi(y) = 1/u, taken in closed form from its quadratic (see _one_plus_w).
On the real axis u itself is the Cauchy transform of pi(mu_KV, h) (Silverstein-Choi), so the
support is found from real u with 1/u off supp mu_KV.
"""

import numpy as np

from attnspec.multihead.law_base import (
    HEADS_MAX,
    FreeCompoundLaw,
    check_ratio_for_laws,
)
from attnspec.multihead.series import (
    dilate_argument,
    free_poisson_moments,
    multiply,
    polynomial_pushforward_moments,
    reciprocal,
    reversion,
    s_transform_from_moments,
)
from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.theory.marchenko_pastur import marchenko_pastur_stieltjes
from attnspec.validation import check_beta_in, check_count

# Relative step of the central difference for psi'(u) (error ~ 1e-12 relative).
_DIFFERENCE_STEP = 1e-6


class TiedKeyValueLaw(FreeCompoundLaw):
    """Limit of the squared singular values of the centred output with V_r = K_r (paper D).

    Parameters
    ----------
    beta : float
        Inverse temperature, in [0.05, 4] (``BETA_RANGES["multihead"]``,
        :mod:`attnspec.validation`).
    heads : int
        h >= 1.
    gamma_k : float
        gamma_K = h d_K / n (= gamma_V, since d_V = d_K).
    gamma_o : float, optional
        gamma_O = d_O / n (omit for Z_KV without output projection).

    Attributes
    ----------
    mean : float
        gamma_K theta1 + h theta2, or gamma_O (theta1 + h theta2 / gamma_K) with W^O.
    atom : float
        Mass at 0: 1 - min(1, gamma_K, gamma_O) (section C.2.1).
    edge : float
        Right end of the support.
    """

    def __init__(self, beta: float, heads: int, gamma_k: float, gamma_o=None):
        self.beta = check_beta_in(beta, "multihead", "TiedKeyValueLaw")
        self.heads = check_count(heads, "heads", 1, HEADS_MAX)
        self.gamma_k = check_ratio_for_laws("gamma_k", gamma_k)
        self.gamma_o = None if gamma_o is None else check_ratio_for_laws("gamma_o", gamma_o)
        coefficients = nonlinearity_coefficients(self.beta)
        theta1, theta2 = coefficients.theta1, coefficients.theta2
        self._rate = self.gamma_k / self.heads
        self._phi = np.array([0.0, coefficients.a, self.heads * theta2 / self.gamma_k])
        if self.gamma_o is None:
            self.mean = self.gamma_k * theta1 + self.heads * theta2
            self._scale = self.mean  # z u = 1 + w, in units of the mean
            self.atom = max(0.0, 1.0 - self.gamma_k)
        else:
            self.mean = self.gamma_o * (theta1 + self.heads * theta2 / self.gamma_k)
            self._scale = self.mean * self.gamma_k
            self.atom = 1.0 - min(1.0, self.gamma_k, self.gamma_o)
        self._finish()

    # 1 + w = 1 + h psi_mu(u) and its real domain --------------------------------------------
    def _continuous_cauchy(self, r):
        """G of pi_a without its atom (1 - a)_+ at 0: G_c(r) = G(r) - (1 - a)_+ / r.

        G_c solves r G_c^2 + (2 alpha - r - 1 + a) G_c + (alpha^2 - (r + 1 - a) alpha) / r + 1
        = 0, alpha = (1 - a)_+; for a < 1 and |r| < lambda_- / 2 it is
        (S + r - 1 - 3a) / (2 (S + 1 - a)), S = sqrt((r - lambda_-)(r - lambda_+)) (principal,
        -> 1 - a at r = 0), free of the cancellation of G - (1 - a) / r near 0.
        """
        a = self._rate
        full = marchenko_pastur_stieltjes(r / a, 1.0 / a) / a
        if a >= 1:
            return full
        lower, upper = (1 - np.sqrt(a)) ** 2, (1 + np.sqrt(a)) ** 2
        near = np.abs(r) < 0.5 * lower
        root = np.sqrt((r - lower) * (r - upper))
        small = (root + r - 1 - 3 * a) / (2 * (root + 1 - a))
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(near, small, full - (1 - a) / r)

    def _one_plus_w(self, u):
        """1 + h psi_mu(u) = 1 - h (1 - alpha) + h J(u), J(u) = int_cont dpi_a / (1 - u phi).

        J = [G_c(r1) - G_c(r2)] / (u b2 (r1 - r2)), r1, r2 the roots of phi(y) = 1/u (the
        stable pair), the divided difference in closed form from G_c's quadratic. At
        gamma_K = 1 the constant vanishes and 1 + w -> 0 (x -> 0) keeps full precision.
        """
        _, b1, b2 = self._phi
        a = self._rate
        alpha = max(1.0 - a, 0.0)
        root = np.sqrt(b1 * b1 + 4 * b2 / u)
        root = np.where(np.abs(b1 + root) >= np.abs(b1 - root), root, -root)
        r1 = -(b1 + root) / (2 * b2)
        r2 = -1.0 / (u * b2 * r1)
        g1, g2 = self._continuous_cauchy(r1), self._continuous_cauchy(r2)
        divided = g2 * (1 - g2) / (r1 * (g1 + g2 - 1) + 2 * alpha - 1 + a)
        return 1 - self.heads * (1 - alpha) + self.heads * divided / (u * b2)

    # Hooks --------------------------------------------------------------------------------
    def _mu_moments(self, order):
        base = free_poisson_moments(self._rate, 2 * order)
        return polynomial_pushforward_moments(self._phi, base, order)

    def _s_series(self, order):
        s_mu = s_transform_from_moments(self._mu_moments(order))
        # S_{pi(mu, h)}(w) = S_mu(w / h) / (h + w); with output, times gamma_K / (gamma_O + w).
        series = multiply(dilate_argument(s_mu, 1.0 / self.heads), self._inverse(self.heads, order))
        if self.gamma_o is not None:
            series = self.gamma_k * multiply(series, self._inverse(self.gamma_o, order))
        return self.mean * series

    @staticmethod
    def _inverse(g, order):
        """Series of 1 / (g + w)."""
        return reciprocal(np.array([g, 1.0] + [0.0] * (order - 2)))

    def _start(self, w):
        psi = np.concatenate(([0.0], self._mu_moments(8)))
        chi = reversion(psi)
        argument = w / self.heads
        return sum(coefficient * argument**k for k, coefficient in enumerate(chi))

    def _residual(self, u, z):
        one_plus_w = self._one_plus_w(u)
        step = _DIFFERENCE_STEP * u
        slope_w = (self._one_plus_w(u + step) - self._one_plus_w(u - step)) / (2 * step)
        if self.gamma_o is None:
            terms, slope_terms = one_plus_w, slope_w
        else:
            # (1 + w)(gamma_O + w), with gamma_O + w = (gamma_O - 1) + (1 + w).
            other = (self.gamma_o - 1) + one_plus_w
            terms, slope_terms = one_plus_w * other, slope_w * (one_plus_w + other)
        lhs = self._scale * z * u
        return lhs - terms, self._scale * z - slope_terms, np.abs(lhs) + np.abs(terms)

    def _real_curve(self):
        a = self._rate
        lower, upper = (1 - np.sqrt(a)) ** 2, (1 + np.sqrt(a)) ** 2
        _, b1, b2 = self._phi

        def phi(y):
            return b1 * y + b2 * y * y

        def levels_of(u):
            one_plus_w = np.full(u.shape, np.nan)
            regular = np.isfinite(u) & (u != 0)
            one_plus_w[regular] = self._one_plus_w(u[regular].astype(np.complex128)).real
            # Level 1, pi(mu, h): x = (1 + w) / u; level 2 (output): times (gamma_O + w).
            # Both in units of the final mean (positive factors keep the monotonicity).
            with np.errstate(divide="ignore", invalid="ignore"):
                first = one_plus_w / (self._scale * u)
            if self.gamma_o is None:
                return first[None, :]
            return np.stack([first, first * (self.gamma_o - 1 + one_plus_w)])

        pieces = [(-np.inf, 0.0), (0.0, 1.0 / phi(upper))]
        if lower > 0:
            pieces.append((1.0 / phi(lower), np.inf))
        # u = G is decreasing in x off the support: physical where each level decreases in u.
        return levels_of, pieces, -1
