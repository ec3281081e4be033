"""Claims dashboard: the per-paper claims tables combined into figures/claims.csv and .md."""

import pandas as pd

from attnspec.claims.dashboard import DASHBOARD_HEADER, dashboard_markdown, dashboard_rows
from attnspec.workflow.io import configure_logging, read_csv, write_table, write_text


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    rows = dashboard_rows({paper: read_csv(path) for paper, path in smk.input.items()})
    write_table(smk.output.csv, pd.DataFrame(rows, columns=DASHBOARD_HEADER), missing="nan")
    write_text(smk.output.md, dashboard_markdown(rows))
    log.info("%d rows: %s", len(rows), ", ".join(f"{r['row_id']} {r['verdict']}" for r in rows))


main(snakemake)  # noqa: F821
