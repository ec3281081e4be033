"""Figure C2: bulk distribution of n s_k(A) for growing n and its quantiles against n, drawn from
its tidy table (PDF, PNG, CSV), and its caption with the verdicts of C.2."""

from attnspec.claims.dashboard import rows_of
from attnspec.models.softmax import MASKS
from attnspec.papers.c.degeneration_summary import (
    BULK_TABLE_HEADER,
    bulk_plotted_table,
    bulk_series,
    bulk_table_rows,
    counts_by_size,
)
from attnspec.papers.c.plot_degeneration import plot_bulk
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
    model, cfg = smk.params.model, smk.params.bulk
    n_tokens = cfg["n_tokens"]
    jobs = counts_by_size(load_npz(smk.input.counts), n_tokens)
    series = [
        bulk_series(profile, mask, n_tokens, jobs, model["spikes"])
        for profile in cfg["profiles"]
        for mask in MASKS
    ]
    tidy = bulk_plotted_table(
        jobs,
        series,
        n_tokens=n_tokens,
        profiles=cfg["profiles"],
        spikes=model["spikes"],
        bulk_scale=model["bulk_scale"],
    )
    plotted = write_plotted(smk, tidy)
    judged = rows_of(read_csv(smk.input.claims), "C.2/")
    figure = plot_bulk(plotted)
    write_figure_outputs(
        smk,
        figure,
        tables=[(BULK_TABLE_HEADER, bulk_table_rows(series))],
        judged=judged,
        intro="\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
