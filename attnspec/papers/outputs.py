"""What each room makes, declared once: its figures, tables and evidence files.

Each room lists them in ``attnspec/papers/<room>/outputs.py`` (``FIGURES``, ``TABLES``,
``EVIDENCE``), each entry naming the function that assembles it from the job's loaded inputs
(``"module:function"``, imported only by the job that runs it). One generic script per kind
(scripts/figure.py, table.py, evidence.py; :mod:`attnspec.workflow.jobs`) writes the files; the
rules, report captions, notebooks, claims catalogue and test lists are checked against these
lists (tests/papers/test_outputs.py), and the workflow's lists of figure and table names are
read from them. This module imports nothing heavy (the Snakefile reads it at parse time).
"""

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from attnspec.papers.registry import ROOMS


@dataclass(frozen=True)
class Output:
    """One product of a room: ``name`` (its files' stem under figures/paper<X>/, e.g.
    "B1-sticking"), the ``"module:function"`` that ``assemble``s it and the claims-table row-id
    prefix ``rows`` (or a tuple of prefixes) whose verdicts its caption gives ("" for none)."""

    name: str
    assemble: str
    rows: str | tuple[str, ...] = ""

    def assembler(self) -> Callable:
        """The assembling function, imported now."""
        module, _, function = self.assemble.partition(":")
        return getattr(importlib.import_module(module), function)


class Figure(Output):
    """A figure: PNG (and PDF), its tidy CSV and its Markdown caption."""


class Table(Output):
    """A table: CSV, Markdown caption with the table, LaTeX."""


class Evidence(Output):
    """An evidence file, results/paper<X>/evidence/<name>.npz: the samples of the claims rows
    it feeds (:class:`attnspec.claims.evidence.Evidence` items)."""


class FigureParts(NamedTuple):
    """What a figure's assembling function returns: the tidy table ``plotted`` (a DataFrame,
    written as the figure's CSV), ``draw`` (the seaborn drawing, called on the table as read
    back from the CSV), the caption's key ``tables`` ((header, rows) pairs, numbers to
    ``digits`` significant digits) and its ``intro`` (Markdown between the rendered caption and
    the tables). ``tables`` and ``intro`` may instead be functions of the table as read back,
    for key numbers read from what is drawn."""

    plotted: Any
    draw: Callable
    tables: Sequence | Callable = ()
    intro: str | Callable = "\n\n"
    digits: int = 4


class TableParts(NamedTuple):
    """What a table's assembling function returns: ``header`` and ``rows`` (the CSV), the
    ``markdown`` that follows the rendered caption and its newline, and the ``latex`` file."""

    header: tuple
    rows: list
    markdown: str
    latex: str


def room_outputs(room: str) -> tuple[Output, ...]:
    """Every figure, table and evidence entry of one room, in its lists' order."""
    module = importlib.import_module(f"attnspec.papers.{room}.outputs")
    return (*module.FIGURES, *module.TABLES, *module.EVIDENCE)


def outputs_of(paper: str, kind: type[Output] = Output) -> list[Output]:
    """The entries of one paper ("A".."D") of one kind (Figure, Table, Evidence; any)."""
    return [entry for entry in room_outputs(paper.lower()) if isinstance(entry, kind)]


def names_of(paper: str, kind: type[Output]) -> list[str]:
    """The names of one paper's entries of one kind, in order."""
    return [entry.name for entry in outputs_of(paper, kind)]


def find_output(name: str, kind: type[Output]) -> Output:
    """The entry called ``name`` of kind ``kind`` in any room; ValueError naming the known ones."""
    entries = [entry for room in ROOMS for entry in room_outputs(room) if type(entry) is kind]
    for entry in entries:
        if entry.name == name:
            return entry
    known = ", ".join(entry.name for entry in entries)
    raise ValueError(f"no {kind.__name__.lower()} called {name!r}; the rooms list: {known}")
