"""The canonical score model of paper C and the explicit row softmax of a diagonal matrix."""

import numpy as np
import pytest

from attnspec.models.canonical import (
    bidirectional_norm_squared_approximation,
    bidirectional_stable_rank_approximation,
    canonical_scores,
    diagonal_softmax,
    gaussian_score_singular_values,
    haar_orthogonal,
    isotropic_scores,
    spike_positions,
)
from attnspec.models.softmax import MASKS, row_softmax

PROFILES = ("zeros", "iid", "gaussian")


def scores(n, profile, seed=0, kappa=2.0, placement="spread"):
    return canonical_scores(
        n,
        spikes=3,
        kappa=kappa,
        placement=placement,
        profile=profile,
        bulk_scale=1.0,
        rng=np.random.default_rng(seed),
    )


@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("profile", PROFILES)
def test_explicit_softmax_equals_generic_softmax_of_the_diagonal(mask, profile):
    sigma = scores(120, profile)
    explicit = diagonal_softmax(sigma, mask).dense()
    np.testing.assert_allclose(explicit, row_softmax(np.diag(sigma), mask=mask), atol=1e-15)
    np.testing.assert_allclose(explicit.sum(axis=1), 1.0, atol=1e-14)


def test_explicit_softmax_stays_finite_for_huge_scores():
    softmax = diagonal_softmax(np.array([800.0, -800.0, 0.0, 50.0]), "causal")
    dense = softmax.dense()
    assert np.all(np.isfinite(dense))
    np.testing.assert_allclose(dense.sum(axis=1), 1.0)
    assert dense[0, 0] == 1.0 and dense[3, 3] == pytest.approx(1.0)


def test_spike_positions_are_explicit():
    np.testing.assert_array_equal(spike_positions(12, 3, "spread"), [2, 6, 10])
    np.testing.assert_array_equal(spike_positions(12, 3, "end"), [9, 10, 11])
    np.testing.assert_array_equal(spike_positions(12, 3, "start"), [0, 1, 2])
    sigma = scores(64, "zeros", placement="end")
    np.testing.assert_allclose(sigma[-3:], 2.0 * np.log(64))
    assert np.count_nonzero(sigma) == 3


def test_gaussian_profile_is_normalised_and_sorted():
    values = gaussian_score_singular_values(400, 1.0, np.random.default_rng(1))
    assert np.all(np.diff(values) <= 0)
    assert np.mean(values**2) == pytest.approx(1.0, rel=0.05)
    rank_deficient = gaussian_score_singular_values(400, 4.0, np.random.default_rng(1))
    assert np.count_nonzero(rank_deficient) == 100


@pytest.mark.parametrize("mask", MASKS)
def test_structured_products_and_frobenius_norm(mask):
    softmax = diagonal_softmax(scores(90, "iid"), mask)
    dense = softmax.dense()
    x = np.random.default_rng(2).standard_normal((90, 3))
    np.testing.assert_allclose(softmax.matmat(x), dense @ x, atol=1e-14)
    np.testing.assert_allclose(softmax.rmatmat(x), dense.T @ x, atol=1e-14)
    np.testing.assert_allclose(softmax.matmat(x[:, 0]), dense @ x[:, 0], atol=1e-14)
    assert softmax.frobenius_squared() == pytest.approx(np.sum(dense**2), rel=1e-13)


@pytest.mark.parametrize("mask", MASKS)
@pytest.mark.parametrize("profile", PROFILES)
def test_inertia_counts_equal_dense_counts(mask, profile):
    softmax = diagonal_softmax(scores(300, profile, seed=3), mask)
    squared = np.linalg.svd(softmax.dense(), compute_uv=False) ** 2
    thresholds = np.geomspace(1e-10, 10.0, 80)
    expected = [(squared < t).sum() for t in thresholds]
    np.testing.assert_array_equal(softmax.squared_singular_value_counts(thresholds), expected)


@pytest.mark.parametrize("mask", MASKS)
def test_top_singular_values_match_dense_svd_with_degenerate_spikes(mask):
    softmax = diagonal_softmax(scores(400, "zeros"), mask)  # symmetric spikes: near-degenerate
    expected = np.linalg.svd(softmax.dense(), compute_uv=False)[:6] ** 2
    values, vectors = softmax.top_squared_singular_values(6, return_vectors=True)
    np.testing.assert_allclose(values, expected, atol=1e-12)
    dense = softmax.dense()
    np.testing.assert_allclose(
        np.linalg.norm(dense @ vectors, axis=0) ** 2, values, rtol=1e-8, atol=1e-12
    )


def test_cesaro_matrix_frobenius_norm_is_the_harmonic_number():
    np.testing.assert_allclose(
        diagonal_softmax(np.zeros(4), "causal").dense(),
        np.tril(np.ones((4, 4))) / np.arange(1, 5)[:, None],
    )
    for n in (10, 1000, 100_000):
        cesaro = diagonal_softmax(np.zeros(n), "causal")
        assert cesaro.frobenius_squared() == pytest.approx(np.sum(1.0 / np.arange(1, n + 1)))


