"""Figure B2: relative gap of ell s_2(A)^2 with its fitted rate (95 % interval) and the
Tracy-Widom expectation, the spike prediction draw by draw, and the localisation of the top
singular vectors (c = 1), drawn from its tidy table (PDF, PNG, CSV), and its caption with the
key numbers and the verdicts of rows B.1 (read from the judged claims table)."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.b.plot_sticking import plot_gap
from attnspec.papers.b.sticking_findings import gap_findings
from attnspec.papers.b.sticking_plotted import gap_plotted_table
from attnspec.papers.b.sticking_summary import (
    EDGE_KEY_HEADER,
    GAP_KEY_HEADER,
    collect_series,
    edge_key_rows,
    gap_key_rows,
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

# Panel (b) shows the betas at which spikes matter (papers.md section 3: beta >= 1).
SPIKE_BETA_MIN = 1.0


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    records = [r for path in smk.input.draws for r in unstack_draws(load_npz(path))]
    series = collect_series(records)
    spike_betas = [s.beta for s in series if s.beta >= SPIKE_BETA_MIN]
    plotted = gap_plotted_table(series, spike_betas=spike_betas)
    figure = plot_gap(write_plotted(smk, plotted))
    gap_rows = gap_key_rows(series)
    write_figure_outputs(
        smk,
        figure,
        tables=[(GAP_KEY_HEADER, gap_rows), (EDGE_KEY_HEADER, edge_key_rows(series))],
        judged=rows_of(read_csv(smk.input.claims), "B.1/"),
        intro=gap_findings(series),
    )
    for row in gap_rows:
        log.info("%s", dict(zip(GAP_KEY_HEADER, row, strict=True)))
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
