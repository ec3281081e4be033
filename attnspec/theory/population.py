"""Population law rho of the Gaussian-equivalent covariance (paper A section 2, paper B).

Given K, the rows of Y_lin are iid N(0, Sigma_G / ell) with Sigma_G = beta^2 K K^T / d_qk + a I,
whose spectrum tends to rho = law of a + b y, y ~ MP_c, with (theta1, theta2, a, b) from
``nonlinearity_coefficients`` and c = ell / d_qk. Then nu_inf = rho ⊠ MP_1.
"""

from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.theory.marchenko_pastur import MarchenkoPastur
from attnspec.validation import check_parameters


def population_law(beta: float, ratio: float = 1.0) -> MarchenkoPastur:
    """rho = a + b MP_c as a :class:`MarchenkoPastur` (scale b = beta^2, shift a).

    Support [a + b (1 - sqrt c)^2, a + b (1 + sqrt c)^2], atom 1 - 1/c at a when c > 1, mean
    a + b = theta1, second moment theta1^2 + c beta^4 (paper A section 2; paper B figure B6).

    Parameters
    ----------
    beta : float
        Inverse temperature, in [1e-150, 26.6].
    ratio : float
        c = ell / d_qk, in [1e-8, 1e8].

    Raises
    ------
    ValueError
        If beta or ratio is outside its range.
    """
    beta, ratio = check_parameters(beta, ratio)
    coefficients = nonlinearity_coefficients(beta)
    return MarchenkoPastur(ratio=ratio, scale=coefficients.b, shift=coefficients.a)
