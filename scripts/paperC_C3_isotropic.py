"""Figures C3 and C-T1, simulate: softmax(U Sigma V^T) against softmax(Sigma) at one n."""

from attnspec.papers.c.degeneration import isotropic_job
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    configure_logging(smk.log[0])
    cfg = smk.params.isotropic
    save_npz(
        smk.output[0],
        **isotropic_job(
            int(smk.wildcards.n_tokens),
            smk.params.model,
            cfg["profile"],
            cfg["draws"],
            replicate=smk.params.replicate,
        ),
    )


main(snakemake)  # noqa: F821
