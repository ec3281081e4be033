"""Figure B1: ell s_k(A)^2 against ell per (c, beta) with x_+ and Y_lin, drawn from its tidy
table (PDF, PNG, CSV), its caption with the key numbers for k = 2, what the data show and the
verdicts of rows B.1 (read from the judged claims table)."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.b.plot_sticking import plot_sticking
from attnspec.papers.b.sticking_findings import edge_findings
from attnspec.papers.b.sticking_plotted import sticking_plotted_table
from attnspec.papers.b.sticking_summary import (
    EDGE_KEY_HEADER,
    collect_series,
    edge_key_rows,
    split_square,
)
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
    records = [r for path in smk.input.draws for r in unstack_draws(load_npz(path))]
    series = collect_series(records)
    square, _ = split_square(series)
    rows = rows_of(read_csv(smk.input.claims), "B.1/")
    judged = {row["row_id"]: row for row in rows}
    plotted = sticking_plotted_table(series)
    figure = plot_sticking(write_plotted(smk, plotted))
    write_figure_outputs(
        smk,
        figure,
        tables=[(EDGE_KEY_HEADER, edge_key_rows(series))],
        judged=rows,
        intro=edge_findings(square, judged),
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
