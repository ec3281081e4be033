"""Figure D2: the limit law against the softmax and Gaussian-equivalent spectra for several head
counts h, drawn from its tidy table (PDF, PNG, CSV), and its caption with the KS of each
(stage, h) to the law."""

import pandas as pd

from attnspec.io import configure_logging, load_npz, write_figure_outputs
from attnspec.multihead.summary import (
    HEADS_KEY_HEADER,
    HEADS_PLOTTED_HEADER,
    heads_key_rows,
    heads_plotted_rows,
)
from attnspec.plotting.multihead import plot_heads


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    settings = smk.params.settings
    records = {
        heads: load_npz(path)
        for heads, path in zip(settings["head_counts"], smk.input.draws, strict=True)
    }
    rows = heads_plotted_rows(records, settings)
    figure = plot_heads(
        pd.DataFrame(rows, columns=HEADS_PLOTTED_HEADER), settings["histogram_bins"]
    )
    write_figure_outputs(
        smk,
        figure,
        HEADS_PLOTTED_HEADER,
        rows,
        tables=[(HEADS_KEY_HEADER, heads_key_rows(records, settings))],
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
