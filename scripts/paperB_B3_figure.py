"""Figure B3: uniform sticking, D = max over 2 <= k <= k_ell of |ell s_k(A)^2 - x_+| / x_+ for
three sublinear k_ell (c = 1) (PDF, PNG, CSV), its caption with the key numbers, and the
verdict row of claim B.2."""

from attnspec.experiments.sticking_summary import (
    UNIFORM_KEY_HEADER,
    collect_series,
    uniform_key_rows,
)
from attnspec.experiments.sticking_verdicts import uniform_claim, uniform_verdict_labels
from attnspec.io import (
    configure_logging,
    load_npz,
    write_figure_outputs,
)
from attnspec.plotting.sticking import plot_uniform, uniform_plotted_rows

PLOTTED_HEADER = ("beta", "schedule", "series", "n_tokens", "k_ell", "y")


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    series = collect_series(load_npz(path) for path in smk.input.draws)
    claim = uniform_claim(series)
    figure = plot_uniform(series, uniform_verdict_labels(series))
    write_figure_outputs(
        smk,
        figure,
        PLOTTED_HEADER,
        uniform_plotted_rows(series),
        tables=[(UNIFORM_KEY_HEADER, uniform_key_rows(series))],
        claim=claim,
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
