"""End-to-end: the CI preset in a fresh copy of the repository produces every figure and table
of the papers and recomputes the committed copies; the jobs whose threads follow --cores rerun
bit-identically on one core, with the claims tables and a figure of each paper drawn from them;
a replicate re-keys every random output and runs bit-identically on one core and on two."""

import csv
import filecmp
import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import FIGURES, TABLES, planned_rules, run, tool, tracked_copy
from conftest import snakemake_ci as snakemake

from attnspec.claims.rule import KINDS
from attnspec.claims.verdict import ORDER
from attnspec.papers.registry import REGISTRY, registry_of
from attnspec.theory import bulk_edge, mp_edge
from attnspec.workflow.io import load_npz
from product.test_report import STATUSES

pytestmark = pytest.mark.slow


def outputs(paper: str) -> list[str]:
    return (
        [f"{f}.{ext}" for f in FIGURES[paper] for ext in ("png", "csv", "md")]
        + [f"{t}.{ext}" for t in TABLES[paper] for ext in ("csv", "md", "tex")]
        + ["claims.csv", "claims.md"]
    )


def read_rows(path):
    with open(path) as handle:
        return list(csv.DictReader(handle))


@pytest.mark.parametrize("paper", sorted(FIGURES))
def test_every_output_exists(ci_clone, paper):
    folder = ci_clone / "figures" / f"paper{paper}"
    for name in outputs(paper):
        assert (folder / name).stat().st_size > 0, name
    for figure in FIGURES[paper]:
        assert (folder / f"{figure}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (folder / f"{figure}.pdf").read_bytes()[:5] == b"%PDF-"  # the print file
        caption = (folder / f"{figure}.md").read_text()
        assert any(status in caption for status in STATUSES), f"{figure}: no status"


def test_every_figure_of_the_run_passes_the_craft_checks(ci_clone):
    """attnspec.workflow.io.save_figure logs what a figure editor would reject (the checks of
    attnspec.plotting.craft: width, fonts, overlaps, empty panels, log axes); this run's
    figures have none, and each PNG is one or two columns wide at 150 dpi."""
    import struct

    rejected = [
        f"{log.relative_to(ci_clone)}: {line}"
        for log in sorted((ci_clone / "logs").rglob("*.log"))
        for line in log.read_text().splitlines()
        if " WARNING " in line and ".png: " in line
    ]
    assert not rejected, "\n".join(rejected)
    for png in sorted((ci_clone / "figures").glob("paper*/*.png")):
        width = struct.unpack(">I", png.read_bytes()[16:20])[0] / 150
        assert any(abs(width - w) < 0.01 for w in (3.4, 7.0)), (png.name, width)


@pytest.mark.parametrize("paper", sorted(FIGURES))
def test_claims_table_has_one_row_per_registry_row(ci_clone, paper):
    rows = read_rows(ci_clone / f"figures/paper{paper}/claims.csv")
    assert [r["row_id"] for r in rows] == [t.row_id for t in registry_of(paper)]
    for row in rows:
        assert row["verdict"] in ORDER and row["kind"] in KINDS
        assert 0.0 <= float(row["stability"]) <= 1.0
        assert float(row["margin"]) >= 0 and row["test"].startswith("statistic:")
        low, high = float(row["interval_low"]), float(row["interval_high"])
        assert low <= high or row["verdict"] == "inconclusive at these sizes"
        assert list((ci_clone / f"figures/paper{paper}").glob(f"{row['figure']}.*"))


def test_dashboard_has_every_registry_row_pointing_at_files_of_this_run(ci_clone):
    rows = read_rows(ci_clone / "figures/claims.csv")
    assert [r["row_id"] for r in rows] == [t.row_id for t in REGISTRY]
    for row in rows:
        folder = ci_clone / "figures" / f"paper{row['paper']}"
        assert list(folder.glob(f"{row['figure']}.*")), row["figure"]
    assert (ci_clone / "figures" / "claims.md").read_text().startswith("# Claims")


def test_replicate_one_re_keys_every_random_output_and_reruns_identically(ci_clone, tmp_path):
    """The judged simulations of replicate 1 differ from replicate 0's in every random array;
    a second run of replicate 1 (another copy, on one core where the first had two) is
    bit-identical: every array under results/replicate1 (the simulations and evidence the four
    claims tables are judged on) and the four claims tables."""
    first = tracked_copy(tmp_path / "first")
    second = tracked_copy(tmp_path / "second")
    targets = [f"results/replicate1/paper{p}/claims.csv" for p in sorted(FIGURES)]
    for copy, cores in ((first, "2"), (second, "1")):
        snakemake(copy, *targets, "--cores", cores)
    for target in targets:
        assert filecmp.cmp(first / target, second / target, shallow=False), target
    replicate0 = ci_clone / "results"
    compared = 0
    for path in sorted((first / "results" / "replicate1").rglob("*.npz")):
        relative = path.relative_to(first / "results" / "replicate1")
        again = load_npz(second / "results" / "replicate1" / relative)
        ours = load_npz(path)
        assert ours.keys() == again.keys()
        for key in ours:
            same = np.array_equal(ours[key], again[key], equal_nan=ours[key].dtype.kind == "f")
            assert same, (relative, key)
        base = replicate0 / relative
        if "evidence" in relative.parts or not base.exists():
            continue
        if relative.name.startswith("minilm") and np.all(ours["rank"] == ours["angles"].shape[-1]):
            continue  # the pretrained model on the fixed corpus at full rank S: no random stream
            # (the null-space completions are drawn only when rank S < n)
        theirs = load_npz(base)
        random = [k for k in ours if ours[k].dtype.kind in "fiu" and ours[k].size > 1]
        assert random, relative
        assert any(not np.array_equal(ours[k], theirs[k]) for k in random), relative
        compared += 1
    assert compared >= 10


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
    assert list(plotted[0])[:2] == ["kind", "series"]
    assert {(r["kind"], r["series"]) for r in plotted} == {
        ("data", "bulk"),
        ("theory", "nu_inf_density"),
        ("theory", "nu_inf_quantile"),
        ("theory", "x_plus"),
        ("statistic", "ks_to_attention"),
    }
    caption = (ci_clone / "figures/paperA/A1-stepwise.md").read_text()
    assert "ℓ = 200" in caption and "reconstructed" in caption


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
    """In a copy of the finished 2-core run, the jobs of claims_judge, the one rule whose thread
    count follows --cores (threads: 2, one process each), rerun on one core (--forcerun), and so
    do the claims tables, the dashboard and the first figure of each paper, drawn from them:
    every file they write is bit-identical to the 2-core run's. Every other rule declares one
    thread (and Snakemake gives a job's threads to BLAS and OpenMP), so its jobs run alike on any
    --cores and are not rerun here (the replicate test runs every job of replicate 1's claims
    tables on two cores and on one; the notebook test reruns the notebooks)."""
    made = sorted(p.relative_to(ci_clone) for p in (ci_clone / "figures").rglob("*") if p.is_file())
    for name in ("claims.csv", "claims.md", "rulegraph.mmd", "paperA.ipynb", "paperD.html"):
        assert Path("figures", name) in made, name
    again = tmp_path / "again"
    shutil.copytree(ci_clone, again, symlinks=True)
    papers = sorted(FIGURES)
    targets = (
        [f"results/paper{p}/claims.csv" for p in papers]
        + [f"figures/paper{p}/claims.csv" for p in papers]
        + ["figures/claims.csv"]
        + [f"figures/paper{p}/{FIGURES[p][0]}.png" for p in papers]
    )

    def written():
        return {
            p.relative_to(again): p.stat().st_mtime_ns
            for folder in ("results", "figures")
            for p in (again / folder).rglob("*")
            if p.is_file()
        }

    before = written()
    snakemake(again, *targets, "--forcerun", "claims_judge", "--cores", "1")
    rewritten = sorted(path for path, mtime in written().items() if before.get(path) != mtime)
    assert set(map(Path, targets)) <= set(rewritten), set(map(Path, targets)) - set(rewritten)
    for path in rewritten:
        assert filecmp.cmp(ci_clone / path, again / path, shallow=False), path


def test_vector_pdfs_can_be_skipped_and_only_the_figures_rerun(ci_clone):
    """In the finished run: --config vector_pdfs=false plans the figure jobs (and the tables and
    claims that read the config snapshot), no simulation, and no figure job writes a PDF."""
    dry_run = snakemake(ci_clone, "paperB", "-n", "--cores", "1", "--config", "vector_pdfs=false")
    planned = planned_rules(dry_run.stdout)
    assert {r for r in planned if r.endswith("_figure")} == {
        f"paperB_{figure.split('-')[0]}_figure" for figure in FIGURES["B"]
    }
    assert not {r for r in planned if "draw" in r or "batch" in r}, planned
    assert "output: " in dry_run.stdout and ".pdf" not in dry_run.stdout


def test_a_failed_job_leaves_its_committed_outputs_as_they_were(ci_clone, tmp_path):
    """In a copy of the finished run (the shared run stays intact for other tests): figure A1
    re-drawn from a claims table that is not one fails, and leaves its outputs byte for byte as
    they were, nothing half-written beside them or staged, and no receipt (the next run of its
    target runs it again)."""
    broken = tmp_path / "broken"
    shutil.copytree(ci_clone, broken, symlinks=True)
    before = {p.name: p.read_bytes() for p in (broken / "figures/paperA").glob("A1-*")}
    (broken / "results/paperA/claims.csv").write_text("not a claims table\n")
    result = run(
        [tool("snakemake"), "paperA_A1_figure", "--forcerun", "paperA_A1_figure"]
        + ["--cores", "1", "--configfile", "config/ci.yaml"],
        cwd=broken,
        check=False,
    )
    assert result.returncode != 0
    after = {
        p.name: p.read_bytes() for p in (broken / "figures/paperA").iterdir() if "A1" in p.name
    }
    assert after == before and len(before) == 4  # png, pdf, csv, md
    assert not [p for p in (broken / "results/staged").rglob("*") if p.is_file()]
    assert not (broken / "results/published/paperA/A1-stepwise.sha256").exists()
