"""Figure C2, simulate: exact counts of the singular values of A below a grid, every n."""

from attnspec.papers.c.degeneration import bulk_count_job, bulk_grid
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    configure_logging(smk.log[0])
    cfg = smk.params.bulk
    result = bulk_count_job(
        cfg["n_tokens"],
        smk.params.model,
        cfg["profiles"],
        cfg["draws"],
        bulk_grid(cfg["grid_points"]),
        replicate=smk.params.replicate,
    )
    save_npz(smk.output[0], **result)


main(snakemake)  # noqa: F821
