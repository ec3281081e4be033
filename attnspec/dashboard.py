"""The claims dashboard and the tables built from judged registry rows.

Input rows are those of ``{results}/paper<X>/claims.csv`` (:data:`attnspec.verdicts.ROW_HEADER`,
values as text). Outputs: a paper's ``claims.md``, the dashboard ``figures/claims.{csv,md}`` (every
row of papers A-D; a verdict with stability below 0.9 is marked fragile, with the verdict
its resamples give instead), the replicates comparison ``figures/claims-replicates.md``, and the
short labels and caption tables the figures use.
"""

from collections.abc import Mapping, Sequence

from attnspec.claims import CLAIMS, EVIDENCE, FINITE_SIZE_MECHANISMS, ROW_CAUSES
from attnspec.tables import format_cell, to_markdown
from attnspec.verdicts import (
    FRAGILE_BELOW,
    REGION_TEXT,
    ROW_HEADER,
    VERDICTS,
)

PAPERS = {
    "A": "Gaussian equivalence (Hayase, Collins, Karakida)",
    "B": "Bulk-edge sticking (Jerschow)",
    "C": "Spectral degeneration (isotropic score geometry)",
    "D": "Multi-head attention (Hayase, Karakida)",
}
DASHBOARD_HEADER = ("paper", *ROW_HEADER, "fragile")
KIND_NOTE = {
    "empirical": "",
    "identity": " (identity: two exact computations, not evidence)",
    "bound": " (bound: holds by construction, not evidence)",
}


def _float(row: Mapping, key: str) -> float:
    return float(row[key])


def is_fragile(row: Mapping) -> bool:
    return _float(row, "stability") < FRAGILE_BELOW


def region(row: Mapping) -> str:
    """The pass region of a row in numbers, e.g. ``[0.0012, 0.0071]`` or ``>= 0.024``."""
    target, margin = _float(row, "target"), _float(row, "margin")
    comparison = row["comparison"]
    if comparison == "equivalence":
        return f"[{format_cell(target - margin, 3)}, {format_cell(target + margin, 3)}]"
    if comparison == "at_most":
        return f"<= {format_cell(target + margin, 3)}"
    if comparison == "at_least":
        return f">= {format_cell(target + margin, 3)}"
    if comparison == "below":
        return f"<= {format_cell(target - margin, 3)}"
    raise ValueError(f"row {row['row_id']}: unknown comparison {comparison!r}")


def interval(row: Mapping) -> str:
    low, high = _float(row, "interval_low"), _float(row, "interval_high")
    return f"[{format_cell(low, 3)}, {format_cell(high, 3)}]"


def stability_text(row: Mapping) -> str:
    """``0.97``, or ``0.62, fragile: inconclusive at these sizes (31 %)``."""
    text = f"{_float(row, 'stability'):.2f}"
    if is_fragile(row):
        text += f", fragile: {row['alternative'] or 'no single alternative'}"
    return text


def verdict_label(row: Mapping) -> str:
    """A panel label: row id, verdict and, if fragile, the alternative."""
    text = f"{row['row_id']}: {row['verdict']}"
    return text + (f" (fragile, {_float(row, 'stability'):.0%})" if is_fragile(row) else "")


VERDICT_TABLE_HEADER = (
    "row",
    "kind",
    "value",
    "95 % interval",
    "pass region",
    "verdict",
    "stability",
    "detectable",
)


def verdict_table(rows: Sequence[Mapping]) -> tuple[tuple, list[list]]:
    """(header, rows) of the verdicts a figure's caption lists."""
    return VERDICT_TABLE_HEADER, [
        [
            row["row_id"],
            row["kind"],
            _float(row, "value"),
            interval(row),
            region(row),
            row["verdict"],
            stability_text(row),
            _float(row, "detectable"),
        ]
        for row in rows
    ]


