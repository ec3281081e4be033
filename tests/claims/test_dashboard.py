"""The claims dashboard and per-paper tables built from judged registry rows."""

import pytest
from conftest import REPO

from attnspec.claims.catalogue import CLAIMS, EVIDENCE, FINITE_SIZE_MECHANISMS
from attnspec.claims.dashboard import (
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
from attnspec.claims.rows import ROW_HEADER, describe_test
from attnspec.claims.verdict import ORDER, Verdict
from attnspec.papers.registry import REGISTRY, TESTS, registry_of
from attnspec.workflow.io import read_csv


def judged(test, verdict=Verdict.HOLDS, stability="1.0", alternative="", standing=""):
    """A judged row as read back from a claims CSV (values as text)."""
    names = [a.name for a in test.alternatives]
    ruled = len(names) - (1 if standing else 0)
    return {
        "claim_id": test.claim_id,
        "row_id": test.row_id,
        "claim": CLAIMS[test.claim_id],
        "kind": test.kind,
        "subject": test.subject,
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
        "limit": "nan" if test.finite_size is None else "0.11",
        "limit_low": "nan" if test.finite_size is None else "0.08",
        "limit_high": "nan" if test.finite_size is None else "0.14",
        "limit_target": "0.1",
        "claim_verdict": Verdict.HOLDS if standing else verdict,
        "verdict": verdict,
        "stability": stability,
        "alternative": alternative,
        "alternatives": "; ".join(
            f"{n}: {'inconclusive at these sizes' if n == standing else 'does not reproduce'}, "
            "value 0.125 [0.1, 0.15]"
            for n in names
        ),
        "ruled_out": f"{ruled} of {len(names)}" if names else "",
        "no_power_against": standing,
        "power_up": "1.5",
        "power_down": "inf" if test.comparison != "equivalence" else "2.5",
        "replicate": "0",
        "test": describe_test(test),
        "changed_after_results": " | ".join(test.changed_after_results),
        "note": "",
    }


def all_rows(**verdicts):
    return {
        p: [judged(t, verdicts.get(t.row_id, Verdict.HOLDS)) for t in registry_of(p)]
        for p in "ABCD"
    }


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
    row = judged(REGISTRY[0], stability="0.62", alternative=f"{Verdict.INCONCLUSIVE} (31%)")
    header, table = verdict_table([row])
    stability = table[0][header.index("stability")]
    assert stability == "0.62, fragile: inconclusive at these sizes in 31% of resamples"
    assert table[0][header.index("verdict")] == "fragile pass: holds"  # never read as holds
    assert verdict_label(row).endswith(": fragile pass: holds (stability 62%)")
    assert "fragile" not in verdict_label(judged(REGISTRY[0], stability="0.95"))


def test_captions_give_the_paper_preset_s_verdict_beside_the_default_one():
    row = judged(REGISTRY[0], verdict=Verdict.INCONCLUSIVE)
    large = {**judged(REGISTRY[0]), "sizes": "1024, 2048, 32768", "draws": "10"}
    label = verdict_label(row, large)
    assert label == (
        f"{row['row_id']}: {Verdict.INCONCLUSIVE} (default preset: {row['draws']} draws); "
        f"at the papers' sizes (sizes 1024 ... 32768, 10 draws): {Verdict.HOLDS}"
    )
    header, table = verdict_table([row], {row["row_id"]: large})
    assert header[-1] == "at the papers' sizes"
    assert table[0][-1].startswith(f"{Verdict.HOLDS}: ")
    assert verdict_table([row], {})[0] == verdict_table([row])[0]  # no column without them


def test_the_scales_note_names_a_rejected_fit_and_a_fragile_stability():
    from attnspec.claims.dashboard import scales_note

    row = judged(REGISTRY[0], stability="0.76")
    large = {
        **judged(REGISTRY[0], verdict=Verdict.INCONCLUSIVE),
        "limit_fit": "best p = 0.333, fit p-value 0.0067, rejected",
    }
    note = scales_note(row, large)
    assert "does not fit at the papers' sizes (best p = 0.333, fit p-value 0.0067" in note
    assert "stability 0.76 -> 1.00" in note
    assert "narrower" not in note  # the same interval width at both scales
    replicated = {
        **judged(REGISTRY[0]),
        "replicate_verdicts": f"{Verdict.HOLDS}; {Verdict.INCONCLUSIVE}",
    }
    assert "another replicate reads inconclusive" in scales_note(replicated, judged(REGISTRY[0]))
    assert scales_note(row, judged(REGISTRY[0], stability="0.5")) == ""  # same verdict


def test_dashboard_lists_every_registry_row_in_order():
    rows = dashboard_rows(all_rows())
    assert [r["row_id"] for r in rows] == [t.row_id for t in REGISTRY]
    assert set(DASHBOARD_HEADER) == {
        "paper",
        "fragile",
        "replicate_verdicts",
        "headline",
        "paper_scale",
        "scales_note",
        *ROW_HEADER,
    }
    text = dashboard_markdown(rows)
    for paper in "ABCD":
        assert f"## Paper {paper}" in text
    for claim in CLAIMS:
        assert f"**{claim}**" in text


def test_mechanism_is_shown_only_for_rows_that_do_not_hold():
    rows = dashboard_rows(all_rows(**{"B.1/beta=1": Verdict.INCONCLUSIVE}))
    summary = summary_markdown(rows)
    assert FINITE_SIZE_MECHANISMS["B.1"] in summary
    assert FINITE_SIZE_MECHANISMS["A.2"] not in summary


def test_a_row_without_power_names_the_alternative_left_standing():
    test = next(t for t in REGISTRY if t.row_id == "B.1/beta=0.5")
    row = {**judged(test, Verdict.INCONCLUSIVE, standing="x+ +1%"), "paper": "B", "fragile": False}
    summary = summary_markdown([row])
    assert "2 of 3, not: x+ +1%" in summary
    assert "no power against x+ +1%" in summary
    assert "1.5 / 2.5" in summary


def test_the_dashboard_counts_only_empirical_rows_as_evidence_and_lists_changed_tests():
    rows = dashboard_rows(all_rows())
    text = dashboard_markdown(rows)
    empirical = sum(t.kind == "empirical" for t in REGISTRY)
    assert (
        f"Evidence (the {empirical} empirical rows, which can fail on data): {empirical} holds"
        in text
    )
    assert "## Tests changed after their results were seen" in text
    for test in REGISTRY:
        if test.changed_after_results:
            assert f"- **{test.row_id}**: " in text, test.row_id


def test_paper_markdown_gives_each_row_its_test_and_kind():
    rows = all_rows()["C"]
    text = paper_markdown("C", rows, TESTS)
    assert "## C.3/bound (bound: holds by construction, not evidence)" in text
    assert "## C.3/canonical-slope (model: a closed-form model evaluated, not evidence)" in text
    assert text.count("- test: statistic:") == len(rows)
    assert "- alternatives (wrong theories the row must rule out):" in text
    assert "- scope: the eigen-angle diagnostic does not see locality" in text


def test_replicates_table_marks_disagreement():
    base = all_rows()["A"]
    other = [dict(row) for row in base]
    other[0]["verdict"] = Verdict.INCONCLUSIVE
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
        assert row["verdict"] in ORDER


def test_a_scope_row_names_its_own_cause_not_its_claims_finite_size_mechanism():
    from attnspec.claims.catalogue import ROW_CAUSES
    from attnspec.claims.dashboard import known_cause

    assert set(ROW_CAUSES) <= {t.row_id for t in REGISTRY}
    scope = {"row_id": "C.1/isotropic", "claim_id": "C.1", "no_power_against": ""}
    assert known_cause(scope).startswith("scope, not finite size")
    other = {"row_id": "C.1/canonical/causal", "claim_id": "C.1", "no_power_against": ""}
    assert known_cause(other) == FINITE_SIZE_MECHANISMS["C.1"]


def test_the_rule_is_stated_once_for_the_dashboard_and_every_row():
    """The dashboard's engine text and each row's test column state the same decision rule
    (attnspec.claims.rule.RULE_TEXT / FINITE_SIZE_RULE_TEXT, checked against decide in
    tests/claims/test_engine.py)."""
    from attnspec.claims.dashboard import ENGINE_TEXT
    from attnspec.claims.rows import describe_test
    from attnspec.claims.rule import FINITE_SIZE_RULE_TEXT, RULE_TEXT

    assert RULE_TEXT in ENGINE_TEXT and FINITE_SIZE_RULE_TEXT in ENGINE_TEXT
    for test in TESTS.values():
        assert (FINITE_SIZE_RULE_TEXT in describe_test(test)) == (test.finite_size is not None)


def test_a_fragile_pass_is_never_counted_among_the_holds():
    """Issue 33, item 4: a pass at stability below 0.9, or one that another replicate does not
    give, reads 'fragile pass' in the summary table and the headline counts."""
    rows = all_rows()
    first, second, third = (rows["A"][i] for i in range(3))
    first["stability"] = "0.45"
    replicates = [
        {"row_id": r["row_id"], "replicate 0": f"{r['verdict']} (1.00)",
         "replicate 1": f"{r['verdict']} (0.97)", "replicate 2": f"{r['verdict']} (1.00)"}
        for p in "ABCD" for r in rows[p]
    ]  # fmt: skip
    replicates[1]["replicate 2"] = "inconclusive at these sizes (0.80)"
    found = {r["row_id"]: r for r in dashboard_rows(rows, replicates)}
    assert found[first["row_id"]]["headline"] == "fragile pass: holds"
    assert found[second["row_id"]]["headline"] == "fragile pass: holds"
    assert found[second["row_id"]]["replicate_verdicts"] == "holds; inconclusive at these sizes"
    assert found[third["row_id"]]["headline"] == "holds"
    text = dashboard_markdown(list(found.values()))
    evidence = sum(t.kind == "empirical" for t in REGISTRY)
    fragile = sum(t.kind == "empirical" for t in REGISTRY[:2])
    assert f"{evidence - fragile} holds, {fragile} fragile pass: holds" in text
    assert "| fragile pass: holds |" in summary_markdown(list(found.values()))


def test_the_papers_sizes_stand_beside_the_default_and_a_disagreement_says_why():
    """Issue 33, item 3: with the paper preset judged, every row shows both scales with the
    sizes and draws each was judged at, and a row whose verdicts differ says why."""
    rows = all_rows()
    large = [
        {**r, "sizes": "1024, 2048, 4096, 8192, 16384, 32768", "draws": "10"}
        for p in "ABCD"
        for r in rows[p]
    ]
    first = rows["B"][0]
    first.update(verdict="inconclusive at these sizes", sizes="1024, 2048, 4096, 8192", draws="10")
    large[[r["row_id"] for r in large].index(first["row_id"])]["interval_high"] = "0.5"
    found = {r["row_id"]: r for r in dashboard_rows(rows, paper_scale=large)}
    row = found[first["row_id"]]
    assert row["paper_scale"].startswith("holds: ")
    assert "(sizes 1024 ... 32768, 10 draws)" in row["paper_scale"]
    assert row["scales_note"].startswith(
        "default (sizes 1024 ... 8192, 10 draws): inconclusive at these sizes; papers' sizes "
        "(sizes 1024 ... 32768, 10 draws): holds"
    )
    assert all(r["scales_note"] == "" for r in found.values() if r is not row)
    table = summary_markdown(list(found.values()))
    assert "| at the papers' sizes |" in table.splitlines()[0]
    assert "at the papers' sizes" not in summary_markdown(dashboard_rows(all_rows()))


def test_a_replicates_table_made_from_other_verdicts_is_not_used():
    """figures/claims-replicates.csv made by other code or tests (replicate 0 is not what is
    judged now) says nothing about these verdicts: the dashboard reads them as not run."""
    rows = all_rows()
    stale = [
        {"row_id": r["row_id"], "replicate 0": "inconclusive at these sizes (1.00)",
         "replicate 1": "inconclusive at these sizes (1.00)"}
        for p in "ABCD" for r in rows[p]
    ]  # fmt: skip
    found = dashboard_rows(rows, stale)
    assert all(r["replicate_verdicts"] == "" for r in found)
    assert "replicates not run for these verdicts" in dashboard_markdown(found)


def test_a_row_beyond_the_paper_names_what_keeps_it_from_holding_not_the_papers_margin():
    from attnspec.claims.catalogue import BEYOND_PAPER_MECHANISMS
    from attnspec.claims.dashboard import known_cause

    published = {"row_id": "D.1/bert-base/published-w1", "claim_id": "D.1", "no_power_against": ""}
    beyond = {**published, "row_id": "D.1/bert-base/w1", "beyond_paper": "whether softmax ..."}
    assert known_cause(published) == FINITE_SIZE_MECHANISMS["D.1"]
    assert known_cause(beyond) == BEYOND_PAPER_MECHANISMS["D.1"]
    assert "beyond the paper" not in known_cause(published)


def test_each_claim_lists_its_rows_verdicts_by_what_they_are_evidence_of():
    from attnspec.claims.dashboard import claim_counts

    holds, unstable = judged(REGISTRY[0]), judged(REGISTRY[0], stability="0.5")
    beyond = {**judged(REGISTRY[0], verdict="does not reproduce"), "beyond_paper": "stronger"}
    model = {**judged(REGISTRY[0]), "kind": "model"}
    assert claim_counts([holds, unstable, beyond, model]) == (
        "Rows: 1 holds, 1 fragile pass: holds (evidence); 1 holds (not evidence); "
        "1 does not reproduce (beyond the paper)."
    )


def test_the_readme_states_the_dashboard_s_outcome_as_committed():
    """The README's paragraph above the table is the committed dashboard's, verbatim."""
    from attnspec.claims.dashboard import outcome_markdown

    readme = (REPO / "README.md").read_text()
    start, end = "<!-- claims-outcome:start -->\n", "<!-- claims-outcome:end -->"
    shown = readme.split(start)[1].split(end)[0]
    committed = read_csv(REPO / "figures/claims.csv")
    assert shown.strip() == outcome_markdown(committed).strip()
    assert "of the 61 rows' tests were changed after" in shown


def test_the_outcome_names_each_claim_whose_evidence_does_not_all_pass():
    from attnspec.claims.dashboard import outcome_markdown

    passing = {**judged(REGISTRY[0]), "changed_after_results": ""}
    other = {**judged(REGISTRY[0], verdict=Verdict.INCONCLUSIVE), "claim_id": "B.9",
             "changed_after_results": ""}  # fmt: skip
    changed = {**passing, "changed_after_results": "abc1234 (2026-12-05): widened"}
    text = outcome_markdown([passing, other, changed])
    assert "1 of the 3 rows' tests were changed" in text
    assert "at these sizes: B.9 (1 inconclusive at these sizes)." in text
    assert text.rstrip().endswith("which are not evidence for it): none.")
    model = {**passing, "claim_id": "B.8", "kind": "model"}
    assert outcome_markdown([passing, model]).rstrip().endswith("evidence for it): B.8.")


def test_the_ruled_out_column_names_every_wrong_theory_left_standing():
    from attnspec.claims.dashboard import ruled_out_text

    row = {
        "ruled_out": "1 of 3",
        "no_power_against": "",
        "alternatives": "MP: does not reproduce, value 0.05 [0.04, 0.06], target 0; "
        "beta-1%: inconclusive at these sizes, value 0.006 [0.005, 0.007], target 0; "
        "beta+1%: holds, value 0.001 [0.0, 0.002], target 0",
    }
    assert ruled_out_text(row) == "1 of 3, not: beta-1%, beta+1%"
    assert ruled_out_text({**row, "ruled_out": ""}) == "-"
    everything = {**row, "ruled_out": "1 of 1", "alternatives": row["alternatives"].split("; ")[0]}
    assert ruled_out_text(everything) == "1 of 1"
