"""Paper D outputs: MHA(X), MHA_perp(X) and the same-weights Gaussian equivalent MHA^G(X)."""

import numpy as np
import pytest
from scipy.special import softmax

from attnspec.distances import kolmogorov_distance
from attnspec.models.sampling import attention_matrix
from attnspec.multihead import (
    MultiHeadShape,
    attention_output,
    gaussian_equivalent_output,
    row_spectrum,
    sample_weights,
)
from attnspec.multihead.output import centred_attention, score_term_output
from attnspec.seeding import rng_for
from attnspec.spectra.dense import bulk_squared_singular_values

PARAMS = {"test": "multihead-output"}
BETA = 1.0
THETA1, THETA2 = np.expm1(BETA**2), BETA**2


def explicit_heads(w, beta):
    """A_r = softmax(beta Q_r K_r^T / sqrt(d_K)) for every head, from scipy's softmax."""
    d_k = w.shape.d_k
    return [
        softmax(beta * w.query(r) @ w.key(r).T / np.sqrt(d_k), axis=1) for r in range(w.shape.heads)
    ]


@pytest.mark.parametrize("kv_heads", [1, 2, 6])
def test_centred_heads_have_zero_row_sums(kv_heads):
    shape = MultiHeadShape(40, 40, 6, 8, 8, 12, kv_heads=kv_heads)
    w = sample_weights(shape, PARAMS, 0)
    for r in range(6):
        centred = centred_attention(w.query(r), w.key(r), 1.5)
        np.testing.assert_allclose(centred.sum(axis=1), 0.0, atol=1e-14)
        np.testing.assert_allclose(centred + 1 / 40, explicit_heads(w, 1.5)[r], atol=1e-15)


@pytest.mark.parametrize(
    "shape",
    [
        MultiHeadShape(30, 50, 3, 7, 5, 11),
        MultiHeadShape(30, 50, 4, 7, 5, 11, kv_heads=2),
        MultiHeadShape(30, 50, 3, 7, 7, 11, tied=True),
        MultiHeadShape(30, 50, 3, 7, 5),
        MultiHeadShape(30, 50, 3, 7),
    ],
    ids=["independent", "grouped", "tied", "no-output", "no-values"],
)
def test_outputs_equal_the_explicit_formulas(shape):
    """MHA(X) = [A_1 V_1, ..., A_h V_h] W^O and MHA_perp with A_r - 1 1^T / n (3.1); without
    values V_r = sqrt(n / h) I, without an output projection W^O = I."""
    w = sample_weights(shape, PARAMS, 4)
    n, h = shape.n_tokens, shape.heads
    heads = explicit_heads(w, BETA)
    for centred in (False, True):
        blocks = []
        for r, A in enumerate(heads):
            A = A - 1 / n if centred else A
            V = np.sqrt(n / h) * np.eye(n) if w.value(r) is None else w.value(r)
            blocks.append(A @ V)
        expected = np.hstack(blocks)
        if w.output is not None:
            expected = expected @ w.output
        np.testing.assert_allclose(
            attention_output(w, BETA, centred=centred), expected, rtol=1e-12, atol=1e-12
        )


def test_centring_removes_a_rank_one_common_row():
    """MHA(X) - MHA_perp(X) = 1 (1^T [V_1, ..., V_h] W^O) / n: identical rows, rank one."""
    shape = MultiHeadShape(36, 36, 4, 9, 6, 20)
    w = sample_weights(shape, PARAMS, 1)
    difference = attention_output(w, BETA, centred=False) - attention_output(w, BETA)
    common = np.hstack([w.value(r) for r in range(4)]).sum(axis=0) @ w.output / 36
    np.testing.assert_allclose(difference, np.tile(common, (36, 1)), atol=1e-12)


@pytest.mark.parametrize(
    "shape",
    [MultiHeadShape(30, 50, 3, 7, 5, 11), MultiHeadShape(30, 50, 3, 7, 7, 11, tied=True)],
    ids=["independent", "tied"],
)
def test_gaussian_equivalent_is_built_from_the_same_weights(shape):
    """MHA^G = [Y_1^G V_1, ...] W^O, Y_r^G = (sqrt(theta2) S_r + sqrt(theta1 - theta2) W_r) /
    sqrt(n) (3.2)-(3.3), with S_r, V_r, W^O of the given weights and W_r (literal noise) or
    W_r V_r = Z_r R_r (projected noise, V_r = U_r R_r) drawn from the given stream in order."""
    w = sample_weights(shape, PARAMS, 2)
    n, d_k = shape.n_tokens, shape.d_k
    for noise in ("literal", "projected"):
        generated = gaussian_equivalent_output(w, BETA, rng_for(PARAMS, 2, "noise"), noise=noise)
        rng = rng_for(PARAMS, 2, "noise")
        blocks = []
        for r in range(shape.heads):
            scores = w.query(r) @ w.key(r).T / np.sqrt(d_k)
            V = w.value(r)
            if noise == "literal":
                noise_times_v = rng.standard_normal((n, n)) @ V
            else:
                upper = np.linalg.qr(V, mode="r")
                noise_times_v = rng.standard_normal((n, upper.shape[0])) @ upper
            signal = np.sqrt(THETA2) * scores @ V
            blocks.append((signal + np.sqrt(THETA1 - THETA2) * noise_times_v) / np.sqrt(n))
        np.testing.assert_allclose(generated, np.hstack(blocks) @ w.output, rtol=1e-12, atol=1e-12)


