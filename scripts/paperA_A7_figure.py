"""Figure A7: nu_inf across c = ell / d_qk (PDF, PNG), the numbers plotted, caption with table."""

from pathlib import Path

from attnspec.experiments.bulk_laws import RATIO_TABLE_HEADER, ratio_table_rows, unpack_panels
from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.bulk_laws import RATIOS_PLOTTED_HEADER, plot_ratios, ratios_plotted_rows
from attnspec.plotting.style import close
from attnspec.tables import to_markdown


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.ratios
    panels = unpack_panels(load_npz(smk.input.summary))
    figure = plot_ratios(panels, n_tokens=cfg["n_tokens"], n_draws=cfg["draws"])
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(smk.output.plotted, RATIOS_PLOTTED_HEADER, ratios_plotted_rows(panels))
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    table = to_markdown(RATIO_TABLE_HEADER, ratio_table_rows(panels))
    write_text(smk.output.caption, caption + "\n" + table)
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
