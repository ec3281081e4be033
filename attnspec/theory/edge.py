"""Right edge x_+ of nu_inf = rho ⊠ MP_1 from the stationary cubic (paper A section 2, paper B).

x_+ = min over u > a + b (1 + sqrt c)^2 of u^2 G_rho(u). Writing g = G_MP((u - a)/b), so that
w = (u - a)/b = (1 + (1 - c) g) / (g (1 - c g)) and x = (a + b w)^2 g / b, the stationarity
condition dx/dg = 0 is the cubic

    a g (1 - c g)^2 + b [c (1 - c) g^2 + (1 + 2c) g - 1] = 0,

whose unique root in (0, g_+), g_+ = G_MP((1 + sqrt c)^2) = 1 / (sqrt(c) (1 + sqrt c)), is the
physical branch (the polynomial is -b < 0 at g = 0 and g_+ (a (1 - c g_+)^2 + b) > 0 at g_+).
Square model c = 1: a g (1 - g)^2 + b (3g - 1) = 0 with g in (0, 1/3]. Everything is divided
by b here, with r = a / b -> 0 as beta -> 0, so small beta is as accurate as beta = 1; the root
is sought as h = (r + 1 + 2c) g, which stays O(1) for every beta (g ~ 1/r -> 0 for large beta).
In eps = 1 - c g the cubic reads r eps^3 - (r + 1 - c) eps^2 + 3 eps - 2 = 0; its two other roots
solve the quadratic left after dividing out the physical one, without the cancellation of a
general cubic solver near the double root at g = 1/c (large beta).
"""

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from attnspec.theory.constants import nonlinearity_ratio
from attnspec.validation import check_beta_in, check_parameters


def _check_cubic_parameters(beta: float, ratio: float) -> tuple[float, float]:
    beta, c = check_parameters(beta, ratio)
    check_beta_in(beta, "edge_cubic", "the stationary cubic's coefficients and roots")
    return beta, c


def edge_cubic_coefficients(beta: float, ratio: float = 1.0) -> NDArray[np.float64]:
    """Coefficients, highest degree first, of the stationary cubic in g divided by b.

    r c^2 g^3 + (c (1 - c) - 2 r c) g^2 + (r + 1 + 2c) g - 1 with r = a / b (paper B figure B4).

    Parameters
    ----------
    beta : float
        Inverse temperature, in [1e-100, 18] (``BETA_RANGES["edge_cubic"]``,
        :mod:`attnspec.validation`).
    ratio : float
        c = ell / d_qk, in [1e-8, 1e8].

    Raises
    ------
    ValueError
        If beta or ratio is outside its range.
    """
    beta, c = _check_cubic_parameters(beta, ratio)
    r = nonlinearity_ratio(beta)
    return np.array([r * c * c, c * (1 - c) - 2 * r * c, r + 1 + 2 * c, -1.0])


def _edge_over_b(g, r: float, c: float):
    """x / b = (r + w(g))^2 g at a point g of the cubic, w = 1/g + 1/(1 - c g) (complex g allowed).

    Evaluated as ((r + w) g) (r + w), which stays finite whenever x / b is.
    """
    w = 1 / g + 1 / (1 - c * g)
    return ((r + w) * g) * (r + w)


def _physical_root(r: float, c: float) -> float:
    """The root g of the cubic in (0, g_+), found as h = (r + 1 + 2c) g by Brent's method."""
    from scipy.optimize import brentq  # lazy: keeps `import attnspec.theory` light

    scale = r + 1 + 2 * c
    g_plus = 1.0 / (np.sqrt(c) * (1.0 + np.sqrt(c)))

    def cubic(h):
        g = h / scale
        return r * g * (1 - c * g) ** 2 + c * (1 - c) * g * g + (1 + 2 * c) * g - 1

    # The bracket (0, scale g_+) in h, cut to (0, 2] where that is shorter and still brackets
    # (scale g_+ overflows for large r and small c, where the root is h ~ 1).
    upper = 2.0 if g_plus > 2.0 / scale and cubic(2.0) > 0 else scale * g_plus
    h = brentq(cubic, 0.0, upper, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)
    return h / scale


