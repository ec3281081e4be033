"""Figure D4: paper D's figure D.1 as published, softmax and Gaussian-equivalent spectra against
the limit laws in three panels, drawn from its tidy table (PDF, PNG, CSV), and its caption with
each condition's law and KS distances."""

from attnspec.papers.d.figure_d1 import PANELS
from attnspec.papers.d.figure_d1_summary import KEY_HEADER, key_rows, plotted_table
from attnspec.papers.d.plot_figure_d1 import plot_figure_d1
from attnspec.workflow.io import configure_logging, load_npz, write_figure_outputs, write_plotted
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    settings = smk.params.settings
    records = {panel: load_npz(path) for panel, path in zip(PANELS, smk.input.draws, strict=True)}
    plotted = plotted_table(records, settings)
    figure = plot_figure_d1(write_plotted(smk, plotted), settings["histogram_bins"])
    write_figure_outputs(smk, figure, tables=[(KEY_HEADER, key_rows(records, settings))])
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
