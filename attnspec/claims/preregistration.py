"""The pre-registration of a paper's verdict rows: every declared test as a referee reads it
before any data exist (what is judged, statistic, target, comparison, margin with its unit and
reason, interval, finite-size model, wrong theories, changes made after results were seen),
written from the declared tests alone (:mod:`attnspec.claims.declared`), no evidence read.

``python tools/preregistration.py [--check]`` writes (or checks) docs/preregistration.md.
"""

from collections.abc import Sequence

from attnspec.claims.catalogue import CLAIMS
from attnspec.claims.declared import DeclaredTest
from attnspec.claims.rule import CONFIDENCE, RULE_TEXT

COMPARISON_TEXT = {
    "equivalence": "within +- margin of the target",
    "at_most": "at most target + margin",
    "at_least": "at least target + margin",
    "below": "below target - margin",
}


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def margin_text(test: DeclaredTest, short: bool = False) -> str:
    """The margin with its unit, ``0.005 (unit: x_+ (...))``; ``short``: ``0.005 x_+``, and a
    unit of more than a few words named only as derived (the row's section gives it)."""
    unit = test.margin_unit.strip()
    if not unit:
        return f"{test.margin:g}"
    if short:
        first = unit.split(" (")[0]
        return f"{test.margin:g} {first}" if len(first) <= 12 else f"{test.margin:g} (derived unit)"
    return f"{test.margin:g} (unit: {unit})"


def summary_table(tests: Sequence[DeclaredTest]) -> str:
    """One line per row: kind, statistic, comparison, margin, interval, finite-size rates and
    the number of declared wrong theories."""
    lines = [
        "| row | kind | statistic | passes if | margin | interval | rates p | wrong theories |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for test in tests:
        rates = test.finite_size.exponents_text if test.finite_size else "-"
        lines.append(
            f"| {test.row_id} | {test.kind} | {test.statistic} | "
            f"{COMPARISON_TEXT[test.comparison]} | {_cell(margin_text(test, short=True))} | "
            f"{test.interval} | {rates} | {len(test.alternatives)} |"
        )
    return "\n".join(lines)


def row_section(test: DeclaredTest) -> str:
    """Everything declared for one row, one field per line."""
    interval = f"{test.interval}, {CONFIDENCE:.0%}"
    if test.interval_scale != 1.0:
        interval += f", widened x{test.interval_scale:.3g}: {test.interval_scale_reason}"
    fields = [
        ("Kind", f"{test.kind}; figure {test.figure}"),
        ("Data", test.subject),
        ("Statistic", f"{test.statistic}: {test.describes}"),
        ("Judged at", test.points),
        ("Target", f"{test.target}; passes if {COMPARISON_TEXT[test.comparison]}"),
        ("Margin", f"{margin_text(test)}; reason: {test.margin_reason}"),
        ("Interval", interval),
    ]
    if test.finite_size is not None:
        size = test.finite_size
        fields.append(
            (
                "Finite-size model",
                f"T(ell) = g + a ell^(-p), p in {size.exponents_text} (the limit's interval is "
                f"the union over p): {size.reason}. Limit: {size.limit}. A finite-size caveat "
                f"needs the judged interval within {size.caveat_distance:g} margins of the "
                f"region: {size.caveat_reason}",
            )
        )
    for alternative in test.alternatives:
        rates = f" (approach rates {alternative.exponents_text}: {alternative.exponents_reason})"
        fields.append(
            (
                f"Wrong theory `{alternative.name}`",
                f"{alternative.theory}; {alternative.reason}"
                + (rates if alternative.exponents else ""),
            )
        )
    if test.scope:
        fields.append(("Scope", test.scope))
    if test.beyond_paper:
        fields.append(("Beyond the paper", test.beyond_paper))
    for change in test.changed_after_results:
        fields.append(("Changed after its results were seen", change))
    body = "\n".join(f"- **{name}**: {_cell(text)}" for name, text in fields)
    return f"### {test.row_id}\n\n{body}\n"


def preregistration_markdown(registry: dict[str, Sequence[DeclaredTest]]) -> str:
    """The whole document: per paper its claims, the summary table and one section per row."""
    parts = [
        "# Pre-registration of every verdict row\n",
        "Generated from the declared tests alone (`attnspec/papers/<paper>/declared_tests.py`) by "
        "`python tools/preregistration.py`; no data are read. A margin given in a "
        "derived unit (a distance between two theoretical laws) is computed from theory when "
        "the row is judged; its value is the `margin` column of `figures/claims.csv`. The one "
        f"rule for every row: {RULE_TEXT}; holds also needs every declared wrong theory ruled "
        "out on the same data.\n",
    ]
    for paper, tests in registry.items():
        claims = sorted({test.claim_id for test in tests})
        listed = "\n".join(f"- **{claim}** {CLAIMS[claim]}" for claim in claims)
        parts.append(f"## Paper {paper}\n\n{listed}\n\n{summary_table(tests)}\n")
        parts += [row_section(test) for test in tests]
    return "\n".join(parts)
