"""Figure C4: spike survival against kappa, drawn from its tidy table (PDF, PNG, CSV), and its
caption with the key numbers and the verdicts of C.1."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.c.degeneration_summary import (
    SURVIVAL_TABLE_HEADER,
    survival_plotted_table,
    survival_table_rows,
)
from attnspec.papers.c.plot_degeneration import plot_survival
from attnspec.workflow.io import (
    configure_logging,
    load_npz,
    read_csv,
    write_figure_outputs,
    write_plotted,
)
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.survival
    jobs = [load_npz(path) for path in smk.input.survival]
    judged = rows_of(read_csv(smk.input.claims), "C.1/")
    tidy = survival_plotted_table(jobs, n_tokens=cfg["n_tokens"])
    plotted = write_plotted(smk, tidy)
    figure = plot_survival(
        plotted,
        spikes=smk.params.model["spikes"],
        profile=cfg["profile"],
    )
    write_figure_outputs(
        smk,
        figure,
        tables=[(SURVIVAL_TABLE_HEADER, survival_table_rows(jobs, cfg["n_tokens"]))],
        judged=judged,
        intro="\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
