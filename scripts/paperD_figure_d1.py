"""Figure D4, simulate: every draw of one panel of paper D's figure D.1 in one job (each draw
seeded on its own; in panel c the independent and tied conditions share one draw's weights and
noise).

Wildcards: panel, draws. Params: settings (paperD.figure_d1), replicate.
"""

from attnspec.papers.d.design_choices import panel_draws
from attnspec.papers.progress import Stopwatch
from attnspec.workflow.io import configure_logging, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    clock = Stopwatch()
    panel, draws = smk.wildcards.panel, int(smk.wildcards.draws)
    record = panel_draws(panel, smk.params.settings, draws, replicate=smk.params.replicate)
    save_npz(smk.output[0], **record)
    log.info("panel %s: %d draws in %.2f s", panel, draws, clock.total())


main(snakemake)  # noqa: F821
