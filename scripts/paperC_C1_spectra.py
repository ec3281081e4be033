"""Figure C1, simulate: every singular value of S = diag(sigma) and of its row softmax A."""

from attnspec.papers.c.degeneration import spectra_job
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.spectra
    result = spectra_job(
        cfg["n_tokens"], smk.params.model, cfg["profiles"], replicate=smk.params.replicate
    )
    save_npz(smk.output[0], **result)
    for key in (k for k in result if k.endswith("softmax_difference")):
        log.info("%s = %.3g", key, float(result[key]))


main(snakemake)  # noqa: F821
