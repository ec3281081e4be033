"""Rows B.4/square-model and B.4/r-transform: the worst relative differences of the scalar edge
formula to the square-model formula and to the R-transform edge (theory, no sampling).

Params: edges (config section), replicate (the rows are the same in every replicate).
"""

from attnspec.papers.b.edge_formulas import (
    edge_formula_evidence,
    edge_formula_rows,
    r_transform_agreement,
)
from attnspec.workflow.io import configure_logging, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    cfg = smk.params.edges
    evidence = edge_formula_evidence(
        edge_formula_rows(cfg["table_betas"]),
        r_transform_agreement(cfg["table_betas"], cfg["ratios"]),
    )
    save_evidence(smk.output[0], evidence)
    for item in evidence:
        log.info("%s: %.3g (%s)", item.row_id, float(item.samples["values"][0]), item.note)


main(snakemake)  # noqa: F821
