"""Figure C5, model: per-layer, per-head Q and K of all-MiniLM-L6-v2 on the corpus passages.

Wildcards: tokens (passage length n, [CLS] and [SEP] included), passages (their number).
The weights' sha256 is verified before use; nothing is downloaded.
"""

from attnspec.pretrained.bert import passages_queries_keys
from attnspec.pretrained.model import load_model_and_corpus
from attnspec.pretrained.passages import full_passages
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    model = load_model_and_corpus(smk.input.corpus)
    for path, ids in zip(smk.input.corpus, model.documents, strict=True):
        log.info("%s: %d tokens", path, ids.size)
    passages = full_passages(
        model.documents,
        int(smk.wildcards.tokens),
        int(smk.wildcards.passages),
        cls_id=model.cls_id,
        sep_id=model.sep_id,
    )
    queries, keys = passages_queries_keys(model.weights, model.config, passages)
    save_npz(smk.output[0], token_ids=passages, queries=queries, keys=keys)
    log.info("queries and keys %s", queries.shape)


main(snakemake)  # noqa: F821