def _other_roots(g: float, r: float, c: float) -> tuple[NDArray, NDArray]:
    """The two roots of the cubic besides the physical root g, and their eps = 1 - c g.

    With eps = 1 - c g the cubic is r (eps - eps0)(eps^2 + p eps + q), eps0 = 1 - c g,
    p = -c g - (1 - c)/r and q = 2 / (r eps0); the quadratic is solved without overflow or
    cancellation (the larger root first, then q / eps1, or its conjugate when complex).
    """
    eps0 = 1 - c * g
    p = -c * g - (1 - c) / r
    q = 2 / (r * eps0)
    if p == 0:
        eps = np.array([1, -1]) * np.sqrt(complex(-q))
    else:
        discriminant = 1 - (4 * q / p) / p  # (p^2 - 4 q) / p^2
        first = -0.5 * p * (1 + np.sqrt(complex(discriminant)))
        eps = np.array([first, q / first if discriminant >= 0 else np.conj(first)])
    return (1 - eps) / c, eps


def bulk_edge(beta: float, ratio: float = 1.0) -> float:
    """Right edge x_+ of nu_inf from the physical root of the stationary cubic.

    x_+ = b (r + w(g))^2 g with r = a / b and g the root in (0, 1/(sqrt(c)(1 + sqrt c))).
    beta = 0 is the degenerate point mass at 0 and returns 0.0.

    Parameters
    ----------
    beta : float
        Inverse temperature: 0 or in [1e-150, 26.6] (x_+ ~ (27/4) beta^2 for small beta and
        ~ 4 e^{beta^2} for large beta, so x_+ is a normal float64 on that range).
    ratio : float
        c = ell / d_qk in [1e-8, 1e8] (not d_qk / ell: bulk_edge(1, 0.5) = 7.98..., paper A
        section 2).

    Raises
    ------
    ValueError
        If beta or ratio is outside its range (or not a real number).
    """
    beta, c = check_parameters(beta, ratio, allow_zero_beta=True)
    if beta == 0:
        return 0.0
    r = nonlinearity_ratio(beta)
    return _physical_edge(beta, r, _physical_root(r, c), c)


def _physical_edge(beta: float, r: float, g: float, c: float) -> float:
    """x_+ = b (r + w)^2 g, w = 1/g + 1/(1 - c g), in extended precision (np.longdouble).

    x is stationary in g at the root, so the result is then within ~ 0.5 ulp of the exact edge
    for the given r; the order ((r + w) b g)(r + w) never overflows when x_+ is finite.
    """
    g, c, r = np.longdouble(g), np.longdouble(c), np.longdouble(r)
    w = 1 / g + 1 / (1 - c * g)
    b = np.longdouble(beta) * np.longdouble(beta)
    return float(((r + w) * (b * g)) * (r + w))


class EdgeCubicRoots(NamedTuple):
    """All roots of the stationary cubic, the physical index, and x = b (r + w)^2 g per root."""

    roots: NDArray[np.complex128]
    physical_index: int
    edges: NDArray[np.complex128]


def edge_cubic_roots(beta: float, ratio: float = 1.0) -> EdgeCubicRoots:
    """The three roots g of the stationary cubic, sorted by (real, imaginary) part.

    The physical root (the one in (0, 1/(sqrt(c)(1 + sqrt c)))) is found by bracketing and
    marked by ``physical_index``; the other two come from the deflated quadratic in
    eps = 1 - c g (module docstring). ``edges[k]`` is the candidate edge x = b (r + w)^2 g at
    root k, so ``edges[physical_index] == bulk_edge(beta, ratio)``. Other real roots are not
    edges of the right end (for c > 1 and small beta two of them bound an internal gap of the
    support).

    Parameters
    ----------
    beta : float
        Inverse temperature, in [1e-100, 18] (``BETA_RANGES["edge_cubic"]``,
        :mod:`attnspec.validation`).
    ratio : float
        c = ell / d_qk, in [1e-8, 1e8].

    Raises
    ------
    ValueError
        If beta or ratio is outside its range.
    """
    beta, c = _check_cubic_parameters(beta, ratio)
    r = nonlinearity_ratio(beta)
    physical = _physical_root(r, c)
    others, eps = _other_roots(physical, r, c)
    roots = np.concatenate(([complex(physical)], others))
    w = 1 / others + 1 / eps
    edges = np.concatenate(
        (
            [complex(_physical_edge(beta, r, physical, c))],
            ((r + w) * (beta * beta * others)) * (r + w),
        )
    )
    order = np.lexsort((roots.imag, roots.real))
    return EdgeCubicRoots(roots[order], int(np.flatnonzero(order == 0)[0]), edges[order])
