"""Right edge x_+ of nu_inf = rho ⊠ MP_1 from the stationary cubic (paper A section 2, paper B).

x_+ = min over u > a + b (1 + sqrt c)^2 of u^2 G_rho(u). Writing g = G_MP((u - a)/b), so that
w = (u - a)/b = (1 + (1 - c) g) / (g (1 - c g)) and x = (a + b w)^2 g / b, the stationarity
condition dx/dg = 0 is the cubic

    a g (1 - c g)^2 + b [c (1 - c) g^2 + (1 + 2c) g - 1] = 0,

whose unique root in (0, g_+), g_+ = G_MP((1 + sqrt c)^2) = 1 / (sqrt(c) (1 + sqrt c)), is the
physical branch (the polynomial is -b < 0 at g = 0 and g_+ (a (1 - c g_+)^2 + b) > 0 at g_+).
Square model c = 1: a g (1 - g)^2 + b (3g - 1) = 0 with g in (0, 1/3]. Everything is divided
by b here, with r = a / b -> 0 as beta -> 0, so small beta is as accurate as beta = 1.
"""

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from scipy.optimize import brentq

from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.theory.parameters import check_parameters


def _ratio_a_over_b(beta: float) -> float:
    coefficients = nonlinearity_coefficients(beta)
    return coefficients.a / coefficients.b


def edge_cubic_coefficients(beta: float, ratio: float = 1.0) -> NDArray[np.float64]:
    """Coefficients, highest degree first, of the stationary cubic in g divided by b.

    r c^2 g^3 + (c (1 - c) - 2 r c) g^2 + (r + 1 + 2c) g - 1 with r = a / b (paper B figure B4).

    Parameters
    ----------
    beta : float
        Inverse temperature, > 0.
    ratio : float
        c = ell / d_qk > 0.
    """
    beta, c = check_parameters(beta, ratio)
    r = _ratio_a_over_b(beta)
    return np.array([r * c * c, c * (1 - c) - 2 * r * c, r + 1 + 2 * c, -1.0])


def edge_over_b(g, r: float, c: float):
    """x / b = (r + w(g))^2 g at a point g of the cubic (complex g allowed)."""
    w = (1 + (1 - c) * g) / (g * (1 - c * g))
    return (r + w) ** 2 * g


def _physical_root(r: float, c: float) -> float:
    g_plus = 1.0 / (np.sqrt(c) * (1.0 + np.sqrt(c)))

    def cubic(g):
        return r * g * (1 - c * g) ** 2 + c * (1 - c) * g * g + (1 + 2 * c) * g - 1

    return brentq(cubic, 0.0, g_plus, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)


def bulk_edge(beta: float, ratio: float = 1.0) -> float:
    """Right edge x_+ of nu_inf from the physical root of the stationary cubic.

    x_+ = b (r + w(g))^2 g with r = a / b and g the root in (0, 1/(sqrt(c)(1 + sqrt c))).
    beta = 0 is the degenerate point mass at 0 and returns 0.0.

    Parameters
    ----------
    beta : float
        Inverse temperature, >= 0.
    ratio : float
        c = ell / d_qk > 0 (not d_qk / ell: bulk_edge(1, 0.5) = 7.98..., paper A section 2).
    """
    beta, c = check_parameters(beta, ratio, allow_zero_beta=True)
    if beta == 0:
        return 0.0
    r = _ratio_a_over_b(beta)
    return float(beta * beta * edge_over_b(_physical_root(r, c), r, c))


class EdgeCubicRoots(NamedTuple):
    """All roots of the stationary cubic, the physical index, and x = b (r + w)^2 g per root."""

    roots: NDArray[np.complex128]
    physical_index: int
    edges: NDArray[np.complex128]


def edge_cubic_roots(beta: float, ratio: float = 1.0) -> EdgeCubicRoots:
    """The three roots g of the stationary cubic, sorted by (real, imaginary) part.

    The physical root (the one in (0, 1/(sqrt(c)(1 + sqrt c)))) is polished by bracketing and
    marked by ``physical_index``; ``edges[k]`` is the candidate edge x = b (r + w)^2 g at root k,
    so ``edges[physical_index] == bulk_edge(beta, ratio)``. Other real roots are not edges of
    the right end (for c > 1 and small beta two of them bound an internal gap of the support).

    Parameters
    ----------
    beta : float
        Inverse temperature, > 0.
    ratio : float
        c = ell / d_qk > 0.
    """
    beta, c = check_parameters(beta, ratio)
    r = _ratio_a_over_b(beta)
    roots = np.roots(edge_cubic_coefficients(beta, c)).astype(np.complex128)
    roots = roots[np.lexsort((roots.imag, roots.real))]
    physical = _physical_root(r, c)
    index = int(np.argmin(np.abs(roots - physical)))
    roots[index] = physical
    return EdgeCubicRoots(roots, index, beta * beta * edge_over_b(roots, r, c))
