"""Validation of the model parameters shared by every law in ``attnspec.theory``.

beta is the inverse temperature and ratio is c = ell / d_qk, the aspect ratio of the key matrix
(paper A section 2, paper B). Supported: beta = 0 (the degenerate point mass at 0, where a
function allows it) or BETA_MIN <= beta <= BETA_MAX, and RATIO_MIN <= c <= RATIO_MAX. Above
BETA_MAX, 4 theta1 = 4 (e^{beta^2} - 1) ~ x_+ overflows float64; below BETA_MIN the scale
beta^2 of every law (x_+ ~ (27/4) beta^2 at c = 1) leaves the normal float64 range. The ratio
range is where every route (cubic, R-transform, quartic density and its cdf) is tested.
"""

import numpy as np
from numpy.typing import ArrayLike, NDArray

BETA_MIN = 1e-150
BETA_MAX = 26.6
RATIO_MIN = 1e-8
RATIO_MAX = 1e8


def as_real(value, name: str) -> float:
    """``value`` as a float; ValueError naming ``name`` if it is not a real number."""
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None


def real_array(values: ArrayLike, name: str, *, allow_inf: bool = True) -> NDArray[np.float64]:
    """``values`` as a float64 array; ValueError naming ``name`` on NaN (and on +-inf if not
    ``allow_inf``) or on input that is not real numbers."""
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be real numbers, got {values!r}") from None
    bad = ~np.isfinite(array) if not allow_inf else np.isnan(array)
    if np.any(bad):
        allowed = "real numbers, not NaN (+-inf are allowed)" if allow_inf else "finite numbers"
        raise ValueError(f"{name} must be {allowed}, got {float(array[bad].ravel()[0])!r}")
    return array


def finite_complex_array(values: ArrayLike, name: str) -> NDArray[np.complex128]:
    """``values`` as a complex128 array; ValueError naming ``name`` unless all are finite."""
    try:
        array = np.asarray(values, dtype=np.complex128)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be complex numbers, got {values!r}") from None
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite numbers (no NaN or inf)")
    return array


def beta_range_text(allow_zero: bool) -> str:
    """The supported beta values, as the error messages state them."""
    interval = f"[{BETA_MIN:g}, {BETA_MAX:g}]"
    return f"0 or in {interval}" if allow_zero else f"in {interval}"


def check_beta(beta, *, allow_zero: bool = False) -> float:
    """Return ``beta`` as a float after checking it is 0 (if allowed) or in [BETA_MIN, BETA_MAX].

    Raises
    ------
    ValueError
        Naming beta and the supported range (beta = 0 when not allowed: degenerate law).
    """
    beta = as_real(beta, "beta (inverse temperature)")
    if beta == 0 and not allow_zero:
        raise ValueError(
            "beta = 0 is degenerate (the limit law is a point mass at 0): beta (inverse "
            f"temperature) must be {beta_range_text(False)}"
        )
    if not (beta == 0 or BETA_MIN <= beta <= BETA_MAX):
        if beta != beta:
            why = "not a number"
        elif beta < 0:
            why = "an inverse temperature is not negative"
        elif beta > BETA_MAX:
            why = f"above {BETA_MAX:g}, 4(e^(beta^2) - 1) overflows float64"
        else:
            why = f"below {BETA_MIN:g}, beta^2 leaves the normal float64 range"
        raise ValueError(
            f"beta (inverse temperature) must be {beta_range_text(allow_zero)}, got {beta!r} "
            f"({why})"
        )
    return beta


def check_betas(beta: ArrayLike, *, allow_zero: bool = False) -> NDArray[np.float64]:
    """Vectorised :func:`check_beta`: a float64 array, every entry supported, else ValueError."""
    try:
        values = np.asarray(beta, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"beta (inverse temperature) must be real numbers, got {beta!r}") from None
    supported = (values >= BETA_MIN) & (values <= BETA_MAX)
    if allow_zero:
        supported |= values == 0
    if not np.all(supported):
        check_beta(values[~supported].ravel()[0], allow_zero=allow_zero)
    return values


def check_ratio(ratio) -> float:
    """Return ``ratio`` as a float after checking RATIO_MIN <= c <= RATIO_MAX (else ValueError)."""
    ratio = as_real(ratio, "ratio c = ell / d_qk")
    if not RATIO_MIN <= ratio <= RATIO_MAX:
        raise ValueError(
            f"ratio c = ell / d_qk must be in [{RATIO_MIN:g}, {RATIO_MAX:g}], got {ratio!r}"
        )
    return ratio


def check_parameters(beta: float, ratio: float = 1.0, *, allow_zero_beta: bool = False):
    """Return ``(beta, ratio)`` as floats after :func:`check_beta` and :func:`check_ratio`.

    Parameters
    ----------
    beta : float
        Inverse temperature: in [BETA_MIN, BETA_MAX] = [1e-150, 26.6], or 0 if allowed.
    ratio : float
        c = ell / d_qk, in [RATIO_MIN, RATIO_MAX] = [1e-8, 1e8].
    allow_zero_beta : bool
        If False, beta = 0 is rejected: the limit law is then a point mass at 0 and has no
        density, edge cubic or R-transform critical point.

    Raises
    ------
    ValueError
        If a parameter is out of range, not finite or not a real number.
    """
    return check_beta(beta, allow_zero=allow_zero_beta), check_ratio(ratio)
