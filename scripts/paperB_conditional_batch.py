"""Figures B5 and B6 and row B.3, simulate: every draw of K at one ell <= BATCHED_UP_TO in one
job, each the same call (and the same numbers) as a single-draw job, stacked on a draw axis.

Wildcards: n_tokens, d_qk, beta, draws (draws 0..draws-1). Params: replicate.
"""

from attnspec.papers.b.conditional import conditional_draw
from attnspec.papers.draw_batches import stack_draws
from attnspec.papers.progress import Stopwatch
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    clock = Stopwatch()
    wildcards = smk.wildcards
    draws = int(wildcards.draws)
    records = []
    for draw in range(draws):
        result = conditional_draw(
            int(wildcards.n_tokens),
            int(wildcards.d_qk),
            float(wildcards.beta),
            draw,
            replicate=smk.params.replicate,
        )
        records.append(result)
        log.info(
            "draw %d of %d, ell = %s, replicate %d: E_ell(Sigma_f) = %.8g, E_ell(Sigma_G) = "
            "%.8g, %.2f s",
            draw + 1,
            draws,
            wildcards.n_tokens,
            smk.params.replicate,
            result["edge_sigma_f"],
            result["edge_sigma_g"],
            clock.lap(),
        )
    save_npz(smk.output[0], **stack_draws(records))
    log.info("%d draws done in %.2f s", draws, clock.total())


main(snakemake)  # noqa: F821
