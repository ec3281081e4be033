"""Figure B1: ell s_k(A)^2 against ell per (c, beta) with x_+ and Y_lin (PDF, PNG, CSV), its
caption with table B-T1's numbers for k = 2, and the verdict row of claim B.1."""

from attnspec.experiments.sticking_summary import (
    EDGE_KEY_HEADER,
    collect_series,
    edge_key_rows,
    split_square,
)
from attnspec.experiments.sticking_verdicts import edge_claim, edge_verdict_labels
from attnspec.io import (
    configure_logging,
    load_npz,
    write_figure_outputs,
)
from attnspec.plotting.sticking import plot_sticking, sticking_plotted_rows

PLOTTED_HEADER = ("c", "beta", "series", "n_tokens", "k", "y")


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    series = collect_series(load_npz(path) for path in smk.input.draws)
    square, others = split_square(series)
    claim = edge_claim(square, others)
    figure = plot_sticking(series, edge_verdict_labels(square))
    write_figure_outputs(
        smk,
        figure,
        PLOTTED_HEADER,
        sticking_plotted_rows(series),
        tables=[(EDGE_KEY_HEADER, edge_key_rows(series))],
        claim=claim,
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
