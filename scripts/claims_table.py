"""Claims table of one paper: gather the verdict rows of its figures into claims.csv and .md."""

from attnspec.claims import CLAIMS, collect_claims
from attnspec.io import configure_logging, read_csv, write_csv, write_text
from attnspec.legacy_verdicts import CLAIM_HEADER
from attnspec.tables import to_markdown

COLUMNS = (
    "`figure`: where the row's value is read (`../claims.md` lists every figure and table that "
    "supports the claim); `test`: the pass condition and what earns the finite-size caveat."
)
SHOWN = ("claim_id", "claim", "figure", "value", "target", "tolerance", "test", "verdict", "note")


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    rows = collect_claims(
        [row for path in smk.input for row in read_csv(path)], smk.wildcards.paper
    )
    for row in rows:
        row["claim"] = CLAIMS[row["claim_id"]]
    write_csv(smk.output.csv, CLAIM_HEADER, [[row[key] for key in CLAIM_HEADER] for row in rows])
    table = [[row[key] for key in SHOWN] for row in rows]
    for line in table:
        for column in (3, 4, 5):
            line[column] = float(line[column])
    write_text(
        smk.output.md,
        f"# Paper {smk.wildcards.paper}: claims and verdicts\n\n{COLUMNS}\n"
        + to_markdown(SHOWN, table),
    )
    log.info("%d claims: %s", len(rows), ", ".join(r["verdict"] for r in rows))


main(snakemake)  # noqa: F821
