"""The claims dashboard and per-paper tables built from judged registry rows."""

import pytest
from conftest import REPO

from attnspec.claims import CLAIMS, EVIDENCE, FINITE_SIZE_MECHANISMS
from attnspec.dashboard import (
    DASHBOARD_HEADER,
    dashboard_markdown,
    dashboard_rows,
    is_table,
    paper_markdown,
    region,
    replicates_markdown,
    replicates_rows,
    summary_markdown,
    verdict_label,
    verdict_table,
)
from attnspec.io import read_csv
from attnspec.registry import REGISTRY, registry_of
from attnspec.verdicts import HOLDS, INCONCLUSIVE, ROW_HEADER, VERDICTS, describe_test


def judged(test, verdict=HOLDS, stability="1.0", alternative=""):
    """A judged row as read back from a claims CSV (values as text)."""
    return {
        "claim_id": test.claim_id,
        "row_id": test.row_id,
        "claim": CLAIMS[test.claim_id],
        "kind": test.kind,
        "figure": test.figure,
        "quantity": f"quantity of {test.row_id}",
        "statistic": test.statistic,
        "value": "0.125",
        "interval_low": "0.1",
        "interval_high": "0.15",
        "target": "0.1",
        "comparison": test.comparison,
        "margin": "0.05",
        "draws": "10",
        "trend": "",
        "verdict": verdict,
        "stability": stability,
        "alternative": alternative,
        "detectable": "0.2",
        "replicate": "0",
        "test": describe_test(test),
        "note": "",
    }


def all_rows(**verdicts):
    return {p: [judged(t, verdicts.get(t.row_id, HOLDS)) for t in registry_of(p)] for p in "ABCD"}


def test_every_claim_has_existing_evidence_and_a_mechanism():
    assert set(EVIDENCE) == set(CLAIMS) == set(FINITE_SIZE_MECHANISMS)
    for claim_id, items in EVIDENCE.items():
        paper = claim_id[0]
        for item in items:
            assert item.startswith(paper), (claim_id, item)
            extension = "md" if is_table(item) else "png"
            assert (REPO / f"figures/paper{paper}/{item}.{extension}").is_file(), item
    for test in REGISTRY:
        assert test.figure in EVIDENCE[test.claim_id], test.row_id


def test_regions_are_written_in_numbers():
    row = judged(REGISTRY[0])
    assert region({**row, "comparison": "equivalence"}) == "[0.05, 0.15]"
    assert region({**row, "comparison": "at_most"}) == "<= 0.15"
    assert region({**row, "comparison": "at_least"}) == ">= 0.15"
    assert region({**row, "comparison": "below"}) == "<= 0.05"


def test_fragile_verdicts_name_their_alternative():
    row = judged(REGISTRY[0], stability="0.62", alternative=f"{INCONCLUSIVE} (31%)")
    assert "fragile" in verdict_label(row)
    header, table = verdict_table([row])
    assert "fragile: inconclusive at these sizes (31%)" in table[0][header.index("stability")]
    assert "fragile" not in verdict_label(judged(REGISTRY[0], stability="0.95"))


def test_dashboard_lists_every_registry_row_in_order():
    rows = dashboard_rows(all_rows())
    assert [r["row_id"] for r in rows] == [t.row_id for t in REGISTRY]
    assert set(DASHBOARD_HEADER) == {"paper", "fragile", *ROW_HEADER}
    text = dashboard_markdown(rows)
    for paper in "ABCD":
        assert f"## Paper {paper}" in text
    for claim in CLAIMS:
        assert f"**{claim}**" in text


def test_mechanism_is_shown_only_for_rows_that_do_not_hold():
    rows = dashboard_rows(all_rows(**{"B.1/beta=1": INCONCLUSIVE}))
    summary = summary_markdown(rows)
    assert FINITE_SIZE_MECHANISMS["B.1"] in summary
    assert FINITE_SIZE_MECHANISMS["A.2"] not in summary


def test_paper_markdown_gives_each_row_its_test_and_kind():
    rows = all_rows()["C"]
    text = paper_markdown("C", rows)
    assert "## C.3/bound (bound: holds by construction, not evidence)" in text
    assert text.count("- test: statistic:") == len(rows)


def test_replicates_table_marks_disagreement():
    base = all_rows()["A"]
    other = [dict(row) for row in base]
    other[0]["verdict"] = INCONCLUSIVE
    header, table = replicates_rows({0: base, 1: other, 2: base})
    assert header[-1] == "agree" and table[0][-1] == "no" and table[1][-1] == "yes"
    assert f"{len(table) - 1} of {len(table)} rows" in replicates_markdown(header, table)
    with pytest.raises(ValueError, match="replicate 1"):
        replicates_rows({0: base, 1: base[1:]})


def test_readme_shows_the_committed_dashboard():
    """The README's claims table is the summary of the committed figures/claims.csv, verbatim."""
    readme = (REPO / "README.md").read_text()
    start, end = "<!-- claims-dashboard:start -->\n", "<!-- claims-dashboard:end -->"
    assert start in readme and end in readme
    shown = readme.split(start)[1].split(end)[0]
    committed = read_csv(REPO / "figures/claims.csv")
    assert shown.strip() == summary_markdown(committed, "figures/").strip()


def test_committed_dashboard_has_every_registry_row_with_existing_figures():
    rows = read_csv(REPO / "figures/claims.csv")
    assert [row["row_id"] for row in rows] == [t.row_id for t in REGISTRY]
    for row in rows:
        item = row["figure"]
        extension = "md" if is_table(item) else "png"
        assert (REPO / "figures" / f"paper{row['paper']}" / f"{item}.{extension}").is_file()
        assert row["verdict"] in VERDICTS


def test_a_scope_row_names_its_own_cause_not_its_claims_finite_size_mechanism():
    from attnspec.claims import ROW_CAUSES
    from attnspec.dashboard import known_cause

    assert set(ROW_CAUSES) <= {t.row_id for t in REGISTRY}
    scope = {"row_id": "C.1/isotropic", "claim_id": "C.1"}
    assert known_cause(scope).startswith("scope, not finite size")
    assert (
        known_cause({"row_id": "C.1/canonical/causal", "claim_id": "C.1"})
        == (FINITE_SIZE_MECHANISMS["C.1"])
    )
