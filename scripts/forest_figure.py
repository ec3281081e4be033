"""The claims forest: every row of the dashboard (figures/claims.csv) as its statistic's distance
from its target in margins over its pass region, coloured by verdict, with its finite-size limit
and its declared wrong theories (figures/claims-forest.png, its tidy CSV and caption)."""

from attnspec.claims.dashboard import counts_text
from attnspec.papers.forest import forest_table, plot_forest
from attnspec.workflow.io import configure_logging, read_csv, write_figure_outputs, write_plotted
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    rows = read_csv(smk.input.claims)
    figure = plot_forest(write_plotted(smk, forest_table(rows)))
    write_figure_outputs(smk, figure, intro=f"\n\n{counts_text(rows)}\n\n")
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
