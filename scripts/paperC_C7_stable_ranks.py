"""Figure C7, model: stable ranks of every head of all-MiniLM-L6-v2 under both masks, on the
first full passages of n tokens of the corpus.

Wildcards: tokens (passage length n, [CLS] and [SEP] included), passages (at most this many;
fewer when the corpus has fewer full passages of n tokens). The weights' sha256 is verified
before use; nothing is downloaded.
"""

from attnspec.papers.c.pretrained_stable_rank import model_stable_ranks
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
from attnspec.pretrained.passages import (
    encode_documents,
    leading_full_passages,
    special_token_ids,
)
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    directory = model_directory()
    weights = load_weights(directory)
    log.info("weights in %s verified (sha256 %s)", directory, WEIGHTS_SHA256)
    config = BertConfig.from_json(load_model_config(directory))
    if config.head_width != HEAD_WIDTH:
        raise ValueError(f"head width {config.head_width}, the workflow expects {HEAD_WIDTH}")
    tokenizer = load_tokenizer(directory)
    documents = encode_documents(tokenizer, read_corpus(smk.input.corpus))
    cls_id, sep_id = special_token_ids(tokenizer)
    passages = leading_full_passages(
        documents,
        int(smk.wildcards.tokens),
        int(smk.wildcards.passages),
        cls_id=cls_id,
        sep_id=sep_id,
    )
    log.info("%d full passages of %d tokens", *passages.shape)
    ranks = model_stable_ranks(weights, config, passages)
    save_npz(smk.output[0], token_ids=passages, stable_rank=ranks)


main(snakemake)  # noqa: F821
