"""Paper D spectra (all n eigenvalues, zeros included), the floor and the recombined Gaussian
equivalents of rows D.1, and the finite-size comparison metrics."""

import numpy as np
import pytest

from attnspec.multihead import (
    MultiHeadShape,
    TiedKeyValueLaw,
    comparison_spectra,
    draw_comparison_spectra,
    gaussian_equivalent_output,
    kolmogorov_to_law,
    kolmogorov_two_sample,
    relative_wasserstein,
    row_spectrum,
    sample_weights,
)
from attnspec.multihead.spectra import (
    FLOOR_STREAM,
    Coefficients,
    draw_floor_comparison,
    gram_matrix,
    gram_spectrum,
    paper_coefficients,
    recombined_spectra,
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


def _direct_gaussian_equivalent(weights, rng, score, noise):
    """MHA^G with variances (score, noise) of Y_r's two terms, the projected noise drawn head by
    head from ``rng`` as gaussian_equivalent_output draws it (so the same W_r V_r)."""
    shape = weights.shape
    n, width = shape.n_tokens, shape.value_width
    blocks = np.empty((n, shape.heads * width))
    for head in range(shape.heads):
        Q, K, V = weights.query(head), weights.key(head), weights.value(head)
        upper = np.linalg.qr(V, mode="r")
        noisy = rng.standard_normal((n, upper.shape[0])) @ upper
        block = np.sqrt(score) * Q @ (K.T @ V) / np.sqrt(shape.d_k) + np.sqrt(noise) * noisy
        blocks[:, head * width : (head + 1) * width] = block / np.sqrt(n)
    return blocks @ weights.output


@pytest.mark.parametrize(
    "shape",
    [
        MultiHeadShape(40, 64, 4, 8, 8, 56),
        MultiHeadShape(40, 64, 4, 10, 10, 24, kv_heads=1),  # d_O < n: the d_O x d_O Gram side
        MultiHeadShape(40, 64, 4, 10, 10, 48, tied=True),
    ],
)
def test_recombined_spectra_are_the_gaussian_equivalents_with_the_same_scores_and_noise(shape):
    """Recombined from the score term and MHA^G: the paper's coefficients give MHA^G's spectrum
    back; beta 1 % off is gaussian_equivalent_output at that beta with the same noise stream;
    other (score, noise) pairs are the direct construction with the same W_r."""
    weights = sample_weights(shape, PARAMS, 1)
    n, beta = shape.n_tokens, 1.0
    gaussian = gaussian_equivalent_output(weights, beta, rng_for(PARAMS, 1, "noise"))
    wanted = [
        paper_coefficients(beta),
        paper_coefficients(1.01 * beta),
        Coefficients(0.0, np.e - 1),
        Coefficients(0.5, np.e - 1.5),
    ]
    found = recombined_spectra(weights, gaussian, gram_matrix(gaussian), beta, wanted)
    scale = row_spectrum(gaussian, 1 / n)[0]
    np.testing.assert_allclose(found[0], row_spectrum(gaussian, 1 / n), atol=1e-12 * scale)
    higher = gaussian_equivalent_output(weights, 1.01 * beta, rng_for(PARAMS, 1, "noise"))
    np.testing.assert_allclose(found[1], row_spectrum(higher, 1 / n), atol=1e-12 * scale)
    for pair, spectrum in zip(wanted[2:], found[2:], strict=True):
        direct = _direct_gaussian_equivalent(weights, rng_for(PARAMS, 1, "noise"), *pair)
        np.testing.assert_allclose(spectrum, row_spectrum(direct, 1 / n), atol=1e-12 * scale)
    assert not np.allclose(found[2], found[0], atol=1e-3 * scale)


def test_floor_draw_keeps_the_comparison_and_adds_an_independent_gaussian_equivalent():
    shape = MultiHeadShape(36, 48, 3, 12, 12, 40, kv_heads=1)
    wanted = {"no score": Coefficients(0.0, np.e - 1)}
    record = draw_floor_comparison(shape, 1.0, PARAMS, 2, wanted)
    assert list(record) == ["softmax", "gaussian", "floor", "no score"]
    softmax, gaussian = draw_comparison_spectra(shape, 1.0, PARAMS, 2)
    np.testing.assert_array_equal(record["softmax"], softmax)
    np.testing.assert_array_equal(record["gaussian"], gaussian)
    weights = sample_weights(shape, PARAMS, 2)
    floor = gaussian_equivalent_output(weights, 1.0, rng_for(PARAMS, 2, FLOOR_STREAM))
    np.testing.assert_array_equal(record["floor"], row_spectrum(floor, 1 / 36))
    assert not np.any(record["floor"] == record["gaussian"])
    assert gram_spectrum(gram_matrix(floor), 36, 1 / 36) == pytest.approx(record["floor"])
