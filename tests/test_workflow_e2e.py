"""End-to-end: the CI preset in a fresh copy of the repository produces figure A1, reproducibly."""

import csv
import filecmp
import os
from pathlib import Path

import pytest
from conftest import run, tool, tracked_copy

from attnspec.theory import bulk_edge, mp_edge
from attnspec.verdicts import VERDICTS

pytestmark = pytest.mark.slow

FIGURES = [
    "A1-stepwise",
    "A2-spectrum",
    "A3-bulk-laws",
    "A4-edge",
    "A5-linearisation",
    "A6-perron",
    "A7-ratios",
]
TABLES = ["A-T1-edges", "A-T2-stepwise"]
PAPER_A_FILES = (
    [f"{f}.{ext}" for f in FIGURES for ext in ("pdf", "png", "csv", "md")]
    + [f"{t}.{ext}" for t in TABLES for ext in ("csv", "md", "tex")]
    + ["claims.csv", "claims.md"]
)


def snakemake(workdir: Path, *args: str):
    return run([tool("snakemake"), "--configfile", "config/ci.yaml", *args], cwd=workdir)


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    """A fresh copy with the committed figures present, run on the CI preset with 2 cores."""
    workdir = tracked_copy(tmp_path_factory.mktemp("clone"))
    planned = snakemake(workdir, "-n", "--cores", "2", "paperA").stdout
    assert "paperA_A1_figure" in planned, "committed figures made Snakemake skip the work"
    snakemake(workdir, "--cores", "2", "paperA")
    return workdir


def test_every_paper_a_output_exists(clone):
    for name in PAPER_A_FILES:
        path = clone / "figures" / "paperA" / name
        assert path.stat().st_size > 0, name
    for figure in FIGURES:
        assert (clone / f"figures/paperA/{figure}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (clone / f"figures/paperA/{figure}.pdf").read_bytes()[:5] == b"%PDF-"


def read_rows(path):
    with open(path) as handle:
        return list(csv.DictReader(handle))


def test_a_t2_has_every_stepwise_model(clone):
    rows = read_rows(clone / "figures/paperA/A-T2-stepwise.csv")
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


def test_a1_plotted_numbers_and_caption(clone):
    plotted = read_rows(clone / "figures/paperA/A1-stepwise.csv")
    assert {r["panel"] for r in plotted} == {"histogram", "sorted"}
    caption = (clone / "figures/paperA/A1-stepwise.md").read_text()
    assert "ell = 200" in caption and "reconstructed" in caption


def test_rerun_on_one_core_is_bit_identical(clone, tmp_path):
    again = tracked_copy(tmp_path / "again")
    snakemake(again, "--cores", "1", "--forceall", "paperA")
    for name in PAPER_A_FILES:
        assert filecmp.cmp(
            clone / "figures/paperA" / name, again / "figures/paperA" / name, shallow=False
        ), name


def test_a_failed_job_leaves_nothing_half_written(clone):
    summary = clone / "results/paperA/stepwise/summary.npz"
    summary.write_bytes(b"not an npz file")
    os.utime(summary)
    result = run(
        [tool("snakemake"), "--configfile", "config/ci.yaml", "--cores", "1", "paperA_A1_figure"],
        cwd=clone,
        check=False,
    )
    assert result.returncode != 0
    leftovers = sorted(
        p.name for p in (clone / "figures/paperA").iterdir() if p.name.startswith(("A1", ".A1"))
    )
    assert leftovers == [], leftovers


def test_a_t1_matches_the_library_edge(clone):
    rows = read_rows(clone / "figures/paperA/A-T1-edges.csv")
    assert len(rows) == 4
    for row in rows:
        beta, ratio = float(row["beta"]), float(row["c"])
        assert float(row["x_plus"]) == bulk_edge(beta, ratio)
        assert float(row["mp_edge_4theta1"]) == mp_edge(beta)
        assert float(row["x_plus"]) > float(row["mp_edge_4theta1"])


def test_claims_table_has_one_row_per_claim_of_paper_a(clone):
    rows = read_rows(clone / "figures/paperA/claims.csv")
    assert [r["claim_id"] for r in rows] == ["A.1", "A.2", "A.3", "A.4", "A.5"]
    for row in rows:
        assert row["verdict"] in VERDICTS
        assert float(row["tolerance"]) >= 0
        for figure in row["figure"].split(","):
            stem = figure.strip()
            assert list((clone / "figures/paperA").glob(f"{stem}.*")), stem
