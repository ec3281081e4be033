"""Figure C1: singular values of S and of A (PDF, PNG), the numbers plotted, and its caption."""

from pathlib import Path

from attnspec.experiments.degeneration_summary import SPECTRA_TABLE_HEADER, spectra_table_rows
from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.degeneration import plot_spectra, spectra_plotted_rows
from attnspec.plotting.style import close
from attnspec.tables import to_markdown


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    model, cfg = smk.params.model, smk.params.spectra
    spectra = load_npz(smk.input.spectra)
    figure = plot_spectra(
        spectra,
        profiles=cfg["profiles"],
        n=cfg["n_tokens"],
        spikes=model["spikes"],
        kappa=model["kappa"],
    )
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(
        smk.output.plotted,
        ("profile", "series", "rank", "singular_value"),
        spectra_plotted_rows(spectra, profiles=cfg["profiles"]),
    )
    rows = spectra_table_rows(
        spectra, profiles=cfg["profiles"], spikes=model["spikes"], n=cfg["n_tokens"]
    )
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    write_text(smk.output.caption, caption + "\n" + to_markdown(SPECTRA_TABLE_HEADER, rows))
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
