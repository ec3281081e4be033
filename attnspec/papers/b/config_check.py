"""Paper B's config check: the relations between its config keys (``paperB``) that the schema
cannot state (:mod:`attnspec.papers.config_rules`)."""

from collections.abc import Mapping

from attnspec.papers.b import sticking_evidence
from attnspec.papers.config_rules import judged_problem, width_problem


def first_problem(config: Mapping) -> str | None:
    """The first problem of paper B's keys, or None: every ratio c divides every ell into a whole
    query/key width ell / c >= 1 (as its jobs require); the betas and ratios simulated include
    those the registry rows judge (from the module that builds their evidence); top_k < ell."""
    paper_b = config.get("paperB", {})
    scan = paper_b.get("ratio_scan", {})
    if "ratios" in scan:
        problem = width_problem(
            "paperB.ratio_scan.ratios", scan["n_tokens"], scan["ratios"], exact=True
        )
        if problem:
            return problem
    sticking = paper_b.get("sticking", {})
    problem = judged_problem(
        "paperB.sticking.betas", sticking, "betas", sticking_evidence.JUDGED_BETAS
    ) or judged_problem("paperB.ratio_scan.ratios", scan, "ratios", sticking_evidence.JUDGED_RATIOS)
    if problem:
        return problem
    if "top_k" in sticking:
        sizes = list(sticking.get("n_tokens", [])) + list(scan.get("n_tokens", []))
        if sizes and sticking["top_k"] >= min(sizes):
            return (
                f"config key paperB.sticking.top_k: got {sticking['top_k']}; allowed: top_k < "
                f"every n_tokens of paperB.sticking and paperB.ratio_scan (smallest {min(sizes)})"
            )
    conditional = paper_b.get("conditional", {})
    if "ratio" in conditional:
        return width_problem(
            "paperB.conditional.ratio", conditional["n_tokens"], [conditional["ratio"]], exact=True
        )
    return None
