"""The claims forest: every row of the dashboard (figures/claims.csv) as its statistic's distance
from its target in margins over its pass region, coloured by verdict, with its finite-size limit
and its declared wrong theories (figures/claims-forest.png, its tidy CSV and caption, and one
figure per paper from the same CSV); each row's statistic at the papers' sizes beside it where
the paper preset's claims tables (figures/paper-scale/paper<X>/claims.csv) are inputs, and, in
each paper's figure, the other replicates' statistics under it where figures/claims-replicates.csv
was made from the verdicts judged now (read if present: `all` does not run the replicates)."""

from pathlib import Path

from matplotlib import pyplot

from attnspec.claims.dashboard import counts_text, replicates_match
from attnspec.papers.forest import forest_table, paper_forest_caption, plot_forest
from attnspec.workflow.io import (
    configure_logging,
    read_csv,
    rule_caption,
    save_figure,
    write_figure_outputs,
    write_plotted,
    write_table,
    write_text,
)
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    rows = read_csv(smk.input.claims)
    paper_scale = [row for path in smk.input.paper_scale for row in read_csv(path)]
    replicates = read_csv(smk.params.replicates) if Path(smk.params.replicates).exists() else []
    if not replicates_match(replicates, {row["row_id"]: row["verdict"] for row in rows}):
        replicates = []  # made from other verdicts: says nothing about these
    plotted = write_plotted(smk, forest_table(rows, paper_scale, replicates))
    write_figure_outputs(smk, plot_forest(plotted), intro=f"\n\n{counts_text(rows)}\n\n")
    caption = rule_caption(smk)
    for paper in [
        name.removeprefix("png_") for name in smk.output.keys() if name.startswith("png_")
    ]:
        mine = plotted[plotted["paper"] == paper]
        write_table(getattr(smk.output, f"plotted_{paper}"), mine)
        own = [row for row in rows if row["paper"] == paper]
        write_text(
            getattr(smk.output, f"caption_{paper}"),
            f"{paper_forest_caption(caption, paper)}\n\n{counts_text(own)}\n",
        )
        figure = plot_forest(mine, [paper], replicates=True)
        save_figure(
            figure, getattr(smk.output, f"pdf_{paper}", None), getattr(smk.output, f"png_{paper}")
        )
        pyplot.close(figure)
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
