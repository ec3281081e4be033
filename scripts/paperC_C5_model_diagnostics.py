"""Figure C5, model: eigen-angles, score spectra and stable ranks of every head and passage.

Wildcards: tokens, passages (those of the queries/keys file). Params: replicate (the random
streams of the null-space completions, used only when rank S < n).
"""

from attnspec.papers.c.pretrained import model_diagnostics
from attnspec.workflow.io import configure_logging, load_npz, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    data = load_npz(smk.input[0])
    diagnostics = model_diagnostics(data["queries"], data["keys"], replicate=smk.params.replicate)
    save_npz(smk.output[0], **diagnostics)
    log.info("minimum rank of S: %d", diagnostics["rank"].min())


main(snakemake)  # noqa: F821
