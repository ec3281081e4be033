"""Figure B2: relative gap of ell s_2(A)^2 with its fitted rate and the Tracy-Widom expectation,
the spike prediction draw by draw, and the localisation of the top singular vectors (c = 1)
(PDF, PNG, CSV), and its caption with the key numbers."""

from pathlib import Path

from attnspec.experiments.sticking_summary import (
    EDGE_KEY_HEADER,
    GAP_KEY_HEADER,
    collect_series,
    edge_key_rows,
    gap_key_rows,
)
from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.sticking import gap_plotted_rows, plot_gap
from attnspec.plotting.style import close
from attnspec.tables import to_markdown

PLOTTED_HEADER = ("panel", "beta", "series", "n_tokens", "draw", "x", "y")
# Panel (b) shows the betas at which spikes matter (papers.md section 3: beta >= 1).
SPIKE_BETA_MIN = 1.0


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    series = collect_series(load_npz(path) for path in smk.input.draws)
    spike_betas = [s.beta for s in series if s.beta >= SPIKE_BETA_MIN]
    figure = plot_gap(series, spike_betas=spike_betas)
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(smk.output.plotted, PLOTTED_HEADER, gap_plotted_rows(series, spike_betas=spike_betas))
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    write_text(
        smk.output.caption,
        caption
        + "\n\n"
        + to_markdown(GAP_KEY_HEADER, gap_key_rows(series))
        + "\n"
        + to_markdown(EDGE_KEY_HEADER, edge_key_rows(series)),
    )
    for row in gap_key_rows(series):
        log.info("%s", dict(zip(GAP_KEY_HEADER, row, strict=True)))
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
