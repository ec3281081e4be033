"""The limit law paper D gives for a layer shape, its mean (the relative-W1 denominator) and the
paper's closed-form moments.

Untied K/V (independent or shared across heads): :class:`MultiHeadLaw`, mean theta1 gamma_O
(theta1 gamma_V without W^O, theta1 without values); K = V within heads: :class:`TiedKeyValueLaw`,
mean gamma_O (theta1 + h theta2 / gamma_K) (gamma_K theta1 + h theta2 without W^O). At beta = 1
these are appendix D.1's (d_O / n)(e - 1) and (d_O / n)(e - 1 + n / d_K). Closed forms of the
normalised moments m_q / m_1^q, c = theta2 / theta1: attention m_2 = 1 + 1/h + c^2/gamma_K and
m_3 = 1 + 3 (1/h + c^2/gamma_K) + 1/h^2 + 3 c^2 / (gamma_K h) + c^3/gamma_K^2 (section C.6.1);
with values (and output) m_2 = 1 + 1/h + 1/gamma_V (+ 1/gamma_O) + c^2/gamma_K (C.16).
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


def closed_form_moments(shape: MultiHeadShape, beta: float) -> tuple[float, ...]:
    """(m_1, m_2 / m_1^2, m_3 / m_1^3) as far as paper D states them in closed form (module
    docstring): all three for the attention stage, m_1 and m_2 / m_1^2 with values, m_1 alone
    when K = V; NaN where the paper gives none."""
    coefficients = nonlinearity_coefficients(beta)
    c = coefficients.theta2 / coefficients.theta1
    h, attention = shape.heads, c * c / shape.gamma_k
    mean = limit_mean(shape, beta)
    if shape.tied:
        return mean, float("nan"), float("nan")
    if shape.d_v is None:
        m3 = 1 + 3 * (1 / h + attention) + 1 / h**2 + 3 * attention / h + c**3 / shape.gamma_k**2
        return mean, 1 + 1 / h + attention, m3
    ratios = [g for g in (shape.gamma_v, shape.gamma_o) if g is not None]
    return mean, 1 + 1 / h + sum(1 / g for g in ratios) + attention, float("nan")
