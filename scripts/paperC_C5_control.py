"""Figure C5, controls of the eigen-angle diagnostic: the diagnostics of structured score
matrices of one head's shape (aligned: known non-uniform eigen-angles; local attention).

Wildcards: control, tokens (n), width (d), draws. Params: replicate.
"""

from attnspec.papers.c.pretrained_controls import control_diagnostics
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    configure_logging(smk.log[0])
    wildcards = smk.wildcards
    diagnostics = control_diagnostics(
        wildcards.control,
        int(wildcards.tokens),
        int(wildcards.width),
        int(wildcards.draws),
        replicate=smk.params.replicate,
    )
    save_npz(smk.output[0], **diagnostics)


main(snakemake)  # noqa: F821
