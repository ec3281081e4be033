"""Figure A3: bulk laws (PDF, PNG), the numbers plotted, caption with tables and the A.4 rows."""

from attnspec.dashboard import rows_of, verdict_label
from attnspec.experiments.bulk_laws import (
    BULK_LAWS_TABLE_HEADER,
    bulk_laws_table_rows,
    unpack_panels,
)
from attnspec.io import configure_logging, load_npz, read_csv, write_figure_outputs
from attnspec.plotting.bulk_laws import (
    BULK_LAWS_PLOTTED_HEADER,
    bulk_laws_plotted_rows,
    plot_bulk_laws,
)


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.bulk_laws
    panels = unpack_panels(load_npz(smk.input.summary))
    judged = rows_of(read_csv(smk.input.claims), "A.4/")
    by_id = {row["row_id"]: row for row in judged}
    verdicts = {
        float(p["beta"]): verdict_label(by_id[f"A.4/beta={float(p['beta']):g}"])
        for p in panels
        if f"A.4/beta={float(p['beta']):g}" in by_id
    }
    figure = plot_bulk_laws(
        panels, n_tokens=cfg["n_tokens"], n_draws=cfg["draws"], verdicts=verdicts
    )
    write_figure_outputs(
        smk,
        figure,
        BULK_LAWS_PLOTTED_HEADER,
        bulk_laws_plotted_rows(panels),
        tables=[(BULK_LAWS_TABLE_HEADER, bulk_laws_table_rows(panels))],
        judged=judged,
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
