"""Table B-T2: scalar edge formula against the square-model formula (c = 1), and claim B.4."""

from attnspec.experiments.edge_formulas import (
    EDGE_FORMULA_HEADER,
    edge_formula_check,
    edge_formula_claim,
    edge_formula_rows,
    r_transform_agreement,
)
from attnspec.io import configure_logging, rule_caption, write_csv, write_text
from attnspec.legacy_verdicts import CLAIM_HEADER
from attnspec.tables import to_latex, to_markdown


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.edges
    rows = edge_formula_rows(cfg["table_betas"])
    check = edge_formula_check(rows, r_transform_agreement(cfg["table_betas"], cfg["ratios"]))
    claim = edge_formula_claim(check, len(rows))
    write_csv(smk.output.csv, EDGE_FORMULA_HEADER, rows)
    write_csv(smk.output.claims, CLAIM_HEADER, [claim.as_row()])
    caption = rule_caption(smk)
    write_text(
        smk.output.md,
        caption
        + "\n\n"
        + to_markdown(EDGE_FORMULA_HEADER, rows, digits=10)
        + "\n"
        + to_markdown(CLAIM_HEADER, [claim.as_row()]),
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
    log.info("claim %s: %s (%s)", claim.claim_id, claim.verdict, claim.note)


main(snakemake)  # noqa: F821
