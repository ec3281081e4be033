"""Paper A, simulate: squared singular values of one model matrix for one draw.

Wildcards: model, n_tokens, d_qk, beta, sampler (gaussian | literal-d<d_model>), draw.
"""

from attnspec.experiments.progress import Stopwatch
from attnspec.experiments.spectra import model_spectrum
from attnspec.io import configure_logging, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    clock = Stopwatch()
    wildcards = smk.wildcards
    sampler, _, d_model = wildcards.sampler.partition("-d")
    log.info(
        "model %s, ell = %s, d_qk = %s, beta = %s, sampler %s, draw %s",
        wildcards.model,
        wildcards.n_tokens,
        wildcards.d_qk,
        wildcards.beta,
        wildcards.sampler,
        wildcards.draw,
    )
    values = model_spectrum(
        wildcards.model,
        int(wildcards.draw),
        n_tokens=int(wildcards.n_tokens),
        d_qk=int(wildcards.d_qk),
        beta=float(wildcards.beta),
        sampler=sampler,
        d_model=int(d_model) if d_model else None,
    )
    save_npz(smk.output[0], squared_singular_values=values)
    log.info(
        "draw %s done in %.2f s: largest squared singular value %.6g",
        wildcards.draw,
        clock.total(),
        values[0],
    )


main(snakemake)  # noqa: F821
