"""Figure A3: the bulk against nu_inf and the MP surrogate, drawn from its tidy table (PDF, PNG,
CSV), caption with the table and the A.4 rows."""

from attnspec.claims.dashboard import rows_of
from attnspec.papers.a.bulk_laws import (
    BULK_LAWS_TABLE_HEADER,
    bulk_laws_plotted_table,
    bulk_laws_table_rows,
    unpack_panels,
)
from attnspec.papers.a.plot_bulk_laws import plot_bulk_laws
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
    cfg = smk.params.bulk_laws
    draws = cfg["draws"]
    panels = unpack_panels(load_npz(smk.input.summary))
    attention = [load_npz(path)["attention"][:draws] for path in smk.input.attention]
    linear = [load_npz(path)["linear"][:draws] for path in smk.input.linear]
    plotted = bulk_laws_plotted_table(panels, attention, linear)
    figure = plot_bulk_laws(write_plotted(smk, plotted), bins=cfg["histogram_bins"])
    write_figure_outputs(
        smk,
        figure,
        tables=[(BULK_LAWS_TABLE_HEADER, bulk_laws_table_rows(panels))],
        judged=rows_of(read_csv(smk.input.claims), "A.4/"),
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
