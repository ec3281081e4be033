"""Argument checks of the library (attnspec.theory, models, spectra, multihead, distances,
seeding): one helper per kind of argument. Each failure is one ValueError that names the argument
and the range the function supports; checks particular to one function (a relation between two
arguments, the domain of one formula) stay in that function.

This module imports nothing from attnspec (numpy only), so every library module may use it.

The laws' model parameters: beta is the inverse temperature and ratio is c = ell / d_qk, the
aspect ratio of the key matrix (paper A section 2, paper B). Supported: beta = 0 (the degenerate
point mass at 0, where a function allows it) or BETA_MIN <= beta <= BETA_MAX, and
RATIO_MIN <= c <= RATIO_MAX. Above BETA_MAX, 4 theta1 = 4 (e^{beta^2} - 1) ~ x_+ overflows
float64; below BETA_MIN the scale beta^2 of every law (x_+ ~ (27/4) beta^2 at c = 1) leaves the
normal float64 range. The ratio range is where every route (cubic, R-transform, quartic density
and its cdf) is tested. The samplers (attnspec.models) take any finite beta > 0
(:func:`check_positive`) and say where their output overflows (:func:`check_finite_output`).
Sizes whose arrays would not fit in this machine's memory are refused with the sizes named
(:func:`check_fits_in_memory`), and a value shown in a message is kept short (:func:`shown`).
"""

import math
import numbers
import os
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

# exp(x) is finite in float64 for x < log(max float) = 709.78.
EXP_ARGUMENT_MAX = 709.0


class BetaRange(NamedTuple):
    """One supported interval [low, high] of the inverse temperature beta: what uses it and why
    it ends where it does."""

    low: float
    high: float
    used_by: str
    reason: str


BETA_RANGES = {
    "laws": BetaRange(
        1e-150,
        26.6,
        "the limit laws' scalars (x_+, theta1, a, b, mp_edge, the asymptotics), the population "
        "and MP-surrogate laws, conditional_covariance, `attnspec edge`",
        "above, 4 (e^(beta^2) - 1) ~ x_+ overflows float64; below, beta^2 leaves the normal "
        "float64 range",
    ),
    "nu_inf": BetaRange(
        1e-6,
        26.6,
        "nu_inf (NuInfinity, bulk_density) and the R-transform model (SymmetrisedLinearModel)",
        "below, nu_inf's component of mass 1 - 1/c (c > 1) at x ~ beta^4 / 2 is lost by the "
        "float64 quartic (it fails below beta ~ 1e-10), and G(s + i0) near s = 0, growing like "
        "beta^(-1/2), leaves the range of the R-transform quartic",
    ),
    "edge_cubic": BetaRange(
        1e-100,
        18.0,
        "the stationary cubic's coefficients and roots (edge_cubic_coefficients, edge_cubic_roots)",
        "above, the non-physical roots' candidate edges b (r + w)^2 g ~ a^2 / (b c) overflow "
        "float64; below (c < 1), the large root g ~ (1 - c) / (r c) does",
    ),
    "multihead": BetaRange(
        0.05,
        4.0,
        "the multi-head laws (MultiHeadLaw, TiedKeyValueLaw; paper D)",
        "the range the laws' continuation is tested on; paper D's regime is beta = O(1)",
    ),
    "gaussian_model": BetaRange(
        0.0,
        3.0,
        "paper C's Gaussian attention model (paperC.canonical.gaussian_model; beta > 0)",
        "its derived stable-rank reference integrates over log-normal weights exp(b Z) with "
        "b = beta sqrt(s), s = chi^2_d / d, which lognormal_row_moments takes in (0, 4]",
    ),
    "config": BetaRange(
        1e-150,
        10.0,
        "the betas of a preset (workflow/schemas) but paper C's Gaussian model's and paper D's",
        "the papers' regime is beta = O(1); the low end is the laws' (nu_inf's 1e-6 where a "
        "figure draws nu_inf)",
    ),
}
"""Every supported range of beta, checked by :func:`check_beta` ("laws") and
:func:`check_beta_in` (the narrower ones); the schemas' bounds are tested against it."""

