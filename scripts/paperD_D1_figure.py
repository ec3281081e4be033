"""Figure D1: relative W1 and KS of softmax against its same-weights Gaussian equivalent per
table D.2 configuration, with the floor (two Gaussian equivalents), and below them the rows D.1
that judge them (mean minus target over the pass band, by verdict), drawn from its tidy table
(PDF, PNG, CSV), its caption with the comparison table, what the data show and the verdicts of
every row D.1/<model>/... (read from the judged claims table): published-w1 and published-ks
(paper D's claim), w1 and ks (beyond the paper, labelled so by the verdict table)."""

from attnspec.claims.dashboard import rows_of, verdict_label
from attnspec.papers.d.plot_multihead import plot_public_models
from attnspec.papers.d.summary import (
    PUBLIC_TABLE_HEADER,
    public_model_findings,
    public_model_plotted_table,
    public_model_table_rows,
)
from attnspec.workflow.io import (
    configure_logging,
    load_npz,
    read_csv,
    write_figure_outputs,
    write_plotted,
)
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    records = {
        model: load_npz(path)
        for model, path in zip(smk.params.models, smk.input.draws, strict=True)
    }
    judged = rows_of(read_csv(smk.input.claims), "D.1/")
    # the verdict as the table shows it (with "fragile" and the alternative when unstable)
    verdicts = {row["row_id"]: verdict_label(row).split(": ", 1)[1] for row in judged}
    plotted = public_model_plotted_table(records, smk.params.beta, judged)
    figure = plot_public_models(write_plotted(smk, plotted))
    table = public_model_table_rows(records, smk.params.beta, verdicts)
    write_figure_outputs(
        smk,
        figure,
        tables=[(PUBLIC_TABLE_HEADER, table)],
        judged=judged,
        intro=public_model_findings(records, smk.params.beta),
    )
    log.info("wrote %s", ", ".join(smk.output))


run_staged(main, snakemake)  # noqa: F821
