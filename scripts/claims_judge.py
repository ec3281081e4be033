"""Judge one paper's registry rows on the evidence files of one results root, the rows shared
among the job's threads (one process each)."""

from concurrent.futures import ProcessPoolExecutor

import pandas as pd

from attnspec.claims.rows import ROW_HEADER, judge_paper
from attnspec.papers.registry import registry_of
from attnspec.workflow.io import configure_logging, load_evidence, write_table


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    evidence = [item for path in smk.input for item in load_evidence(path)]
    with ProcessPoolExecutor(max_workers=smk.threads) as pool:
        rows = judge_paper(
            registry_of(smk.wildcards.paper),
            evidence,
            replicate=smk.params.replicate,
            mapper=pool.map,
        )
    write_table(smk.output[0], pd.DataFrame(rows, columns=ROW_HEADER), missing="nan")
    for row in rows:
        log.info("%s: %s (stability %.3f)", row["row_id"], row["verdict"], row["stability"])


main(snakemake)  # noqa: F821
