"""Evidence of claims C.1, C.3 and C.4 (registry rows C.1/..., C.3/..., C.4/...): spike-tied
singular values and stable ranks of the canonical, isotropic and Gaussian models."""

from attnspec.papers.c.degeneration_evidence import (
    canonical_evidence,
    gaussian_evidence,
    isotropic_evidence,
)
from attnspec.workflow.io import configure_logging, load_npz, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    params = smk.params
    model = params.model
    evidence = canonical_evidence(
        params.stable_rank["n_tokens"],
        [load_npz(path) for path in smk.input.canonical],
        model=model,
        profiles=params.stable_rank["profiles"],
    )
    evidence.append(
        isotropic_evidence(
            params.isotropic["n_tokens"],
            [load_npz(path) for path in smk.input.isotropic],
            model=model,
        )
    )
    evidence += gaussian_evidence(
        params.gaussian_model["n_tokens"],
        [load_npz(path) for path in smk.input.gaussian],
        load_npz(smk.input.reference),
        beta=params.gaussian_model["beta"],
    )
    save_evidence(smk.output[0], evidence)
    for item in evidence:
        log.info("%s: %s (%d draws)", item.row_id, item.quantity, item.draws)


main(snakemake)  # noqa: F821