BETA_MIN, BETA_MAX = BETA_RANGES["laws"].low, BETA_RANGES["laws"].high
RATIO_MIN = 1e-8
RATIO_MAX = 1e8

# A value shown in a message: lists and tuples beyond this many items show their first three and
# last two; any other text beyond MESSAGE_CHARACTERS is cut (a 3000-value list would fill a
# screen with one message).
MESSAGE_ITEMS = 8
MESSAGE_CHARACTERS = 200
_MESSAGE_DEPTH = 3


def shown(value, _depth: int = 0) -> str:
    """``repr(value)`` for a message, kept short: a list or tuple of more than MESSAGE_ITEMS
    items shows its first three and last two and its length, lists nested deeper than three
    levels show as ``[...]``, any other repr longer than MESSAGE_CHARACTERS is cut with its
    length given. Short values read exactly as their repr."""
    if not isinstance(value, list | tuple):
        text = repr(value)
        if len(text) <= MESSAGE_CHARACTERS:
            return text
        return f"{text[:MESSAGE_CHARACTERS]}... ({len(text)} characters)"
    opening, closing = "[]" if isinstance(value, list) else "()"
    if _depth == _MESSAGE_DEPTH:
        return f"{opening}...{closing}"
    long = len(value) > MESSAGE_ITEMS
    parts = [shown(item, _depth + 1) for item in (value[:3] if long else value)]
    if long:
        parts += ["...", *(shown(item, _depth + 1) for item in value[-2:])]
    single = "," if isinstance(value, tuple) and len(value) == 1 else ""
    text = f"{opening}{', '.join(parts)}{single}{closing}"
    return f"{text} ({len(value)} values)" if long else text


def check_real(value, name: str) -> float:
    """``value`` as a float (any real number, NaN and +-inf included: the caller bounds it);
    ValueError naming ``name`` if it is not a real number (a bool is not one: ``True`` would
    read as 1)."""
    if isinstance(value, bool | np.bool_):  # True would read as 1
        raise ValueError(f"{name} must be a real number, got {value!r}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {shown(value)}") from None


def check_positive(value, name: str) -> float:
    """``value`` as a float; ValueError unless it is a finite real number > 0 (not a bool).

    The samplers' beta, a softmax scale, a tolerance. The laws' beta has its own range:
    :func:`check_beta`.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a finite number > 0, got {shown(value)}")
    number = float(value)
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"{name} must be a finite number > 0, got {shown(value)}")
    return number


def check_nonnegative(value, name: str) -> float:
    """``value`` as a float; ValueError unless it is a finite real number >= 0 (not a bool): a
    strength that may be 0, such as the canonical model's spike strength kappa."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a finite number >= 0, got {shown(value)}")
    number = float(value)
    if not (math.isfinite(number) and number >= 0):
        raise ValueError(f"{name} must be a finite number >= 0, got {shown(value)}")
    return number


def beta_range_text(allow_zero: bool) -> str:
    """The supported beta values of the laws, as the error messages state them."""
    interval = f"[{BETA_MIN:g}, {BETA_MAX:g}]"
    return f"0 or in {interval}" if allow_zero else f"in {interval}"


def check_beta(beta, *, allow_zero: bool = False) -> float:
    """Return ``beta`` as a float after checking it is 0 (if allowed) or in [BETA_MIN, BETA_MAX]
    = [1e-150, 26.6]: the inverse temperature of the limit laws (attnspec.theory).

    Raises
    ------
    ValueError
        Naming beta and the supported range (beta = 0 when not allowed: degenerate law).
    """
    beta = check_real(beta, "beta (inverse temperature)")
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


