"""Figure B5: E_ell(Sigma_f) and E_ell(Sigma_G) against ell, drawn from its tidy table (PDF,
PNG, CSV), its caption with what the data show and the verdicts of rows B.3 (read from the
judged claims table)."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.b.conditional import (
    CONDITIONAL_TABLE_HEADER,
    conditional_series,
    conditional_table_rows,
    group_by_size,
)
from attnspec.papers.b.conditional_plotted import conditional_plotted_table
from attnspec.papers.b.plot_conditional import plot_conditional_edges
from attnspec.papers.b.sticking_findings import conditional_findings
from attnspec.papers.draw_batches import unstack_draws
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
    cfg = smk.params.conditional
    records = [r for path in smk.input.draws for r in unstack_draws(load_npz(path))]
    sizes, results = group_by_size(records)
    series = conditional_series(cfg["beta"], cfg["ratio"], sizes, results)
    rows = rows_of(read_csv(smk.input.claims), "B.3/")
    judged = {row["row_id"]: row for row in rows}
    plotted = conditional_plotted_table(series)
    figure = plot_conditional_edges(write_plotted(smk, plotted))
    write_figure_outputs(
        smk,
        figure,
        tables=[(CONDITIONAL_TABLE_HEADER, conditional_table_rows(series))],
        judged=rows,
        digits=6,
        intro=conditional_findings(series, judged),
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
