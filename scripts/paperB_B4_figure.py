"""Figure B4: x_+ over (beta, c), the square-model branches, the simulated points of A and
Y_lin at the largest ell, drawn from its tidy table (PDF, PNG, CSV), and its caption with the
verdicts of rows B.4/c=<c> (read from the judged claims table)."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.b.edge_formulas import (
    SIMULATED_POINT_HEADER,
    edge_curves,
    largest_ell_points,
    r_transform_points,
    simulated_point_rows,
    square_cubic_branches,
)
from attnspec.papers.b.plot_edge_formulas import plot_edge_formulas
from attnspec.papers.b.sticking_findings import linear_edge_findings
from attnspec.papers.b.sticking_plotted import edge_formula_plotted_table
from attnspec.papers.b.sticking_summary import collect_series
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
    cfg = smk.params.edges
    curves = edge_curves(cfg["beta_min"], cfg["beta_max"], cfg["theory_points"], cfg["ratios"])
    markers = r_transform_points(cfg["table_betas"], cfg["ratios"])
    branches = square_cubic_branches(curves["beta"])
    records = [r for path in smk.input.draws for r in unstack_draws(load_npz(path))]
    series = collect_series(records)
    rows = rows_of(read_csv(smk.input.claims), "B.4/c=")
    judged = {row["row_id"]: row for row in rows}
    plotted = edge_formula_plotted_table(curves, markers, branches, series)
    figure = plot_edge_formulas(write_plotted(smk, plotted))
    table = simulated_point_rows(largest_ell_points(series))
    write_figure_outputs(
        smk,
        figure,
        tables=[(SIMULATED_POINT_HEADER, table)],
        judged=rows,
        intro=linear_edge_findings(series, max(smk.params.ratio_scan["n_tokens"]), judged),
    )
    for row in table:
        log.info("%s", dict(zip(SIMULATED_POINT_HEADER, row, strict=True)))
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
