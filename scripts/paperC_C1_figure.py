"""Figure C1: singular values of S and of A, drawn from its tidy table (PDF, PNG, CSV), and its
caption with the key numbers and the verdicts of C.1 and C.2 (read from the claims table)."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.c.degeneration_summary import (
    SPECTRA_TABLE_HEADER,
    spectra_plotted_table,
    spectra_table_rows,
)
from attnspec.papers.c.plot_degeneration import plot_spectra
from attnspec.workflow.io import (
    configure_logging,
    load_npz,
    read_csv,
    write_figure_outputs,
    write_plotted,
)
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    model, cfg = smk.params.model, smk.params.spectra
    spectra = load_npz(smk.input.spectra)
    claims = read_csv(smk.input.claims)
    judged = [*rows_of(claims, "C.1/"), *rows_of(claims, "C.2/")]
    tidy = spectra_plotted_table(spectra, profiles=cfg["profiles"])
    plotted = write_plotted(smk, tidy)
    figure = plot_spectra(plotted, spikes=model["spikes"])
    table = spectra_table_rows(
        spectra, profiles=cfg["profiles"], spikes=model["spikes"], n=cfg["n_tokens"]
    )
    write_figure_outputs(
        smk,
        figure,
        tables=[(SPECTRA_TABLE_HEADER, table)],
        judged=judged,
        intro="\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
