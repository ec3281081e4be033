"""Figure A2: full sorted spectrum of sqrt(ell) A (PDF, PNG), the numbers plotted, caption."""

from pathlib import Path

from attnspec.experiments.full_spectrum import (
    FULL_SPECTRUM_TABLE_HEADER,
    REFERENCE_TABLE_HEADER,
    full_spectrum_reference_rows,
    full_spectrum_table_rows,
    summarise_full_spectrum,
)
from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.full_spectrum import full_spectrum_plotted_rows, plot_full_spectrum
from attnspec.plotting.style import close
from attnspec.tables import to_markdown


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.spectrum
    parameters = dict(n_tokens=cfg["n_tokens"], d_qk=cfg["d_qk"], beta=cfg["beta"])
    summary = summarise_full_spectrum([load_npz(p) for p in smk.input.draws], **parameters)
    figure = plot_full_spectrum(summary, **parameters)
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(
        smk.output.plotted,
        ("panel", "series", "draw", "x", "y"),
        full_spectrum_plotted_rows(summary),
    )
    rows = full_spectrum_table_rows(summary)
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    write_text(
        smk.output.caption,
        caption
        + "\n\n"
        + to_markdown(FULL_SPECTRUM_TABLE_HEADER, rows)
        + "\n"
        + to_markdown(REFERENCE_TABLE_HEADER, full_spectrum_reference_rows(summary)),
    )
    for row in rows:
        log.info("draw %s: ell s1^2 = %.6g, %d values above x_+", row[0], row[1], row[2])
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
