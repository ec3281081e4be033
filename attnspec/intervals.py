"""Student-t intervals: the one half-width t_{(1 + level)/2, dof} x standard error behind every
95 % t interval of the package (a mean's, Welch's for a difference of means, a fitted slope's)."""

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
