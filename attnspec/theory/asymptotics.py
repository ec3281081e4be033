"""Asymptotic expansions of the square-model (c = 1) edge x_+ (paper A section 2, figure A4).

Small beta: x_+ = (27/4) beta^2 + (3/2) beta^4 + (5/9) beta^6 + O(beta^8); 27/4 is the
Fuss–Catalan edge of a product of two Ginibre matrices. Large beta, with delta = b/a -> 0:
x_+ = 4 a (1 + delta + delta^2 + 0 delta^3 - 2 delta^4 + ...), i.e.
x_+ - 4 theta1 = 4 beta^4 / a - 8 beta^8 / a^3 + O(beta^10 / a^4). Both follow from expanding
the stationary cubic a g (1 - g)^2 + b (3g - 1) = 0 (:mod:`attnspec.theory.edge`); the next
small-beta coefficient is 925/5832 beta^8.
"""

import numpy as np
from numpy.typing import ArrayLike, NDArray

from attnspec.theory.constants import nonlinearity_coefficients, nonlinearity_ratio
from attnspec.validation import check_betas


def _as_output(value: NDArray[np.float64]) -> float | NDArray[np.float64]:
    return float(value) if value.ndim == 0 else value


def edge_small_beta(beta: ArrayLike) -> float | NDArray[np.float64]:
    """x_+ ~ (27/4) beta^2 + (3/2) beta^4 + (5/9) beta^6 as beta -> 0 (c = 1; paper A).

    Vectorised over ``beta``, each 0 or in [1e-150, 26.6] (else ValueError); returns a float
    for scalar input. The error is 925/5832 beta^8 + O(beta^10) (checked against
    :func:`attnspec.theory.edge.bulk_edge`).
    """
    b2 = check_betas(beta, allow_zero=True) ** 2
    return _as_output(b2 * (27 / 4 + b2 * (3 / 2 + b2 * (5 / 9))))


def edge_large_beta(beta: ArrayLike) -> float | NDArray[np.float64]:
    """x_+ ~ 4 theta1 + 4 beta^4 / a as beta -> infinity (c = 1; paper A).

    theta1 = e^{beta^2} - 1 and a = theta1 - beta^2. The next term, -8 beta^8 / a^3, is
    -2 (beta^2 / a)^2 relative to 4 beta^4 / a. Vectorised over ``beta``, each in
    [1e-150, 26.6] (else ValueError); returns a float for scalar input. 4 beta^4 / a is
    evaluated as 4 beta^2 / r with r = a / b, finite where beta^4 and a underflow.
    """
    beta = check_betas(beta)
    flat = beta.ravel()
    theta1 = np.array([nonlinearity_coefficients(value).theta1 for value in flat])
    ratio = np.array([nonlinearity_ratio(value) for value in flat])
    return _as_output((4 * theta1 + 4 * flat**2 / ratio).reshape(beta.shape))
