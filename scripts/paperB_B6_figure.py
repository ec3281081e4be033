"""Figure B6: spectra of Sigma_f and Sigma_G against rho = a + b MP_c, drawn from its tidy
table (PDF, PNG, CSV), caption."""

from attnspec.papers.b.conditional import (
    POPULATION_TABLE_HEADER,
    group_by_size,
    population_series,
    population_table_rows,
)
from attnspec.papers.b.conditional_plotted import population_plotted_table
from attnspec.papers.b.plot_conditional import plot_population
from attnspec.papers.draw_batches import unstack_draws
from attnspec.workflow.io import configure_logging, load_npz, write_figure_outputs, write_plotted
from attnspec.workflow.publish import run_staged

HISTOGRAM_BINS = 80


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.conditional
    records = [r for path in smk.input.draws for r in unstack_draws(load_npz(path))]
    sizes, results = group_by_size(records)
    series = population_series(cfg["beta"], cfg["ratio"], sizes, results)
    plotted = population_plotted_table(results, series)
    figure = plot_population(write_plotted(smk, plotted), bins=HISTOGRAM_BINS)
    rows = population_table_rows(series)
    write_figure_outputs(
        smk,
        figure,
        tables=[(POPULATION_TABLE_HEADER, rows)],
    )
    for row in rows:
        log.info("%s", row)
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
