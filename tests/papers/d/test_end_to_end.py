"""Paper D end to end on the CI preset (the shared run of every end-to-end module): every output,
one judged row per registry row in order, the tables' columns, figure CSVs that hold the draws of
the preset, and the companion notebook with its one seaborn redraw from a committed CSV."""

import ast
import base64
import csv

import jupytext
import nbformat
import pytest
import yaml
from conftest import FIGURES, REPO, TABLES

from attnspec.claims.rows import ROW_HEADER
from attnspec.claims.verdict import ORDER
from attnspec.papers.d.multihead_plotted import (
    FLOOR,
    INDEPENDENT_LAW,
    OURS,
    TIED_LAW,
    distance_series,
)
from attnspec.papers.d.multihead_summary import MOMENTS_HEADER, PUBLIC_TABLE_HEADER
from attnspec.papers.registry import registry_of

pytestmark = pytest.mark.slow

CI = yaml.safe_load((REPO / "config/ci.yaml").read_text())["paperD"]
NOTEBOOK_IMPORTS = {"attnspec.workflow.companion", "matplotlib.pyplot", "pandas", "seaborn"}


def read_rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def test_every_output_exists_with_a_status(ci_clone):
    folder = ci_clone / "figures/paperD"
    for figure in FIGURES["D"]:
        for ext in ("png", "csv", "md"):  # the CI preset: no vector PDFs
            assert (folder / f"{figure}.{ext}").stat().st_size > 0, (figure, ext)
        caption = (folder / f"{figure}.md").read_text()
        assert "reconstructed" in caption or "confirmed" in caption, figure
    for table in TABLES["D"]:
        for ext in ("csv", "md", "tex"):
            assert (folder / f"{table}.{ext}").stat().st_size > 0, (table, ext)


def test_claims_have_one_row_per_registry_row(ci_clone):
    rows = read_rows(ci_clone / "figures/paperD/claims.csv")
    assert list(rows[0]) == list(ROW_HEADER)
    assert [row["row_id"] for row in rows] == [test.row_id for test in registry_of("D")]
    assert all(row["verdict"] in ORDER for row in rows)
    for row in rows:
        assert (ci_clone / f"figures/paperD/{row['figure']}.md").is_file()


def test_tables_have_their_columns_and_every_configuration(ci_clone):
    rows = read_rows(ci_clone / "figures/paperD/D-T1-public-models.csv")
    assert list(rows[0]) == list(PUBLIC_TABLE_HEADER)
    assert len(rows) == len(CI["public_models"]["models"])
    verdicts = [c for c in PUBLIC_TABLE_HEADER if c.startswith("verdict ")]
    assert len(verdicts) == 4  # the published means (paper D's claim), then beyond the paper
    for row in rows:  # the headline verdict, "(stability ...)" when unstable
        shown = {row[c].split(" (")[0].removeprefix("fragile pass: ") for c in verdicts}
        assert shown <= set(ORDER)
    moments = read_rows(ci_clone / "figures/paperD/D-T2-moments.csv")
    assert list(moments[0]) == list(MOMENTS_HEADER)
    configurations = 2 * len(CI["heads"]["head_counts"]) + len(CI["sharing"]["schemes"])
    assert len(moments) == 3 * configurations
    for row in moments:
        if row["closed form (paper D)"]:  # (empty: no closed form) an identity check
            closed, series = float(row["closed form (paper D)"]), float(row["series (attnspec)"])
            assert closed == pytest.approx(series, rel=1e-10), row["configuration"]


def test_figure_csvs_hold_every_draw_of_the_preset(ci_clone):
    d1 = read_rows(ci_clone / "figures/paperD/D1-public-models.csv")
    draws = CI["public_models"]["draws"]
    for source in (OURS, FLOOR):  # softmax against its Gaussian equivalent, and the floor
        ours = [row for row in d1 if (row["kind"], row["series"]) == ("data", source)]
        assert len(ours) == 2 * draws * len(CI["public_models"]["models"]), source
    d2 = read_rows(ci_clone / "figures/paperD/D2-heads.csv")
    heads = CI["heads"]
    softmax = [row for row in d2 if (row["kind"], row["series"]) == ("data", "softmax")]
    assert len(softmax) == 2 * len(heads["head_counts"]) * heads["draws"] * heads["n_tokens"]
    d3 = read_rows(ci_clone / "figures/paperD/D3-sharing.csv")
    sharing = CI["sharing"]
    names = {distance_series(law) for law in (INDEPENDENT_LAW, TIED_LAW)}
    distances = [row for row in d3 if row["kind"] == "data" and row["series"] in names]
    # every scheme to the independent-head law, K = V also to its own law, at every n and draw
    expected = (len(sharing["schemes"]) + 1) * len(sharing["n_tokens"]) * sharing["draws"]
    assert len(distances) == expected


def test_notebook_shows_every_output_and_one_redraw_from_a_csv(ci_clone):
    source = jupytext.reads((REPO / "workflow/notebooks/paperD.py").read_text(), fmt="py:percent")
    imported = set()
    for cell in source.cells:
        if cell.cell_type == "code":
            for node in ast.walk(ast.parse(cell.source)):
                if isinstance(node, ast.Import):
                    imported |= {alias.name for alias in node.names}
                elif isinstance(node, ast.ImportFrom):
                    imported.add(node.module)
    assert imported == NOTEBOOK_IMPORTS
    assert sum("read_csv" in cell.source for cell in source.cells) == 1
    notebook = nbformat.read(ci_clone / "figures/paperD.ipynb", as_version=4)
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert not [o for o in outputs if o.output_type == "stream" and o.name == "stderr"]
    images = [
        base64.b64decode(o.data["image/png"]) for o in outputs if "image/png" in o.get("data", {})
    ]
    folder = ci_clone / "figures/paperD"
    committed = [(folder / f"{name}.png").read_bytes() for name in FIGURES["D"]]
    assert images[:-1] == committed and images[-1] not in committed  # the redraw comes last
    markdown = "\n".join(
        o.data["text/markdown"] for o in outputs if "text/markdown" in o.get("data", {})
    )
    for name in FIGURES["D"] + TABLES["D"] + ["claims"]:
        assert (folder / f"{name}.md").read_text() in markdown, name
