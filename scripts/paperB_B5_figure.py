"""Figure B5: E_ell(Sigma_f) and E_ell(Sigma_G) against ell (PDF, PNG, CSV), caption, claim B.3."""

from attnspec.experiments.conditional import (
    CONDITIONAL_TABLE_HEADER,
    COVARIANCES,
    conditional_check,
    conditional_claim,
    conditional_series,
    conditional_table_rows,
    judge_conditional,
)
from attnspec.io import (
    configure_logging,
    load_npz,
    write_figure_outputs,
)
from attnspec.plotting.conditional import (
    CONDITIONAL_PLOTTED_HEADER,
    conditional_plotted_rows,
    plot_conditional_edges,
)


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.conditional
    draws = iter([load_npz(path) for path in smk.input.draws])
    results = [[next(draws) for _ in range(cfg["draws"])] for _ in cfg["n_tokens"]]
    series = conditional_series(cfg["beta"], cfg["ratio"], cfg["n_tokens"], results)
    checks = [conditional_check(series, name) for name in COVARIANCES]
    figure = plot_conditional_edges(
        series, {check.covariance: judge_conditional(check) for check in checks}
    )
    write_figure_outputs(
        smk,
        figure,
        CONDITIONAL_PLOTTED_HEADER,
        conditional_plotted_rows(series),
        tables=[(CONDITIONAL_TABLE_HEADER, conditional_table_rows(series))],
        claim=conditional_claim(checks, draws=cfg["draws"]),
        digits=6,
    )
    log.info("wrote %s", ", ".join(smk.output))


main(snakemake)  # noqa: F821
