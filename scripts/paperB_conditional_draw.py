"""Figures B5 and B6 and row B.3, simulate: spectra of Sigma_f and Sigma_G given one draw of K,
and E_ell (ell > BATCHED_UP_TO; smaller ell run all draws in one job).

Wildcards: n_tokens, d_qk, beta, draw. Params: replicate.
"""

from attnspec.papers.b.conditional import conditional_draw
from attnspec.papers.progress import Stopwatch
from attnspec.workflow.io import configure_logging, save_npz
from attnspec.workflow.store import stored_or_computed


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    clock = Stopwatch()
    wildcards = smk.wildcards
    log.info(
        "draw %s, ell = %s, d_qk = %s, beta = %s, replicate %d: Sigma_f and Sigma_G given K",
        wildcards.draw,
        wildcards.n_tokens,
        wildcards.d_qk,
        wildcards.beta,
        smk.params.replicate,
    )
    result = stored_or_computed(
        smk.params.get("store"),
        smk.output[0],
        conditional_draw,
        int(wildcards.n_tokens),
        int(wildcards.d_qk),
        float(wildcards.beta),
        int(wildcards.draw),
        replicate=smk.params.replicate,
    )
    save_npz(smk.output[0], **result)
    log.info(
        "draw %s done in %.2f s: E_ell(Sigma_f) = %.8g, E_ell(Sigma_G) = %.8g",
        wildcards.draw,
        clock.total(),
        result["edge_sigma_f"],
        result["edge_sigma_g"],
    )


main(snakemake)  # noqa: F821
