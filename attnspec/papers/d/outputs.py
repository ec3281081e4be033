"""Paper D's figures, tables and evidence files (:mod:`attnspec.papers.outputs`), each with the
function that assembles it (in ``assemble_figures``, ``assemble_tables``, ``assemble_evidence``)
and the claims rows its caption judges."""

from attnspec.papers.outputs import Evidence, Figure, Table

_FIGURES = "attnspec.papers.d.assemble_figures"
_TABLES = "attnspec.papers.d.assemble_tables"
_EVIDENCE = "attnspec.papers.d.assemble_evidence"

SHARING_ROWS = ("D.2/", "D.3/")
"""Figure D3 judges the rows of two claims, D.2 (across-head sharing) and D.3 (within-head
tying): ``rows`` as a tuple of prefixes (str.startswith takes one), which keeps the claims
table's order (every D.2 row before D.3)."""

FIGURES = (
    Figure("D1-public-models", f"{_FIGURES}:public_models_figure", rows="D.1/"),
    Figure("D2-heads", f"{_FIGURES}:heads_figure"),
    Figure("D3-sharing", f"{_FIGURES}:sharing_figure", rows=SHARING_ROWS),
    Figure("D4-figure-d1", f"{_FIGURES}:figure_d1_figure"),
)
TABLES = (
    Table("D-T1-public-models", f"{_TABLES}:public_models_table", rows="D.1/"),
    Table("D-T2-moments", f"{_TABLES}:moments_table"),
)
EVIDENCE = (
    Evidence("public-models", f"{_EVIDENCE}:evidence_from_public_models"),
    Evidence("sharing", f"{_EVIDENCE}:evidence_from_sharing"),
)
