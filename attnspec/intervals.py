"""Student-t intervals: the one half-width t_{(1 + level)/2, dof} x standard error behind every
95 % t interval of the package (a mean's, Welch's for a difference of means, a fitted slope's),
and the interval of a mean over draws (paper D, appendix D): mean +- t_{N-1} s / sqrt(N)."""

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from attnspec.validation import check_real

CONFIDENCE = 0.95


def student_t_half_width(
    standard_error: ArrayLike, dof: ArrayLike, level: float = CONFIDENCE
) -> np.ndarray:
    """t_{(1 + level)/2, dof} x ``standard_error``, elementwise over arrays (a float64 array, 0-d
    for scalars). NaN where ``dof`` <= 0 or NaN: a sample too small for an interval, which the
    caller reads as no interval. ``level`` in (0, 1)."""
    level = check_real(level, "level")
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    from scipy import stats  # lazy: jobs that never call it skip the import

    return np.asarray(stats.t.ppf(0.5 + level / 2, dof) * standard_error, dtype=np.float64)


class Interval(NamedTuple):
    """Mean over draws and the half-width of its Student-t interval."""

    mean: float
    half_width: float
    draws: int


def student_t_interval(values, level: float = CONFIDENCE) -> Interval:
    """mean +- t_{N-1, (1 + level)/2} s / sqrt(N) over N >= 2 finite values, s the sample
    standard deviation (ddof 1); ValueError for fewer or non-finite values, or level not in
    (0, 1)."""
    values = np.ravel(np.asarray(values, dtype=np.float64))
    if values.size < 2 or not np.all(np.isfinite(values)):
        raise ValueError(f"need at least 2 finite values, got {values.size}")
    half = student_t_half_width(values.std(ddof=1), values.size - 1, level) / np.sqrt(values.size)
    return Interval(float(values.mean()), float(half), int(values.size))
