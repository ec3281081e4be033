"""Evidence of claims C.5 and C.6 (registry rows C.5/minilm, C.5/control, C.6/minilm), each with
the alternatives its registry row declares (C.5/minilm's data mutant seeded per replicate)."""

from attnspec.papers.c.pretrained_evidence import dominance_evidence, eigen_angle_evidence
from attnspec.workflow.io import configure_logging, load_npz, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.pretrained
    full_rank = load_npz(smk.input.model_full_rank)
    evidence = eigen_angle_evidence(
        full_rank,
        load_npz(smk.input.isotropic_full_rank),
        load_npz(smk.input.control_aligned),
        load_npz(smk.input.tests),
        passage_tokens=cfg["full_rank_passages"]["tokens"],
        ranks=full_rank["rank"],
        replicate=smk.params.replicate,
    )
    evidence.append(
        dominance_evidence(
            load_npz(smk.input.model_long),
            load_npz(smk.input.isotropic_long),
            top_k=cfg["top_k"],
            passage_tokens=cfg["long_passages"]["tokens"],
        )
    )
    save_evidence(smk.output[0], evidence)
    for item in evidence:
        log.info("%s: %s (%d units)", item.row_id, item.quantity, item.draws)


main(snakemake)  # noqa: F821
