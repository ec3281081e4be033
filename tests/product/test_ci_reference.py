"""Every pull request's CI preset run (the ci_clone fixture) makes the committed reference outputs
of tests/reference/ci-preset/ within attnspec.workflow.drift's tolerances, and the same set of
files."""

import pytest
from conftest import FIGURES, REPO, TABLES

from attnspec.workflow.drift import COMPARED, compare_trees

REFERENCE = REPO / "tests" / "reference" / "ci-preset"
REGENERATE = "if the change is intended, run `python tools/ci_reference.py --write` and commit"


def outputs(root):
    return {p.relative_to(root) for p in root.rglob("*") if p.is_file() and p.suffix in COMPARED}


def expected_outputs():
    """Every figure's PNG, vector PDF, CSV and caption (each paper's claims forest included),
    every table's CSV, Markdown and LaTeX, each paper's claims, the dashboard, the claims forest
    and the finite-size limits (the outputs test_workflow_end_to_end checks)."""
    figure = ("png", "pdf", "csv", "md")
    names = {"claims.csv", "claims.md"}
    names |= {f"claims-{f}.{ext}" for f in ("forest", "limits") for ext in figure}
    for paper in FIGURES:
        folder = f"paper{paper}"
        names |= {f"{folder}/{f}.{ext}" for f in FIGURES[paper] for ext in figure}
        names |= {f"{folder}/{paper}-forest.{ext}" for ext in figure}
        names |= {f"{folder}/{t}.{ext}" for t in TABLES[paper] for ext in ("csv", "md", "tex")}
        names |= {f"{folder}/claims.csv", f"{folder}/claims.md"}
    return names


def test_reference_holds_every_output_of_the_papers_in_kinds_drift_compares():
    assert REFERENCE.is_dir(), f"{REFERENCE} is missing: run `python tools/ci_reference.py --write`"
    papers = sorted(p.name for p in REFERENCE.iterdir() if p.is_dir())
    assert papers == [f"paper{paper}" for paper in sorted(FIGURES)]
    files = [p for p in REFERENCE.rglob("*") if p.is_file()]
    assert all(p.suffix in COMPARED for p in files), [p.name for p in files]
    assert {str(p) for p in outputs(REFERENCE)} == expected_outputs()


@pytest.mark.slow
def test_ci_preset_makes_the_reference_outputs_within_tolerance(ci_clone):
    fresh = ci_clone / "figures"
    committed = REPO / "figures"

    def left_from_the_copy(name):
        """A committed output of a target outside `all` (figures/claims-replicates.*): in the
        clone, not in the reference, and untouched by the run."""
        kept = committed / name
        return kept.is_file() and kept.read_bytes() == (fresh / name).read_bytes()

    reference = outputs(REFERENCE)
    made = {p for p in outputs(fresh) if p in reference or not left_from_the_copy(p)}
    assert made == reference, (
        f"new outputs {sorted(map(str, made - reference))}, "
        f"missing outputs {sorted(map(str, reference - made))}: {REGENERATE}"
    )
    skipped = tuple(f"{fresh / name}:" for name in sorted(map(str, outputs(fresh) - made)))
    drift = [line for line in compare_trees(REFERENCE, fresh) if not line.startswith(skipped)]
    assert not drift, "\n".join([*drift, REGENERATE])
