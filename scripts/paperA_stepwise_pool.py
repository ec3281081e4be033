"""Figure A1, spectra: pool the draws of every model into histograms, sorted spectra, distances."""

from attnspec.papers.a.stepwise_summary import summarise_stepwise
from attnspec.workflow.io import configure_logging, load_npz, save_npz


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.stepwise
    spectra = {
        model: list(load_npz(path)[model][: cfg["draws"]])
        for model, path in zip(smk.params.models, smk.input, strict=True)
    }
    log.info(
        "%d draws of %d models at ell = %d, beta = %s",
        cfg["draws"],
        len(spectra),
        cfg["n_tokens"],
        cfg["beta"],
    )
    summary = summarise_stepwise(
        spectra,
        beta=cfg["beta"],
        ratio=cfg["n_tokens"] / cfg["d_qk"],
        n_removed=cfg["n_removed"],
        bins=cfg["histogram_bins"],
    )
    save_npz(smk.output[0], **summary)


main(snakemake)  # noqa: F821
