"""Paper C's evidence files, each assembled from its job's loaded inputs (named in
:mod:`attnspec.papers.c.outputs`; arguments: :mod:`attnspec.workflow.jobs`): the samples of
rows C.1-C.6."""

from attnspec.papers.c.degeneration_evidence import (
    bulk_evidence,
    canonical_evidence,
    gaussian_evidence,
    isotropic_evidence,
)
from attnspec.papers.c.pretrained_evidence import dominance_evidence, eigen_angle_evidence


def evidence_from_bulk_counts(inputs, params, judged) -> list:
    """Rows C.2/...: the median bulk singular value of A per draw and n, from the exact counts
    of figure C2's job."""
    cfg = params["bulk"]
    return bulk_evidence(
        inputs["counts"],
        cfg["n_tokens"],
        spikes=params["model"]["spikes"],
        profiles=cfg["profiles"],
    )


def evidence_from_stable_ranks(inputs, params, judged) -> list:
    """Rows C.1/..., C.3/... and C.4/...: spike-tied singular values and stable ranks of the
    canonical, isotropic and Gaussian models."""
    model = params["model"]
    evidence = canonical_evidence(
        params["stable_rank"]["n_tokens"],
        inputs["canonical"],
        model=model,
        profiles=params["stable_rank"]["profiles"],
    )
    evidence.append(
        isotropic_evidence(params["isotropic"]["n_tokens"], inputs["isotropic"], model=model)
    )
    evidence += gaussian_evidence(
        params["gaussian_model"]["n_tokens"],
        inputs["gaussian"],
        inputs["reference"],
        beta=params["gaussian_model"]["beta"],
    )
    return evidence


def evidence_from_pretrained(inputs, params, judged) -> list:
    """Rows C.5/minilm, C.5/control and C.6/minilm, each with the alternatives its registry row
    declares (C.5/minilm's data mutant seeded per replicate)."""
    cfg = params["pretrained"]
    full_rank = inputs["model_full_rank"]
    evidence = eigen_angle_evidence(
        full_rank,
        inputs["isotropic_full_rank"],
        inputs["control_aligned"],
        inputs["tests"],
        passage_tokens=cfg["full_rank_passages"]["tokens"],
        ranks=full_rank["rank"],
        replicate=params["replicate"],
    )
    evidence.append(
        dominance_evidence(
            inputs["model_long"],
            inputs["isotropic_long"],
            top_k=cfg["top_k"],
            passage_tokens=cfg["long_passages"]["tokens"],
        )
    )
    return evidence
