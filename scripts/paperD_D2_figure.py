"""Figure D2: the limit law against the softmax and Gaussian-equivalent spectra for several head
counts h, drawn from its tidy table (PDF, PNG, CSV), and its caption with the KS of each
(stage, h) to the law."""

from attnspec.papers.d.plot_multihead import plot_heads
from attnspec.papers.d.summary import HEADS_KEY_HEADER, heads_key_rows, heads_plotted_table
from attnspec.workflow.io import configure_logging, load_npz, write_figure_outputs, write_plotted
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    settings = smk.params.settings
    records = {
        heads: load_npz(path)
        for heads, path in zip(settings["head_counts"], smk.input.draws, strict=True)
    }
    plotted = heads_plotted_table(records, settings)
    figure = plot_heads(write_plotted(smk, plotted), settings["histogram_bins"])
    write_figure_outputs(
        smk,
        figure,
        tables=[(HEADS_KEY_HEADER, heads_key_rows(records, settings))],
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
