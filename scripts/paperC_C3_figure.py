"""Figure C3: stable rank against n, canonical and Gaussian models (PDF, PNG, CSV, caption)."""

from pathlib import Path

from attnspec.experiments.degeneration_summary import (
    STABLE_RANK_TABLE_HEADER,
    collect_stable_ranks,
    stable_rank_table_rows,
)
from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.degeneration import plot_stable_rank, stable_rank_plotted_rows
from attnspec.plotting.style import close
from attnspec.tables import to_markdown


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    params = smk.params
    data = collect_stable_ranks(
        (params.stable_rank["n_tokens"], [load_npz(p) for p in smk.input.canonical]),
        (params.isotropic["n_tokens"], [load_npz(p) for p in smk.input.isotropic]),
        (params.gaussian_model["n_tokens"], [load_npz(p) for p in smk.input.gaussian]),
        params.stable_rank["profiles"],
        params.isotropic["profile"],
    )
    spikes, beta = params.model["spikes"], params.gaussian_model["beta"]
    figure = plot_stable_rank(*data, spikes=spikes, beta=beta)
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(
        smk.output.plotted,
        ("model", "profile", "mask", "quantity", "n", "draw", "value"),
        stable_rank_plotted_rows(*data),
    )
    rows = stable_rank_table_rows(
        [*data.canonical, *data.isotropic, *data.gaussian], data.cesaro, spikes=spikes, beta=beta
    )
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    write_text(smk.output.caption, caption + "\n" + to_markdown(STABLE_RANK_TABLE_HEADER, rows))
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
