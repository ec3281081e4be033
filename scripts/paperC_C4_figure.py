"""Figure C4: spike survival against kappa (PDF, PNG, CSV, caption)."""

from pathlib import Path

from attnspec.experiments.degeneration_summary import SURVIVAL_TABLE_HEADER, survival_table_rows
from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.degeneration import plot_survival, survival_plotted_rows
from attnspec.plotting.style import close
from attnspec.tables import to_markdown


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.survival
    jobs = [load_npz(path) for path in smk.input.survival]
    figure = plot_survival(
        jobs, n_tokens=cfg["n_tokens"], spikes=smk.params.model["spikes"], profile=cfg["profile"]
    )
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(
        smk.output.plotted,
        ("mask", "n", "kappa", "series", "value"),
        survival_plotted_rows(jobs, n_tokens=cfg["n_tokens"]),
    )
    rows = survival_table_rows(jobs, cfg["n_tokens"])
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    write_text(smk.output.caption, caption + "\n" + to_markdown(SURVIVAL_TABLE_HEADER, rows))
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
