"""Table B-T2: scalar edge formula against the square-model formula (c = 1), with the verdicts
of rows B.4/square-model and B.4/r-transform (identities; read from the judged claims table)."""

import pandas as pd

from attnspec.claims.dashboard import rows_of, verdict_table
from attnspec.papers.b.edge_formulas import EDGE_FORMULA_HEADER, edge_formula_rows
from attnspec.tables import to_latex, to_markdown
from attnspec.workflow.io import configure_logging, read_csv, rule_caption, write_table, write_text
from attnspec.workflow.publish import run_staged

JUDGED_ROWS = ("B.4/square-model", "B.4/r-transform")


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.edges
    rows = edge_formula_rows(cfg["table_betas"])
    judged = [
        row for row in rows_of(read_csv(smk.input.claims), "B.4/") if row["row_id"] in JUDGED_ROWS
    ]
    write_table(smk.output.csv, pd.DataFrame(rows, columns=EDGE_FORMULA_HEADER))
    caption = rule_caption(smk)
    write_text(
        smk.output.md,
        caption
        + "\n\n"
        + to_markdown(EDGE_FORMULA_HEADER, rows, digits=10)
        + "\n"
        + to_markdown(*verdict_table(judged)),
    )
    latex = to_latex(
        EDGE_FORMULA_HEADER,
        rows,
        caption=(
            "Scalar edge formula (general stationary cubic at $c = 1$) against paper A's "
            "square-model formula, solved independently (paper B, B-T2, claim B.4)."
        ),
        label="tab:B-T2-edge-formulas",
        digits=10,
    )
    write_text(smk.output.tex, latex)
    for row in judged:
        log.info("%s: %s (%s)", row["row_id"], row["verdict"], row["value"])


run_staged(main, snakemake)  # noqa: F821
