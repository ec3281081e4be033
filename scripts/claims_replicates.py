"""Each registry row's verdict per replicate (and, in the CSV, its statistic, interval, target and
margin per replicate, for the claims forest): figures/claims-replicates.csv and .md."""

import pandas as pd

from attnspec.claims.dashboard import replicates_markdown, replicates_numbers, replicates_rows
from attnspec.workflow.io import configure_logging, read_csv, write_table, write_text
from attnspec.workflow.publish import run_staged


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    by_replicate = {
        int(name.removeprefix("replicate")): [row for path in paths for row in read_csv(path)]
        for name, paths in smk.input.items()
    }
    header, table = replicates_rows(by_replicate)
    numbers_header, numbers = replicates_numbers(by_replicate)
    columns = [*header, *numbers_header]
    rows = [[*row, *more] for row, more in zip(table, numbers, strict=True)]
    write_table(smk.output.csv, pd.DataFrame(rows, columns=columns), missing="nan")
    write_text(smk.output.md, replicates_markdown(header, table))
    log.info("%d of %d rows agree", sum(row[-1] == "yes" for row in table), len(table))


run_staged(main, snakemake)  # noqa: F821
