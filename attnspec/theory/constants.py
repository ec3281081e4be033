"""Hermite coefficients of the softmax nonlinearity (paper A, Gaussian equivalent).

With f(x) = exp(beta x - beta^2/2) - 1 and x ~ N(0, 1):
theta1 = E f^2 = e^{beta^2} - 1 (total), theta2 = (E f')^2 = beta^2 (linear part),
a = theta1 - theta2 (non-linear part, the variance of the independent noise) and b = beta^2.
"""

from typing import NamedTuple

import numpy as np


class NonlinearityCoefficients(NamedTuple):
    """theta1 = e^{b^2}-1, theta2 = b^2, a = theta1 - theta2, b = beta^2 (paper A, section 2)."""

    theta1: float
    theta2: float
    a: float
    b: float


def nonlinearity_coefficients(beta: float) -> NonlinearityCoefficients:
    """Return (theta1, theta2, a, b) for inverse temperature ``beta`` (expm1 for accuracy)."""
    beta = float(beta)
    theta1 = float(np.expm1(beta * beta))
    theta2 = beta * beta
    # a = e^{b^2} - 1 - b^2 loses digits for small beta; use the series there.
    b2 = beta * beta
    if b2 < 1e-2:
        a = b2 * b2 * (1 / 2 + b2 / 6 + b2 * b2 / 24 + b2**3 / 120 + b2**4 / 720)
    else:
        a = theta1 - theta2
    return NonlinearityCoefficients(theta1=theta1, theta2=theta2, a=float(a), b=b2)
