"""What the companion notebooks (``workflow/notebooks/paper<X>.py``) show: one paper's figures,
tables and verdicts as the workflow wrote them to ``figures/paper<X>/`` (the paper preset's
run: ``figures/paper-scale/paper<X>/``, named by the environment variable ATTNSPEC_FIGURES that
the workflow sets), displayed in Jupyter.

It reads files and displays them; it computes nothing, so a notebook shows exactly the run that
produced the folder.
"""

import os
from pathlib import Path

from IPython.display import Image, Markdown, display


def repository_root(start: Path | None = None) -> Path:
    """The nearest folder at or above ``start`` (default: the working directory) with a Snakefile
    (the repository root holds the workflow's only one).

    The workflow executes a notebook in the repository root; Jupyter opens it in
    ``workflow/notebooks/``: both find the same folder.
    """
    start = Path.cwd() if start is None else Path(start)
    for folder in (start, *start.parents):
        if (folder / "Snakefile").is_file():
            return folder
    raise FileNotFoundError(
        f"no Snakefile in {start} or above: open the notebook in the repository"
    )


class PaperOutputs:
    """The files of ``<figures>/paper<paper>/`` under the repository ``root``; ``figures``
    defaults to ATTNSPEC_FIGURES, else ``figures``."""

    def __init__(self, paper: str, root: Path | None = None, figures: str | None = None):
        figures = figures or os.environ.get("ATTNSPEC_FIGURES", "figures")
        self.paper = paper
        self.folder = repository_root(root) / figures / f"paper{paper}"

    def markdown(self, name: str) -> Markdown:
        """``<name>.md``: a figure's caption with the run's parameters and key numbers, or a
        table."""
        return Markdown((self.folder / f"{name}.md").read_text(encoding="utf-8"))

    def contents(self) -> None:
        """A list of the title lines of the captions of the paper's figures and tables, as its
        room lists them (:mod:`attnspec.papers.outputs`); stops here if any caption is missing."""
        from attnspec.papers.outputs import Figure, Table, names_of

        names = names_of(self.paper, Figure) + names_of(self.paper, Table)
        titles = [self.markdown(name).data.splitlines()[0] for name in names]
        display(Markdown("\n".join(f"- {title}" for title in titles)))

    def figure(self, name: str) -> None:
        """The figure's PNG, then its caption."""
        display(Image(filename=str(self.folder / f"{name}.png")), self.markdown(name))

    def table(self, name: str) -> None:
        """A table, as the Markdown the workflow wrote."""
        display(self.markdown(name))

    def verdicts(self) -> None:
        """The paper's claims table (``claims.md``): one verdict row per claim, with its note."""
        display(self.markdown("claims"))
