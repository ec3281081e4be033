"""Figures B1-B4, table B-T1 and rows B.1, B.2, B.4/c=<c>, simulate: every draw of one (ell, c)
with ell <= BATCHED_UP_TO in one job, each draw the same call (and the same numbers) as a
single-draw job, stacked on a draw axis.

Wildcards: n_tokens, ratio, draws (draws 0..draws-1). Params: job (betas, n_values, top_k,
draws), replicate (the workflow replicate whose random streams the draws use).
"""

from attnspec.papers.b.sticking import sticking_draw
from attnspec.papers.draw_batches import stack_draws
from attnspec.papers.progress import Stopwatch
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    clock = Stopwatch()
    job, wildcards = smk.params.job, smk.wildcards
    draws = int(wildcards.draws)
    if draws != job["draws"]:
        raise ValueError(f"draws{draws}.npz: the config asks for {job['draws']} draws here")
    records = []
    for draw in range(draws):
        records.append(
            sticking_draw(
                int(wildcards.n_tokens),
                float(wildcards.ratio),
                draw,
                betas=job["betas"],
                n_values=job["n_values"],
                top_k=job["top_k"],
                replicate=smk.params.replicate,
            )
        )
        log.info(
            "draw %d of %d, ell = %s, c = %s, replicate %d: %.2f s",
            draw + 1,
            draws,
            wildcards.n_tokens,
            wildcards.ratio,
            smk.params.replicate,
            clock.lap(),
        )
    save_npz(smk.output[0], **stack_draws(records))
    log.info("%d draws done in %.2f s", draws, clock.total())


main(snakemake)  # noqa: F821
