"""Paper A's batched simulation jobs: every draw of a batch equals the draw computed alone, one
draw is regenerable by a library call, and the replicate key re-keys every random output."""

import numpy as np
import pytest

from attnspec.models.gaussian_equivalent import STEPWISE_MODELS
from attnspec.papers.a.full_spectrum import (
    full_spectrum_draw,
    full_spectrum_draws,
    pack_draws,
    unpack_draws,
)
from attnspec.papers.a.perron import perron_draw, perron_draws, perron_sizes
from attnspec.papers.spectra import model_spectra, model_spectrum

POINT = dict(n_tokens=48, d_qk=48, beta=1.0, sampler="gaussian", d_model=None)
LITERAL = dict(n_tokens=32, d_qk=32, beta=0.5, sampler="literal", d_model=64)


@pytest.mark.parametrize("model", list(STEPWISE_MODELS))
def test_a_batch_holds_each_draw_bit_for_bit(model):
    batch = model_spectra(model, 3, **POINT)
    assert batch.shape == (3, 48)
    for draw in range(3):
        np.testing.assert_array_equal(batch[draw], model_spectrum(model, draw, **POINT))


def test_a_batch_of_the_literal_sampler_holds_each_draw_bit_for_bit():
    batch = model_spectra("attention", 2, **LITERAL)
    np.testing.assert_array_equal(batch[1], model_spectrum("attention", 1, **LITERAL))


def test_a_larger_batch_starts_with_the_smaller_one():
    np.testing.assert_array_equal(
        model_spectra("linear", 4, **POINT)[:2], model_spectra("linear", 2, **POINT)
    )


@pytest.mark.parametrize("model", list(STEPWISE_MODELS))
def test_replicate_one_differs_in_every_model_and_reruns_bit_identically(model):
    zero = model_spectra(model, 2, **POINT)
    np.testing.assert_array_equal(zero, model_spectra(model, 2, **POINT, replicate=0))
    one = model_spectra(model, 2, **POINT, replicate=1)
    np.testing.assert_array_equal(one, model_spectra(model, 2, **POINT, replicate=1))
    # sqrt(ell) A_perp u = 0: the attention spectrum ends with a structural zero (to rounding)
    random = slice(None, -1) if model == "attention" else slice(None)
    assert np.all(one[:, random] != zero[:, random])


def test_batch_arguments_are_checked():
    with pytest.raises(ValueError, match="draws"):
        model_spectra("linear", 0, **POINT)
    with pytest.raises(ValueError, match="model"):
        model_spectrum("softmax", 0, **POINT)


def test_full_spectrum_batch_holds_each_draw_and_survives_packing():
    batch = full_spectrum_draws(2, n_tokens=40, d_qk=40, beta=1.0)
    restored = unpack_draws(pack_draws(batch))
    for draw, result in enumerate(restored):
        alone = full_spectrum_draw(draw, n_tokens=40, d_qk=40, beta=1.0)
        assert list(result) == list(alone)
        for key in alone:
            np.testing.assert_array_equal(result[key], alone[key])
    one = full_spectrum_draws(2, n_tokens=40, d_qk=40, beta=1.0, replicate=1)
    for zero_draw, one_draw in zip(batch, one, strict=True):
        for key in ("squared_singular_values", "largest_entry"):
            assert np.all(zero_draw[key] != one_draw[key]), key
        assert zero_draw["top_values"][0] != one_draw["top_values"][0]
    again = full_spectrum_draws(2, n_tokens=40, d_qk=40, beta=1.0, replicate=1)
    for first, second in zip(one, again, strict=True):
        for key in first:
            np.testing.assert_array_equal(first[key], second[key])


def test_perron_batch_over_sizes_holds_each_draw_and_is_the_attention_draw():
    sizes = perron_sizes([32, 64], 1.0, 3)
    assert sizes["s1"].shape == (2, 3)
    for i, ell in enumerate((32, 64)):
        np.testing.assert_array_equal(sizes["s1"][i], perron_draws(ell, 1.0, 3)["s1"])
        s1, frobenius = perron_draw(ell, 1.0, 2)
        assert (s1, frobenius) == (sizes["s1"][i, 2], sizes["frobenius_squared"][i, 2])
    # ||A||_F^2 - 1 = ||A_perp||_F^2 is the sum of the squared singular values of the
    # attention draw of the spectrum job (the same Q, K), divided by ell.
    bulk = model_spectrum(
        "attention", 1, n_tokens=64, d_qk=64, beta=1.0, sampler="gaussian", d_model=None
    )
    assert np.sum(bulk) / 64 == pytest.approx(sizes["frobenius_squared"][1, 1] - 1.0, rel=1e-10)


def test_perron_replicate_one_differs_and_reruns_bit_identically():
    zero = perron_sizes([32, 64], 0.5, 2)
    one = perron_sizes([32, 64], 0.5, 2, replicate=1)
    for key in ("s1", "frobenius_squared"):
        assert np.all(one[key] != zero[key])
        np.testing.assert_array_equal(one[key], perron_sizes([32, 64], 0.5, 2, replicate=1)[key])
