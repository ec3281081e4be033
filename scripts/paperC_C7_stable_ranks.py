"""Figure C7, model: stable ranks of every head of all-MiniLM-L6-v2 under both masks, on the
first full passages of n tokens of the corpus.

Wildcards: tokens (passage length n, [CLS] and [SEP] included), passages (at most this many;
fewer when the corpus has fewer full passages of n tokens). The weights' sha256 is verified
before use; nothing is downloaded.
"""

from attnspec.papers.c.pretrained_stable_rank import model_stable_ranks
from attnspec.pretrained.model import load_model_and_corpus
from attnspec.pretrained.passages import leading_full_passages
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    model = load_model_and_corpus(smk.input.corpus)
    passages = leading_full_passages(
        model.documents,
        int(smk.wildcards.tokens),
        int(smk.wildcards.passages),
        cls_id=model.cls_id,
        sep_id=model.sep_id,
    )
    log.info("%d full passages of %d tokens", *passages.shape)
    ranks = model_stable_ranks(model.weights, model.config, passages)
    save_npz(smk.output[0], token_ids=passages, stable_rank=ranks)


main(snakemake)  # noqa: F821
