"""Paper D spectra (all n eigenvalues, zeros included) and the finite-size comparison metrics."""

import numpy as np
import pytest
from scipy import stats

from attnspec.multihead import (
    MultiHeadShape,
    TiedKeyValueLaw,
    comparison_spectra,
    kolmogorov_to_law,
    kolmogorov_two_sample,
    relative_wasserstein,
    row_spectrum,
    sample_weights,
    student_t_interval,
)
from attnspec.seeding import rng_for

PARAMS = {"test": "multihead-spectra"}


@pytest.mark.parametrize("columns", [7, 20, 40])
def test_row_spectrum_is_all_n_eigenvalues_of_the_gram_matrix(columns):
    """n = 20 rows: the n eigenvalues of s M M^T, from the smaller Gram (n - p zeros padded)."""
    M = rng_for(PARAMS, columns).standard_normal((20, columns))
    values = row_spectrum(M, 0.5)
    assert values.shape == (20,)
    np.testing.assert_allclose(values, np.linalg.eigvalsh(0.5 * M @ M.T)[::-1], atol=1e-12)
    if columns < 20:
        assert np.all(values[columns:] == 0.0)


def test_comparison_spectra_have_n_values_each_on_the_scale_of_theorem_3_1():
    shape = MultiHeadShape(48, 64, 4, 12, 12, 36)
    w = sample_weights(shape, PARAMS, 0)
    soft, gaussian = comparison_spectra(w, 1.0, rng_for(PARAMS, 0, "noise"))
    assert soft.shape == gaussian.shape == (48,)
    # d_O < n: n - d_O exact zeros on both sides.
    assert np.all(soft[36:] == 0) and np.all(gaussian[36:] == 0)
    assert np.all(np.diff(soft) <= 0) and np.all(np.diff(gaussian) <= 0)


def test_relative_wasserstein_and_ks():
    a, b = np.array([3.0, 1.0, 2.0, 0.0]), np.array([0.5, 2.0, 1.0, 3.5])
    # Sorted: (0, 1, 2, 3) vs (0.5, 1, 2, 3.5): mean |diff| = 0.25.
    assert relative_wasserstein(a, b, 2.0) == pytest.approx(0.125)
    assert kolmogorov_two_sample(a, b) == pytest.approx(0.25)
    assert kolmogorov_two_sample(a, a) == 0.0
    with pytest.raises(ValueError, match="equal size"):
        relative_wasserstein(a, b[:3], 1.0)
    with pytest.raises(ValueError, match="mean must be finite and > 0"):
        relative_wasserstein(a, b, 0.0)


def test_ks_to_a_law_with_an_atom_counts_exact_zeros_against_the_atom():
    """Without output projection and gamma_K = 1/2, K = V has an atom 1/2 at 0: a sample with
    exactly that many zeros is near the law; one with the zeros moved off 0 is not."""
    law = TiedKeyValueLaw(1.0, 4, 0.5)
    assert law.atom == pytest.approx(0.5)
    continuous = law.quantile(np.linspace(0.5, 1.0, 401)[1:-1])
    sample = np.concatenate([np.zeros(continuous.size), continuous])
    assert kolmogorov_to_law(sample, law) < 0.01
    shifted = np.concatenate([np.full(continuous.size, law.support()[0][0]), continuous])
    assert kolmogorov_to_law(shifted, law) > 0.4


def test_student_t_interval_matches_scipy():
    values = np.array([1.66, 1.2, 1.9, 1.5, 1.8, 1.4, 1.7, 2.1, 1.3, 1.6])
    interval = student_t_interval(values)
    low, high = stats.t.interval(0.95, 9, loc=values.mean(), scale=stats.sem(values))
    assert interval.mean == pytest.approx(values.mean())
    assert interval.half_width == pytest.approx(0.5 * (high - low))
    assert interval.draws == 10
    with pytest.raises(ValueError, match="at least 2"):
        student_t_interval([1.0])