def rows_of(rows: Sequence[Mapping], prefix: str) -> list[Mapping]:
    """The judged rows whose id starts with ``prefix`` (a claim id, or a row id); a claims
    table without any (truncated, or not a claims table) raises ValueError."""
    found = [row for row in rows if row.get("row_id", "").startswith(prefix)]
    if not found:
        raise ValueError(
            f"the claims table has no row {prefix!r} (of {len(rows)} rows): it is not this "
            "workflow's claims table or it was cut short; rerun its claims_judge rule"
        )
    return found


def paper_markdown(paper: str, rows: Sequence[Mapping]) -> str:
    """A paper's ``claims.md``: the verdict table, then each row's quantity, test and note."""
    parts = [
        f"# Paper {paper}: claims and verdicts\n",
        "Each row is a test declared in `attnspec/registry.py` before the data and judged by "
        "`attnspec/verdicts.py`: *holds* when the 95 % interval lies inside the pass region; "
        "*holds with a finite-size caveat* when the value lies outside but OLS and Theil-Sen "
        "trends over the sizes both go towards it; *does not reproduce* when the interval lies "
        "outside; otherwise *inconclusive at these sizes*. Stability: the share of 1000 "
        "bootstrap resamples of the draws that give the same verdict (fragile below "
        f"{FRAGILE_BELOW:g}). Detectable: the smallest deviation from the target the test reports "
        "as not reproducing (or the smallest separation it confirms) with 80 % probability at "
        "these draws.\n",
        to_markdown(*verdict_table(rows)),
    ]
    for row in rows:
        parts.append(
            f"\n## {row['row_id']}{KIND_NOTE[row['kind']]}\n\n"
            f"- claim: {CLAIMS[row['claim_id']]}\n"
            f"- measured: {row['quantity']} ({row['draws']} draws)\n"
            f"- value {format_cell(_float(row, 'value'), 4)}, 95 % interval {interval(row)}, "
            f"pass region {region(row)} ({REGION_TEXT[row['comparison']]}), verdict "
            f"**{row['verdict']}**, stability {stability_text(row)}, detectable "
            f"{format_cell(_float(row, 'detectable'), 3)}\n"
            + (f"- trend: {row['trend']}\n" if row["trend"] else "")
            + f"- test: {row['test']}\n"
            + (f"- note: {row['note']}\n" if row["note"] else "")
        )
    return "\n".join(parts)


def dashboard_rows(rows_by_paper: Mapping[str, Sequence[Mapping]]) -> list[dict]:
    """Every judged row of the papers, in paper order, with its paper and fragility."""
    if sorted(rows_by_paper) != sorted(PAPERS):
        raise ValueError(f"claims of papers {sorted(PAPERS)} needed, got {sorted(rows_by_paper)}")
    return [
        {**row, "paper": paper, "fragile": is_fragile(row)}
        for paper in PAPERS
        for row in rows_by_paper[paper]
    ]


def _count(rows: Sequence[Mapping]) -> str:
    counts = {v: sum(row["verdict"] == v for row in rows) for v in VERDICTS}
    return ", ".join(f"{n} {v}" for v, n in counts.items() if n)


def is_table(item: str) -> bool:
    """Whether an output id names a table (``A-T1-edges``), not a figure (``A1-stepwise``)."""
    return item[1:3] == "-T"


def link(item: str, paper: str, figures_dir: str = "") -> str:
    """A Markdown link to a figure's PNG or a table's Markdown file."""
    extension = "md" if is_table(item) else "png"
    return f"[{item}]({figures_dir}paper{paper}/{item}.{extension})"


def known_cause(row: Mapping) -> str:
    """What is known to keep a row from holding: its own cause (a scope row), else its claim's
    finite-size mechanism (attnspec.claims)."""
    return ROW_CAUSES.get(row["row_id"], FINITE_SIZE_MECHANISMS[row["claim_id"]])


