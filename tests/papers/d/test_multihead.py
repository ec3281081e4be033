"""Paper D's workflow draws: table D.2 configurations (with the floor and the mutants of rows
D.1), the layers of figures D2 and D3, batches equal to their draws computed alone, replicates,
the memory model and the config checks."""

import numpy as np
import pytest

from attnspec.multihead import limit_mean
from attnspec.multihead.spectra import draw_comparison_spectra
from attnspec.papers.d.declared_tests import PUBLIC_MODELS
from attnspec.papers.d.multihead import (
    MUTANT_PREFIX,
    SCHEMES,
    check_sharing_settings,
    draw_peak_mb,
    heads_draw,
    heads_draws,
    heads_shape,
    public_model_draw,
    public_model_draws,
    public_model_params,
    sharing_draw,
    sharing_draws,
    sharing_shape,
    sharing_size_step,
    sharing_widths,
)
from attnspec.papers.d.public_models import TABLE_D2_MODELS, public_model
from attnspec.papers.registry import TESTS

SETTINGS = {
    "schemes": list(SCHEMES),
    "n_tokens": [16, 32],
    "heads": 4,
    "kv_groups": 2,
    "gamma_k": 2.0,
    "gamma_o": 1.5,
    "beta": 1.0,
}


def test_table_d2_holds_the_registry_models_with_the_papers_dimensions():
    assert set(PUBLIC_MODELS) <= set(TABLE_D2_MODELS)
    falcon, kayyam = public_model("falcon-7b").shape, public_model("kayyam-1.2b").shape
    assert (falcon.heads, falcon.kv_heads, falcon.sharing, falcon.d_out) == (71, 1, "MQA", 4544)
    assert kayyam.tied and kayyam.sharing == "K=V" and kayyam.gamma_k == 1.0
    # appendix D.1's limiting means at beta = 1: (d_O/n)(e - 1), and (d_O/n)(e - 1 + n/d_K)
    bert = public_model("bert-base").shape
    assert limit_mean(bert, 1.0) == pytest.approx(1.5 * (np.e - 1))
    assert limit_mean(kayyam, 1.0) == pytest.approx(np.e - 1 + 2048 / 64)
    dino = public_model("dinov3-l16").shape
    assert dino.gamma_k == pytest.approx(16 * 64 / 261)
    assert dino.gamma_o == pytest.approx(1024 / 261)
    with pytest.raises(ValueError, match="model must be one of dinov3-l16"):
        public_model("bert-large")


def test_sharing_shapes_have_the_schemes_kv_groups_and_fixed_ratios():
    shapes = {s: sharing_shape(s, 32, 4, 2, 2.0, 1.5) for s in SCHEMES}
    assert [shapes[s].kv_heads for s in SCHEMES] == [4, 1, 2, 4]
    assert [shapes[s].sharing for s in SCHEMES] == ["none", "MQA", "GQA", "K=V"]
    for shape in shapes.values():
        assert (shape.gamma_k, shape.gamma_v, shape.gamma_o) == (2.0, 2.0, 1.5)
        assert shape.d_model >= shape.n_tokens
    with pytest.raises(ValueError, match="gamma_k \\* n_tokens / heads must be a whole number"):
        sharing_widths(31, 4, 2.0, 1.5)
    with pytest.raises(ValueError, match="kv_groups must divide heads = 4"):
        sharing_shape("gqa", 32, 4, 3, 2.0, 1.5)
    with pytest.raises(ValueError, match="scheme must be one of"):
        sharing_shape("shared", 32, 4, 2, 2.0, 1.5)


def test_config_check_names_the_section():
    check_sharing_settings(SETTINGS)
    with pytest.raises(ValueError, match="config key paperD.sharing: gamma_k \\* n_tokens"):
        check_sharing_settings({**SETTINGS, "n_tokens": [16, 33]})
    with pytest.raises(ValueError, match="config key paperD.sharing: gamma_o \\* n_tokens"):
        check_sharing_settings({**SETTINGS, "n_tokens": [16, 30], "gamma_o": 1.25})
    with pytest.raises(ValueError, match="config key paperD.sharing: kv_groups"):
        check_sharing_settings({**SETTINGS, "kv_groups": 4})


def test_heads_shapes_are_the_attention_stage_and_the_whole_layer():
    attention, layer = (heads_shape(stage, 32, 4, 16, 24) for stage in ("attention", "output"))
    assert attention.d_v is None and attention.d_out is None and attention.gamma_k == 2.0
    assert (layer.d_v, layer.d_out, layer.gamma_o) == (16, 24, 0.75)
    with pytest.raises(ValueError, match="stage must be one of"):
        heads_shape("values", 32, 4, 16, 24)


def assert_records_equal(first, second):
    assert list(first) == list(second)
    for key in first:
        np.testing.assert_array_equal(first[key], second[key])


