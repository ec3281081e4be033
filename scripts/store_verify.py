"""Target verify: recompute chosen draws of the committed store and compare them with it (bit for
bit on the machine kind that made them, within the drift tolerances on another).

Params: store (the folder), names (the draws asked for by config key verify, checked to be in
the store before any job, or empty: the first stored draw at the largest size of each kind).
Output: the report, one line per draw.
"""

from pathlib import Path

from attnspec.workflow.io import configure_logging, write_text
from attnspec.workflow.store_verify import default_selection, verify


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    store = Path(smk.params.store)
    names = [n for n in smk.params.names.split(",") if n]
    records = [store / f"{name}.json" for name in names] or default_selection(store)
    lines = verify(store, records)
    write_text(smk.output[0], "\n".join(lines) + "\n")
    for line in lines:
        log.info("%s", line)


main(snakemake)  # noqa: F821
