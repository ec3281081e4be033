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
