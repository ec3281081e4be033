"""Paper C's figures, tables and evidence files (:mod:`attnspec.papers.outputs`), each with the
function that assembles it (in ``assemble_figures``, ``assemble_tables``, ``assemble_evidence``)
and the claims rows its caption judges.

Figures C1 and C3 judge the rows of two claims each: their ``rows`` is a tuple of prefixes (a
row is judged when its id starts with one of them, ``str.startswith``), in the claims table's
order. Tables C-T1 and C-T2 take every row of paper C and keep theirs."""

from attnspec.papers.outputs import Evidence, Figure, Table

_FIGURES = "attnspec.papers.c.assemble_figures"
_TABLES = "attnspec.papers.c.assemble_tables"
_EVIDENCE = "attnspec.papers.c.assemble_evidence"

FIGURES = (
    Figure("C1-spectra", f"{_FIGURES}:spectra_figure", rows=("C.1/", "C.2/")),
    Figure("C2-bulk", f"{_FIGURES}:bulk_figure", rows="C.2/"),
    Figure("C3-stable-rank", f"{_FIGURES}:stable_rank_figure", rows=("C.3/", "C.4/")),
    Figure("C4-spike-survival", f"{_FIGURES}:spike_survival_figure", rows="C.1/"),
    Figure("C5-eigen-angles", f"{_FIGURES}:eigen_angles_figure", rows="C.5/"),
    Figure("C6-score-spectra", f"{_FIGURES}:score_spectra_figure", rows="C.6/"),
    Figure("C7-pretrained-stable-rank", f"{_FIGURES}:pretrained_stable_rank_figure"),
)
TABLES = (
    Table("C-T1-stable-rank", f"{_TABLES}:stable_rank_table", rows="C."),
    Table("C-T2-pretrained", f"{_TABLES}:pretrained_table", rows="C."),
)
EVIDENCE = (
    Evidence("C2-bulk", f"{_EVIDENCE}:evidence_from_bulk_counts"),
    Evidence("C-T1-stable-rank", f"{_EVIDENCE}:evidence_from_stable_ranks"),
    Evidence("C-T2-pretrained", f"{_EVIDENCE}:evidence_from_pretrained"),
)
