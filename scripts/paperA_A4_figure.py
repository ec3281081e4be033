"""Figure A4: the edge x_+(beta) against 4 theta_1, drawn from its tidy table (PDF, PNG, CSV),
caption with the table of the simulated top values."""

from attnspec.papers.a.edges import (
    EDGE_TABLE_HEADER,
    edge_plotted_table,
    edge_table_rows,
    edge_theory_curves,
    simulated_edges,
)
from attnspec.papers.a.plot_edges import plot_edges
from attnspec.workflow.io import configure_logging, load_npz, write_figure_outputs, write_plotted
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.edge_curve
    simulated = simulated_edges(
        [list(load_npz(path)["linear"][: cfg["draws"]]) for path in smk.input.spectra],
        cfg["simulated_betas"],
        cfg["n_tokens"],
    )
    theory = edge_theory_curves(
        cfg["beta_min"], cfg["beta_max"], cfg["theory_points"], cfg["n_tokens"]
    )
    plotted = edge_plotted_table(theory, simulated)
    figure = plot_edges(write_plotted(smk, plotted), n_tokens=cfg["n_tokens"])
    rows = edge_table_rows(simulated)
    write_figure_outputs(smk, figure, tables=[(EDGE_TABLE_HEADER, rows)], intro="\n")
    for row in rows:
        beta, x_plus, median, units = row[0], row[1], row[5], row[8]
        log.info(
            "beta %g: x_+ %.6g, median top of Y_lin %.6g (%.2f TW units)",
            beta,
            x_plus,
            median,
            units,
        )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
