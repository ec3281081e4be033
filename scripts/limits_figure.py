"""The judged finite-size limits: every row of the dashboard (figures/claims.csv) with a
finite-size model, its statistic at each size, the fits over its declared rates and its limit
against the limit's pass region (figures/claims-limits.png, its tidy CSV and caption), from the
committed evidence the rows were judged on (figures/paper<X>/claims-evidence.npz)."""

from attnspec.papers.limits import limits_table, plot_limits
from attnspec.papers.registry import TESTS
from attnspec.workflow.io import (
    configure_logging,
    load_evidence,
    read_csv,
    write_figure_outputs,
    write_plotted,
)
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    rows = read_csv(smk.input.claims)
    evidence = {item.row_id: item for path in smk.input.evidence for item in load_evidence(path)}
    plotted = write_plotted(smk, limits_table(rows, evidence, TESTS))
    write_figure_outputs(smk, plot_limits(plotted))
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
