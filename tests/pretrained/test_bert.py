"""The numpy forward pass against the model's reference attention (fixture from transformers)."""

import numpy as np
import pytest
from conftest import REPO

from attnspec.pretrained import bert, loader, passages

FIXTURE = REPO / "tests" / "fixtures" / "minilm_reference_attention.npz"


@pytest.fixture(scope="module")
def model():
    directory = loader.model_directory()
    config = bert.BertConfig.from_json(loader.load_model_config(directory))
    return loader.load_weights(directory), config, loader.load_tokenizer(directory)


@pytest.fixture(scope="module")
def reference():
    with np.load(FIXTURE) as data:
        return {key: data[key] for key in data.files}


def test_fixture_was_made_from_the_verified_weights(reference):
    assert str(reference["weights_sha256"]) == loader.WEIGHTS_SHA256


def test_tokenisation_matches_the_reference_tokenizer(model, reference):
    _, _, tokenizer = model
    (document,) = passages.encode_documents(tokenizer, [str(reference["text"])])
    cls_id, sep_id = passages.special_token_ids(tokenizer)
    (ids,) = passages.split_into_passages(document, 512, cls_id=cls_id, sep_id=sep_id)
    np.testing.assert_array_equal(ids, reference["input_ids"])


def test_attention_matches_the_reference_within_1e_5(model, reference):
    weights, config, _ = model
    attention = bert.attention_probabilities(
        bert.queries_keys(weights, config, reference["input_ids"])
    )
    expected = reference["attention"].astype(np.float64)
    assert attention[reference["layers"]].shape == expected.shape
    np.testing.assert_allclose(attention[reference["layers"]], expected, rtol=0, atol=1e-5)


def test_queries_keys_shapes_and_head_split(model, reference):
    weights, config, _ = model
    ids = reference["input_ids"]
    qk = bert.queries_keys(weights, config, ids)
    assert qk.queries.shape == (6, 12, ids.size, 32) == qk.keys.shape
    # Head h of layer 0 is columns 32h..32h+31 of the query projection of the embeddings.
    x = bert.layer_norm(
        weights["embeddings.word_embeddings.weight"][ids]
        + weights["embeddings.position_embeddings.weight"][: ids.size]
        + weights["embeddings.token_type_embeddings.weight"][0],
        weights["embeddings.LayerNorm.weight"],
        weights["embeddings.LayerNorm.bias"],
        config.layer_norm_eps,
    )
    projected = (
        x @ weights["encoder.layer.0.attention.self.query.weight"].T
        + weights["encoder.layer.0.attention.self.query.bias"]
    )
    np.testing.assert_allclose(qk.queries[0, 3], projected[:, 96:128], atol=1e-12)


def test_a_passage_longer_than_512_positions_is_refused(model):
    weights, config, _ = model
    with pytest.raises(ValueError, match="at most 512 tokens"):
        bert.queries_keys(weights, config, np.full(513, 1000))


def test_gelu_is_the_exact_erf_form():
    x = np.array([-1.0, 0.0, 1.0])
    np.testing.assert_allclose(bert.gelu(x), [-0.15865525393145707, 0.0, 0.8413447460685429])
