"""The limit law paper D gives for a layer shape, and its mean (the relative-W1 denominator).

Untied K/V (independent or shared across heads): :class:`MultiHeadLaw`, mean theta1 gamma_O
(theta1 gamma_V without W^O, theta1 without values); K = V within heads: :class:`TiedKeyValueLaw`,
mean gamma_O (theta1 + h theta2 / gamma_K) (gamma_K theta1 + h theta2 without W^O). At beta = 1
these are appendix D.1's (d_O / n)(e - 1) and (d_O / n)(e - 1 + n / d_K).
"""

from attnspec.multihead.law_independent import MultiHeadLaw
from attnspec.multihead.law_tied import TiedKeyValueLaw
from attnspec.multihead.shapes import MultiHeadShape
from attnspec.theory.constants import nonlinearity_coefficients


def limit_law(shape: MultiHeadShape, beta: float) -> MultiHeadLaw | TiedKeyValueLaw:
    """The limit law of the centred output's squared singular values at the shape's ratios."""
    if shape.tied:
        return TiedKeyValueLaw(beta, shape.heads, shape.gamma_k, shape.gamma_o)
    return MultiHeadLaw(beta, shape.heads, shape.gamma_k, shape.gamma_v, shape.gamma_o)


def limit_mean(shape: MultiHeadShape, beta: float) -> float:
    """m_1 of :func:`limit_law` in closed form (no law is built)."""
    coefficients = nonlinearity_coefficients(beta)
    theta1, theta2 = coefficients.theta1, coefficients.theta2
    if shape.tied:
        if shape.gamma_o is None:
            return shape.gamma_k * theta1 + shape.heads * theta2
        return shape.gamma_o * (theta1 + shape.heads * theta2 / shape.gamma_k)
    ratio = shape.gamma_o if shape.gamma_o is not None else shape.gamma_v
    return theta1 * (1.0 if ratio is None else ratio)
