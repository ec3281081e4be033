"""Companion notebooks: the jupytext sources open as notebooks, and each executed notebook (CI
preset) shows every figure, table and verdict of its paper without errors, byte-identically on a
rerun."""

import ast
import base64
import csv

import jupytext
import nbformat
import pytest
from conftest import FIGURES, REPO, TABLES, snakemake_ci

pytestmark = pytest.mark.slow

PAPERS = ["A", "B", "C", "D"]
NOTEBOOKS = [f"figures/paper{paper}.ipynb" for paper in PAPERS]
# Reading the workflow's files and displaying them (the redraw cell: a CSV by pandas, drawn by
# seaborn); nothing that computes.
ALLOWED_IMPORTS = {"attnspec.workflow.companion", "pandas", "seaborn", "matplotlib.pyplot"}


def source(paper: str) -> str:
    return (REPO / f"workflow/notebooks/paper{paper}.py").read_text()


@pytest.fixture(scope="module")
def built(ci_clone):
    """The CI copy with the three notebooks executed (a no-op once `all` builds them)."""
    snakemake_ci(ci_clone, *NOTEBOOKS, "--cores", "2")
    return ci_clone


@pytest.mark.parametrize("paper", PAPERS)
def test_source_is_a_paired_percent_notebook_that_round_trips(paper):
    text = source(paper)
    assert text.startswith("# ---\n# jupyter:\n")
    notebook = jupytext.reads(text, fmt="py:percent")
    assert notebook.metadata["jupytext"]["formats"] == "ipynb,py:percent"
    assert notebook.metadata["jupytext"]["text_representation"]["format_name"] == "percent"
    assert notebook.metadata["kernelspec"]["name"] == "python3"
    assert jupytext.writes(notebook, fmt="py:percent") == text
    assert notebook.cells[0].source.startswith(f"# Paper {paper}: ")


@pytest.mark.parametrize("paper", PAPERS)
def test_source_imports_nothing_but_file_reading_and_display(paper):
    notebook = jupytext.reads(source(paper), fmt="py:percent")
    imported = set()
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            if isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                imported.add(node.module)
    assert imported and imported <= ALLOWED_IMPORTS, imported


@pytest.mark.parametrize("paper", PAPERS)
def test_executed_notebook_shows_every_figure_table_and_verdict(built, paper):
    notebook = nbformat.read(built / f"figures/paper{paper}.ipynb", as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    outputs = [output for cell in code for output in cell.outputs]
    assert all(cell.outputs for cell in code), "a code cell without output"
    assert not [o for o in outputs if o.output_type == "error"]
    assert not [o for o in outputs if o.output_type == "stream" and o.name == "stderr"]
    assert "jupytext" not in notebook.metadata  # no pairing: Jupyter must not write a .py beside

    images = [
        base64.b64decode(o.data["image/png"]) for o in outputs if "image/png" in o.get("data", {})
    ]
    markdown = "\n".join(
        o.data["text/markdown"] for o in outputs if "text/markdown" in o.get("data", {})
    )
    folder = built / f"figures/paper{paper}"
    figures, tables = FIGURES[paper], TABLES[paper]
    # every figure as committed, then the one redrawn from its CSV by the last cell
    assert images[:-1] == [(folder / f"{name}.png").read_bytes() for name in figures]
    assert "sns." in code[-1].source and "image/png" in code[-1].outputs[-1].get("data", {})
    shown = [o.data.get("text/plain", "") for o in outputs if "data" in o]
    assert not [text for text in shown if " at 0x" in text], "an object repr (run-dependent)"
    for name in figures + tables:
        assert (folder / f"{name}.md").read_text() in markdown, name
    assert (folder / "claims.md").read_text() in markdown
    with open(folder / "claims.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            assert f"| {row['row_id']} | " in markdown and row["verdict"] in markdown


@pytest.mark.parametrize("paper", PAPERS)
def test_html_page_embeds_every_figure(built, paper):
    html = (built / f"figures/paper{paper}.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and f"<title>Paper {paper}</title>" in html
    folder = built / f"figures/paper{paper}"
    for name in FIGURES[paper]:
        encoded = base64.b64encode((folder / f"{name}.png").read_bytes()).decode()
        assert f"data:image/png;base64,{encoded}" in html, name


def test_rerun_gives_byte_identical_notebooks(built):
    paths = [built / f"figures/paper{paper}.{ext}" for paper in PAPERS for ext in ("ipynb", "html")]
    before = {path: (path.read_bytes(), path.stat().st_mtime_ns) for path in paths}
    snakemake_ci(built, *NOTEBOOKS, "--forcerun", "paper_notebook", "--cores", "2")
    for path, (content, mtime) in before.items():
        assert path.stat().st_mtime_ns != mtime, f"{path.name} was not rewritten"
        assert path.read_bytes() == content, path.name