@pytest.mark.parametrize("family", ["public", "heads", "sharing"])
def test_a_batch_is_its_draws_computed_alone_and_replicates_differ(family):
    """Bit for bit: draw d of a batch equals the single draw d; a rerun is identical; replicate
    1 changes every array."""
    single, batch = {
        "public": (
            lambda d, r=0: public_model_draw("dinov3-l16", 1.0, d, replicate=r),
            lambda r=0: public_model_draws("dinov3-l16", 1.0, 3, replicate=r),
        ),
        "heads": (
            lambda d, r=0: heads_draw(24, 3, 8, 32, 1.0, d, replicate=r),
            lambda r=0: heads_draws(24, 3, 8, 32, 1.0, 3, replicate=r),
        ),
        "sharing": (
            lambda d, r=0: sharing_draw("gqa", SETTINGS, 32, d, replicate=r),
            lambda r=0: sharing_draws("gqa", SETTINGS, 32, 3, replicate=r),
        ),
    }[family]
    stacked = batch()
    assert int(stacked.pop("batch_draws")) == 3
    for d in range(3):
        assert_records_equal({k: v[d] for k, v in stacked.items()}, single(d))
    again = batch()
    again.pop("batch_draws")
    assert_records_equal(stacked, again)
    other = batch(1)
    other.pop("batch_draws")
    for key, values in stacked.items():
        assert values.shape == other[key].shape
        assert not np.any(values == other[key]), key
    assert not np.array_equal(stacked[next(iter(stacked))][0], stacked[next(iter(stacked))][1])


def test_public_model_draws_keep_their_spectra_and_add_the_floor_and_the_mutants():
    """softmax and gaussian are the numbers of draw_comparison_spectra (the streams of the draws
    before the floor existed); the floor and one spectrum per registry alternative are added."""
    record = public_model_draw("dinov3-l16", 1.0, 1)
    names = [a.name for a in TESTS["D.1/dinov3-l16/w1"].alternatives]
    assert list(record) == ["softmax", "gaussian", "floor"] + [MUTANT_PREFIX + n for n in names]
    shape, params = public_model("dinov3-l16").shape, public_model_params("dinov3-l16", 1.0)
    softmax, gaussian = draw_comparison_spectra(shape, 1.0, params, 1)
    np.testing.assert_array_equal(record["softmax"], softmax)
    np.testing.assert_array_equal(record["gaussian"], gaussian)
    assert all(values.shape == (261,) for values in record.values())


def test_schemes_have_their_own_streams():
    first = sharing_draw("independent", SETTINGS, 16, 0)["softmax"]
    assert not np.array_equal(first, sharing_draw("tied", SETTINGS, 16, 0)["softmax"])


def test_progress_is_called_after_every_draw():
    seen = []
    sharing_draws("mqa", SETTINGS, 16, 2, progress=seen.append)
    assert seen == [0, 1]


def test_memory_model_grows_with_the_layer_and_is_near_the_measured_peaks():
    """Measured peaks (ru_maxrss) of the public-model draws with the floor and the mutants of
    rows D.1: Falcon-7B 592 MB, GPT-3 175B 2447 MB, Kayyam 1.2B 400 MB (the model adds 20 % and
    the interpreter; never below the measurement)."""
    for model, measured in (("falcon-7b", 592), ("gpt3-175b", 2447), ("kayyam-1.2b", 400)):
        estimate = draw_peak_mb(public_model(model).shape, floor=True)
        assert measured <= estimate <= 1.45 * measured, (model, estimate)
    falcon = public_model("falcon-7b").shape
    assert draw_peak_mb(falcon) < draw_peak_mb(falcon, floor=True)
    small = draw_peak_mb(sharing_shape("independent", 128, 8, 2, 4.0, 2.0))
    large = draw_peak_mb(sharing_shape("independent", 512, 8, 2, 4.0, 2.0))
    assert small < large


@pytest.mark.parametrize(
    ("heads", "gamma_k", "gamma_o", "step"),
    [(8, 2.0, 1.0, 4), (4, 2.0, 1.5, 2), (6, 1.0, 1.0, 6), (4, 0.5, 0.25, 8), (3, 1.5, 1.0, 2)],
)
def test_sharing_size_step_is_the_least_spacing_of_whole_widths(heads, gamma_k, gamma_o, step):
    assert sharing_size_step(heads, gamma_k, gamma_o) == step
    for n in range(1, 4 * step + 1):
        whole = (gamma_k * n / heads).is_integer() and (gamma_o * n).is_integer()
        assert whole == (n % step == 0), n
        if whole:
            sharing_widths(n, heads, gamma_k, gamma_o)


@pytest.mark.parametrize(("heads", "gamma_k"), [(0, 1.0), (4, 0.0), (4, float("nan"))])
def test_sharing_size_step_refuses_impossible_settings(heads, gamma_k):
    with pytest.raises(ValueError, match="heads|gamma_k"):
        sharing_size_step(heads, gamma_k, 1.0)
