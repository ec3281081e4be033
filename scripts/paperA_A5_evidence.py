"""Evidence of the rows A.1 and A.5 from the A5 distance table."""

from attnspec.papers.a.linearisation import linearisation_evidence, summarise_distances
from attnspec.workflow.io import configure_logging, load_npz, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    evidence = linearisation_evidence(summarise_distances(load_npz(smk.input[0])))
    save_evidence(smk.output[0], evidence)
    log.info("%s", ", ".join(item.row_id for item in evidence))


main(snakemake)  # noqa: F821
