"""One paper's judged registry rows as figures/paper<X>/claims.csv and claims.md, and the
evidence they were judged on as figures/paper<X>/claims-evidence.npz."""

import pandas as pd

from attnspec.claims.dashboard import paper_markdown
from attnspec.claims.rows import ROW_HEADER
from attnspec.papers.registry import TESTS
from attnspec.workflow.io import (
    configure_logging,
    load_evidence,
    read_csv,
    save_evidence,
    write_table,
    write_text,
)
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    rows = read_csv(smk.input.claims)
    write_table(smk.output.csv, pd.DataFrame(rows, columns=ROW_HEADER), missing="nan")
    write_text(smk.output.md, paper_markdown(smk.wildcards.paper, rows, TESTS))
    save_evidence(
        smk.output.evidence, [item for path in smk.input.evidence for item in load_evidence(path)]
    )
    log.info("%d rows: %s", len(rows), ", ".join(f"{r['row_id']} {r['verdict']}" for r in rows))


run_staged(main, snakemake)  # noqa: F821
