"""The Snakemake report: captions are valid reStructuredText for every preset, and
`snakemake --report` on the CI preset's outputs registers every figure and table by paper."""

import io
from types import SimpleNamespace

import jinja2
import pytest
import yaml
from conftest import FIGURES, REPO, TABLES, run, snakemake_ci, tool, tracked_copy
from docutils.core import publish_parts

LANDING_PAGE = REPO / "workflow" / "report" / "workflow.rst"
CAPTIONS = sorted(p for p in (REPO / "workflow" / "report").rglob("*.rst") if p != LANDING_PAGE)
PRESETS = sorted((REPO / "config").glob("*.yaml"))
CATEGORIES = (
    "Paper A: Gaussian equivalence",
    "Paper B: bulk-edge sticking",
    "Paper C: spectral degeneration",
    "Paper D: multi-head attention",
    "Claims of the papers",
)


def rst_problems(text: str) -> str:
    """docutils warnings and errors of ``text`` rendered to HTML (empty if none)."""
    stream = io.StringIO()
    publish_parts(
        text, writer="html", settings_overrides={"warning_stream": stream, "report_level": 2}
    )
    return stream.getvalue()


def test_rst_check_catches_table_bars():
    assert "substitution" in rst_problems("the norm |x - y| of a difference")
    assert rst_problems(r"the norm \|x - y\| of a difference") == ""


STATUSES = ("confirmed", "reconstructed", "derived", "beyond the paper")
"""A caption's status words (the caption layout of docs/architecture.md and papers.md)."""


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.stem)
@pytest.mark.parametrize("caption", CAPTIONS, ids=lambda p: p.stem)
def test_caption_renders_as_valid_rst(caption, preset):
    config = yaml.safe_load(preset.read_text())
    template = jinja2.Template(caption.read_text(), undefined=jinja2.StrictUndefined)
    text = template.render(
        snakemake=SimpleNamespace(config=config, wildcards=SimpleNamespace(paper="A"))
    )
    assert any(status in text for status in STATUSES), "caption states no status"
    assert "claim" in text.lower(), "caption names no claim"
    assert rst_problems(text) == ""


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.stem)
def test_landing_page_names_the_version_and_renders_as_valid_rst(preset):
    config = dict(yaml.safe_load(preset.read_text()), provenance="attnspec 9.9, code at commit x")
    template = jinja2.Template(LANDING_PAGE.read_text(), undefined=jinja2.StrictUndefined)
    text = template.render(snakemake=SimpleNamespace(config=config))
    assert "Produced by attnspec 9.9, code at commit x" in text
    assert rst_problems(text) == ""


def test_every_figure_and_table_has_a_caption():
    names = {
        path.relative_to(REPO / "workflow" / "report").with_suffix("").as_posix()
        for path in CAPTIONS
    }
    for paper in FIGURES:
        for item in FIGURES[paper] + TABLES[paper]:
            assert f"paper{paper}/{item}" in names, item


@pytest.mark.slow
def test_report_builds_on_a_fresh_clone_from_the_committed_outputs(tmp_path):
    """No run yet, no notebooks: the report holds the committed figures and tables."""
    import zipfile

    clone = tracked_copy(tmp_path / "fresh")
    run([tool("snakemake"), "--report", "report.zip"], cwd=clone)
    with zipfile.ZipFile(clone / "report.zip") as archive:
        html = next(archive.read(n) for n in archive.namelist() if n.endswith("report.html"))
    for paper in FIGURES:
        for figure in FIGURES[paper]:
            assert f"figures/paper{paper}/{figure}.png" in html.decode(), figure


@pytest.mark.slow
def test_report_builds_on_the_ci_outputs(ci_clone):
    """The README's command, snakemake --report report.zip: a zip holding report.html."""
    import zipfile

    snakemake_ci(ci_clone, "--report", "report.zip")
    with zipfile.ZipFile(ci_clone / "report.zip") as archive:
        page = next(name for name in archive.namelist() if name.endswith("report.html"))
        html = archive.read(page).decode()
    for category in CATEGORIES:
        assert category in html, category
    for paper in FIGURES:
        for figure in FIGURES[paper]:
            assert f"figures/paper{paper}/{figure}.png" in html, figure
        for table in TABLES[paper]:
            assert f"figures/paper{paper}/{table}.csv" in html, table
        assert f"figures/paper{paper}/claims.csv" in html
    assert "figures/claims.csv" in html
