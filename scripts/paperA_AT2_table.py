"""Table A-T2: moments and distances of the stepwise models, the per-ell pair distances of the
A.3 evidence, and the A.3 row (from the claims table)."""

import pandas as pd

from attnspec.claims.dashboard import rows_of, verdict_table
from attnspec.papers.a.gaussian_equivalence import BY_SIZE_HEADER, by_size_rows
from attnspec.papers.a.stepwise import STEPWISE_TABLE_HEADER, stepwise_table_rows
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
    rows = stepwise_table_rows(load_npz(smk.input.summary))
    judged = rows_of(read_csv(smk.input.claims), "A.3")
    write_table(smk.output.csv, pd.DataFrame(rows, columns=STEPWISE_TABLE_HEADER))
    write_text(
        smk.output.md,
        "\n".join(
            [
                rule_caption(smk),
                to_markdown(STEPWISE_TABLE_HEADER, rows),
                to_markdown(BY_SIZE_HEADER, by_size_rows(load_npz(smk.input.pairs))),
                to_markdown(*verdict_table(judged)),
                "",
            ]
        ),
    )
    latex = to_latex(
        STEPWISE_TABLE_HEADER,
        rows,
        caption="Moments and distances of the stepwise models of figure A1 (paper A, A-T2).",
        label="tab:A-T2-stepwise",
    )
    write_text(smk.output.tex, latex)
    for row in judged:
        log.info("%s: %s", row["row_id"], row["verdict"])


run_staged(main, snakemake)  # noqa: F821
