"""Table C-T2: per-layer/head diagnostics (CSV, Markdown, LaTeX) and the C.5, C.6 verdict rows."""

from attnspec.experiments.pretrained import HAAR, dominance_check, eigen_angle_check
from attnspec.experiments.pretrained_summary import table_header, table_rows
from attnspec.io import configure_logging, load_npz, rule_caption, write_csv, write_text
from attnspec.legacy_verdicts import CLAIM_HEADER
from attnspec.tables import to_latex, to_markdown


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.pretrained
    top_k = cfg["top_k"]
    full_rank, long = load_npz(smk.input.model_full_rank), load_npz(smk.input.model_long)
    iso_full_rank, iso_long = (
        load_npz(smk.input.isotropic_full_rank),
        load_npz(smk.input.isotropic_long),
    )
    header = table_header(top_k)
    rows = table_rows(full_rank, long, iso_full_rank, iso_long, top_k=top_k)
    checks = [
        eigen_angle_check(
            full_rank["angle_distance"][..., HAAR],
            iso_full_rank["angle_distance"][..., HAAR],
            passage_tokens=cfg["full_rank_passages"]["tokens"],
            ranks=full_rank["rank"],
        ),
        dominance_check(
            long["energy"][..., top_k - 1],
            iso_long["energy"][..., top_k - 1],
            top_k=top_k,
            passage_tokens=cfg["long_passages"]["tokens"],
            centred_energy=long["centred_energy"][..., top_k - 1],
        ),
    ]
    for check in checks:
        log.info("claim %s: %s (%s)", check.claim_id, check.verdict, check.note)
    write_csv(smk.output.csv, header, rows)
    write_csv(smk.output.claims, CLAIM_HEADER, [check.as_row() for check in checks])
    caption = rule_caption(smk)
    verdicts = [f"Claim {c.claim_id}: **{c.verdict}**. {c.note}." for c in checks]
    write_text(smk.output.md, "\n".join([caption, to_markdown(header, rows), *verdicts, ""]))
    latex = to_latex(
        header,
        rows,
        caption="Per-layer/head score diagnostics of all-MiniLM-L6-v2 (paper C, C-T2).",
        label="tab:C-T2-pretrained",
    )
    write_text(smk.output.tex, latex)


main(snakemake)  # noqa: F821