def test_cesaro_norm_rises_towards_two_slowly():
    """Hardy: ||C_n|| < 2, increasing to 2; the deficit 2 - ||C_n|| is O(1/log^2 n), below the
    continuum (Mellin) estimate 4 pi^2 / log^2 n, and still above 0.1 at n = 2^16."""
    ns = [2**6, 2**10, 2**14, 2**16]
    norms = [
        np.sqrt(diagonal_softmax(np.zeros(n), "causal").top_squared_singular_values(1)[0])
        for n in ns
    ]
    assert np.all(np.diff(norms) > 0)
    assert norms[-1] < 2.0
    deficits = 2.0 - np.array(norms)
    assert np.all(deficits * np.log(ns) ** 2 < 4 * np.pi**2)
    assert deficits[-1] > 0.1


def test_spikes_above_kappa_one_keep_their_diagonal_entry():
    n = 4096
    for kappa, kept in ((2.0, True), (0.5, False)):
        sigma = scores(n, "zeros", kappa=kappa)
        diagonal = diagonal_softmax(sigma, "bidirectional").diagonal[
            spike_positions(n, 3, "spread")
        ]
        assert np.all(diagonal > 0.99) if kept else np.all(diagonal < 0.05)


def test_haar_factor_is_orthogonal_and_isotropic_scores_keep_the_singular_values():
    rng = np.random.default_rng(4)
    U = haar_orthogonal(50, rng)
    np.testing.assert_allclose(U.T @ U, np.eye(50), atol=1e-13)
    sigma = np.abs(scores(50, "iid"))
    S, left, right = isotropic_scores(sigma, rng)
    np.testing.assert_allclose(np.linalg.svd(S, compute_uv=False), np.sort(sigma)[::-1], atol=1e-12)
    np.testing.assert_allclose(S @ right[:, 7], sigma[7] * left[:, 7], atol=1e-12)


def test_haar_sign_fix_makes_the_diagonal_mean_zero():
    """Without the sign fix, diag(Q) of numpy's QR is biased; Haar has E Q_11 = 0."""
    rng = np.random.default_rng(5)
    corners = [haar_orthogonal(4, rng)[0, 0] for _ in range(4000)]
    assert abs(np.mean(corners)) < 0.03


def test_unknown_profile_mask_or_placement_is_rejected():
    with pytest.raises(ValueError):
        scores(10, "uniform")
    with pytest.raises(ValueError):
        diagonal_softmax(np.zeros(3), "sliding")
    with pytest.raises(ValueError):
        spike_positions(10, 2, "middle")


def test_top_values_are_bit_identical_between_calls():
    """ARPACK restarts draw from a seeded generator: near-zero values (zeros bulk, bidirectional,
    exactly rank r + 1) are reproducible too, not only the leading ones."""
    sigma = canonical_scores(
        1024,
        spikes=3,
        kappa=2.0,
        placement="spread",
        profile="zeros",
        bulk_scale=1.0,
        rng=np.random.default_rng(1),
    )
    softmax = diagonal_softmax(sigma, "bidirectional")
    first = softmax.top_squared_singular_values(10)
    assert np.array_equal(first, softmax.top_squared_singular_values(10))


def test_bidirectional_stable_rank_approximation_is_exact_for_the_zeros_bulk():
    """Zero bulk: delta_i = 0 off the spikes, so the 2 x 2 reduction of A A^T is exact."""
    for n in (256, 4096, 65536):
        sigma = scores(n, "zeros")
        softmax = diagonal_softmax(sigma, "bidirectional")
        exact = softmax.frobenius_squared() / softmax.top_squared_singular_values(1)[0]
        approximation = bidirectional_stable_rank_approximation(
            sigma, spike_positions(n, 3, "spread")
        )
        assert approximation == pytest.approx(exact, rel=1e-10)


def test_bidirectional_stable_rank_approaches_r_plus_one_like_the_derived_law():
    """iid bulk: the approximation's error is O(1/n) (n x error shrinks), ||A||^2 - 1 ~ sqrt(r/n)
    and the stable rank (r + 1) / (1 + sqrt(r / n)) up to O(1/n)."""
    errors = []
    for n in (1024, 16384, 131072):
        sigma = scores(n, "iid", seed=7)
        softmax = diagonal_softmax(sigma, "bidirectional")
        top = softmax.top_squared_singular_values(1)[0]
        exact = softmax.frobenius_squared() / top
        errors.append(
            n
            * abs(
                exact
                - bidirectional_stable_rank_approximation(sigma, spike_positions(n, 3, "spread"))
            )
        )
        rows = spike_positions(n, 3, "spread")
        gap = softmax.diagonal[rows] - softmax.off_diagonal[rows]
        approximation = bidirectional_norm_squared_approximation(n, 3, float(np.mean(gap)))
        assert top == pytest.approx(approximation, abs=2.0 / n)
        assert (top - 1.0) / np.sqrt(3 / n) == pytest.approx(1.0, abs=np.sqrt(3 / n))
        assert exact == pytest.approx(4.0 / (1.0 + np.sqrt(3 / n)), abs=20.0 / n)
    assert errors[-1] < errors[0] < 1.0


def test_norm_approximation_of_fully_kept_spikes():
    """delta_s = 1: lambda = 1 - eps/2 + sqrt(eps - 3 eps^2 / 4), eps = r / n."""
    eps = 3 / 1000
    expected = 1 - eps / 2 + np.sqrt(eps - 0.75 * eps**2)
    assert bidirectional_norm_squared_approximation(1000, 3, 1.0) == pytest.approx(expected)
