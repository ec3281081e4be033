"""Figure B1: ell s_k(A)^2 against ell per (c, beta) with x_+ and Y_lin (PDF, PNG, CSV), its
caption with table B-T1's numbers for k = 2, and the verdict row of claim B.1."""

from pathlib import Path

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
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.sticking import plot_sticking, sticking_plotted_rows
from attnspec.plotting.style import close
from attnspec.tables import to_markdown
from attnspec.verdicts import CLAIM_HEADER

PLOTTED_HEADER = ("c", "beta", "series", "n_tokens", "k", "y")


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    series = collect_series(load_npz(path) for path in smk.input.draws)
    square, others = split_square(series)
    claim = edge_claim(square, others)
    figure = plot_sticking(series, edge_verdict_labels(square))
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(smk.output.plotted, PLOTTED_HEADER, sticking_plotted_rows(series))
    write_csv(smk.output.claims, CLAIM_HEADER, [claim.as_row()])
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    write_text(
        smk.output.caption,
        caption
        + "\n\n"
        + to_markdown(EDGE_KEY_HEADER, edge_key_rows(series))
        + "\n"
        + to_markdown(CLAIM_HEADER, [claim.as_row()]),
    )
    log.info("claim %s: %s (%s)", claim.claim_id, claim.verdict, claim.note)
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
