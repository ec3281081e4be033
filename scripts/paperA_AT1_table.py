"""Table A-T1: x_+ and 4 theta1 over the (beta, c) grid, as CSV, Markdown and LaTeX."""

import pandas as pd

from attnspec.papers.a.edge_table import EDGE_TABLE_HEADER, edge_table_rows
from attnspec.tables import to_latex, to_markdown
from attnspec.workflow.io import configure_logging, rule_caption, write_table, write_text
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    grid = smk.params.edge_table
    rows = edge_table_rows(grid["betas"], grid["ratios"])
    write_table(smk.output.csv, pd.DataFrame(rows, columns=EDGE_TABLE_HEADER))
    caption = rule_caption(smk)
    write_text(smk.output.md, caption + "\n" + to_markdown(EDGE_TABLE_HEADER, rows, digits=6))
    latex = to_latex(
        EDGE_TABLE_HEADER,
        rows,
        caption="Bulk edge $x_+$ against the MP surrogate edge $4\\theta_1$ (paper A, A-T1).",
        label="tab:A-T1-edges",
        digits=6,
    )
    write_text(smk.output.tex, latex)
    log.info("%d rows", len(rows))


run_staged(main, snakemake)  # noqa: F821
