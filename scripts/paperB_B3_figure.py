"""Figure B3: uniform sticking, D = max over 2 <= k <= k_ell of |ell s_k(A)^2 - x_+| / x_+ for
three sublinear k_ell (c = 1) (PDF, PNG, CSV), its caption with the key numbers, and the
verdict row of claim B.2."""

from pathlib import Path

from attnspec.experiments.sticking_summary import (
    UNIFORM_KEY_HEADER,
    collect_series,
    uniform_key_rows,
)
from attnspec.experiments.sticking_verdicts import uniform_claim, uniform_verdict_labels
from attnspec.io import (
    configure_logging,
    load_npz,
    render_caption,
    save_figure,
    write_csv,
    write_text,
)
from attnspec.plotting.sticking import plot_uniform, uniform_plotted_rows
from attnspec.plotting.style import close
from attnspec.tables import to_markdown
from attnspec.verdicts import CLAIM_HEADER

PLOTTED_HEADER = ("beta", "schedule", "series", "n_tokens", "k_ell", "y")


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    series = collect_series(load_npz(path) for path in smk.input.draws)
    claim = uniform_claim(series)
    figure = plot_uniform(series, uniform_verdict_labels(series))
    save_figure(figure, smk.output.pdf, smk.output.png)
    close(figure)
    write_csv(smk.output.plotted, PLOTTED_HEADER, uniform_plotted_rows(series))
    write_csv(smk.output.claims, CLAIM_HEADER, [claim.as_row()])
    caption = render_caption(Path(smk.input.caption).read_text(), smk.config)
    write_text(
        smk.output.caption,
        caption
        + "\n\n"
        + to_markdown(UNIFORM_KEY_HEADER, uniform_key_rows(series))
        + "\n"
        + to_markdown(CLAIM_HEADER, [claim.as_row()]),
    )
    log.info("claim %s: %s (%s)", claim.claim_id, claim.verdict, claim.note)
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
