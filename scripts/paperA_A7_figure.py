"""Figure A7: nu_inf across c = ell / d_qk (PDF, PNG), the numbers plotted, caption with table."""

from attnspec.experiments.bulk_laws import RATIO_TABLE_HEADER, ratio_table_rows, unpack_panels
from attnspec.io import configure_logging, load_npz, write_figure_outputs
from attnspec.plotting.bulk_laws import RATIOS_PLOTTED_HEADER, plot_ratios, ratios_plotted_rows


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.ratios
    panels = unpack_panels(load_npz(smk.input.summary))
    figure = plot_ratios(panels, n_tokens=cfg["n_tokens"], n_draws=cfg["draws"])
    write_figure_outputs(
        smk,
        figure,
        RATIOS_PLOTTED_HEADER,
        ratios_plotted_rows(panels),
        tables=[(RATIO_TABLE_HEADER, ratio_table_rows(panels))],
        intro="\n",
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
