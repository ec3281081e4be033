"""Figure B4: x_+ over (beta, c), the square-model branches, simulated points (PDF, PNG, CSV)."""

from attnspec.experiments.edge_formulas import (
    SIMULATED_POINT_HEADER,
    edge_curves,
    largest_ell_points,
    r_transform_points,
    simulated_point_rows,
    square_cubic_branches,
)
from attnspec.io import configure_logging, read_csv, write_figure_outputs
from attnspec.plotting.edge_formulas import (
    EDGE_FORMULA_PLOTTED_HEADER,
    edge_formula_plotted_rows,
    plot_edge_formulas,
)


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.edges
    curves = edge_curves(cfg["beta_min"], cfg["beta_max"], cfg["theory_points"], cfg["ratios"])
    markers = r_transform_points(cfg["table_betas"], cfg["ratios"])
    branches = square_cubic_branches(curves["beta"])
    points = largest_ell_points(read_csv(smk.input.sticking))
    figure = plot_edge_formulas(curves, markers, branches, points)
    rows = simulated_point_rows(points)
    write_figure_outputs(
        smk,
        figure,
        EDGE_FORMULA_PLOTTED_HEADER,
        edge_formula_plotted_rows(curves, markers, branches, points),
        tables=[(SIMULATED_POINT_HEADER, rows)],
    )
    for row in rows:
        log.info("c %g, beta %g, ell %d: median %.6g vs x_+ %.6g", *row[:3], row[4], row[7])
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
