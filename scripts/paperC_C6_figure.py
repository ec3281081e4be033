"""Figure C6: score spectra, top-k energies and attention stable ranks of the pretrained model,
drawn from its tidy table (PDF, PNG, CSV), and its caption (per-layer numbers, the verdicts of
C.6 read from the claims table)."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.c.plot_pretrained import plot_score_spectra
from attnspec.papers.c.pretrained_summary import (
    spectra_layer_header,
    spectra_layer_rows,
    spectra_plotted_table,
)
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
    cfg = smk.params.pretrained
    tidy = spectra_plotted_table(
        load_npz(smk.input.model_long),
        load_npz(smk.input.isotropic_long),
        top_k=cfg["top_k"],
    )
    frame = write_plotted(smk, tidy)
    judged = rows_of(read_csv(smk.input.claims), "C.6/")
    figure = plot_score_spectra(frame, top_k=cfg["top_k"])
    write_figure_outputs(
        smk,
        figure,
        tables=[(spectra_layer_header(cfg["top_k"]), spectra_layer_rows(frame))],
        judged=judged,
        intro="\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
