"""Figure A6, simulate: s_1(A) and ||A||_F^2 of every draw at one (ell, beta), c = 1.

Wildcards: n_tokens, beta, draws.
"""

from attnspec.experiments.perron import perron_draws
from attnspec.io import configure_logging, save_npz


def main(smk) -> None:
    configure_logging(smk.log[0])
    wildcards = smk.wildcards
    result = perron_draws(int(wildcards.n_tokens), float(wildcards.beta), int(wildcards.draws))
    save_npz(smk.output[0], **result)


main(snakemake)  # noqa: F821
