"""Claims dashboard: the per-paper claims tables combined into figures/claims.csv and .md, each
row with its verdicts in the other replicates where figures/claims-replicates.csv holds them
(made by the `replicates` target, not by `all`)."""

from pathlib import Path

import pandas as pd

from attnspec.claims.dashboard import DASHBOARD_HEADER, dashboard_markdown, dashboard_rows
from attnspec.workflow.io import configure_logging, read_csv, write_table, write_text
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    replicates = Path(smk.params.replicates)
    other = read_csv(replicates) if replicates.is_file() else None
    rows = dashboard_rows({paper: read_csv(path) for paper, path in smk.input.items()}, other)
    write_table(smk.output.csv, pd.DataFrame(rows, columns=DASHBOARD_HEADER), missing="nan")
    write_text(smk.output.md, dashboard_markdown(rows))
    log.info("replicates: %s", replicates if other is not None else "not run")
    log.info("%d rows: %s", len(rows), ", ".join(f"{r['row_id']} {r['headline']}" for r in rows))


run_staged(main, snakemake)  # noqa: F821
