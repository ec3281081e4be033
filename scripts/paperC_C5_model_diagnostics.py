"""Figure C5, model: eigen-angles, score spectra and stable ranks of every head and passage.

Wildcards: tokens, passages (those of the queries/keys file).
"""

from attnspec.experiments.pretrained import model_diagnostics
from attnspec.io import configure_logging, load_npz, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    data = load_npz(smk.input[0])
    diagnostics = model_diagnostics(data["queries"], data["keys"])
    save_npz(smk.output[0], **diagnostics)
    log.info("minimum rank of S: %d", diagnostics["rank"].min())


main(snakemake)  # noqa: F821
