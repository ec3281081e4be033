"""The two scales side by side (config key scale): the paper preset writes only under
figures/paper-scale/ and results/paper-scale/ (its receipts under results/published/paper-scale/),
the default preset never there, and the default scale's dashboard shows the paper preset's
verdicts beside its own."""

import re
import runpy
from types import SimpleNamespace

import pytest
from conftest import REPO, run, tool
from snakemake.iocontainers import Namedlist

from attnspec.workflow.io import read_csv
from attnspec.workflow.redo import planned_jobs

# Shared by both scales: paper C's tokenised passages and the model's stable ranks on them (C7),
# deterministic and named by their sizes.
SHARED = re.compile(
    r"results/paperC/pretrained/(queries-keys-n\d+-p\d+|stable-ranks-n\d+-max\d+)\.npz$"
)


def planned_outputs(*arguments: str) -> set[str]:
    output = run([tool("snakemake"), "all", "replicates", "-n", "-F", *arguments])
    return {f for job in planned_jobs(output.stdout + output.stderr) for f in job.outputs}


@pytest.mark.slow  # starts Snakemake
def test_the_paper_preset_writes_only_under_its_own_roots():
    outputs = planned_outputs("--configfile", "config/paper.yaml")
    roots = ("figures/paper-scale/", "results/paper-scale/", "results/published/paper-scale/")
    stray = sorted(f for f in outputs if not f.startswith(roots) and not SHARED.match(f))
    assert outputs and not stray, stray[:10]
    assert "figures/paper-scale/claims.csv" in outputs
    assert "results/paper-scale/paperB/sticking/ell32768-c1.0/draw9.npz" in outputs


@pytest.mark.slow  # starts Snakemake
def test_the_default_preset_never_writes_under_the_paper_scale():
    outputs = planned_outputs()
    assert "figures/claims.csv" in outputs
    assert not [f for f in outputs if "paper-scale" in f]


def test_the_dashboard_shows_the_paper_scale_verdicts_given_as_inputs(tmp_path, monkeypatch):
    """The dashboard script reads the paper preset's claims tables given as inputs; the default
    scale's committed tables stand in for them here (so every row agrees and has no note)."""
    papers = {paper: str(REPO / f"figures/paper{paper}/claims.csv") for paper in "ABCD"}
    smk = SimpleNamespace(
        input=SimpleNamespace(**papers, paper_scale=list(papers.values())),
        output=Namedlist(
            fromdict={
                "csv": "figures/claims.csv",
                "md": "figures/claims.md",
                "published": "results/published/claims.sha256",
            }
        ),
        params=SimpleNamespace(replicates="figures/claims-replicates.csv"),
        log=[str(tmp_path / "dashboard.log")],
    )
    monkeypatch.chdir(tmp_path)
    runpy.run_path(str(REPO / "scripts" / "claims_dashboard.py"), init_globals={"snakemake": smk})
    rows = read_csv(tmp_path / "figures" / "claims.csv")
    assert rows and all(row["paper_scale"] for row in rows)
    assert all(row["scales_note"] == "" for row in rows)
    assert "at the papers' sizes" in (tmp_path / "figures" / "claims.md").read_text()


def rules_keeping_draws() -> set[str]:
    """Rules whose jobs read and keep their draws in the store (``store=config["store"]``)."""
    found = set()
    for path in (REPO / "workflow" / "rules").glob("*.smk"):
        for block in re.split(r"^(?=rule \w+:)", path.read_text(encoding="utf-8"), flags=re.M):
            name = re.match(r"rule (\w+):", block)
            if name and 'store=config["store"]' in block:
                found.add(name[1])
    return found


@pytest.mark.slow  # starts Snakemake
def test_every_draw_the_paper_preset_keeps_is_in_the_committed_store():
    """A fresh clone's paper preset computes none of the draws it keeps: each job of a rule that
    keeps its draws has its record in data/store (one file for a job's draw, a folder of parts
    for a job that makes several); tests/workflow/test_store.py checks that every record is
    current."""
    from attnspec.workflow.store import entry_paths

    keeping = rules_keeping_draws()
    output = run([tool("snakemake"), "all", "-n", "-F", "--configfile", "config/paper.yaml"])
    jobs = [job for job in planned_jobs(output.stdout + output.stderr) if job.rule in keeping]
    missing = []
    for job in jobs:
        draw = next(f for f in job.outputs if f.endswith(".npz"))
        npz, record = entry_paths(REPO / "data" / "store", draw)
        parts = npz.with_suffix("")
        if not record.is_file() and not (parts.is_dir() and any(parts.glob("*.json"))):
            missing.append(draw)
    assert len(jobs) > 100 and {"paperB_sticking_draw", "paperA_spectra"} <= keeping
    assert not missing, f"{len(missing)} of {len(jobs)} not stored: {missing[:10]}"
