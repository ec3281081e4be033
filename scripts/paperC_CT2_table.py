"""Table C-T2: per-layer/head diagnostics (CSV, Markdown, LaTeX), with the two-sample tests of
the eigen-angle distances, their power and the verdicts of claims C.5, C.6 in the caption."""

import pandas as pd

from attnspec.claims.dashboard import rows_of, verdict_table
from attnspec.papers.c.pretrained_evidence import full_rank_distances
from attnspec.papers.c.pretrained_summary import (
    POWER_HEADER,
    TESTS_HEADER,
    power_rows,
    table_header,
    table_rows,
    tests_rows,
    tests_text,
)
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
    cfg = smk.params.pretrained
    top_k = cfg["top_k"]
    full_rank, long = load_npz(smk.input.model_full_rank), load_npz(smk.input.model_long)
    iso_full_rank = load_npz(smk.input.isotropic_full_rank)
    iso_long = load_npz(smk.input.isotropic_long)
    header = table_header(top_k)
    rows = table_rows(full_rank, long, iso_full_rank, iso_long, top_k=top_k)
    tests = load_npz(smk.input.tests)
    sizes = {
        "model": full_rank_distances(full_rank).size,
        "aligned": full_rank_distances(load_npz(smk.input.control_aligned)).size,
        "local": full_rank_distances(load_npz(smk.input.control_local)).size,
        "null": full_rank_distances(iso_full_rank).size // 2,
    }
    claims = read_csv(smk.input.claims)
    judged = [*rows_of(claims, "C.5/"), *rows_of(claims, "C.6/")]
    extra = [(TESTS_HEADER, tests_rows(tests, sizes)), (POWER_HEADER, power_rows(tests))]
    write_table(smk.output.csv, pd.DataFrame(rows, columns=header))
    markdown = "".join(
        to_markdown(h, r) for h, r in [(header, rows), *extra, verdict_table(judged)]
    )
    write_text(smk.output.md, rule_caption(smk) + "\n" + tests_text(tests) + "\n" + markdown)
    latex = "\n".join(
        [
            to_latex(
                header,
                rows,
                caption="Per-layer/head score diagnostics of all-MiniLM-L6-v2 (paper C, C-T2).",
                label="tab:C-T2-pretrained",
            ),
            to_latex(
                *extra[0],
                caption="Two-sample tests of the per-head eigen-angle distances against the Haar "
                "reference (paper C, C-T2).",
                label="tab:C-T2-tests",
            ),
        ]
    )
    write_text(smk.output.tex, latex)
    for row in judged:
        log.info("%s: %s", row["row_id"], row["verdict"])


run_staged(main, snakemake)  # noqa: F821
