"""Figure D2 and table D-T2, simulate: every draw at one head count h in one job, both stages
(attention alone, the layer with V and W^O), softmax and Gaussian equivalent.

Wildcards: heads, draws. Params: settings (paperD.heads), replicate.
"""

from attnspec.papers.d.multihead import heads_draws
from attnspec.papers.progress import Stopwatch
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    clock = Stopwatch()
    settings, heads, draws = smk.params.settings, int(smk.wildcards.heads), int(smk.wildcards.draws)
    record = heads_draws(
        settings["n_tokens"],
        heads,
        settings["d_head"],
        settings["d_out"],
        settings["beta"],
        draws,
        replicate=smk.params.replicate,
    )
    save_npz(smk.output[0], **record)
    log.info("h = %d: %d draws in %.2f s", heads, draws, clock.total())


main(snakemake)  # noqa: F821
