"""Evidence of the rows A.4 (nu_inf is not Marchenko-Pastur) from the A3 summary."""

from attnspec.papers.a.bulk_laws import not_marchenko_pastur_evidence_rows, unpack_panels
from attnspec.workflow.io import configure_logging, load_npz, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    panels = unpack_panels(load_npz(smk.input[0]))
    evidence = not_marchenko_pastur_evidence_rows(panels, n_tokens=smk.params.n_tokens)
    save_evidence(smk.output[0], evidence)
    log.info("%s", ", ".join(item.row_id for item in evidence))


main(snakemake)  # noqa: F821
