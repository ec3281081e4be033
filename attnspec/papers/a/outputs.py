"""Paper A's figures, tables and evidence files (:mod:`attnspec.papers.outputs`), each with the
function that assembles it (in ``assemble_figures``, ``assemble_tables``, ``assemble_evidence``)
and the claims rows its caption judges."""

from attnspec.papers.outputs import Evidence, Figure, Table

_FIGURES = "attnspec.papers.a.assemble_figures"
_TABLES = "attnspec.papers.a.assemble_tables"
_EVIDENCE = "attnspec.papers.a.assemble_evidence"

LINEARISATION_ROWS = ("A.1/", "A.5/")
"""The rows figure A5 judges: those of claims A.1 and A.5, in the claims table's order (a tuple
of prefixes: the rows whose id starts with any of them, :func:`str.startswith`)."""

FIGURES = (
    Figure("A1-stepwise", f"{_FIGURES}:stepwise_figure", rows="A.3"),
    Figure("A2-spectrum", f"{_FIGURES}:full_spectrum_figure"),
    Figure("A3-bulk-laws", f"{_FIGURES}:bulk_laws_figure", rows="A.4/"),
    Figure("A4-edge", f"{_FIGURES}:edge_figure"),
    Figure("A5-linearisation", f"{_FIGURES}:linearisation_figure", rows=LINEARISATION_ROWS),
    Figure("A6-perron", f"{_FIGURES}:perron_figure", rows="A.2/"),
    Figure("A7-ratios", f"{_FIGURES}:ratios_figure"),
    Figure("A8-limit-law", f"{_FIGURES}:limit_law_figure"),
)
TABLES = (
    Table("A-T1-edges", f"{_TABLES}:edge_table"),
    Table("A-T2-stepwise", f"{_TABLES}:stepwise_table", rows="A.3"),
)
EVIDENCE = (
    Evidence("A-T2-stepwise", f"{_EVIDENCE}:evidence_from_pairs"),
    Evidence("A3-bulk-laws", f"{_EVIDENCE}:evidence_from_edge_shares"),
    Evidence("A5-linearisation", f"{_EVIDENCE}:evidence_from_distances"),
    Evidence("A6-perron", f"{_EVIDENCE}:evidence_from_perron"),
)
