"""Paper A's evidence files, each assembled from its job's loaded inputs (named in
:mod:`attnspec.papers.a.outputs`; arguments: :mod:`attnspec.workflow.jobs`): the samples of
rows A.1-A.5."""

from attnspec.papers.a.bulk_laws_evidence import not_marchenko_pastur_evidence_rows
from attnspec.papers.a.gaussian_equivalence_evidence import equivalence_evidence
from attnspec.papers.a.linearisation_evidence import linearisation_evidence
from attnspec.papers.a.linearisation_summary import summarise_distances
from attnspec.papers.a.perron_evidence import perron_evidence_rows
from attnspec.papers.a.perron_summary import series_of_sizes


def evidence_from_pairs(inputs, params, judged) -> list:
    """Row A.3 (Gaussian equivalence) from the A-T2 pair distances."""
    return [equivalence_evidence(inputs["pairs"], beta=params["beta"])]


def evidence_from_edge_shares(inputs, params, judged) -> list:
    """Rows A.4 (nu_inf is not Marchenko-Pastur): per draw the share of the bulk above
    4 theta_1 at every ell of paperA.linearisation (c = 1), at each judged beta."""
    draws = params["draws"]
    attention = [list(loaded["attention"][:draws]) for loaded in inputs["attention"]]
    linear = [list(loaded["linear"][:draws]) for loaded in inputs["linear"]]
    return not_marchenko_pastur_evidence_rows(params["points"], attention, linear)


def evidence_from_distances(inputs, params, judged) -> list:
    """Rows A.1 and A.5 from the A5 distance table."""
    return linearisation_evidence(summarise_distances(inputs["distances"]))


def evidence_from_perron(inputs, params, judged) -> list:
    """Rows A.2 (s_1(A) -> 1) from the Perron simulations of every beta."""
    series = [
        series_of_sizes(beta, loaded)
        for beta, loaded in zip(params["betas"], inputs["points"], strict=True)
    ]
    return perron_evidence_rows(series)
