"""Figure C3, simulate: stable rank and top singular values of the canonical model at one n."""

from attnspec.papers.c.degeneration import stable_rank_job
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    configure_logging(smk.log[0])
    cfg = smk.params.stable_rank
    result = stable_rank_job(
        int(smk.wildcards.n_tokens),
        smk.params.model,
        cfg["profiles"],
        cfg["draws"],
        replicate=smk.params.replicate,
    )
    save_npz(smk.output[0], **result)


main(snakemake)  # noqa: F821
