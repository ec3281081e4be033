"""Figure A6: |s_1(A) - 1| and the stable rank against ell (PDF, PNG, CSV), caption, claim A.2."""

from attnspec.experiments.perron import (
    PERRON_TABLE_HEADER,
    judge_perron,
    perron_check,
    perron_claim,
    perron_series,
    perron_table_rows,
)
from attnspec.io import (
    configure_logging,
    load_npz,
    write_figure_outputs,
)
from attnspec.plotting.perron import perron_plotted_rows, plot_perron

PLOTTED_HEADER = ("panel", "beta", "series", "n_tokens", "draw", "y")


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.perron
    results = iter([load_npz(path) for path in smk.input.points])
    series = [
        perron_series(beta, cfg["n_tokens"], [next(results) for _ in cfg["n_tokens"]])
        for beta in cfg["betas"]
    ]
    checks = [perron_check(s) for s in series]
    verdicts = [judge_perron(check) for check in checks]
    figure = plot_perron(series, verdicts)
    claim = perron_claim(checks, draws=cfg["draws"])
    write_figure_outputs(
        smk,
        figure,
        PLOTTED_HEADER,
        perron_plotted_rows(series),
        tables=[(PERRON_TABLE_HEADER, perron_table_rows(series))],
        claim=claim,
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
