"""Figure A6, simulate: s_1(A) and ||A||_F^2 of every draw at every ell of one beta, c = 1.

Wildcards: beta, draws; params: n_tokens (the ell of paperA.perron), replicate.
"""

from attnspec.papers.a.perron import perron_sizes
from attnspec.workflow.io import configure_logging, save_npz
from attnspec.workflow.store import stored_or_computed


def main(smk) -> None:
    configure_logging(smk.log[0])
    result = stored_or_computed(
        smk.params.get("store"),
        smk.output[0],
        perron_sizes,
        smk.params.n_tokens,
        float(smk.wildcards.beta),
        int(smk.wildcards.draws),
        replicate=smk.params.replicate,
    )
    save_npz(smk.output[0], **result)


main(snakemake)  # noqa: F821
