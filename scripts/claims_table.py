"""One paper's judged registry rows as figures/paper<X>/claims.csv and claims.md."""

from attnspec.dashboard import paper_markdown
from attnspec.io import configure_logging, read_csv, write_csv, write_text
from attnspec.verdicts import ROW_HEADER


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    rows = read_csv(smk.input[0])
    write_csv(smk.output.csv, ROW_HEADER, [[row[key] for key in ROW_HEADER] for row in rows])
    write_text(smk.output.md, paper_markdown(smk.wildcards.paper, rows))
    log.info("%d rows: %s", len(rows), ", ".join(f"{r['row_id']} {r['verdict']}" for r in rows))


main(snakemake)  # noqa: F821
