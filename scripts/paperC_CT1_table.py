"""Table C-T1: stable-rank limits and slopes with their derived finite-n references (CSV,
Markdown, LaTeX); the caption lists the verdicts of claims C.1-C.4 from the claims table."""

import pandas as pd

from attnspec.claims.dashboard import verdict_table
from attnspec.papers.c.degeneration_summary import (
    STABLE_RANK_TABLE_HEADER,
    collect_stable_ranks,
    stable_rank_table_rows,
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
    params = smk.params
    data = collect_stable_ranks(
        (params.stable_rank["n_tokens"], [load_npz(p) for p in smk.input.canonical]),
        (params.isotropic["n_tokens"], [load_npz(p) for p in smk.input.isotropic]),
        (params.gaussian_model["n_tokens"], [load_npz(p) for p in smk.input.gaussian]),
        params.stable_rank["profiles"],
        params.isotropic["profile"],
    )
    rows = stable_rank_table_rows(
        [*data.canonical, *data.isotropic, *data.gaussian],
        data.cesaro,
        spikes=params.model["spikes"],
        beta=params.gaussian_model["beta"],
        gaussian_reference=load_npz(smk.input.reference),
    )
    judged = [
        row for row in read_csv(smk.input.claims) if row["claim_id"] in ("C.1", "C.2", "C.3", "C.4")
    ]
    write_table(smk.output.csv, pd.DataFrame(rows, columns=STABLE_RANK_TABLE_HEADER))
    markdown = to_markdown(STABLE_RANK_TABLE_HEADER, rows) + to_markdown(*verdict_table(judged))
    write_text(smk.output.md, rule_caption(smk) + "\n" + markdown)
    write_text(
        smk.output.tex,
        to_latex(
            STABLE_RANK_TABLE_HEADER,
            rows,
            caption="Stable-rank limits and slopes against $\\log n$ with their derived finite-n "
            "references (paper C, C-T1).",
            label="tab:C-T1-stable-rank",
        ),
    )
    log.info("wrote %s (%d verdict rows in the caption)", ", ".join(smk.output), len(judged))


run_staged(main, snakemake)  # noqa: F821
