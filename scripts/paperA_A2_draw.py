"""Figure A2, simulate: full spectrum of sqrt(ell) A and the leading non-Perron pairs, one draw.

Wildcards: n_tokens, d_qk, beta, draw.
"""

from attnspec.experiments.full_spectrum import full_spectrum_draw
from attnspec.experiments.progress import Stopwatch
from attnspec.io import configure_logging, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    clock = Stopwatch()
    wildcards = smk.wildcards
    log.info(
        "draw %s, ell = %s, d_qk = %s, beta = %s",
        wildcards.draw,
        wildcards.n_tokens,
        wildcards.d_qk,
        wildcards.beta,
    )
    result = full_spectrum_draw(
        int(wildcards.draw),
        n_tokens=int(wildcards.n_tokens),
        d_qk=int(wildcards.d_qk),
        beta=float(wildcards.beta),
    )
    save_npz(smk.output[0], **result)
    log.info(
        "draw %s done in %.2f s: Perron value %.6g; %d leading non-Perron values, the largest %.6g",
        wildcards.draw,
        clock.total(),
        result["squared_singular_values"][0],
        result["top_values"].size,
        result["top_values"][0],
    )


main(snakemake)  # noqa: F821