def check_beta_in(beta: float, use: str, what: str) -> float:
    """``beta`` (a float already past :func:`check_beta`, or any real for "multihead") inside
    ``BETA_RANGES[use]``, else ValueError naming beta, ``what`` uses the range, the range and
    its reason."""
    low, high, _, reason = BETA_RANGES[use]
    beta = check_real(beta, "beta (inverse temperature)")
    if not low <= beta <= high:
        raise ValueError(
            f"beta (inverse temperature) must be in [{low:g}, {high:g}] for {what}, got "
            f"{beta!r} ({reason})"
        )
    return beta


def check_betas(beta: ArrayLike, *, allow_zero: bool = False) -> NDArray[np.float64]:
    """Vectorised :func:`check_beta`: a float64 array, every entry 0 (if allowed) or in
    [BETA_MIN, BETA_MAX], else ValueError (for the first unsupported entry)."""
    try:
        values = np.asarray(beta, dtype=np.float64)
    except (TypeError, ValueError):
        values = None
    if values is None or np.asarray(beta).dtype == bool:  # True would read as 1
        raise ValueError(f"beta (inverse temperature) must be real numbers, got {shown(beta)}")
    supported = (values >= BETA_MIN) & (values <= BETA_MAX)
    if allow_zero:
        supported |= values == 0
    if not np.all(supported):
        check_beta(values[~supported].ravel()[0], allow_zero=allow_zero)
    return values


def check_ratio(ratio) -> float:
    """Return ``ratio`` as a float after checking RATIO_MIN <= c <= RATIO_MAX = [1e-8, 1e8]
    (c = ell / d_qk of the limit laws), else ValueError."""
    ratio = check_real(ratio, "ratio c = ell / d_qk")
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


def check_count(value, name: str, low: int, high: int | None = None) -> int:
    """An integer in [low, high] (high None: no upper bound) as an int: sizes (n, ell, d, heads
    >= 1), top-k counts, draw and replicate indices (>= 0). bool is not an integer here; numpy
    integers are. ValueError otherwise, saying "an integer in [low, high]", "an integer >= low"
    or, for low = 0 without a bound, "a non-negative integer"."""
    if high is not None:
        allowed = f"an integer in [{low}, {high}]"
    elif low == 0:
        allowed = "a non-negative integer"
    else:
        allowed = f"an integer >= {low}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be {allowed}, got {shown(value)}")
    if value < low or (high is not None and value > high):
        raise ValueError(f"{name} must be {allowed}, got {shown(value)}")
    return int(value)


def check_choice(value, name: str, choices: tuple):
    """``value`` if it is one of ``choices`` (a sampler, mask, noise or profile name);
    ValueError listing them otherwise."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {shown(value)}")
    return value


def check_rng(rng, name: str = "rng") -> np.random.Generator:
    """A numpy Generator (e.g. from :func:`attnspec.seeding.rng_for`); ValueError otherwise."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"{name} must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def check_matrix(matrix, name: str, *, square: bool = False, min_rows: int = 1) -> np.ndarray:
    """A finite 2-D real array (square if asked, at least ``min_rows`` rows), integers converted
    to float64 (floating arrays are returned as they are); ValueError naming ``name``
    otherwise."""
    array = np.asarray(matrix)
    shape = "square " if square else ""
    if array.ndim != 2 or array.shape[0] < min_rows or array.shape[1] < 1:
        raise ValueError(
            f"{name} must be a {shape}2-D array with at least {min_rows} rows and 1 column, "
            f"got shape {array.shape}"
        )
    if square and array.shape[0] != array.shape[1]:
        raise ValueError(f"{name} must be square, got shape {array.shape}")
    if not is_real_dtype(array.dtype) or not all_finite(array):
        raise ValueError(f"{name} must hold finite real numbers, got dtype {array.dtype}")
    return array.astype(np.float64) if np.issubdtype(array.dtype, np.integer) else array


