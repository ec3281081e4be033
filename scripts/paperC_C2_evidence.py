"""Evidence of claim C.2 (registry rows C.2/...): the median bulk singular value of A per draw
and n, from the exact counts of figure C2's job."""

from attnspec.papers.c.degeneration_evidence import bulk_evidence
from attnspec.workflow.io import configure_logging, load_npz, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.bulk
    evidence = bulk_evidence(
        load_npz(smk.input.counts),
        cfg["n_tokens"],
        spikes=smk.params.model["spikes"],
        profiles=cfg["profiles"],
    )
    save_evidence(smk.output[0], evidence)
    for item in evidence:
        log.info("%s: %s (%d draws)", item.row_id, item.quantity, item.draws)


main(snakemake)  # noqa: F821
