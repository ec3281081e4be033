"""Hermite coefficients of the softmax nonlinearity (paper A, Gaussian equivalent).

With f(x) = exp(beta x - beta^2/2) - 1 and x ~ N(0, 1), and b = beta^2 throughout:
theta1 = E f^2 = e^{beta^2} - 1 = e^b - 1 (total), theta2 = (E f')^2 = beta^2 = b (linear part),
a = theta1 - theta2 = e^b - 1 - b (non-linear part, the variance of the independent noise).
"""

from typing import NamedTuple

import numpy as np

from attnspec.validation import check_beta


class NonlinearityCoefficients(NamedTuple):
    """theta1 = e^{beta^2} - 1 = e^b - 1, theta2 = beta^2 = b, a = theta1 - theta2 = e^b - 1 - b
    and b = beta^2 (paper A, section 2)."""

    theta1: float
    theta2: float
    a: float
    b: float


def nonlinearity_coefficients(beta: float) -> NonlinearityCoefficients:
    """Return (theta1, theta2, a, b) for inverse temperature ``beta`` (expm1 for accuracy).

    ``beta`` must be 0 or in [1e-150, 26.6] (:mod:`attnspec.validation`; above 26.6
    theta1 ~ e^{beta^2} nears the float64 limit), else ValueError. a ~ beta^4 / 2 rounds to 0
    for beta below ~1e-77; the ratio a / b ~ beta^2 / 2 is what the laws use there.
    """
    beta = check_beta(beta, allow_zero=True)
    theta1 = float(np.expm1(beta * beta))
    theta2 = beta * beta
    # a = e^b - 1 - b (b = beta^2) loses digits for small beta; use its series there.
    b = beta * beta
    if b < 1e-2:
        a = b * b * (1 / 2 + b / 6 + b * b / 24 + b**3 / 120 + b**4 / 720)
    else:
        a = theta1 - theta2
    return NonlinearityCoefficients(theta1=theta1, theta2=theta2, a=float(a), b=b)


def nonlinearity_ratio(beta: float) -> float:
    """r = a / b = (e^{b} - 1 - b) / b with b = beta^2, the noise-to-signal ratio of Y_lin.

    By its series b (1/2 + b/6 + b^2/24 + ...) for b < 1e-2, so r ~ beta^2 / 2 stays accurate
    where a itself underflows; beta in (0, 26.6] as for :func:`nonlinearity_coefficients`
    (beta = 0 is rejected: r = 0/0).
    """
    beta = check_beta(beta)
    b = beta * beta
    if b < 1e-2:
        return b * (1 / 2 + b / 6 + b * b / 24 + b**3 / 120 + b**4 / 720)
    coefficients = nonlinearity_coefficients(beta)
    return coefficients.a / coefficients.b
