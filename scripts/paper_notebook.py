"""Companion notebook of one paper: execute its jupytext script on the paper's figures, tables
and verdicts, and write the executed notebook (.ipynb) and its standalone HTML page."""

import os
import tempfile
from pathlib import Path

from attnspec.workflow.io import configure_logging, write_text
from attnspec.workflow.notebooks import (
    execute_notebook,
    notebook_html,
    notebook_json,
    read_percent_script,
)


def main(smk) -> None:
    log = configure_logging(smk.log[0])
    notebook = read_percent_script(Path(smk.input.source).read_text(encoding="utf-8"))
    log.info("executing %s: %d cells", smk.input.source, len(notebook.cells))
    # the kernel shows this scale's outputs (attnspec.workflow.companion)
    os.environ["ATTNSPEC_FIGURES"] = str(Path(smk.output.ipynb).parent)
    with tempfile.TemporaryFile("w+") as kernel_stderr:
        try:
            execute_notebook(notebook, Path.cwd(), kernel_stderr=kernel_stderr)
        finally:  # the kernel's own messages (not the cells' outputs), into the job's log
            kernel_stderr.seek(0)
            for line in kernel_stderr.read().splitlines():
                log.info("kernel: %s", line)
    write_text(smk.output.ipynb, notebook_json(notebook))
    write_text(smk.output.html, notebook_html(notebook, title=f"Paper {smk.wildcards.paper}"))
    log.info("wrote %s and %s", smk.output.ipynb, smk.output.html)


main(snakemake)  # noqa: F821
