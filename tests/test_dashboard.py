"""The claims dashboard: one row per claim of the three papers, evidence, caveat explanations."""

import re

import pytest
from conftest import REPO

from attnspec.claims import CLAIMS, EVIDENCE, FINITE_SIZE_MECHANISMS, claims_of
from attnspec.dashboard import (
    DASHBOARD_HEADER,
    dashboard_markdown,
    dashboard_rows,
    explanation,
    is_table,
    summary_markdown,
)
from attnspec.io import read_csv
from attnspec.legacy_verdicts import DOES_NOT_REPRODUCE, FINITE_SIZE_CAVEAT, HOLDS


def verdict_row(claim_id: str, verdict: str = HOLDS, figure: str | None = None) -> dict:
    return {
        "claim_id": claim_id,
        "claim": CLAIMS[claim_id],
        "figure": figure or EVIDENCE[claim_id][0],
        "quantity": f"quantity of {claim_id}",
        "value": "0.125",
        "target": "0.1",
        "tolerance": "0.01",
        "tolerance_basis": "spread over draws",
        "test": f"holds if value <= target + tolerance; caveat if not but {claim_id} improves",
        "verdict": verdict,
        "note": "",
    }


def all_rows(**verdicts) -> dict[str, list[dict]]:
    return {
        paper: [verdict_row(c, verdicts.get(c.replace(".", ""), HOLDS)) for c in claims_of(paper)]
        for paper in "ABC"
    }


def test_every_claim_has_existing_evidence_and_a_mechanism():
    assert set(EVIDENCE) == set(CLAIMS) == set(FINITE_SIZE_MECHANISMS)
    for claim_id, items in EVIDENCE.items():
        paper = claim_id[0]
        assert items and not is_table(items[0]), f"{claim_id}: lead with a figure"
        for item in items:
            assert item.startswith(paper), (claim_id, item)
            extension = "md" if is_table(item) else "png"
            assert (REPO / f"figures/paper{paper}/{item}.{extension}").is_file(), item


def test_is_table_tells_tables_from_figures():
    assert is_table("A-T1-edges") and is_table("C-T2-pretrained")
    assert not is_table("A1-stepwise") and not is_table("B4-edge-formula")


def test_rows_cover_every_claim_in_order_and_split_evidence():
    rows = dashboard_rows(all_rows())
    assert [r["claim_id"] for r in rows] == list(CLAIMS)
    assert all(set(r) == set(DASHBOARD_HEADER) for r in rows)
    a3 = next(r for r in rows if r["claim_id"] == "A.3")
    assert (a3["paper"], a3["figures"], a3["tables"]) == ("A", "A1-stepwise", "A-T2-stepwise")


def test_explanation_only_for_rows_that_do_not_plainly_hold():
    rows = {r["claim_id"]: r for r in dashboard_rows(all_rows(B1=FINITE_SIZE_CAVEAT))}
    assert rows["A.1"]["explanation"] == ""
    caveat = rows["B.1"]["explanation"]
    assert "value 0.125 against target 0.1 (tolerance 0.01)" in caveat
    assert "towards the target" in caveat and FINITE_SIZE_MECHANISMS["B.1"] in caveat
    failed = explanation(verdict_row("C.4", DOES_NOT_REPRODUCE))
    assert "no trend towards the target" in failed


def test_unknown_verdict_is_an_error():
    with pytest.raises(ValueError, match="unknown verdict"):
        dashboard_rows(all_rows(C4="perhaps"))


def test_missing_paper_or_claim_or_foreign_figure_is_an_error():
    rows = all_rows()
    with pytest.raises(ValueError, match="papers"):
        dashboard_rows({"A": rows["A"], "B": rows["B"]})
    rows["B"] = rows["B"][1:]
    with pytest.raises(ValueError, match="missing"):
        dashboard_rows(rows)
    rows = all_rows()
    rows["A"][0] = verdict_row("A.1", figure="A1-stepwise")
    with pytest.raises(ValueError, match="EVIDENCE"):
        dashboard_rows(rows)


def test_markdown_links_every_figure_and_counts_verdicts():
    rows = dashboard_rows(all_rows(A1=FINITE_SIZE_CAVEAT, C5=DOES_NOT_REPRODUCE))
    text = dashboard_markdown(rows)
    assert "15 claims: 13 hold, 1 hold with a finite-size caveat, 1 do not reproduce" in text
    assert "[A-T2-stepwise](paperA/A-T2-stepwise.md)" in text
    assert "[A-T2-stepwise](figures/paperA/A-T2-stepwise.md)" in summary_markdown(rows, "figures/")
    for title in ("## Paper A", "## Paper B", "## Paper C"):
        assert title in text
    paper_c = text.split("## Paper C")[1]
    assert "| test |" in paper_c and "caveat if not but C.4 improves" in paper_c
    assert "B.1 improves" not in paper_c and "improves" not in summary_markdown(rows)


def test_readme_shows_the_committed_dashboard():
    """The README's claims table is the summary of the committed figures/claims.csv, verbatim."""
    readme = (REPO / "README.md").read_text()
    start, end = "<!-- claims-dashboard:start -->\n", "<!-- claims-dashboard:end -->"
    assert start in readme and end in readme
    shown = readme.split(start)[1].split(end)[0]
    committed = read_csv(REPO / "figures/claims.csv")
    assert shown.strip() == summary_markdown(committed, "figures/").strip()


def test_committed_dashboard_covers_every_claim_of_papers_md_with_existing_files():
    section = (REPO / "docs/papers.md").read_text().split("## 7.")[1]
    listed = re.findall(r"^\| ([ABC]\.\d) \|", section, flags=re.M)
    rows = read_csv(REPO / "figures/claims.csv")
    assert listed == list(CLAIMS) == [row["claim_id"] for row in rows]
    for row in rows:
        folder = REPO / "figures" / f"paper{row['paper']}"
        for figure in filter(None, row["figures"].split(", ")):
            assert (folder / f"{figure}.png").is_file(), figure
        for table in filter(None, row["tables"].split(", ")):
            assert (folder / f"{table}.csv").is_file(), table
        assert row["verdict"] in (HOLDS, FINITE_SIZE_CAVEAT, DOES_NOT_REPRODUCE)


def test_caveat_from_another_condition_is_not_called_a_trend_of_the_value():
    """A row whose value passes its comparison but whose test's other condition carries the
    caveat (B.2 takes B.1's verdict at the same beta) says so, instead of 'moving towards'."""
    row = dict(verdict_row("B.2", FINITE_SIZE_CAVEAT), value="0.105")
    text = explanation(row)
    assert text.startswith("value 0.105 against target 0.1 (tolerance 0.01) passes, but another")
    assert "moving towards" not in text and FINITE_SIZE_MECHANISMS["B.2"] in text
