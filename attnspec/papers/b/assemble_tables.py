"""Paper B's tables B-T1 and B-T2, each assembled from its job's loaded inputs (named in
:mod:`attnspec.papers.b.outputs`; arguments: :mod:`attnspec.workflow.jobs`)."""

from attnspec.claims.dashboard import verdict_table
from attnspec.papers.b.edge_formulas_summary import EDGE_FORMULA_HEADER, edge_formula_rows
from attnspec.papers.b.sticking_summary import (
    STICKING_TABLE_HEADER,
    collect_series,
    sticking_table_rows,
)
from attnspec.papers.draw_files import draw_records
from attnspec.papers.outputs import TableParts
from attnspec.tables import to_latex, to_markdown

EDGE_FORMULA_ROWS = ("B.4/square-model", "B.4/r-transform")
"""The rows of claim B.4 that table B-T2 judges (the scalar formula against the other routes)."""


def sticking_table(inputs, params, judged) -> TableParts:
    """B-T1: ell s_k(A)^2 (median and 10-90 % quantiles over draws) against x_+."""
    rows = sticking_table_rows(collect_series(draw_records(inputs["draws"])))
    latex = to_latex(
        STICKING_TABLE_HEADER,
        rows,
        caption=(
            "Sticking of the leading non-Perron values: $\\ell s_k(A)^2$ (median and 10--90 "
            "\\% quantiles over draws) against the bulk edge $x_+$ (paper B, B-T1)."
        ),
        label="tab:B-T1-sticking",
        digits=5,
    )
    return TableParts(
        STICKING_TABLE_HEADER, rows, to_markdown(STICKING_TABLE_HEADER, rows, digits=5), latex
    )


def edge_formula_table(inputs, params, judged) -> TableParts:
    """B-T2: the scalar edge formula against paper A's square-model formula, with the verdicts
    of the two rows of claim B.4 that judge them."""
    rows = edge_formula_rows(params["edges"]["table_betas"])
    judged = [row for row in judged if row["row_id"] in EDGE_FORMULA_ROWS]
    markdown = (
        "\n"
        + to_markdown(EDGE_FORMULA_HEADER, rows, digits=10)
        + "\n"
        + to_markdown(*verdict_table(judged))
    )
    latex = to_latex(
        EDGE_FORMULA_HEADER,
        rows,
        caption=(
            "Scalar edge formula (general stationary cubic at $c = 1$) against paper A's "
            "square-model formula, solved independently (paper B, B-T2, claim B.4)."
        ),
        label="tab:B-T2-edge-formulas",
        digits=10,
    )
    return TableParts(EDGE_FORMULA_HEADER, rows, markdown, latex)
