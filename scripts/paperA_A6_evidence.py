"""Evidence of the rows A.2 (s_1(A) -> 1) from the Perron simulations of every beta."""

from attnspec.papers.a.perron import perron_evidence_rows, series_of_sizes
from attnspec.workflow.io import configure_logging, load_npz, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    series = [
        series_of_sizes(beta, load_npz(path))
        for beta, path in zip(smk.params.betas, smk.input, strict=True)
    ]
    evidence = perron_evidence_rows(series)
    save_evidence(smk.output[0], evidence)
    log.info("%s", ", ".join(item.row_id for item in evidence))


main(snakemake)  # noqa: F821
