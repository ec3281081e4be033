"""Finite conditional deformed Marchenko–Pastur edge (paper B section 4, claim B.3).

E_ell(Sigma) = inf over u > max(sigma) of f(u) = u^2 (1/ell) sum_i 1/(u - sigma_i), the right
edge of (empirical law of the sigma_i) ⊠ MP_1, i.e. of rows N(0, Sigma/ell) in the square case.
E_ell(Sigma_f) and E_ell(Sigma_G) tend to x_+ (paper B).
"""

import numpy as np
from numpy.typing import ArrayLike

from attnspec.validation import check_real_array

# The edge is at most 4 max(sigma); above this the edge would overflow float64.
_LARGEST_EIGENVALUE = 4e307


def finite_deformed_mp_edge(eigenvalues: ArrayLike) -> float:
    """E = inf over u > max(sigma) of u^2 mean(1/(u - sigma)) for population eigenvalues sigma.

    f'(u) = u h(u) with h(u) = mean((u - 2 sigma)/(u - sigma)^2); h -> -inf as u -> max(sigma)+
    and h(2 max(sigma)) >= 0, and f has a single critical point on (max(sigma), inf)
    (Silverstein–Choi: F = u^2 G is increasing exactly where its values leave the support), so
    the minimiser is the root of h bracketed in (max(sigma), 2 max(sigma)]. For equal
    eigenvalues sigma this gives 4 sigma, the MP edge. E is homogeneous of degree 1 and is
    computed for sigma / max(sigma), so E <= 4 max(sigma) never overflows in between.

    Parameters
    ----------
    eigenvalues : array_like
        Population eigenvalues (any shape, flattened): finite, non-empty, with
        0 <= max <= 4e307.

    Returns
    -------
    float
        The edge E_ell; 0.0 if every eigenvalue is 0.

    Raises
    ------
    ValueError
        If the eigenvalues are empty, not finite, or their maximum is outside [0, 4e307].
    """
    sigma = check_real_array(eigenvalues, "eigenvalues", allow_inf=False).ravel()
    if sigma.size == 0:
        raise ValueError("eigenvalues must be a non-empty array of finite numbers")
    top = float(sigma.max())
    if top < 0:
        raise ValueError(f"the largest eigenvalue must be >= 0, got {top!r}")
    if top > _LARGEST_EIGENVALUE:
        raise ValueError(
            f"the largest eigenvalue must be <= {_LARGEST_EIGENVALUE:g} (the edge, up to "
            f"4 max(sigma), overflows float64 beyond), got {top!r}"
        )
    if top == 0:
        return 0.0
    return float(top * _unit_edge(sigma / top))


def _unit_edge(sigma: np.ndarray) -> float:
    """The edge for eigenvalues with max(sigma) = 1."""
    from scipy.optimize import brentq  # lazy: keeps `import attnspec.theory` light

    def h(u):
        gap = u - sigma
        return np.mean((u - 2 * sigma) / gap**2)

    if h(2.0) <= 0:
        return 4.0
    # Approach max(sigma) = 1 geometrically until h < 0 (the top eigenvalue dominates there).
    offset = 1.0
    while h(1.0 + offset) >= 0:
        offset *= 0.5
        if offset < 4 * np.finfo(float).eps:
            raise RuntimeError("could not bracket the minimiser of u^2 mean(1/(u - sigma))")
    u_star = brentq(h, 1.0 + offset, 2.0, xtol=1e-300, rtol=4 * np.finfo(float).eps)
    return u_star**2 * np.mean(1 / (u_star - sigma))
