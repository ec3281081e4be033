"""Table D-T1: the table D.2 comparison, ours and the floor (two Gaussian equivalents) beside the
published numbers, with the verdicts of rows D.1/<model>/published-<metric> (paper D's claim:
our raw distance against the published mean) and D.1/<model>/<metric> (beyond the paper: the
distance minus the floor) read from the judged claims table, as CSV (exact), Markdown and LaTeX."""

import pandas as pd

from attnspec.claims.dashboard import rows_of, verdict_label
from attnspec.papers.d.summary import PUBLIC_TABLE_HEADER, public_model_table_rows
from attnspec.tables import to_latex, to_markdown
from attnspec.workflow.io import (
    configure_logging,
    load_npz,
    read_csv,
    rule_caption,
    write_table,
    write_text,
)
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    records = {
        model: load_npz(path)
        for model, path in zip(smk.params.models, smk.input.draws, strict=True)
    }
    judged = rows_of(read_csv(smk.input.claims), "D.1/")
    # the verdict as its label shows it (with "fragile" and the alternative when unstable)
    verdicts = {row["row_id"]: verdict_label(row).split(": ", 1)[1] for row in judged}
    rows = public_model_table_rows(records, smk.params.beta, verdicts)
    write_table(smk.output.csv, pd.DataFrame(rows, columns=PUBLIC_TABLE_HEADER))
    caption = rule_caption(smk)
    write_text(smk.output.md, caption + "\n" + to_markdown(PUBLIC_TABLE_HEADER, rows, digits=4))
    latex = to_latex(
        PUBLIC_TABLE_HEADER,
        rows,
        caption=(
            "Softmax against its same-weights Gaussian equivalent at public-model dimensions "
            "(paper D, table D.2): relative $W_1$ and KS, and the floor (two Gaussian equivalents "
            "of the same weights), mean and Student-t 95 \\% half-width over draws, beside the "
            "published values, with the verdicts of the rows judging the published means (paper "
            "D's claim) and of those judging the distance beyond the floor (beyond the paper) "
            "(D-T1)."
        ),
        label="tab:D-T1-public-models",
        digits=4,
    )
    write_text(smk.output.tex, latex)
    log.info("%d rows", len(rows))


run_staged(main, snakemake)  # noqa: F821
