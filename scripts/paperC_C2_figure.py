"""Figure C2: bulk distribution of n s_k(A) for growing n (PDF, PNG, CSV, caption)."""

from pathlib import Path

from attnspec.experiments.degeneration_summary import (
    BULK_TABLE_HEADER,
    bulk_series,
    bulk_table_rows,
    counts_by_size,
)
from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.models.softmax import MASKS
from attnspec.plotting.degeneration import bulk_plotted_rows, plot_bulk
from attnspec.plotting.style import close
from attnspec.tables import to_markdown


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    model, cfg = smk.params.model, smk.params.bulk
    n_tokens = cfg["n_tokens"]
    jobs = counts_by_size(load_npz(smk.input.counts), n_tokens)
    series = [
        bulk_series(profile, mask, n_tokens, jobs, model["spikes"])
        for profile in cfg["profiles"]
        for mask in MASKS
    ]
    layout = dict(
        n_tokens=n_tokens,
        profiles=cfg["profiles"],
        spikes=model["spikes"],
        bulk_scale=model["bulk_scale"],
    )
    figure = plot_bulk(jobs, series, **layout)
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(
        smk.output.plotted,
        ("panel", "profile", "mask", "n", "x", "y"),
        bulk_plotted_rows(jobs, series, **layout),
    )
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    table = to_markdown(BULK_TABLE_HEADER, bulk_table_rows(series))
    write_text(smk.output.caption, caption + "\n" + table)
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
