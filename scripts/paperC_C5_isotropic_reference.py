"""Figure C5, reference: the same diagnostics for isotropic scores (Gaussian Q, K of n x d).

Wildcards: tokens (n), width (d), draws.
"""

from attnspec.papers.c.pretrained import isotropic_diagnostics
from attnspec.workflow.io import configure_logging, save_npz
from attnspec.workflow.store import stored_or_computed


def main(smk) -> None:
    configure_logging(smk.log[0])
    wildcards = smk.wildcards
    diagnostics = stored_or_computed(
        smk.params.get("store"),
        smk.output[0],
        isotropic_diagnostics,
        int(wildcards.tokens),
        int(wildcards.width),
        int(wildcards.draws),
        replicate=smk.params.replicate,
    )
    save_npz(smk.output[0], **diagnostics)


main(snakemake)  # noqa: F821
