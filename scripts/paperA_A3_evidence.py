"""Evidence of the rows A.4 (nu_inf is not Marchenko-Pastur): per draw the share of the bulk
above 4 theta_1 at every ell of paperA.linearisation (c = 1), at each judged beta."""

from attnspec.claims.rows import sizes_text
from attnspec.papers.a.bulk_laws import not_marchenko_pastur_evidence_rows
from attnspec.workflow.io import configure_logging, load_npz, save_evidence


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    draws = smk.params.draws
    attention = [list(load_npz(path)["attention"][:draws]) for path in smk.input.attention]
    linear = [list(load_npz(path)["linear"][:draws]) for path in smk.input.linear]
    evidence = not_marchenko_pastur_evidence_rows(smk.params.points, attention, linear)
    save_evidence(smk.output[0], evidence)
    log.info("%s", "; ".join(f"{item.row_id} at ell = {sizes_text(item)}" for item in evidence))


main(snakemake)  # noqa: F821
