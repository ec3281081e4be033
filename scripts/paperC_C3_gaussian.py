"""Figure C3, simulate: stable rank of the Gaussian attention model (both masks) at one ell."""

from attnspec.papers.c.degeneration import gaussian_model_job
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    configure_logging(smk.log[0])
    cfg = smk.params.gaussian_model
    save_npz(
        smk.output[0],
        **gaussian_model_job(
            int(smk.wildcards.n_tokens),
            cfg["beta"],
            cfg["draws"],
            replicate=smk.params.replicate,
        ),
    )


main(snakemake)  # noqa: F821
