"""The generic jobs behind scripts/figure.py, table.py and evidence.py: load the job's inputs,
call the room's assembling function named in its outputs list (:mod:`attnspec.papers.outputs`)
and write the files.

A rule names its entry in ``params.output_name`` and gives its inputs by name. Every input but the
ones the writers read themselves (:data:`WRITERS_INPUTS`) reaches the assembling function
loaded: a ``.npz`` as a dict of arrays, a ``.csv`` as a list of row dicts (values as text),
anything else as its path; an input given as a list stays a list. The assembling function gets
``(inputs, params, judged)``: the loaded inputs, the rule's params (a dict) and the claims-table
rows of its ``rows`` prefix (from ``input.claims``; empty without it).
"""

from collections.abc import Mapping

from attnspec.papers.outputs import Evidence, Figure, Table, find_output
from attnspec.workflow.io import (
    configure_logging,
    load_npz,
    read_csv,
    rule_caption,
    save_evidence,
    write_figure_outputs,
    write_plotted,
    write_table,
    write_text,
)

WRITERS_INPUTS = ("caption", "config", "paper_scale", "claims")
"""Inputs read by the writers, not passed to the assembling function."""


def _loaded(path: str):
    """One input file as the assembling functions take it."""
    if path.endswith(".npz"):
        return load_npz(path)
    if path.endswith(".csv"):
        return read_csv(path)
    return path


def job_inputs(smk) -> dict:
    """The job's named inputs, loaded (a list input as a list), without the writers' inputs."""
    inputs = {}
    for name in smk.input.keys():
        if name in WRITERS_INPUTS:
            continue
        value = getattr(smk.input, name)
        inputs[name] = _loaded(value) if isinstance(value, str) else [_loaded(p) for p in value]
    return inputs


def job_params(smk) -> dict:
    """The rule's params as a dict (``output_name``, the entry's name, included)."""
    return {name: getattr(smk.params, name) for name in smk.params.keys()}


def judged_rows(smk, prefix: str | tuple[str, ...]) -> list[Mapping]:
    """The claims-table rows whose id starts with ``prefix`` (or one of a tuple of prefixes;
    none without one or a claims input), in the table's order."""
    from attnspec.claims.dashboard import rows_of

    if not prefix or "claims" not in smk.input.keys():
        return []
    return rows_of(read_csv(smk.input.claims), prefix)


def _assembled(smk, kind):
    """(entry, the assembling function's result) of the job's entry of ``kind``."""
    entry = find_output(smk.params.output_name, kind)
    judged = judged_rows(smk, entry.rows)
    return entry, judged, entry.assembler()(job_inputs(smk), job_params(smk), judged)


def run_figure(smk) -> None:
    """Write a figure's tidy CSV, its PNG (and PDF) drawn from that CSV as read back, and its
    caption with the key tables and the verdicts of its rows."""
    log = configure_logging(smk.log[0])
    entry, judged, parts = _assembled(smk, Figure)
    plotted = write_plotted(smk, parts.plotted)
    figure = parts.draw(plotted)
    tables = parts.tables(plotted) if callable(parts.tables) else parts.tables
    intro = parts.intro(plotted) if callable(parts.intro) else parts.intro
    write_figure_outputs(smk, figure, tables, judged, parts.digits, intro=intro)
    log.info("%s: wrote %s", entry.name, ", ".join(smk.output))


def run_table(smk) -> None:
    """Write a table's CSV, its Markdown (the rendered caption, then the table's text) and its
    LaTeX."""
    import pandas as pd

    log = configure_logging(smk.log[0])
    entry, _, parts = _assembled(smk, Table)
    write_table(smk.output.csv, pd.DataFrame(parts.rows, columns=parts.header))
    write_text(smk.output.md, rule_caption(smk) + "\n" + parts.markdown)
    write_text(smk.output.tex, parts.latex)
    log.info("%s: %d rows", entry.name, len(parts.rows))


def run_evidence(smk) -> None:
    """Write an evidence file: the list of Evidence items the assembling function returns."""
    log = configure_logging(smk.log[0])
    entry, _, evidence = _assembled(smk, Evidence)
    save_evidence(smk.output[0], evidence)
    for item in evidence:
        log.info("%s %s: %s (%d draws)", entry.name, item.row_id, item.quantity, item.draws)
