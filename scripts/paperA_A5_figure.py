"""Figure A5: the linearisation threshold, drawn from its tidy table (PDF, PNG, CSV), caption
with the tables and the A.1 and A.5 rows."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.a.linearisation import (
    DISTANCE_TABLE_HEADER,
    EXPONENT_TABLE_HEADER,
    collapse_analysis,
    collapse_statement,
    distance_table_rows,
    exponent_table_rows,
    linearisation_plotted_table,
    summarise_distances,
)
from attnspec.papers.a.plot_linearisation import plot_linearisation
from attnspec.workflow.io import (
    configure_logging,
    load_npz,
    read_csv,
    write_figure_outputs,
    write_plotted,
)
from attnspec.workflow.publish import run_staged

TABLES_INTRO = (
    "\n\nExponent s of D ~ ell^s (Kolmogorov, attention bulk) with its 95 % interval and spread "
    "across ell of log10 D (decades), at fixed beta and at fixed x = beta / sqrt(log ell) "
    "(descriptive, no verdict): {collapse}.\n\n"
)


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    summary = summarise_distances(load_npz(smk.input.distances))
    collapse = collapse_analysis(summary)
    plotted = linearisation_plotted_table(summary, collapse)
    rows = read_csv(smk.input.claims)
    judged = rows_of(rows, "A.1/") + rows_of(rows, "A.5/")
    figure = plot_linearisation(write_plotted(smk, plotted))
    write_figure_outputs(
        smk,
        figure,
        tables=[
            (EXPONENT_TABLE_HEADER, exponent_table_rows(summary, collapse)),
            (DISTANCE_TABLE_HEADER, distance_table_rows(summary)),
        ],
        judged=judged,
        intro=TABLES_INTRO.format(collapse=collapse_statement(collapse)),
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
