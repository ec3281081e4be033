"""Paper D's finite-size comparison metrics (appendix D).

Relative W1: the mean absolute difference of the ordered eigenvalues of two spectra of equal
size (softmax and Gaussian equivalent from the same weights), divided by the common limiting
mean. KS: the largest absolute difference of the two empirical cdfs, and of a spectrum to a law
with an atom at 0. Their Student-t intervals over draws are
:func:`attnspec.intervals.student_t_interval`; the Kolmogorov distance between two limit laws is
:func:`attnspec.distances.law_kolmogorov_distance`.
"""

import numpy as np

from attnspec.distances import kolmogorov_distance
from attnspec.validation import check_samples


def relative_wasserstein(first, second, mean: float) -> float:
    """mean_k |first_(k) - second_(k)| / mean over the sorted values (equal sizes)."""
    first, second = np.sort(np.ravel(first)), np.sort(np.ravel(second))
    if first.size != second.size or first.size == 0:
        raise ValueError(
            f"spectra must be non-empty and of equal size, got {first.size}, {second.size}"
        )
    if not (np.isfinite(mean) and mean > 0):
        raise ValueError(f"mean must be finite and > 0, got {mean!r}")
    return float(np.mean(np.abs(first - second)) / mean)


def kolmogorov_two_sample(first, second) -> float:
    """sup_x |F_first(x) - F_second(x)| of the empirical cdfs."""
    return kolmogorov_distance(first, np.asarray(second, dtype=np.float64))


def per_draw_comparison(softmax, gaussian, mean: float) -> tuple[np.ndarray, np.ndarray]:
    """(relative W1, KS) of each draw: rows of ``softmax`` against the same rows of
    ``gaussian`` (shape (draws, n) each), W1 over the limiting mean ``mean``."""
    softmax, gaussian = np.atleast_2d(softmax), np.atleast_2d(gaussian)
    if softmax.shape != gaussian.shape:
        raise ValueError(f"spectra must have equal shapes, got {softmax.shape}, {gaussian.shape}")
    pairs = list(zip(softmax, gaussian, strict=True))
    w1 = np.array([relative_wasserstein(a, b, mean) for a, b in pairs])
    ks = np.array([kolmogorov_two_sample(a, b) for a, b in pairs])
    return w1, ks


def kolmogorov_to_law(samples, law) -> float:
    """sup_x |F_n(x) - F(x)| for a law with an atom ``law.atom`` at 0 and a continuous part.

    At every sample value v both one-sided limits count: F_n(v) against F(v) and F_n(v-) against
    F(v-), where F(0-) = 0 and F(v-) = F(v) for v > 0 (exact zeros in the sample meet the atom).
    """
    x = np.sort(check_samples(samples))
    values, counts = np.unique(x, return_counts=True)
    right = np.cumsum(counts) / x.size
    left = right - counts / x.size
    cdf = np.asarray(law.cdf(values), dtype=np.float64)
    cdf_left = np.where(values > 0, cdf, 0.0)
    return float(max(np.max(np.abs(right - cdf)), np.max(np.abs(left - cdf_left))))
