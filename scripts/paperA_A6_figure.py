"""Figure A6: |s_1(A) - 1| and the stable rank against ell, drawn from its tidy table (PDF, PNG,
CSV), caption with the table and the A.2 rows."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.a.perron import (
    PERRON_TABLE_HEADER,
    perron_plotted_table,
    perron_table_rows,
    series_of_sizes,
)
from attnspec.papers.a.plot_perron import plot_perron
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
    cfg = smk.params.perron
    series = [
        series_of_sizes(beta, load_npz(path))
        for beta, path in zip(cfg["betas"], smk.input.points, strict=True)
    ]
    plotted = perron_plotted_table(series)
    figure = plot_perron(write_plotted(smk, plotted))
    write_figure_outputs(
        smk,
        figure,
        tables=[(PERRON_TABLE_HEADER, perron_table_rows(series))],
        judged=rows_of(read_csv(smk.input.claims), "A.2/"),
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
