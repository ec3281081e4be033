"""Claims dashboard: the per-paper claims tables combined into figures/claims.csv and .md, each
row with its verdicts in the other replicates where figures/claims-replicates.csv holds them
(made by the `replicates` target, not by `all`) and at the papers' sizes where the paper preset's
claims tables (figures/paper-scale/paper<X>/claims.csv) are inputs."""

from pathlib import Path

import pandas as pd

from attnspec.claims.dashboard import (
    DASHBOARD_HEADER,
    PAPERS,
    dashboard_markdown,
    dashboard_rows,
)
from attnspec.workflow.io import configure_logging, read_csv, write_table, write_text
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    replicates = Path(smk.params.replicates)
    other = read_csv(replicates) if replicates.is_file() else None
    papers = {paper: read_csv(getattr(smk.input, paper)) for paper in PAPERS}
    paper_scale = [row for path in smk.input.paper_scale for row in read_csv(path)] or None
    rows = dashboard_rows(papers, other, paper_scale)
    write_table(smk.output.csv, pd.DataFrame(rows, columns=DASHBOARD_HEADER), missing="nan")
    write_text(smk.output.md, dashboard_markdown(rows))
    log.info("replicates: %s", replicates if other is not None else "not run")
    log.info("paper scale: %s", ", ".join(smk.input.paper_scale) or "not run")
    log.info("%d rows: %s", len(rows), ", ".join(f"{r['row_id']} {r['headline']}" for r in rows))


run_staged(main, snakemake)  # noqa: F821
