"""Moments of free multiplicative convolutions from truncated power series of S-transforms.

psi(z) = sum_{q>=1} m_q z^q, chi = psi^{-1} and S(w) = (1 + w) chi(w) / w (paper D, (C.2)-(C.3));
S is multiplicative under ⊠, S_{D_a mu}(w) = S_mu(w) / a and S_{pi(mu, t)}(w) = S_mu(w / t) /
(t + w) (C.6). Moments of the free Poisson law pi_a are Narayana polynomials,
m_k = sum_j N(k, j) a^j with N(k, j) = C(k, j) C(k, j - 1) / k. Series are numpy arrays of
coefficients, index = power, truncated at a common order.
"""

from math import comb

import numpy as np


def multiply(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Product of two series, truncated to the length of the shorter."""
    order = min(first.size, second.size)
    return np.convolve(first[:order], second[:order])[:order]


def reciprocal(series: np.ndarray) -> np.ndarray:
    """1 / f for a series with f(0) != 0, to the same order."""
    out = np.zeros_like(series)
    out[0] = 1.0 / series[0]
    for k in range(1, series.size):
        out[k] = -np.dot(series[1 : k + 1], out[k - 1 :: -1][:k]) / series[0]
    return out


def reversion(series: np.ndarray) -> np.ndarray:
    """Compositional inverse g of f = sum_{k>=1} f_k w^k (f_0 = 0, f_1 != 0): f(g(z)) = z."""
    if series[0] != 0 or series[1] == 0:
        raise ValueError("reversion needs f(0) = 0 and f'(0) != 0")
    order = series.size
    inverse = np.zeros(order)
    inverse[1] = 1.0 / series[1]
    for k in range(2, order):
        # f(g) = z to order k fixes g_k from the coefficient of z^k of f(g_{<k} + g_k z^k).
        composed = np.zeros(order)
        power = np.zeros(order)
        power[0] = 1.0
        for j in range(1, order):
            power = multiply(power, inverse)
            composed += series[j] * power
        inverse[k] = -composed[k] / series[1]
    return inverse


def s_transform_from_moments(moments: np.ndarray) -> np.ndarray:
    """Series of S(w) from m_1..m_K (m_1 > 0); K coefficients (powers 0..K-1)."""
    psi = np.concatenate(([0.0], moments))
    over_w = reversion(psi)[1:]
    # S(w) = (1 + w) chi(w) / w.
    out = over_w.copy()
    out[1:] += over_w[:-1]
    return out


def moments_from_s_transform(s_series: np.ndarray) -> np.ndarray:
    """m_1..m_K from the series of S(w) (K coefficients, S(0) = 1 / m_1 > 0)."""
    order = s_series.size
    geometric = np.array([(-1.0) ** k for k in range(order)])
    # chi(w) = w S(w) / (1 + w).
    chi = np.concatenate(([0.0], multiply(s_series, geometric)))
    return reversion(chi)[1:]


def dilate_argument(series: np.ndarray, factor: float) -> np.ndarray:
    """Series of f(factor * w)."""
    return series * factor ** np.arange(series.size)


def free_poisson_moments(rate: float, order: int) -> np.ndarray:
    """m_0..m_order of the free Poisson law pi_rate (jump 1): Narayana polynomials in the rate."""
    out = np.ones(order + 1)
    for k in range(1, order + 1):
        out[k] = sum(comb(k, j) * comb(k, j - 1) // k * rate**j for j in range(1, k + 1))
    return out


def polynomial_pushforward_moments(
    coefficients: np.ndarray, base_moments: np.ndarray, order: int
) -> np.ndarray:
    """m_1..m_order of phi(Y), phi(y) = sum_i c_i y^i, from m_0..m_{deg phi * order} of Y."""
    power = np.array([1.0])
    out = np.empty(order)
    for q in range(order):
        power = np.convolve(power, coefficients)
        out[q] = np.dot(power, base_moments[: power.size])
    return out
