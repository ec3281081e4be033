"""Rows B.1, B.2 and B.4/c=<c>: their evidence (attnspec.papers.b.declared_tests) from the sticking
draws of one results root.

Params: sticking, ratio_scan (config sections), replicate.
"""

from attnspec.papers.b.sticking_evidence import sticking_evidence
from attnspec.papers.b.sticking_summary import collect_series
from attnspec.papers.draw_batches import unstack_draws
from attnspec.workflow.io import configure_logging, load_npz, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    records = [r for path in smk.input.draws for r in unstack_draws(load_npz(path))]
    evidence = sticking_evidence(
        collect_series(records),
        sticking_sizes=smk.params.sticking["n_tokens"],
        ratio_scan_sizes=smk.params.ratio_scan["n_tokens"],
        ratio_scan_betas=smk.params.ratio_scan["betas"],
    )
    save_evidence(smk.output[0], evidence)
    for item in evidence:
        log.info("%s (replicate %d): %s", item.row_id, smk.params.replicate, item.quantity)


main(snakemake)  # noqa: F821
