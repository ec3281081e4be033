"""Table B-T1: ell s_k(A)^2 (median, 10 % and 90 % quantiles over draws) against x_+, per
(ell, c, beta, k) with the number of draws, as CSV (exact), Markdown and LaTeX."""

import pandas as pd

from attnspec.papers.b.sticking_summary import (
    STICKING_TABLE_HEADER,
    collect_series,
    sticking_table_rows,
)
from attnspec.papers.draw_batches import unstack_draws
from attnspec.tables import to_latex, to_markdown
from attnspec.workflow.io import configure_logging, load_npz, rule_caption, write_table, write_text
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    records = [r for path in smk.input.draws for r in unstack_draws(load_npz(path))]
    series = collect_series(records)
    rows = sticking_table_rows(series)
    write_table(smk.output.csv, pd.DataFrame(rows, columns=STICKING_TABLE_HEADER))
    caption = rule_caption(smk)
    write_text(smk.output.md, caption + "\n" + to_markdown(STICKING_TABLE_HEADER, rows, digits=5))
    latex = to_latex(
        STICKING_TABLE_HEADER,
        rows,
        caption=(
            "Sticking of the leading non-Perron values: $\\ell s_k(A)^2$ (median and 10--90 "
            "\\% quantiles over draws) against the bulk edge $x_+$ (paper B, B-T1)."
        ),
        label="tab:B-T1-sticking",
        digits=5,
    )
    write_text(smk.output.tex, latex)
    log.info("%d rows", len(rows))


run_staged(main, snakemake)  # noqa: F821
