"""Inverse participation ratio: 1/ell for a flat vector, 1 for a point mass, scale-free."""

import numpy as np
import pytest

from attnspec.spectra.localisation import inverse_participation_ratio


def test_limits_flat_vector_and_point_mass():
    ell = 250
    vectors = np.zeros((ell, 3))
    vectors[:, 0] = 1 / np.sqrt(ell)
    vectors[7, 1] = -1.0
    vectors[:2, 2] = [1.0, 1.0]
    np.testing.assert_allclose(inverse_participation_ratio(vectors), [1 / ell, 1.0, 0.5])


def test_invariant_to_scale_and_sign_and_accepts_one_vector():
    v = np.random.default_rng(0).standard_normal(100)
    assert inverse_participation_ratio(-3.0 * v) == pytest.approx(inverse_participation_ratio(v))
    assert inverse_participation_ratio(v).shape == ()


def test_a_gaussian_vector_is_delocalised_with_ipr_near_three_over_ell():
    # E v^4 / (E v^2)^2 = 3 for Gaussian entries, so IPR ~ 3 / ell.
    ell = 20_000
    ipr = inverse_participation_ratio(np.random.default_rng(1).standard_normal((ell, 4)))
    np.testing.assert_allclose(ipr * ell, 3.0, rtol=0.1)
