"""Paper A's tables A-T1 and A-T2, each assembled from its job's loaded inputs (named in
:mod:`attnspec.papers.a.outputs`; arguments: :mod:`attnspec.workflow.jobs`)."""

from attnspec.claims.dashboard import verdict_table
from attnspec.papers.a.edge_table_summary import EDGE_TABLE_HEADER, edge_table_rows
from attnspec.papers.a.gaussian_equivalence_summary import BY_SIZE_HEADER, by_size_rows
from attnspec.papers.a.stepwise_summary import STEPWISE_TABLE_HEADER, stepwise_table_rows
from attnspec.papers.outputs import TableParts
from attnspec.tables import to_latex, to_markdown


def edge_table(inputs, params, judged) -> TableParts:
    """A-T1: x_+ and 4 theta_1 over the (beta, c) grid (theory only)."""
    grid = params["edge_table"]
    rows = edge_table_rows(grid["betas"], grid["ratios"])
    latex = to_latex(
        EDGE_TABLE_HEADER,
        rows,
        caption="Bulk edge $x_+$ against the MP surrogate edge $4\\theta_1$ (paper A, A-T1).",
        label="tab:A-T1-edges",
        digits=6,
    )
    return TableParts(
        EDGE_TABLE_HEADER, rows, to_markdown(EDGE_TABLE_HEADER, rows, digits=6), latex
    )


def stepwise_table(inputs, params, judged) -> TableParts:
    """A-T2: moments and distances of the stepwise models, the per-ell pair distances of the
    A.3 evidence, and the A.3 row."""
    rows = stepwise_table_rows(inputs["summary"])
    markdown = "\n".join(
        [
            to_markdown(STEPWISE_TABLE_HEADER, rows),
            to_markdown(BY_SIZE_HEADER, by_size_rows(inputs["pairs"])),
            to_markdown(*verdict_table(judged)),
            "",
        ]
    )
    latex = to_latex(
        STEPWISE_TABLE_HEADER,
        rows,
        caption="Moments and distances of the stepwise models of figure A1 (paper A, A-T2).",
        label="tab:A-T2-stepwise",
    )
    return TableParts(STEPWISE_TABLE_HEADER, rows, markdown, latex)