def summary_markdown(rows: Sequence[Mapping], figures_dir: str = "") -> str:
    """One line per row: row, kind, figure (linked relative to ``figures_dir``), value with its
    95 % interval, pass region, verdict, stability, detectable, and for a row that does not hold
    its known cause (:func:`known_cause`)."""
    header = (
        "row",
        "kind",
        "figure",
        "value [95 % interval]",
        "pass region",
        "verdict",
        "stability",
        "detectable",
        "known cause (finite size, or scope)",
    )
    table = [
        [
            row["row_id"],
            row["kind"],
            link(row["figure"], row["paper"], figures_dir),
            f"{format_cell(_float(row, 'value'), 3)} {interval(row)}",
            region(row),
            row["verdict"],
            stability_text(row),
            _float(row, "detectable"),
            "" if row["verdict"] == "holds" else known_cause(row),
        ]
        for row in rows
    ]
    return to_markdown(header, table, digits=3).lstrip("\n")


def dashboard_markdown(rows: Sequence[Mapping]) -> str:
    """``figures/claims.md``: counts, then per paper the claims and their rows."""
    evidence = [row for row in rows if row["kind"] == "empirical"]
    parts = [
        f"# Claims of papers {', '.join(sorted({r['paper'] for r in rows}))}: verdicts\n",
        f"{len(rows)} rows over {len({r['claim_id'] for r in rows})} claims. Empirical rows "
        f"(evidence): {_count(evidence)}. Identity and bound rows (shown, not evidence): "
        f"{_count([r for r in rows if r['kind'] != 'empirical'])}. "
        f"{sum(is_fragile(r) for r in rows)} verdicts are fragile (stability below "
        f"{FRAGILE_BELOW:g}). Tests: `attnspec/registry.py`; full notes: "
        "`figures/paper<X>/claims.md`.\n",
    ]
    for paper, title in PAPERS.items():
        own = [row for row in rows if row["paper"] == paper]
        claims = "\n".join(
            f"- **{claim}** {CLAIMS[claim]} ({', '.join(link(i, paper) for i in EVIDENCE[claim])})"
            for claim in dict.fromkeys(r["claim_id"] for r in own)
        )
        parts.append(f"## Paper {paper}: {title}\n\n{claims}\n\n" + summary_markdown(own))
    return "\n".join(parts)


def replicates_rows(by_replicate: Mapping[int, Sequence[Mapping]]) -> tuple[tuple, list[list]]:
    """(header, rows): each row's verdict (and stability) per replicate, replicate 0 first,
    and whether all replicates agree."""
    replicates = sorted(by_replicate)
    ids = [row["row_id"] for row in by_replicate[replicates[0]]]
    for replicate in replicates:
        if [row["row_id"] for row in by_replicate[replicate]] != ids:
            raise ValueError(f"replicate {replicate} judges other rows than replicate 0")
    header = ("row_id", "kind", *(f"replicate {r}" for r in replicates), "agree")
    table = []
    for i, row_id in enumerate(ids):
        cells = [by_replicate[r][i] for r in replicates]
        verdicts = [cell["verdict"] for cell in cells]
        table.append(
            [
                row_id,
                by_replicate[replicates[0]][i]["kind"],
                *(f"{r_row['verdict']} ({_float(r_row, 'stability'):.2f})" for r_row in cells),
                "yes" if len(set(verdicts)) == 1 else "no",
            ]
        )
    return header, table


def replicates_markdown(header: Sequence[str], table: Sequence[Sequence]) -> str:
    agree = sum(row[-1] == "yes" for row in table)
    return (
        "# Verdicts under independent replicates\n\n"
        "Every judged simulation rerun with re-keyed random streams (config key `replicate`; "
        "`snakemake --cores all replicates`), judged by the same registry. Each cell: verdict "
        f"(stability under resampling). {agree} of {len(table)} rows give the same verdict in "
        "every replicate.\n" + to_markdown(header, table)
    )
