"""End-to-end: the CI preset in a fresh copy of the repository produces every figure and table
of the three papers, recomputes the committed copies, and is bit-identical on a rerun."""

import csv
import filecmp
import os
import shutil
from pathlib import Path

import pytest
from conftest import FIGURES, TABLES, run, tool, tracked_copy
from conftest import snakemake_ci as snakemake

from attnspec.claims import CLAIMS, claims_of
from attnspec.legacy_verdicts import VERDICTS
from attnspec.theory import bulk_edge, mp_edge

pytestmark = pytest.mark.slow


def outputs(paper: str) -> list[str]:
    return (
        [f"{f}.{ext}" for f in FIGURES[paper] for ext in ("pdf", "png", "csv", "md")]
        + [f"{t}.{ext}" for t in TABLES[paper] for ext in ("csv", "md", "tex")]
        + ["claims.csv", "claims.md"]
    )


def read_rows(path):
    with open(path) as handle:
        return list(csv.DictReader(handle))


@pytest.mark.parametrize("paper", ["A", "B", "C"])
def test_every_output_exists(ci_clone, paper):
    folder = ci_clone / "figures" / f"paper{paper}"
    for name in outputs(paper):
        assert (folder / name).stat().st_size > 0, name
    for figure in FIGURES[paper]:
        assert (folder / f"{figure}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (folder / f"{figure}.pdf").read_bytes()[:5] == b"%PDF-"
        caption = (folder / f"{figure}.md").read_text()
        assert "reconstructed" in caption or "confirmed" in caption, f"{figure}: no status"


@pytest.mark.parametrize("paper", ["A", "B", "C"])
def test_claims_table_has_one_row_per_claim(ci_clone, paper):
    rows = read_rows(ci_clone / f"figures/paper{paper}/claims.csv")
    assert [r["claim_id"] for r in rows] == claims_of(paper)
    for row in rows:
        assert row["verdict"] in VERDICTS
        assert float(row["tolerance"]) >= 0
        assert row["tolerance_basis"].strip()
        for figure in row["figure"].split(","):
            stem = figure.strip()
            assert list((ci_clone / f"figures/paper{paper}").glob(f"{stem}.*")), stem


def test_dashboard_has_every_claim_pointing_at_files_of_this_run(ci_clone):
    rows = read_rows(ci_clone / "figures/claims.csv")
    assert [r["claim_id"] for r in rows] == list(CLAIMS)
    for row in rows:
        folder = ci_clone / "figures" / f"paper{row['paper']}"
        for name in filter(None, f"{row['figures']}, {row['tables']}".split(", ")):
            assert list(folder.glob(f"{name}.*")), name
        assert row["verdict"] in VERDICTS and row["test"].startswith("holds if")


def test_a_t2_has_every_stepwise_model(ci_clone):
    rows = read_rows(ci_clone / "figures/paperA/A-T2-stepwise.csv")
    assert [r["model"] for r in rows] == [
        "attention",
        "mean_normaliser",
        "entrywise",
        "conditional_gaussian",
        "conditional_gaussian_linear",
        "linear",
    ]
    assert float(rows[0]["ks_to_attention"]) == 0.0
    for row in rows:
        assert 0.0 <= float(row["ks_to_nu_inf"]) <= 1.0
        assert float(row["m1_theory"]) > 0


def test_a1_plotted_numbers_and_caption(ci_clone):
    plotted = read_rows(ci_clone / "figures/paperA/A1-stepwise.csv")
    assert {r["panel"] for r in plotted} == {"histogram", "sorted"}
    caption = (ci_clone / "figures/paperA/A1-stepwise.md").read_text()
    assert "ell = 200" in caption and "reconstructed" in caption


def test_a_t1_matches_the_library_edge(ci_clone):
    rows = read_rows(ci_clone / "figures/paperA/A-T1-edges.csv")
    assert len(rows) == 4
    for row in rows:
        beta, ratio = float(row["beta"]), float(row["c"])
        assert float(row["x_plus"]) == bulk_edge(beta, ratio)
        assert float(row["mp_edge_4theta1"]) == mp_edge(beta)
        assert float(row["x_plus"]) > float(row["mp_edge_4theta1"])


def test_b_t1_has_the_documented_columns(ci_clone):
    rows = read_rows(ci_clone / "figures/paperB/B-T1-sticking.csv")
    assert list(rows[0]) == ["ell", "c", "beta", "draws", "k", "median", "q10", "q90"] + [
        "x_plus",
        "relative_gap",
    ]


def test_rerun_on_one_core_is_bit_identical(ci_clone, tmp_path):
    again = tracked_copy(tmp_path / "again")
    snakemake(again, "all", "--cores", "1", "--forceall")
    made = sorted(p.relative_to(ci_clone) for p in (ci_clone / "figures").rglob("*") if p.is_file())
    remade = sorted(p.relative_to(again) for p in (again / "figures").rglob("*") if p.is_file())
    assert made == remade
    for name in ("claims.csv", "claims.md", "rulegraph.png", "paperA.ipynb", "paperC.html"):
        assert Path("figures", name) in made, name
    for path in made:
        assert filecmp.cmp(ci_clone / path, again / path, shallow=False), path


def test_a_failed_job_leaves_nothing_half_written(ci_clone, tmp_path):
    """In a copy of the finished run (the shared run stays intact for other tests)."""
    broken = tmp_path / "broken"
    shutil.copytree(ci_clone, broken, symlinks=True)
    summary = broken / "results/paperA/stepwise/summary.npz"
    summary.write_bytes(b"not an npz file")
    os.utime(summary)
    result = run(
        [tool("snakemake"), "paperA_A1_figure", "--cores", "1", "--configfile", "config/ci.yaml"],
        cwd=broken,
        check=False,
    )
    assert result.returncode != 0
    leftovers = [p.name for p in (broken / "figures/paperA").iterdir() if "A1" in p.name]
    assert leftovers == [], leftovers
