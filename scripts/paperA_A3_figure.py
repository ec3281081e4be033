"""Figure A3: bulk laws (PDF, PNG), the numbers plotted, caption with table, claim A.4 row."""

from pathlib import Path

from attnspec.experiments.bulk_laws import (
    BULK_LAWS_TABLE_HEADER,
    bulk_laws_table_rows,
    not_marchenko_pastur_claim,
    unpack_panels,
)
from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.bulk_laws import (
    BULK_LAWS_PLOTTED_HEADER,
    bulk_laws_plotted_rows,
    plot_bulk_laws,
)
from attnspec.plotting.style import close
from attnspec.tables import to_markdown
from attnspec.verdicts import CLAIM_HEADER


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.bulk_laws
    panels = unpack_panels(load_npz(smk.input.summary))
    figure = plot_bulk_laws(panels, n_tokens=cfg["n_tokens"], n_draws=cfg["draws"])
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(smk.output.plotted, BULK_LAWS_PLOTTED_HEADER, bulk_laws_plotted_rows(panels))
    rows = bulk_laws_table_rows(panels)
    claim = not_marchenko_pastur_claim(panels, n_tokens=cfg["n_tokens"])
    write_csv(smk.output.claims, CLAIM_HEADER, [claim.as_row()])
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    verdict = f"\n\n**Claim A.4: {claim.verdict}.** {claim.note}.\n\n"
    write_text(smk.output.caption, caption + verdict + to_markdown(BULK_LAWS_TABLE_HEADER, rows))
    log.info("claim A.4: %s (%s)", claim.verdict, claim.note)
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
