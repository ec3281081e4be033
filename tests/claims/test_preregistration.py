"""The pre-registration (attnspec.claims.preregistration): written from the declared tests alone,
every row present with its margin, rates and wrong theories, and the committed document current."""

from conftest import REPO

from attnspec.claims import preregistration
from attnspec.papers.registry import registry_of


def test_every_declared_row_is_pre_registered_from_the_tests_alone():
    registry = {paper: registry_of(paper) for paper in "ABCD"}
    text = preregistration.preregistration_markdown(registry)
    for tests in registry.values():
        for test in tests:
            assert f"### {test.row_id}\n" in text
            section = text.split(f"### {test.row_id}\n", 1)[1].split("\n### ", 1)[0]
            assert f"{test.margin:g}" in section
            assert all(f"`{a.name}`" in section for a in test.alternatives)
            if test.finite_size is not None:
                assert f"p in {test.finite_size.exponents_text}" in section
            assert section.count("Changed after its results were seen") == len(
                test.changed_after_results
            )


def test_a_changed_declared_test_changes_the_document():
    from dataclasses import replace

    tests = registry_of("B")
    changed = [replace(tests[0], margin=tests[0].margin * 2), *tests[1:]]
    before = preregistration.preregistration_markdown({"B": tests})
    after = preregistration.preregistration_markdown({"B": changed})
    assert before != after


def test_the_committed_document_is_current():
    text = preregistration.preregistration_markdown({p: registry_of(p) for p in "ABCD"})
    committed = (REPO / "docs" / "preregistration.md").read_text(encoding="utf-8")
    assert committed == text, "docs/preregistration.md is stale: python tools/preregistration.py"
