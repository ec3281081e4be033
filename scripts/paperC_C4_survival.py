"""Figure C4, simulate: spike-tied singular values of A against kappa at one n."""

from attnspec.papers.c.degeneration import survival_job
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    configure_logging(smk.log[0])
    cfg = smk.params.survival
    save_npz(
        smk.output[0],
        **survival_job(
            int(smk.wildcards.n_tokens),
            smk.params.model,
            cfg["profile"],
            cfg["kappas"],
            cfg["draws"],
            replicate=smk.params.replicate,
        ),
    )


main(snakemake)  # noqa: F821
