"""Paper A's config check: the relations between its config keys (``paperA``) that the schema
cannot state (:mod:`attnspec.papers.config_rules`)."""

from collections.abc import Mapping

from attnspec.papers.a import bulk_laws_evidence, linearisation_summary, perron_evidence
from attnspec.papers.config_rules import judged_problem, width_problem


def first_problem(config: Mapping) -> str | None:
    """The first problem of paper A's keys, or None: figure A1 drops n_removed < ell values;
    every ratio c gives a query/key width round(ell / c) >= 1 within 1 % of c; the betas
    simulated include those the registry rows judge (from the modules that build their
    evidence)."""
    paper_a = config.get("paperA", {})
    stepwise = paper_a.get("stepwise", {})
    if "n_removed" in stepwise and stepwise["n_removed"] >= stepwise.get("n_tokens", 0):
        return (
            f"config key paperA.stepwise.n_removed: got {stepwise['n_removed']}; allowed: "
            f"n_removed < paperA.stepwise.n_tokens = {stepwise['n_tokens']}"
        )
    ratios = paper_a.get("ratios", {})
    if "ratios" in ratios:
        problem = width_problem(
            "paperA.ratios.ratios", [ratios["n_tokens"]], ratios["ratios"], exact=False
        )
        if problem:
            return problem
    linearisation_betas = tuple(
        dict.fromkeys(linearisation_summary.JUDGED_BETAS + bulk_laws_evidence.JUDGED_BETAS)
    )
    return judged_problem(
        "paperA.linearisation.betas",
        paper_a.get("linearisation", {}),
        "betas",
        linearisation_betas,
    ) or judged_problem(
        "paperA.perron.betas", paper_a.get("perron", {}), "betas", perron_evidence.JUDGED_BETAS
    )