def test_gaussian_equivalent_depends_on_the_weights_not_only_on_their_law():
    """Same noise stream, different weights: the outputs differ; same weights: identical."""
    shape = MultiHeadShape(30, 50, 3, 7, 5, 11)
    w0, w1 = sample_weights(shape, PARAMS, 0), sample_weights(shape, PARAMS, 1)
    a = gaussian_equivalent_output(w0, BETA, rng_for(PARAMS, 0, "noise"))
    b = gaussian_equivalent_output(w0, BETA, rng_for(PARAMS, 0, "noise"))
    c = gaussian_equivalent_output(w1, BETA, rng_for(PARAMS, 0, "noise"))
    assert np.array_equal(a, b) and not np.allclose(a, c)


def test_projected_and_literal_noise_give_the_same_law():
    """Per-draw means of x, x^2 of the comparison spectrum within 4.5 standard errors and the
    pooled two-sample KS below 1.95 sqrt(2 / N) (level 1e-3, conservative for rigid spectra),
    14 draws each at n = 64, h = 4, d_K = d_V = 16, d_O = 48."""
    shape = MultiHeadShape(64, 64, 4, 16, 16, 48)
    spectra = {}
    for noise in ("literal", "projected"):
        rows = []
        for draw in range(14):
            w = sample_weights(shape, {**PARAMS, "noise": noise}, draw)
            rng = rng_for({**PARAMS, "noise": noise}, draw, "noise")
            rows.append(row_spectrum(gaussian_equivalent_output(w, BETA, rng, noise=noise), 1 / 64))
        spectra[noise] = np.array(rows)
    first, second = spectra["literal"], spectra["projected"]
    for power in (1, 2):
        a, b = np.mean(first**power, axis=1), np.mean(second**power, axis=1)
        assert abs(a.mean() - b.mean()) <= 4.5 * np.sqrt(a.var(ddof=1) / 14 + b.var(ddof=1) / 14)
    assert kolmogorov_distance(first, second) <= 1.95 * np.sqrt(2 / first.size)


def test_one_head_without_projections_is_paper_a_bulk():
    """h = 1, no V/O: the spectrum is that of sqrt(n) A_perp (paper A), computed independently
    by attnspec.spectra.dense from the same Q, K."""
    shape = MultiHeadShape(80, 80, 1, 40)
    w = sample_weights(shape, PARAMS, 0)
    mine = row_spectrum(attention_output(w, BETA))
    paper_a = bulk_squared_singular_values(attention_matrix(w.query(0), w.key(0), BETA))
    np.testing.assert_allclose(mine, paper_a, rtol=1e-9, atol=1e-12)


def test_unknown_noise_raises():
    w = sample_weights(MultiHeadShape(8, 8, 2, 4, 4, 4), PARAMS, 0)
    with pytest.raises(ValueError, match="noise must be one of"):
        gaussian_equivalent_output(w, BETA, rng_for(PARAMS, 0), noise="white")


@pytest.mark.parametrize(
    "shape", [MultiHeadShape(20, 20, 2, 5), MultiHeadShape(20, 24, 4, 6, 6, 10, kv_heads=2)]
)
def test_the_gaussian_equivalent_is_its_score_term_plus_its_noise_term(shape):
    """MHA^G - sqrt(theta2) M_S is the noise term alone: sqrt(theta1 - theta2) [W_r / sqrt(h)]
    without values, sqrt(theta1 - theta2) [W_r V_r / sqrt(n)] W^O with them (the same draws)."""
    w = sample_weights(shape, PARAMS, 4)
    n = shape.n_tokens
    noise = rng_for(PARAMS, 4, "noise")
    difference = gaussian_equivalent_output(w, BETA, noise) - np.sqrt(THETA2) * score_term_output(w)
    rng = rng_for(PARAMS, 4, "noise")
    if shape.d_v is None:
        blocks = [rng.standard_normal((n, n)) / np.sqrt(shape.heads) for _ in range(shape.heads)]
        expected = np.hstack(blocks)
    else:
        blocks = []
        for r in range(shape.heads):
            upper = np.linalg.qr(w.value(r), mode="r")
            blocks.append(rng.standard_normal((n, upper.shape[0])) @ upper / np.sqrt(n))
        expected = np.hstack(blocks) @ w.output
    np.testing.assert_allclose(difference, np.sqrt(THETA1 - THETA2) * expected, atol=1e-12)
