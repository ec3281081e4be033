"""Figure C1: singular values of S and of A (PDF, PNG), the numbers plotted, and its caption."""

from attnspec.dashboard import rows_of
from attnspec.experiments.degeneration_summary import SPECTRA_TABLE_HEADER, spectra_table_rows
from attnspec.io import configure_logging, load_npz, read_csv, write_figure_outputs
from attnspec.plotting.degeneration import plot_spectra, spectra_plotted_rows


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    model, cfg = smk.params.model, smk.params.spectra
    spectra = load_npz(smk.input.spectra)
    claims = read_csv(smk.input.claims)
    judged = [*rows_of(claims, "C.1/"), *rows_of(claims, "C.2/")]
    figure = plot_spectra(
        spectra,
        profiles=cfg["profiles"],
        n=cfg["n_tokens"],
        spikes=model["spikes"],
        kappa=model["kappa"],
        verdicts=judged,
    )
    rows = spectra_table_rows(
        spectra, profiles=cfg["profiles"], spikes=model["spikes"], n=cfg["n_tokens"]
    )
    write_figure_outputs(
        smk,
        figure,
        ("profile", "series", "rank", "singular_value"),
        spectra_plotted_rows(spectra, profiles=cfg["profiles"]),
        tables=[(SPECTRA_TABLE_HEADER, rows)],
        judged=judged,
        intro="\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
