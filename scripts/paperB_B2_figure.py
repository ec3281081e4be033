"""Figure B2: relative gap of ell s_2(A)^2 with its fitted rate and the Tracy-Widom expectation,
the spike prediction draw by draw, and the localisation of the top singular vectors (c = 1)
(PDF, PNG, CSV), and its caption with the key numbers."""

from attnspec.experiments.sticking_summary import (
    EDGE_KEY_HEADER,
    GAP_KEY_HEADER,
    collect_series,
    edge_key_rows,
    gap_key_rows,
)
from attnspec.io import configure_logging, load_npz, write_figure_outputs
from attnspec.plotting.sticking import gap_plotted_rows, plot_gap

PLOTTED_HEADER = ("panel", "beta", "series", "n_tokens", "draw", "x", "y")
# Panel (b) shows the betas at which spikes matter (papers.md section 3: beta >= 1).
SPIKE_BETA_MIN = 1.0


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    series = collect_series(load_npz(path) for path in smk.input.draws)
    spike_betas = [s.beta for s in series if s.beta >= SPIKE_BETA_MIN]
    figure = plot_gap(series, spike_betas=spike_betas)
    gap_rows = gap_key_rows(series)
    write_figure_outputs(
        smk,
        figure,
        PLOTTED_HEADER,
        gap_plotted_rows(series, spike_betas=spike_betas),
        tables=[(GAP_KEY_HEADER, gap_rows), (EDGE_KEY_HEADER, edge_key_rows(series))],
    )
    for row in gap_rows:
        log.info("%s", dict(zip(GAP_KEY_HEADER, row, strict=True)))
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
