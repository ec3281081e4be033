"""Validation of the model parameters shared by every law in ``attnspec.theory``.

beta is the inverse temperature (beta >= 0; beta = 0 is the degenerate point mass at 0) and
ratio is c = ell / d_qk > 0, the aspect ratio of the key matrix (paper A section 2, paper B).
"""

import math


def check_parameters(beta: float, ratio: float = 1.0, *, allow_zero_beta: bool = False):
    """Return ``(beta, ratio)`` as floats after checking beta >= 0 (or > 0) and ratio > 0.

    Parameters
    ----------
    beta : float
        Inverse temperature; must be finite and >= 0.
    ratio : float
        c = ell / d_qk; must be finite and > 0.
    allow_zero_beta : bool
        If False, beta = 0 is rejected: the limit law is then a point mass at 0 and has no
        density, edge cubic or R-transform critical point.

    Raises
    ------
    ValueError
        If a parameter is out of range or not finite.
    """
    beta = float(beta)
    ratio = float(ratio)
    if not math.isfinite(beta) or beta < 0:
        raise ValueError(f"beta (inverse temperature) must be finite and >= 0, got {beta!r}")
    if beta == 0 and not allow_zero_beta:
        raise ValueError("beta = 0 is degenerate: the limit law is a point mass at 0; use beta > 0")
    if not math.isfinite(ratio) or ratio <= 0:
        raise ValueError(f"ratio c = ell / d_qk must be finite and > 0, got {ratio!r}")
    return beta, ratio
