"""Figure A2, simulate: full spectrum of sqrt(ell) A and the leading non-Perron pairs, every draw.

Wildcards: n_tokens, d_qk, beta, draws.
"""

from attnspec.papers.a.full_spectrum import full_spectrum_draws, pack_draws
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    configure_logging(smk.log[0])
    wildcards = smk.wildcards
    results = full_spectrum_draws(
        int(wildcards.draws),
        n_tokens=int(wildcards.n_tokens),
        d_qk=int(wildcards.d_qk),
        beta=float(wildcards.beta),
        replicate=smk.params.replicate,
    )
    save_npz(smk.output[0], **pack_draws(results))


main(snakemake)  # noqa: F821