def check_fits_in_memory(n_bytes: float, what: str) -> None:
    """ValueError unless ``n_bytes``, the arrays a call would allocate (``what``: the arguments
    that set their size, and the arrays), fit in this machine's physical memory. Beyond it numpy
    raises a MemoryError that names no argument, or the system kills the process half-way."""
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    if n_bytes > memory:
        raise ValueError(
            f"{what} would need {n_bytes / 1e9:.3g} GB of memory, more than this machine has; "
            "allowed: sizes whose arrays fit in memory"
        )


def is_real_dtype(dtype) -> bool:
    """Integer or floating, not bool or complex."""
    return np.issubdtype(dtype, np.integer) or np.issubdtype(dtype, np.floating)


def all_finite(array: np.ndarray, rows_per_check: int = 1024) -> bool:
    """Whether every entry is finite, checked in blocks of rows (no temporary of the array's
    size: an ell x ell operand at ell = 32768 would need 1 GB of booleans)."""
    if array.ndim < 2:
        return bool(np.all(np.isfinite(array)))
    return all(
        np.all(np.isfinite(array[i : i + rows_per_check]))
        for i in range(0, array.shape[0], rows_per_check)
    )


def check_vector(vector, name: str) -> np.ndarray:
    """A non-empty 1-D array of finite real numbers, as float64; ValueError naming ``name``."""
    array = np.asarray(vector)
    if array.ndim != 1 or array.size < 1:
        raise ValueError(f"{name} must be a non-empty 1-D array, got shape {array.shape}")
    if not is_real_dtype(array.dtype) or not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must hold finite real numbers, got dtype {array.dtype}")
    return array.astype(np.float64)


def check_real_array(
    values: ArrayLike, name: str, *, allow_inf: bool = True
) -> NDArray[np.float64]:
    """``values`` (any shape) as a float64 array; ValueError naming ``name`` on NaN (and on
    +-inf if not ``allow_inf``) or on input that is not real numbers. The points x where a law
    is evaluated (+-inf allowed), finite arguments (``allow_inf=False``)."""
    try:
        array = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be real numbers, got {shown(values)}") from None
    bad = ~np.isfinite(array) if not allow_inf else np.isnan(array)
    if np.any(bad):
        allowed = "real numbers, not NaN (+-inf are allowed)" if allow_inf else "finite numbers"
        raise ValueError(f"{name} must be {allowed}, got {float(array[bad].ravel()[0])!r}")
    return array


def check_finite_complex_array(values: ArrayLike, name: str) -> NDArray[np.complex128]:
    """``values`` (any shape) as a complex128 array; ValueError naming ``name`` unless every
    entry is a finite complex number."""
    try:
        array = np.asarray(values, dtype=np.complex128)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be complex numbers, got {shown(values)}") from None
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be finite numbers (no NaN or inf)")
    return array


def check_levels(q: ArrayLike, name: str = "quantile levels q") -> NDArray[np.float64]:
    """Probability levels (any shape) as a float64 array, each in [0, 1] (NaN is refused by
    :func:`check_real_array`); ValueError naming ``name`` otherwise."""
    levels = check_real_array(q, name)
    if np.any((levels < 0) | (levels > 1)):
        raise ValueError(f"{name} must lie in [0, 1]")
    return levels


def check_samples(samples, name: str = "samples") -> NDArray[np.float64]:
    """A sample (any shape) flattened to a float64 array of at least one value, every value
    finite; ValueError naming ``name`` otherwise."""
    values = np.asarray(samples, dtype=np.float64).ravel()
    if values.size == 0 or not np.all(np.isfinite(values)):
        raise ValueError(f"{name} must be non-empty and finite")
    return values


def check_finite_output(array: np.ndarray, what: str, beta: float, bound: str) -> np.ndarray:
    """``array`` if every entry is finite; else ValueError saying that ``what`` overflows at this
    beta and which range (``bound``) is supported."""
    if not np.all(np.isfinite(array)):
        raise ValueError(
            f"beta = {beta!r}: {what} overflows float64; supported: {bound} (the exponent must "
            f"stay below {EXP_ARGUMENT_MAX:g})"
        )
    return array
