"""Rows D.1/<model>/published-w1, published-ks (paper D's claim) and D.1/<model>/w1, ks (beyond
the paper): their evidence (attnspec.papers.d.declared_tests) from the draws at each judged table
D.2 configuration of one results root (softmax, Gaussian equivalent, floor and the wrong Gaussian
equivalents of each draw).

Params: models (the registry's ids, in the order of the inputs), beta, replicate.
"""

from attnspec.papers.d.evidence import public_model_evidence
from attnspec.workflow.io import configure_logging, load_npz, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    evidence = []
    for model, path in zip(smk.params.models, smk.input.draws, strict=True):
        evidence += public_model_evidence(model, load_npz(path), smk.params.beta)
    save_evidence(smk.output[0], evidence)
    for item in evidence:
        log.info("%s (replicate %d): %s", item.row_id, smk.params.replicate, item.note)


main(snakemake)  # noqa: F821
