"""Figure A3: bulk laws (PDF, PNG), the numbers plotted, caption with table, claim A.4 row."""

from attnspec.experiments.bulk_laws import (
    BULK_LAWS_TABLE_HEADER,
    bulk_laws_table_rows,
    not_marchenko_pastur_claim,
    unpack_panels,
)
from attnspec.io import configure_logging, load_npz, write_figure_outputs
from attnspec.plotting.bulk_laws import (
    BULK_LAWS_PLOTTED_HEADER,
    bulk_laws_plotted_rows,
    plot_bulk_laws,
)


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.bulk_laws
    panels = unpack_panels(load_npz(smk.input.summary))
    figure = plot_bulk_laws(panels, n_tokens=cfg["n_tokens"], n_draws=cfg["draws"])
    claim = not_marchenko_pastur_claim(panels, n_tokens=cfg["n_tokens"])
    write_figure_outputs(
        smk,
        figure,
        BULK_LAWS_PLOTTED_HEADER,
        bulk_laws_plotted_rows(panels),
        tables=[(BULK_LAWS_TABLE_HEADER, bulk_laws_table_rows(panels))],
        claim=claim,
        intro=f"\n\n**Claim A.4: {claim.verdict}.** {claim.note}.\n\n",
        claim_table=False,
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
