"""Paper A, simulate: squared singular values of every model and draw of one parameter point.

Wildcards: n_tokens, d_qk, beta, sampler (gaussian | literal-d<d_model>), models ("+"-joined),
draws. Output: one (draws, m) array per model.
"""

from attnspec.papers.spectra import model_spectra
from attnspec.workflow.io import configure_logging, save_npz
from attnspec.workflow.store import stored_or_computed


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    wildcards = smk.wildcards
    sampler, _, d_model = wildcards.sampler.partition("-d")
    models = wildcards.models.split("+")
    log.info(
        "models %s, ell = %s, d_qk = %s, beta = %s, sampler %s, %s draws, replicate %d",
        ", ".join(models),
        wildcards.n_tokens,
        wildcards.d_qk,
        wildcards.beta,
        wildcards.sampler,
        wildcards.draws,
        smk.params.replicate,
    )
    spectra = {
        model: stored_or_computed(
            smk.params.get("store"),
            smk.output[0],
            model_spectra,
            model,
            int(wildcards.draws),
            n_tokens=int(wildcards.n_tokens),
            d_qk=int(wildcards.d_qk),
            beta=float(wildcards.beta),
            sampler=sampler,
            d_model=int(d_model) if d_model else None,
            replicate=smk.params.replicate,
            part=model,
        )
        for model in models
    }
    save_npz(smk.output[0], **spectra)


main(snakemake)  # noqa: F821
