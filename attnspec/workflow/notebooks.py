"""Companion notebooks: read a jupytext percent script, execute it, export it as HTML.

Everything is returned as a notebook or a string (the workflow's script writes the files), and
everything that would differ between two runs of the same notebook is fixed or dropped, so that
the ``.ipynb`` and ``.html`` are byte-identical across reruns: cell ids are numbered instead of
random, no execution timing is recorded, and the jupytext pairing metadata of the source (which
would make Jupyter write a paired ``.py`` beside the executed copy) is removed.
"""

import os
from pathlib import Path
from typing import IO

import jupytext
import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter

KERNEL = "python3"


def read_percent_script(text: str) -> nbformat.NotebookNode:
    """The notebook of a jupytext percent-format script, with numbered cell ids."""
    notebook = jupytext.reads(text, fmt="py:percent")
    notebook.metadata.pop("jupytext", None)
    for index, cell in enumerate(notebook.cells):
        cell.id = f"cell-{index}"
    return notebook


def execute_notebook(
    notebook: nbformat.NotebookNode,
    working_directory: str | os.PathLike,
    kernel_stderr: IO | None = None,
    timeout: int = 600,
) -> nbformat.NotebookNode:
    """Run every cell in a fresh ``python3`` kernel started in ``working_directory``.

    The kernel process writes its own messages (not the cells' outputs) to ``kernel_stderr``, an
    open file (default: this process's stderr). Stops at the first cell that raises (nbclient's
    ``CellExecutionError``). Returns the same notebook, now holding the outputs.
    """
    client = NotebookClient(
        notebook,
        kernel_name=KERNEL,
        timeout=timeout,
        record_timing=False,
        resources={"metadata": {"path": str(Path(working_directory))}},
    )
    client.execute(stderr=kernel_stderr)
    return notebook


def notebook_json(notebook: nbformat.NotebookNode) -> str:
    """The ``.ipynb`` text of a notebook (validated, sorted keys, final newline)."""
    nbformat.validate(notebook)
    return nbformat.writes(notebook).rstrip("\n") + "\n"


def notebook_html(notebook: nbformat.NotebookNode, title: str) -> str:
    """A standalone HTML page of a notebook (JupyterLab template, images embedded)."""
    body, _ = HTMLExporter(template_name="lab").from_notebook_node(
        notebook, resources={"metadata": {"name": title}}
    )
    return body
