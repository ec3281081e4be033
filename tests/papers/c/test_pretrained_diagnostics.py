"""Eigen-angle, score-spectrum and stable-rank diagnostics (figures C5, C6, table C-T2) and their
replicate streams."""

import numpy as np
import pytest

from attnspec.models.canonical import haar_orthogonal
from attnspec.papers.c import pretrained as diag


def test_eigen_angles_of_haar_are_uniform_and_of_the_identity_are_not():
    rng = np.random.default_rng(7)
    n = 400
    haar = diag.uniform_angle_distance(diag.eigen_angles(haar_orthogonal(n, rng)))
    identity = diag.uniform_angle_distance(diag.eigen_angles(np.eye(n)))
    critical = 1.63 / np.sqrt(n)  # 1 % Kolmogorov critical value for n iid angles
    assert haar < critical
    assert identity == pytest.approx(1.0)


def test_eigen_angles_of_a_rotation_by_theta_are_theta():
    theta = 0.7
    rotation = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    np.testing.assert_allclose(diag.eigen_angles(rotation), [theta, theta])


def test_score_svd_reproduces_the_scores_with_the_sign_convention():
    rng = np.random.default_rng(1)
    queries, keys = rng.standard_normal((2, 50, 8))
    left, values, right = diag.score_svd(queries, keys)
    assert left.shape == (50, 8) and right.shape == (50, 8)
    np.testing.assert_allclose((left * values) @ right.T, queries @ keys.T / np.sqrt(8), atol=1e-12)
    pivots = np.argmax(np.abs(left), axis=0)
    assert np.all(left[pivots, np.arange(8)] > 0)
    np.testing.assert_allclose(
        values, np.linalg.svd(queries @ keys.T / np.sqrt(8), compute_uv=False)[:8]
    )


def test_rank_deficient_scores_keep_only_the_determined_directions():
    rng = np.random.default_rng(2)
    queries = rng.standard_normal((20, 3)) @ rng.standard_normal((3, 8))  # rank 3
    assert diag.score_svd(queries, rng.standard_normal((20, 8)))[1].size == 3


@pytest.mark.parametrize("convention", diag.NULL_SPACE_CONVENTIONS)
def test_completion_is_orthogonal_and_keeps_the_given_columns(convention):
    rng = np.random.default_rng(3)
    columns = np.linalg.qr(rng.standard_normal((30, 5)))[0]
    full = diag.complete_orthogonal(columns, convention, rng)
    np.testing.assert_allclose(full.T @ full, np.eye(30), atol=1e-12)
    np.testing.assert_array_equal(full[:, :5], columns)


def test_nearest_identity_completion_of_identity_columns_is_the_identity():
    columns = np.eye(12)[:, :4]
    full = diag.complete_orthogonal(columns, "nearest_identity", np.random.default_rng(0))
    np.testing.assert_allclose(full, np.eye(12), atol=1e-12)


def test_null_space_convention_changes_the_eigen_angle_law():
    rng = np.random.default_rng(4)
    columns = haar_orthogonal(200, rng)[:, :20]
    haar = diag.complete_orthogonal(columns, "haar", rng)
    near = diag.complete_orthogonal(columns, "nearest_identity", rng)
    assert diag.uniform_angle_distance(diag.eigen_angles(haar)) < 0.1
    assert diag.uniform_angle_distance(diag.eigen_angles(near)) > 0.5


def test_energy_fractions_and_stable_rank():
    np.testing.assert_allclose(diag.energy_fractions(np.array([3.0, 4.0]), 4), [0.36, 1, 1, 1])
    assert diag.stable_rank(np.eye(6)) == pytest.approx(6.0)
    assert diag.stable_rank(np.full((6, 6), 1 / 6)) == pytest.approx(1.0)


def test_head_diagnostics_of_isotropic_scores_look_haar():
    rng = np.random.default_rng(5)
    queries, keys = rng.standard_normal((2, 32, 32))
    result = diag.head_diagnostics(queries, keys, rng)
    assert result["rank"] == 32
    assert result["angles"].shape == (2, 2, 32)
    # Full rank: no completion, so both conventions agree.
    np.testing.assert_array_equal(result["angles"][:, 0], result["angles"][:, 1])
    assert np.all(result["angle_distance"] < 1.63 / np.sqrt(32))
    assert result["stable_rank"].shape == (2,)


def test_model_diagnostics_are_deterministic():
    rng = np.random.default_rng(6)
    queries, keys = rng.standard_normal((2, 2, 1, 2, 40, 8))
    first = diag.model_diagnostics(queries, keys)
    second = diag.model_diagnostics(queries, keys)
    assert first["angles"].shape == (2, 1, 2, 2, 2, 40)
    for key in first:
        np.testing.assert_array_equal(first[key], second[key])


def test_replicates_rekey_the_random_completions_and_the_reference():
    rng = np.random.default_rng(8)
    queries = rng.standard_normal((1, 1, 1, 20, 4))  # n > d: Haar completions are drawn
    keys = rng.standard_normal((1, 1, 1, 20, 4))
    default = diag.model_diagnostics(queries, keys)
    np.testing.assert_array_equal(
        default["angles"], diag.model_diagnostics(queries, keys, replicate=0)["angles"]
    )
    first = diag.model_diagnostics(queries, keys, replicate=1)
    np.testing.assert_array_equal(
        first["angles"], diag.model_diagnostics(queries, keys, replicate=1)["angles"]
    )
    assert not np.array_equal(
        first["angles"][..., diag.HAAR, :], default["angles"][..., diag.HAAR, :]
    )
    # the score spectrum does not depend on a random stream
    np.testing.assert_array_equal(first["energy"], default["energy"])
    reference = diag.isotropic_diagnostics(8, 8, 3)
    again = diag.isotropic_diagnostics(8, 8, 3, replicate=1)
    np.testing.assert_array_equal(
        again["angle_distance"], diag.isotropic_diagnostics(8, 8, 3, replicate=1)["angle_distance"]
    )
    for key in ("angle_distance", "energy", "stable_rank"):
        assert not np.array_equal(reference[key], again[key])


def test_eigenvalues_plus_and_minus_one_give_exactly_0_and_pi_after_rounding():
    # A rotation of angle 1e-9 (below arccos's resolution near 1) and a reflection: the
    # eigenvalues +-1 must not come out as 0 or 1e-8 by the last bit of the CPU's LAPACK.
    rng = np.random.default_rng(3)
    basis = haar_orthogonal(6, rng)
    tiny = 1e-9
    block = np.eye(6)
    block[:2, :2] = [[np.cos(tiny), -np.sin(tiny)], [np.sin(tiny), np.cos(tiny)]]
    block[5, 5] = -1.0
    angles = diag.eigen_angles(basis @ block @ basis.T)
    assert np.count_nonzero(angles == 0.0) == 5
    assert angles[-1] == np.pi
