"""Figure A7: nu_inf across c = ell / d_qk, drawn from its tidy table (PDF, PNG, CSV), caption
with the table."""

from attnspec.papers.a.bulk_laws import (
    RATIO_TABLE_HEADER,
    ratio_table_rows,
    ratios_plotted_table,
    unpack_panels,
)
from attnspec.papers.a.plot_bulk_laws import plot_ratios
from attnspec.workflow.io import configure_logging, load_npz, write_figure_outputs, write_plotted
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.ratios
    panels = unpack_panels(load_npz(smk.input.summary))
    attention = [load_npz(path)["attention"][: cfg["draws"]] for path in smk.input.spectra]
    plotted = ratios_plotted_table(panels, attention)
    figure = plot_ratios(
        write_plotted(smk, plotted),
        n_tokens=cfg["n_tokens"],
        bins=cfg["histogram_bins"],
    )
    write_figure_outputs(
        smk,
        figure,
        tables=[(RATIO_TABLE_HEADER, ratio_table_rows(panels))],
        intro="\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
