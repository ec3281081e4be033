"""The pretrained model as the workflow's jobs take it: its weights (sha256 verified), its
config (head width checked against :data:`attnspec.pretrained.loader.HEAD_WIDTH`) and the corpus
encoded by its own tokenizer, with the ids of its [CLS] and [SEP] tokens; nothing is
downloaded."""

import logging
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from attnspec.pretrained.bert import BertConfig
from attnspec.pretrained.loader import (
    HEAD_WIDTH,
    WEIGHTS_SHA256,
    load_model_config,
    load_tokenizer,
    load_weights,
    model_directory,
    read_corpus,
)
from attnspec.pretrained.passages import encode_documents, special_token_ids


class ModelAndCorpus(NamedTuple):
    weights: dict
    config: BertConfig
    documents: list[np.ndarray]
    cls_id: int
    sep_id: int


def load_model_and_corpus(corpus: Sequence[str]) -> ModelAndCorpus:
    """The bundled model's verified weights and config, and the token ids of each ``corpus``
    file; ValueError if the model's head width is not the one the workflow expects."""
    log = logging.getLogger("attnspec")
    directory = model_directory()
    weights = load_weights(directory)
    log.info("weights in %s verified (sha256 %s)", directory, WEIGHTS_SHA256)
    config = BertConfig.from_json(load_model_config(directory))
    if config.head_width != HEAD_WIDTH:
        raise ValueError(f"head width {config.head_width}, the workflow expects {HEAD_WIDTH}")
    tokenizer = load_tokenizer(directory)
    documents = encode_documents(tokenizer, read_corpus(corpus))
    return ModelAndCorpus(weights, config, documents, *special_token_ids(tokenizer))
