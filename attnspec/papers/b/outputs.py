"""Paper B's figures, tables and evidence files (:mod:`attnspec.papers.outputs`), each with the
function that assembles it (in ``assemble_figures``, ``assemble_tables``, ``assemble_evidence``)
and the claims rows its caption judges."""

from attnspec.papers.outputs import Evidence, Figure, Table

_FIGURES = "attnspec.papers.b.assemble_figures"
_TABLES = "attnspec.papers.b.assemble_tables"
_EVIDENCE = "attnspec.papers.b.assemble_evidence"

FIGURES = (
    Figure("B1-sticking", f"{_FIGURES}:sticking_figure", rows="B.1/"),
    Figure("B2-gap", f"{_FIGURES}:gap_figure", rows="B.1/"),
    Figure("B3-uniform", f"{_FIGURES}:uniform_figure", rows="B.2/"),
    Figure("B4-edge-formula", f"{_FIGURES}:edge_formula_figure", rows="B.4/c="),
    Figure("B5-conditional-edges", f"{_FIGURES}:conditional_edges_figure", rows="B.3/"),
    Figure("B6-population", f"{_FIGURES}:population_figure"),
    Figure("B7-visibility", f"{_FIGURES}:visibility_figure"),
)
TABLES = (
    Table("B-T1-sticking", f"{_TABLES}:sticking_table"),
    Table("B-T2-edge-formulas", f"{_TABLES}:edge_formula_table", rows="B.4/"),
)
EVIDENCE = (
    Evidence("sticking", f"{_EVIDENCE}:evidence_from_sticking"),
    Evidence("conditional", f"{_EVIDENCE}:evidence_from_conditional"),
    Evidence("edge-formulas", f"{_EVIDENCE}:evidence_from_edge_formulas"),
)
