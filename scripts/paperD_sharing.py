"""Figure D3, table D-T2 and rows D.2, D.3, simulate: every draw at one sharing scheme and n in
one job (each draw seeded on its own).

Wildcards: scheme, n_tokens, draws. Params: settings (paperD.sharing), replicate.
"""

from attnspec.papers.d.multihead import sharing_draws
from attnspec.papers.progress import Stopwatch
from attnspec.workflow.io import configure_logging, save_npz
from attnspec.workflow.store import stored_or_computed


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    clock = Stopwatch()
    scheme, n_tokens = smk.wildcards.scheme, int(smk.wildcards.n_tokens)
    draws = int(smk.wildcards.draws)
    record = stored_or_computed(
        smk.params.get("store"),
        smk.output[0],
        sharing_draws,
        scheme,
        smk.params.settings,
        n_tokens,
        draws,
        replicate=smk.params.replicate,
    )
    save_npz(smk.output[0], **record)
    log.info("%s, n = %d: %d draws in %.2f s", scheme, n_tokens, draws, clock.total())


main(snakemake)  # noqa: F821
