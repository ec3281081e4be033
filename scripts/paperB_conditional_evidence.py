"""Rows B.3/Sigma_f and B.3/Sigma_G: their evidence (attnspec.papers.b.declared_tests) from the
conditional draws of one results root.

Params: conditional (config section), replicate.
"""

from attnspec.papers.b.conditional import (
    conditional_evidence,
    conditional_series,
    group_by_size,
)
from attnspec.papers.draw_batches import unstack_draws
from attnspec.workflow.io import configure_logging, load_npz, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.conditional
    records = [r for path in smk.input.draws for r in unstack_draws(load_npz(path))]
    sizes, results = group_by_size(records)
    evidence = conditional_evidence(conditional_series(cfg["beta"], cfg["ratio"], sizes, results))
    save_evidence(smk.output[0], evidence)
    for item in evidence:
        log.info("%s (replicate %d): %s", item.row_id, smk.params.replicate, item.quantity)


main(snakemake)  # noqa: F821
