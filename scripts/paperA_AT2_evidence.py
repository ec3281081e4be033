"""Evidence of the row A.3 (Gaussian equivalence) from the A-T2 pair distances."""

from attnspec.papers.a.gaussian_equivalence import equivalence_evidence
from attnspec.workflow.io import configure_logging, load_npz, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    evidence = equivalence_evidence(load_npz(smk.input[0]), beta=smk.params.beta)
    save_evidence(smk.output[0], [evidence])
    log.info("%s", evidence.row_id)


main(snakemake)  # noqa: F821
