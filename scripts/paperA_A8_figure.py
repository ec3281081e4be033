"""Figure A8: the limit law nu_inf against its Marchenko–Pastur surrogate (theory only), drawn
from its tidy table (PDF, PNG, CSV), caption with the table of each density panel's numbers."""

from attnspec.papers.a.limit_law import (
    LIMIT_LAW_TABLE_HEADER,
    limit_law_plotted_table,
    limit_law_table_rows,
)
from attnspec.papers.a.plot_limit_law import plot_limit_law
from attnspec.workflow.io import configure_logging, write_figure_outputs, write_plotted
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.limit_law
    plotted = limit_law_plotted_table(
        cfg["betas"],
        cfg["ratios"],
        cfg["ratio_beta"],
        cfg["density_points"],
        cfg["beta_min"],
        cfg["beta_max"],
        cfg["beta_points"],
    )
    figure = plot_limit_law(write_plotted(smk, plotted))
    rows = limit_law_table_rows(cfg["betas"], cfg["ratios"], cfg["ratio_beta"])
    write_figure_outputs(smk, figure, tables=[(LIMIT_LAW_TABLE_HEADER, rows)], intro="\n")
    for beta, ratio, _, x_plus, _, over_mp, above, _ in rows:
        log.info(
            "beta %g, c %g: x_+ %.6g = %.4f x 4 theta_1, mass above 4 theta_1 %.3g",
            beta,
            ratio,
            x_plus,
            over_mp,
            above,
        )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
