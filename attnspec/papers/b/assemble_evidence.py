"""Paper B's evidence files, each assembled from its job's loaded inputs (named in
:mod:`attnspec.papers.b.outputs`; arguments: :mod:`attnspec.workflow.jobs`): the samples of
rows B.1-B.4."""

from attnspec.papers.b.conditional_evidence import conditional_evidence
from attnspec.papers.b.conditional_summary import conditional_series, group_by_size
from attnspec.papers.b.edge_formulas_evidence import edge_formula_evidence
from attnspec.papers.b.edge_formulas_summary import edge_formula_rows, r_transform_agreement
from attnspec.papers.b.sticking_evidence import sticking_evidence
from attnspec.papers.b.sticking_summary import (
    collect_series,
)
from attnspec.papers.draw_files import draw_records


def evidence_from_sticking(inputs, params, judged) -> list:
    """Rows B.1, B.2 and B.4/c=<c> from the sticking draws."""
    return sticking_evidence(
        collect_series(draw_records(inputs["draws"])),
        sticking_sizes=params["sticking"]["n_tokens"],
        ratio_scan_sizes=params["ratio_scan"]["n_tokens"],
        ratio_scan_betas=params["ratio_scan"]["betas"],
    )


def evidence_from_conditional(inputs, params, judged) -> list:
    """Rows B.3 from the conditional draws."""
    cfg = params["conditional"]
    sizes, results = group_by_size(draw_records(inputs["draws"]))
    return conditional_evidence(conditional_series(cfg["beta"], cfg["ratio"], sizes, results))


def evidence_from_edge_formulas(inputs, params, judged) -> list:
    """Rows B.4/square-model and B.4/r-transform: the scalar formula against the other routes."""
    betas = params["edges"]["table_betas"]
    return edge_formula_evidence(
        edge_formula_rows(betas), r_transform_agreement(betas, params["edges"]["ratios"])
    )
