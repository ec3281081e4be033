"""Figure B3: uniform sticking, D = max over 2 <= k <= k_ell of |ell s_k(A)^2 - x_+| / x_+ for
three sublinear k_ell (c = 1), drawn from its tidy table (PDF, PNG, CSV), its caption with the
key numbers, what the data show and the verdicts of rows B.2 (read from the judged claims
table)."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.b.plot_sticking import plot_uniform
from attnspec.papers.b.sticking_findings import uniform_findings
from attnspec.papers.b.sticking_plotted import uniform_plotted_table
from attnspec.papers.b.sticking_summary import (
    UNIFORM_KEY_HEADER,
    collect_series,
    uniform_key_rows,
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
    rows = rows_of(read_csv(smk.input.claims), "B.2/")
    judged = {row["row_id"]: row for row in rows}
    plotted = uniform_plotted_table(series)
    figure = plot_uniform(write_plotted(smk, plotted))
    write_figure_outputs(
        smk,
        figure,
        tables=[(UNIFORM_KEY_HEADER, uniform_key_rows(series))],
        judged=rows,
        intro=uniform_findings(series, judged),
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
