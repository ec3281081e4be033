"""Figures B1-B3 and table B-T1, simulate: the leading singular values of A (and of Y_lin),
theta_max and the localisation of the top singular vectors for every beta of one (ell, c, draw).

Wildcards: n_tokens, ratio, draw. Params: job (betas, n_values, top_k, draws), replicate (the
workflow replicate whose random streams the draw uses; 0 if the rule does not set it), store
(the committed store of expensive draws, or None: attnspec.workflow.store).
"""

from attnspec.papers.b.sticking import sticking_draw
from attnspec.papers.progress import Stopwatch
from attnspec.workflow.io import configure_logging, save_npz
from attnspec.workflow.store import stored_or_computed


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    clock = Stopwatch()
    job = smk.params.job
    wildcards = smk.wildcards
    log.info(
        "draw %s (%d of %d), ell = %s, c = %s: betas %s, %d leading values of A",
        wildcards.draw,
        int(wildcards.draw) + 1,
        job["draws"],
        wildcards.n_tokens,
        wildcards.ratio,
        job["betas"],
        job["n_values"],
    )
    result = stored_or_computed(
        smk.params.get("store"),
        smk.output[0],
        sticking_draw,
        int(wildcards.n_tokens),
        float(wildcards.ratio),
        int(wildcards.draw),
        betas=job["betas"],
        n_values=job["n_values"],
        top_k=job["top_k"],
        replicate=int(smk.params.get("replicate", 0)),
    )
    save_npz(smk.output[0], **result)
    log.info("draw %s done in %.2f s", wildcards.draw, clock.total())


main(snakemake)  # noqa: F821
