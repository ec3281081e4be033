"""The claims dashboard: every claim of the three papers in one table (papers.md, section 7).

Built from the per-paper verdict rows (``figures/paper<X>/claims.csv``, the fields of
ClaimCheck); adds the figures and tables that support each claim and,
for any row that is not "holds", a one-line explanation: the measured numbers and the finite-size
mechanism expected to cause the gap.
"""

import re
from collections.abc import Mapping, Sequence

from attnspec.claims import CLAIMS, EVIDENCE, FINITE_SIZE_MECHANISMS, collect_claims
from attnspec.legacy_verdicts import DOES_NOT_REPRODUCE, FINITE_SIZE_CAVEAT, HOLDS, stated_condition
from attnspec.tables import format_cell, to_markdown

PAPERS = {
    "A": "Gaussian equivalence (Hayase, Collins, Karakida)",
    "B": "Bulk-edge sticking (Jerschow)",
    "C": "Spectral degeneration (isotropic score geometry)",
}
DASHBOARD_HEADER = (
    "paper",
    "claim_id",
    "claim",
    "figures",
    "tables",
    "quantity",
    "value",
    "target",
    "tolerance",
    "tolerance_basis",
    "test",
    "verdict",
    "explanation",
)
TABLE_ID = re.compile(r"[A-C]-T\d+-[\w-]+")


def is_table(item: str) -> bool:
    """Whether an output id names a table (``A-T1-edges``), not a figure (``A1-stepwise``)."""
    return TABLE_ID.fullmatch(item) is not None


def explanation(row: Mapping[str, str]) -> str:
    """One line for a row that is not "holds": measured value, target, tolerance and mechanism."""
    if row["verdict"] == HOLDS:
        return ""
    value, target, tolerance = (float(row[key]) for key in ("value", "target", "tolerance"))
    numbers = (
        f"value {format_cell(value, 3)} against target {format_cell(target, 3)} "
        f"(tolerance {format_cell(tolerance, 2)})"
    )
    mechanism = FINITE_SIZE_MECHANISMS[row["claim_id"]]
    if row["verdict"] == FINITE_SIZE_CAVEAT and stated_condition(row["test"])(
        value, target, tolerance
    ):
        return (
            f"{numbers} passes, but another condition of its test holds only with a "
            f"finite-size caveat; cause: {mechanism}"
        )
    if row["verdict"] == FINITE_SIZE_CAVEAT:
        return f"{numbers}, moving towards the target as the size grows; cause: {mechanism}"
    if row["verdict"] == DOES_NOT_REPRODUCE:
        return (
            f"{numbers}, with no trend towards the target at these sizes; known effect: {mechanism}"
        )
    raise ValueError(f"claim {row['claim_id']}: unknown verdict {row['verdict']!r}")


def dashboard_rows(rows_by_paper: Mapping[str, Sequence[Mapping[str, str]]]) -> list[dict]:
    """One dashboard row per claim, papers A, B, C in order.

    ValueError unless every paper has each of its claims exactly once, and each row's ``figure``
    items (where its number was read) are among the claim's :data:`EVIDENCE`.
    """
    if sorted(rows_by_paper) != sorted(PAPERS):
        raise ValueError(f"claims of papers {sorted(PAPERS)} needed, got {sorted(rows_by_paper)}")
    dashboard = []
    for paper in PAPERS:
        for row in collect_claims(rows_by_paper[paper], paper):
            claim_id = row["claim_id"]
            read_from = [item.strip() for item in row["figure"].split(",")]
            unsupported = [item for item in read_from if item not in EVIDENCE[claim_id]]
            if unsupported:
                raise ValueError(f"claim {claim_id}: {unsupported} missing from its EVIDENCE")
            evidence = EVIDENCE[claim_id]
            dashboard.append(
                {
                    **{key: row[key] for key in DASHBOARD_HEADER if key in row},
                    "paper": paper,
                    "claim": CLAIMS[claim_id],
                    "figures": ", ".join(i for i in evidence if not is_table(i)),
                    "tables": ", ".join(i for i in evidence if is_table(i)),
                    "explanation": explanation(row),
                }
            )
    return dashboard


def _links(items: str, paper: str, figures_dir: str, extension: str) -> str:
    names = [item.strip() for item in items.split(",") if item.strip()]
    return ", ".join(f"[{n}]({figures_dir}paper{paper}/{n}.{extension})" for n in names)


def summary_markdown(rows: Sequence[Mapping[str, str]], figures_dir: str = "") -> str:
    """The one-table summary: claim, statement, supporting figures and tables (linked relative to
    ``figures_dir``), verdict, and the explanation of any caveat."""
    header = ("claim", "statement", "figures", "tables", "verdict", "why not plain 'holds'")
    table = [
        [
            row["claim_id"],
            row["claim"],
            _links(row["figures"], row["paper"], figures_dir, "png"),
            _links(row["tables"], row["paper"], figures_dir, "md"),
            row["verdict"],
            row["explanation"],
        ]
        for row in rows
    ]
    return to_markdown(header, table).lstrip("\n")


def dashboard_markdown(rows: Sequence[Mapping[str, str]]) -> str:
    """``figures/claims.md``: the summary, then per paper the measured quantity of each claim
    and its test (when it holds, when it is the finite-size caveat)."""
    counts = {v: sum(row["verdict"] == v for row in rows) for v in (HOLDS, FINITE_SIZE_CAVEAT)}
    counts[DOES_NOT_REPRODUCE] = len(rows) - sum(counts.values())
    parts = [
        "# Claims of the three papers: verdicts\n",
        f"{len(rows)} claims: {counts[HOLDS]} hold, {counts[FINITE_SIZE_CAVEAT]} hold with a "
        f"finite-size caveat, {counts[DOES_NOT_REPRODUCE]} do not reproduce. A verdict compares "
        "one measured quantity with its target within a tolerance measured in the same run "
        "(spread over draws or a noise floor), by the comparison and trend that its `test` states; "
        "the per-paper `claims.md` give the full notes.\n",
        summary_markdown(rows),
    ]
    detail = (
        "claim",
        "measured quantity",
        "value",
        "target",
        "tolerance",
        "tolerance from",
        "test",
    )
    for paper, title in PAPERS.items():
        table = [
            [
                row["claim_id"],
                row["quantity"],
                float(row["value"]),
                float(row["target"]),
                float(row["tolerance"]),
                row["tolerance_basis"],
                row["test"],
            ]
            for row in rows
            if row["paper"] == paper
        ]
        parts.append(f"## Paper {paper}: {title}\n" + to_markdown(detail, table))
    return "\n".join(parts)
