"""attnspec.intervals: the Student-t half-width and the interval of a mean over draws."""

import numpy as np
import pytest
from scipy import stats

from attnspec.intervals import student_t_half_width, student_t_interval


def test_student_t_interval_matches_scipy():
    values = np.array([1.66, 1.2, 1.9, 1.5, 1.8, 1.4, 1.7, 2.1, 1.3, 1.6])
    interval = student_t_interval(values)
    low, high = stats.t.interval(0.95, 9, loc=values.mean(), scale=stats.sem(values))
    assert interval.mean == pytest.approx(values.mean())
    assert interval.half_width == pytest.approx(0.5 * (high - low))
    assert interval.draws == 10
    with pytest.raises(ValueError, match="at least 2"):
        student_t_interval([1.0])
    with pytest.raises(ValueError, match=r"level must be in \(0, 1\)"):
        student_t_interval(values, level=1.0)


def test_student_t_interval_is_bit_identical_to_paper_ds_former_formula():
    """Paper D's intervals were t.ppf(0.5 * (1 + level), n - 1) * s / sqrt(n); the half-width
    takes t at 0.5 + level / 2, the same float64 (halving is exact), then (t s) / sqrt(n)."""
    rng = np.random.default_rng(20261206)
    for level in (0.95, *rng.uniform(0.01, 0.99, 20)):
        assert 0.5 * (1 + level) == 0.5 + level / 2
    for size in (2, 3, 10, 57, 400):
        for _ in range(20):
            values = rng.gamma(2.0, 0.3, size)
            former = stats.t.ppf(0.5 * (1 + 0.95), size - 1) * values.std(ddof=1) / np.sqrt(size)
            assert student_t_interval(values).half_width == float(former)


def test_half_width_is_nan_without_degrees_of_freedom():
    assert np.isnan(student_t_half_width(1.0, 0))
    assert student_t_half_width(2.0, 9) == pytest.approx(2.0 * stats.t.ppf(0.975, 9))
