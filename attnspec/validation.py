"""Argument checks for the library's entry points: each failure is one ValueError that names the
argument and the range the function supports (models, spectra; the laws of attnspec.theory
check their (beta, c) with attnspec.theory.parameters)."""

import math
import numbers

import numpy as np

# exp(x) is finite in float64 for x < log(max float) = 709.78.
EXP_ARGUMENT_MAX = 709.0


def check_positive_beta(beta, name: str = "beta") -> float:
    """beta as a float; ValueError unless it is a finite number > 0."""
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real):
        raise ValueError(f"{name} must be a finite number > 0, got {beta!r}")
    value = float(beta)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name} must be a finite number > 0, got {beta!r}")
    return value


def check_count(value, name: str, low: int, high: int | None = None) -> int:
    """An integer in [low, high] (high None: no upper bound); ValueError otherwise."""
    allowed = f"an integer in [{low}, {high}]" if high is not None else f"an integer >= {low}"
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    if value < low or (high is not None and value > high):
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return int(value)


def check_rng(rng, name: str = "rng") -> np.random.Generator:
    """A numpy Generator (e.g. from :func:`attnspec.seeding.rng_for`); ValueError otherwise."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"{name} must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def check_matrix(matrix, name: str, *, square: bool = False, min_rows: int = 1) -> np.ndarray:
    """A finite 2-D float64 array (square if asked, at least ``min_rows`` rows); ValueError
    naming ``name`` otherwise."""
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
    return array


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


def check_finite_output(array: np.ndarray, what: str, beta: float, bound: str) -> np.ndarray:
    """``array`` if every entry is finite; else ValueError saying that ``what`` overflows at this
    beta and which range (``bound``) is supported."""
    if not np.all(np.isfinite(array)):
        raise ValueError(
            f"beta = {beta!r}: {what} overflows float64; supported: {bound} (the exponent must "
            f"stay below {EXP_ARGUMENT_MAX:g})"
        )
    return array
