"""Figure A2: the full sorted spectrum of sqrt(ell) A, drawn from its tidy table (PDF, PNG, CSV),
and its caption with the per-draw table and the theory references."""

from attnspec.papers.a.full_spectrum import (
    FULL_SPECTRUM_TABLE_HEADER,
    REFERENCE_TABLE_HEADER,
    full_spectrum_plotted_table,
    full_spectrum_reference_rows,
    full_spectrum_table_rows,
    summarise_full_spectrum,
    unpack_draws,
)
from attnspec.papers.a.plot_full_spectrum import plot_full_spectrum
from attnspec.workflow.io import configure_logging, load_npz, write_figure_outputs, write_plotted
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.spectrum
    parameters = dict(n_tokens=cfg["n_tokens"], d_qk=cfg["d_qk"], beta=cfg["beta"])
    summary = summarise_full_spectrum(unpack_draws(load_npz(smk.input.draws)), **parameters)
    plotted = full_spectrum_plotted_table(summary)
    figure = plot_full_spectrum(write_plotted(smk, plotted))
    rows = full_spectrum_table_rows(summary)
    write_figure_outputs(
        smk,
        figure,
        tables=[
            (FULL_SPECTRUM_TABLE_HEADER, rows),
            (REFERENCE_TABLE_HEADER, full_spectrum_reference_rows(summary)),
        ],
    )
    for row in rows:
        log.info("draw %s: ell s1^2 = %.6g, %d values above x_+", row[0], row[1], row[2])
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
