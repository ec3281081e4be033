"""Figure C5, model: per-layer, per-head Q and K of all-MiniLM-L6-v2 on the corpus passages.

Wildcards: tokens (passage length n, [CLS] and [SEP] included), passages (their number).
The weights' sha256 is verified before use; nothing is downloaded.
"""

from attnspec.pretrained.bert import BertConfig, passages_queries_keys
from attnspec.pretrained.loader import (
    HEAD_WIDTH,
    WEIGHTS_SHA256,
    load_model_config,
    load_tokenizer,
    load_weights,
    model_directory,
    read_corpus,
)
from attnspec.pretrained.passages import encode_documents, full_passages, special_token_ids
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
    for path, ids in zip(smk.input.corpus, documents, strict=True):
        log.info("%s: %d tokens", path, ids.size)
    cls_id, sep_id = special_token_ids(tokenizer)
    passages = full_passages(
        documents,
        int(smk.wildcards.tokens),
        int(smk.wildcards.passages),
        cls_id=cls_id,
        sep_id=sep_id,
    )
    queries, keys = passages_queries_keys(weights, config, passages)
    save_npz(smk.output[0], token_ids=passages, queries=queries, keys=keys)
    log.info("queries and keys %s", queries.shape)


main(snakemake)  # noqa: F821
