"""Figure D1, table D-T1 and rows D.1/<model>/<metric>, simulate: every draw at one table D.2
configuration in one job (each draw seeded on its own), the n eigenvalues of MHA_perp MHA_perp^T
and of n^-1 MHA^G MHA^G^T from the same weights, of a second Gaussian equivalent with
independent noise (the floor) and of the wrong Gaussian equivalents the rows must rule out.

Wildcards: model, draws. Params: beta, replicate.
"""

from attnspec.papers.d.multihead import public_model_draws
from attnspec.papers.progress import Stopwatch
from attnspec.workflow.io import configure_logging, save_npz
from attnspec.workflow.store import stored_or_computed


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    clock = Stopwatch()
    model, draws = smk.wildcards.model, int(smk.wildcards.draws)

    def progress(draw):
        log.info("%s draw %d of %d: %.2f s", model, draw + 1, draws, clock.lap())

    record = stored_or_computed(
        smk.params.get("store"),
        smk.output[0],
        public_model_draws,
        model,
        smk.params.beta,
        draws,
        replicate=smk.params.replicate,
        unkeyed={"progress": progress},
    )
    save_npz(smk.output[0], **record)
    log.info("%d draws done in %.2f s (replicate %d)", draws, clock.total(), smk.params.replicate)


main(snakemake)  # noqa: F821
