"""The claims dashboard and the tables built from judged registry rows.

Input rows are those of ``{results}/paper<X>/claims.csv``
(:data:`attnspec.claims.rows.ROW_HEADER`, values as text). Outputs: a paper's ``claims.md``,
the dashboard ``figures/claims.{csv,md}`` (every row of papers A-D; a verdict with stability below
0.9 is marked fragile, with the verdict its resamples give instead), the replicates comparison
``figures/claims-replicates.md``, and the short labels and caption tables the figures use.

Fragile is not holds: a pass (holds, or holds with a finite-size caveat) whose stability is below
0.9, or that another replicate does not give, is a *fragile pass*, shown as such in every table
and count, and never counted among the holds (:func:`headline_verdict`).
"""

import re
from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.claims.catalogue import (
    BEYOND_PAPER_MECHANISMS,
    CLAIMS,
    EVIDENCE,
    FINITE_SIZE_MECHANISMS,
    ROW_CAUSES,
)
from attnspec.claims.declared import DeclaredTest
from attnspec.claims.rows import REGION_TEXT, ROW_HEADER
from attnspec.claims.rule import FINITE_SIZE_RULE_TEXT, RULE_TEXT
from attnspec.claims.stability import FRAGILE_BELOW
from attnspec.claims.verdict import ORDER, Verdict
from attnspec.tables import Residual, format_cell, to_markdown

PAPERS = {
    "A": "Gaussian equivalence (Hayase, Collins, Karakida)",
    "B": "Bulk-edge sticking (Jerschow)",
    "C": "Spectral degeneration (isotropic score geometry)",
    "D": "Multi-head attention (Hayase, Karakida)",
}
DASHBOARD_HEADER = (
    "paper",
    *ROW_HEADER,
    "fragile",
    "replicate_verdicts",
    "headline",
    "paper_scale",
    "scales_note",
)
PASSES = tuple(verdict for verdict in ORDER if verdict.passes)
FRAGILE_PASS = "fragile pass"
KIND_NOTE = {
    "empirical": "",
    "model": " (model: a closed-form model evaluated, not evidence)",
    "identity": " (identity: two exact computations, not evidence)",
    "bound": " (bound: holds by construction, not evidence)",
}


def _float(row: Mapping, key: str) -> float:
    return float(row[key])


def _statistic(row: Mapping, key: str) -> float:
    """A row's value or interval end; an identity row's is a relative residual of two exact
    computations, printed as its rounding bound when at rounding level (``< 1e-13``)."""
    value = _float(row, key)
    return Residual(value) if row["kind"] == "identity" else value


def is_fragile(row: Mapping) -> bool:
    return _float(row, "stability") < FRAGILE_BELOW


BEYOND = "beyond the paper"


def is_beyond(row: Mapping) -> bool:
    """Whether the row tests a stronger statement of ours than its paper makes (its
    ``beyond_paper``): its verdict is never the paper's claim failing or holding."""
    text = str(row.get("beyond_paper", "") or "").strip()
    return bool(text) and text != "nan"


def kind_text(row: Mapping) -> str:
    """``empirical``, or ``empirical, beyond the paper``."""
    return f"{row['kind']}, {BEYOND}" if is_beyond(row) else row["kind"]


def replicate_verdicts(row: Mapping) -> list[str]:
    """The row's verdicts in the other replicates (``replicate_verdicts``, "; "-joined; none
    when the replicates were not run)."""
    text = row.get("replicate_verdicts", "") or ""
    return [v for v in str(text).split("; ") if v and v != "nan"]


def headline_verdict(row: Mapping) -> str:
    """The verdict as every headline count and summary table reads it: a pass whose stability
    is below FRAGILE_BELOW or that some other replicate does not give reads ``fragile pass:
    <verdict>``, never holds."""
    verdict = row["verdict"]
    if verdict in PASSES and is_unstable(row):
        return f"{FRAGILE_PASS}: {verdict}"
    return verdict


def is_unstable(row: Mapping) -> bool:
    """Whether the row's verdict is not stable: its stability is below FRAGILE_BELOW, or another
    replicate gives another verdict."""
    return is_fragile(row) or any(v != row["verdict"] for v in replicate_verdicts(row))


def headline_class(row: Mapping) -> str:
    """The headline verdict without its detail: ``fragile pass`` for every fragile pass."""
    verdict = headline_verdict(row)
    return FRAGILE_PASS if verdict.startswith(FRAGILE_PASS) else verdict


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
    low, high = _statistic(row, "interval_low"), _statistic(row, "interval_high")
    return f"[{format_cell(low, 3)}, {format_cell(high, 3)}]"


def stability_text(row: Mapping) -> str:
    """``0.97``, or ``0.62, fragile: inconclusive at these sizes in 31% of resamples`` (the
    verdict the other resamples give, and their share)."""
    text = f"{_float(row, 'stability'):.2f}"
    if is_fragile(row):
        other = ALTERNATIVE_SHARE.sub(r" in \1 of resamples", str(row["alternative"] or ""))
        text += f", fragile: {other or 'no single alternative'}"
    return text


ALTERNATIVE_SHARE = re.compile(r" \((\d+ ?%)\)$")
"""The engine's ``alternative``: the other verdict and, in parentheses, the share of resamples
giving it."""


def verdict_label(row: Mapping, at_scale: Mapping | None = None) -> str:
    """A label: row id and headline verdict (``fragile pass: holds`` for a fragile pass), with the
    stability when it is below FRAGILE_BELOW; ``at_scale``: the row as the paper preset judged
    it, whose verdict follows, each with its design (``... (default preset: sizes 1024 ... 8192,
    10 draws); at the papers' sizes (sizes 1024 ... 32768, 10 draws): holds``)."""
    text = f"{row['row_id']}: {headline_verdict(row)}"
    text += f" (stability {_float(row, 'stability'):.0%})" if is_fragile(row) else ""
    if at_scale is not None:
        text += (
            f" (default preset: {design_text(row)}); at the papers' sizes "
            f"({design_text(at_scale)}): {headline_verdict(at_scale)}"
        )
    return text


def power_text(row: Mapping) -> str:
    """The smallest target shifts (in margins) that read does not reproduce, up / down: ``1.4 /
    2.1``; ``-`` for a side a one-sided row cannot fail on, ``n/a`` for a zero margin."""
    parts = []
    for key in ("power_up", "power_down"):
        value = _float(row, key)
        parts.append("n/a" if np.isnan(value) else "-" if np.isinf(value) else f"{value:.2g}")
    return " / ".join(parts)


def no_power(row: Mapping) -> bool:
    """Whether no shift of the target in either direction reads does not reproduce."""
    return all(np.isinf(_float(row, key)) for key in ("power_up", "power_down"))


def standing_alternatives(row: Mapping) -> list[str]:
    """The names of the row's declared wrong theories that its data do not rule out (from its
    ``alternatives`` text, ``name: verdict, value ...; ...``)."""
    standing = []
    for part in str(row.get("alternatives", "") or "").split("; "):
        name, _, rest = part.partition(": ")
        if rest and not rest.startswith(f"{Verdict.DOES_NOT_REPRODUCE},"):
            standing.append(name)
    return standing


def ruled_out_text(row: Mapping) -> str:
    """``3 of 3``, or ``2 of 3, not: x+ +1%`` (every wrong theory left standing, whether it
    made the row inconclusive or the row fails on its own); ``-`` for a row without
    alternatives."""
    if not row["ruled_out"]:
        return "-"
    standing = standing_alternatives(row)
    return row["ruled_out"] + (f", not: {', '.join(standing)}" if standing else "")


def limit_text(row: Mapping) -> str:
    """The finite-size model's limit with its interval, or ``-`` for a row without one."""
    value = _float(row, "limit")
    if np.isnan(value):
        return "-"
    low, high = _float(row, "limit_low"), _float(row, "limit_high")
    return f"{format_cell(value, 3)} [{format_cell(low, 3)}, {format_cell(high, 3)}]"


VERDICT_TABLE_HEADER = (
    "row",
    "kind",
    "value",
    "95 % interval",
    "pass region",
    "verdict",
    "stability",
    "alternatives ruled out",
    "power (margins up / down)",
)


def verdict_table(
    rows: Sequence[Mapping], at_scale: Mapping[str, Mapping] | None = None
) -> tuple[tuple, list[list]]:
    """(header, rows) of the verdicts a figure's caption lists; ``at_scale``: the paper preset's
    rows by row id, whose verdicts (:func:`scale_text`) make one more column when given."""
    if at_scale:
        header = (*VERDICT_TABLE_HEADER, "at the papers' sizes")
        _, table = verdict_table(rows)
        return header, [
            [*line, scale_text(at_scale[row["row_id"]]) if row["row_id"] in at_scale else "-"]
            for line, row in zip(table, rows, strict=True)
        ]
    return VERDICT_TABLE_HEADER, [
        [
            row["row_id"],
            kind_text(row),
            _statistic(row, "value"),
            interval(row),
            region(row),
            headline_verdict(row),
            stability_text(row),
            ruled_out_text(row),
            power_text(row),
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


ENGINE_TEXT = (
    "Each row is a test declared in `attnspec/papers/<paper>/declared_tests.py` (every change "
    "made after its results were seen is listed below with its commit and date) and judged by "
    "`attnspec/claims/engine.py` against a pass region (a margin fixed in the claim's own "
    f"units): without a finite-size model, {RULE_TEXT}; with the row's declared model g + a "
    f"ell^(-p) (the claim is about the limit), {FINITE_SIZE_RULE_TEXT}. "
    "Power rule: the same data are judged against each "
    "wrong theory the row declares; a row holds only if every one reads *does not reproduce* "
    "(ruled out), else it is inconclusive with no power against those left. Stability: the share "
    "of 1000 bootstrap resamples of the draws that give the same final verdict (fragile below "
    f"{FRAGILE_BELOW:g}). Power: the smallest shift of the target, in margins, up / down, that "
    "the engine calls *does not reproduce* on the same data (- : a one-sided row cannot fail on "
    "that side; 0 / 0: the row already reads *does not reproduce* at its own target). Kinds: "
    "only *empirical* rows are evidence; *model* rows evaluate a closed-form "
    "model, *identity* rows compare two exact computations, *bound* rows hold by construction."
)


def _alternatives_lines(row: Mapping, test: DeclaredTest | None) -> str:
    if test is None or not test.alternatives:
        return ""
    found = dict(part.split(": ", 1) for part in row["alternatives"].split("; ") if ": " in part)
    lines = [
        f"  - {a.name}: {a.theory} ({a.reason}): {found.get(a.name, 'not judged')}"
        for a in test.alternatives
    ]
    return "- alternatives (wrong theories the row must rule out):\n" + "\n".join(lines) + "\n"


def paper_markdown(paper: str, rows: Sequence[Mapping], tests: Mapping[str, DeclaredTest]) -> str:
    """A paper's ``claims.md``: the verdict table, then each row's quantity, test, limit,
    alternatives, scope, changes after results and note; ``tests`` are the declared tests by
    row id (:data:`attnspec.papers.registry.TESTS`), for each row's alternatives and scope."""
    parts = [
        f"# Paper {paper}: claims and verdicts\n",
        ENGINE_TEXT + "\n",
        to_markdown(*verdict_table(rows)),
    ]
    for row in rows:
        test = tests.get(row["row_id"])
        changes = row["changed_after_results"]
        parts.append(
            f"\n## {row['row_id']}{KIND_NOTE[row['kind']]}\n\n"
            f"- claim: {CLAIMS[row['claim_id']]}\n"
            f"- judged on: {row['subject']}\n"
            f"- measured: {row['quantity']} ({row['draws']} draws)\n"
            f"- value {format_cell(_statistic(row, 'value'), 4)}, 95 % interval {interval(row)}, "
            f"pass region {region(row)} ({REGION_TEXT[row['comparison']]}), verdict "
            f"**{row['verdict']}** (against the claim's theory alone: {row['claim_verdict']}), "
            f"stability {stability_text(row)}, power {power_text(row)} margins\n"
            + (
                f"- finite-size model: limit {limit_text(row)} against "
                f"{format_cell(_float(row, 'limit_target'), 4)} +- "
                f"{format_cell(_float(row, 'margin'), 3)}\n"
                if limit_text(row) != "-"
                else ""
            )
            + _alternatives_lines(row, test)
            + (f"- scope: {test.scope}\n" if test is not None and test.scope else "")
            + (f"- beyond the paper: {row['beyond_paper']}\n" if is_beyond(row) else "")
            + (
                f"- at other resolutions of its wrong theories: {row['other_resolutions']}\n"
                if str(row.get("other_resolutions", "") or "") not in ("", "nan")
                else ""
            )
            + f"- test: {row['test']}\n"
            + (
                "- test changed after results were seen: " + "; ".join(changes.split(" | ")) + "\n"
                if changes
                else ""
            )
            + (f"- note: {row['note']}\n" if row["note"] else "")
        )
    return "\n".join(parts)


def dashboard_rows(
    rows_by_paper: Mapping[str, Sequence[Mapping]],
    replicates: Sequence[Mapping] | None = None,
    paper_scale: Sequence[Mapping] | None = None,
) -> list[dict]:
    """Every judged row of the papers, in paper order, with its paper, fragility, its verdicts
    in the other replicates (``replicates``: the rows of figures/claims-replicates.csv, when
    they were run), its :func:`headline_verdict`, and its verdict at the papers' sizes
    (``paper_scale``: the rows of the paper preset's dashboard, when it was run) with a note
    where the two scales disagree (:func:`scales_note`)."""
    if sorted(rows_by_paper) != sorted(PAPERS):
        raise ValueError(f"claims of papers {sorted(PAPERS)} needed, got {sorted(rows_by_paper)}")
    current = {row["row_id"]: row["verdict"] for paper in PAPERS for row in rows_by_paper[paper]}
    if replicates is not None and not replicates_match(replicates, current):
        replicates = None  # made by other code or tests: not evidence about these verdicts
    others = {row["row_id"]: _other_replicates(row) for row in replicates or ()}
    large = {row["row_id"]: row for row in paper_scale or ()}
    rows = []
    for paper in PAPERS:
        for row in rows_by_paper[paper]:
            found = {**row, "paper": paper, "fragile": is_fragile(row)}
            found["replicate_verdicts"] = "; ".join(others.get(row["row_id"], ()))
            found["headline"] = headline_verdict(found)
            at_scale = large.get(row["row_id"])
            found["paper_scale"] = "" if at_scale is None else scale_text(at_scale)
            found["scales_note"] = "" if at_scale is None else scales_note(found, at_scale)
            rows.append(found)
    return rows


def design_text(row: Mapping) -> str:
    """The sizes and draws a row was judged at: ``ell 1024 ... 8192, 10 draws`` (from its
    finite-size sizes), else ``10 draws``."""
    sizes = [s for s in str(row.get("sizes", "") or "").split(", ") if s and s != "nan"]
    draws = f"{row['draws']} draws"
    return f"sizes {sizes[0]} ... {sizes[-1]}, {draws}" if sizes else draws


def scale_text(row: Mapping) -> str:
    """A row of the paper preset in one cell: its headline verdict, value and interval, the
    sizes and draws it was judged at."""
    value = format_cell(_statistic(row, "value"), 3)
    return f"{headline_verdict(row)}: {value} {interval(row)} ({design_text(row)})"


def scales_note(row: Mapping, at_scale: Mapping) -> str:
    """Why the default and paper presets' verdicts differ, from their numbers: the judged
    interval's and the limit's width at each scale and where each lies against the region, a
    finite-size fit rejected at either scale, the stabilities when either is fragile; empty when
    they agree."""
    if headline_verdict(row) == headline_verdict(at_scale):
        return ""

    def width(r, low, high):
        return _float(r, high) - _float(r, low)

    parts = [
        f"default ({design_text(row)}): {headline_verdict(row)}; papers' sizes "
        f"({design_text(at_scale)}): {headline_verdict(at_scale)}"
    ]
    small, large = (
        width(row, "interval_low", "interval_high"),
        width(at_scale, "interval_low", "interval_high"),
    )
    if np.isfinite(small) and np.isfinite(large) and large > 0 and abs(small / large - 1) > 0.05:
        parts.append(f"the judged interval is {small / large:.2g}x narrower at the papers' sizes")
    if limit_text(row) != "-" and limit_text(at_scale) != "-":
        parts.append(f"limit {limit_text(row)} -> {limit_text(at_scale)}")
    for name, judged in (("default sizes", row), ("papers' sizes", at_scale)):
        fit = str(judged.get("limit_fit", "") or "")
        if "rejected" in fit:
            parts.append(f"the finite-size model does not fit at the {name} ({fit})")
    stabilities = [_float(r, "stability") for r in (row, at_scale)]
    if any(value < FRAGILE_BELOW for value in stabilities):
        parts.append(f"stability {stabilities[0]:.2f} -> {stabilities[1]:.2f}")
    others = [v for v in replicate_verdicts(row) if v != row["verdict"]]
    if others and not is_fragile(row):
        parts.append(
            f"the default verdict is fragile because another replicate reads {others[0]}; the "
            "paper preset ran one replicate"
        )
    return "; ".join(parts)


def replicates_match(replicates: Sequence[Mapping], verdicts: Mapping[str, str]) -> bool:
    """Whether a replicates table (figures/claims-replicates.csv) was made from these verdicts:
    the same rows, and replicate 0's verdict of each is the verdict judged now (a table made by
    other code or other tests is stale and says nothing about these verdicts)."""
    found = {
        row["row_id"]: str(row.get("replicate 0", "")).rsplit(" (", 1)[0] for row in replicates
    }
    return found == dict(verdicts)


def _other_replicates(row: Mapping) -> list[str]:
    """A row of the replicates table: the verdicts of replicates 1, 2, ... ("holds (0.97)"
    -> "holds")."""
    columns = sorted(k for k in row if k.startswith("replicate ") and k != "replicate 0")
    return [str(row[k]).rsplit(" (", 1)[0] for k in columns]


HEADLINES = (*PASSES, *(f"{FRAGILE_PASS}: {v}" for v in PASSES), *ORDER[len(PASSES) :])


def _count(rows: Sequence[Mapping]) -> str:
    """Counts of the headline verdicts (a fragile pass never among the holds)."""
    counts = {v: sum(headline_verdict(row) == v for row in rows) for v in HEADLINES}
    return ", ".join(f"{n} {v}" for v, n in counts.items() if n)


def claim_counts(rows: Sequence[Mapping]) -> str:
    """A claim's rows in one line: ``Rows: 2 holds, 1 inconclusive at these sizes (evidence);
    1 holds (not evidence); 1 does not reproduce (beyond the paper).`` No verdict for the claim
    itself: its rows test different statements and no rule combines them."""
    beyond = [row for row in rows if is_beyond(row)]
    other = [row for row in rows if row["kind"] != "empirical" and not is_beyond(row)]
    groups = ((evidence_rows(rows), "evidence"), (other, "not evidence"), (beyond, BEYOND))
    return "Rows: " + "; ".join(f"{_count(g)} ({name})" for g, name in groups if g) + "."


def is_table(item: str) -> bool:
    """Whether an output id names a table (``A-T1-edges``), not a figure (``A1-stepwise``)."""
    return item[1:3] == "-T"


def link(item: str, paper: str, figures_dir: str = "") -> str:
    """A Markdown link to a figure's PNG or a table's Markdown file."""
    extension = "md" if is_table(item) else "png"
    return f"[{item}]({figures_dir}paper{paper}/{item}.{extension})"


def resolution_note(row: Mapping) -> str:
    """The verdicts under other declared resolutions that differ from the row's
    (``at beta +-3 %: holds``), or empty."""
    text = str(row.get("other_resolutions", "") or "")
    differing = [
        part
        for part in text.split("; ")
        if part and part != "nan" and part.split(": ", 1)[1] != row["verdict"]
    ]
    return "; ".join(f"at {part}" for part in differing)


def known_cause(row: Mapping) -> str:
    """Why a row does not hold: the alternatives it has no power against, then its own cause (a
    scope row), what keeps a row beyond the paper from holding, or its claim's finite-size
    mechanism (attnspec.claims.catalogue)."""
    cause = FINITE_SIZE_MECHANISMS[row["claim_id"]]
    if is_beyond(row) and row["claim_id"] in BEYOND_PAPER_MECHANISMS:
        cause = BEYOND_PAPER_MECHANISMS[row["claim_id"]]
    cause = ROW_CAUSES.get(row["row_id"], cause)
    if row["no_power_against"]:
        return f"no power against {row['no_power_against']}; {cause}"
    return cause


def summary_markdown(rows: Sequence[Mapping], figures_dir: str = "") -> str:
    """One line per row: row, kind, figure (linked relative to ``figures_dir``), value with its
    95 % interval, pass region, the finite-size limit, verdict, stability, alternatives ruled
    out, power, whether the test changed after results, and for a row that does not hold its
    known cause (:func:`known_cause`); when the paper preset has been judged, its verdict
    beside the default's (:func:`scale_text`), and where they differ, why (:func:`scales_note`)."""
    scales = any(str(row.get("paper_scale", "") or "") not in ("", "nan") for row in rows)
    header = (
        "row",
        "kind",
        "figure",
        "value [95 % interval]",
        "pass region",
        "limit [95 %]",
        "verdict",
        *(("at the papers' sizes",) if scales else ()),
        "stability",
        "ruled out",
        "power (up / down)",
        "test changed",
        "known cause (power, finite size, or scope)",
    )
    table = [
        [
            row["row_id"],
            kind_text(row),
            link(row["figure"], row["paper"], figures_dir),
            f"{format_cell(_statistic(row, 'value'), 3)} {interval(row)}",
            region(row),
            limit_text(row),
            f"{headline_verdict(row)} ({design_text(row)})" if scales else headline_verdict(row),
            *((str(row.get("paper_scale", "") or "-"),) if scales else ()),
            stability_text(row),
            ruled_out_text(row),
            power_text(row),
            "yes" if row["changed_after_results"] else "",
            "; ".join(
                part
                for part in (
                    "" if headline_verdict(row) == "holds" else known_cause(row),
                    resolution_note(row),
                    str(row.get("scales_note", "") or ""),
                )
                if part and part != "nan"
            ),
        ]
        for row in rows
    ]
    return to_markdown(header, table, digits=3).lstrip("\n")


def changes_markdown(rows: Sequence[Mapping]) -> str:
    """Every test changed after its results were seen, per row, with what changed and why."""
    lines = [
        f"- **{row['row_id']}**: " + "; ".join(row["changed_after_results"].split(" | "))
        for row in rows
        if row["changed_after_results"]
    ]
    return "\n".join(lines) + "\n"


def evidence_rows(rows: Sequence[Mapping]) -> list[Mapping]:
    """The rows that are evidence for the papers' claims: empirical, not beyond the paper."""
    return [row for row in rows if row["kind"] == "empirical" and not is_beyond(row)]


def counts_text(rows: Sequence[Mapping]) -> str:
    """The headline counts: rows and claims, the evidence rows' verdicts, the rows shown but not
    evidence, the rows beyond the papers (a fragile pass never counted among the holds)."""
    beyond = [row for row in rows if is_beyond(row)]
    evidence = evidence_rows(rows)
    other = [row for row in rows if row["kind"] != "empirical" and not is_beyond(row)]
    return (
        f"{len(rows)} rows over {len({r['claim_id'] for r in rows})} claims. Evidence (the "
        f"{len(evidence)} empirical rows, which can fail on data): {_count(evidence)}. Shown, "
        f"not evidence ({len(other)} model, identity and bound rows): {_count(other)}. "
        + (
            f"Beyond the papers ({len(beyond)} rows testing a stronger statement of ours than "
            f"the paper makes; their verdicts are not the papers' claims failing or holding): "
            f"{_count(beyond)}. "
            if beyond
            else ""
        )
    )


def scale_verdict(row: Mapping) -> str:
    """The paper preset's headline verdict from a dashboard row's ``paper_scale`` cell (empty
    when the paper preset was not run)."""
    text = str(row.get("paper_scale", "") or "")
    heads = sorted({f"{FRAGILE_PASS}: {v}" for v in PASSES} | set(ORDER), key=len, reverse=True)
    return next((head for head in heads if text.startswith(f"{head}:")), "")


def scales_text(rows: Sequence[Mapping]) -> str:
    """The paper preset's evidence counts and how many rows read otherwise there, or empty."""
    evidence = [row for row in evidence_rows(rows) if scale_verdict(row)]
    if not evidence:
        return ""
    counts = Counter(scale_verdict(row) for row in evidence)
    listed = ", ".join(f"{n} {verdict}" for verdict, n in counts.most_common())
    moved = sum(scale_verdict(r) not in ("", headline_verdict(r)) for r in rows)
    return (
        f"At the papers' sizes (the paper preset, `figures/paper-scale/`, one replicate; the "
        f"column 'at the papers' sizes' gives its verdict, value and design; every other "
        f"column is the default preset's): evidence {listed}; {moved} of {len(rows)} rows read "
        "otherwise than at the default sizes, and their known-cause column says why. "
    )


def outcome_markdown(rows: Sequence[Mapping]) -> str:
    """The dashboard in a paragraph, for the README: the headline counts, how many rows' tests
    were changed after some of their results were seen, and each claim whose evidence rows do
    not all pass, with their verdicts."""
    changed = [r for r in rows if str(r.get("changed_after_results", "") or "") not in ("", "nan")]
    open_claims, unjudged = [], []
    for claim in dict.fromkeys(r["claim_id"] for r in rows):
        evidence = evidence_rows([r for r in rows if r["claim_id"] == claim])
        if not evidence:
            unjudged.append(claim)
        elif any(headline_verdict(r) not in PASSES for r in evidence):
            open_claims.append(f"{claim} ({_count(evidence)})")
    return (
        f"**What the dashboard says.** {counts_text(rows)}{scales_text(rows)}\n\n"
        f"{len(changed)} of the {len(rows)} rows' tests were changed after some of their results "
        "had been seen: `figures/claims.md` lists each change with its commit, date and reason, "
        "and the 'test changed' column below names it. Claims whose evidence rows do not "
        f"all pass at these sizes: {'; '.join(open_claims) or 'none'}. Claims with no evidence "
        "row (only models, identities, bounds or rows beyond the paper, which are not evidence "
        f"for it): {', '.join(unjudged) or 'none'}.\n"
    )


def dashboard_markdown(rows: Sequence[Mapping]) -> str:
    """``figures/claims.md``: counts of the evidence rows, then per paper the claims and their
    rows, then the tests changed after their results were seen."""
    weak = [row["row_id"] for row in evidence_rows(rows) if no_power(row)]
    parts = [
        f"# Claims of papers {', '.join(sorted({r['paper'] for r in rows}))}: verdicts\n",
        counts_text(rows)
        + scales_text(rows)
        + f"{sum(is_fragile(r) for r in rows)} verdicts are fragile (stability below "
        f"{FRAGILE_BELOW:g}); a fragile pass (that, or a pass another replicate does not give"
        + (
            ", replicates as in `figures/claims-replicates.md`"
            if any(replicate_verdicts(r) for r in rows)
            else ", replicates not run for these verdicts"
        )
        + ") is never counted among the holds. "
        + (
            f"Rows with no finite power in either direction: {', '.join(weak)}. "
            if weak
            else "Every empirical row reads does not reproduce for some shift of its target. "
        )
        + "Tests: `attnspec/papers/<paper>/declared_tests.py`; full notes: "
        "`figures/paper<X>/claims.md`.\n",
        ENGINE_TEXT + "\n",
    ]
    for paper, title in PAPERS.items():
        own = [row for row in rows if row["paper"] == paper]
        claims = "\n".join(
            f"- **{claim}** {CLAIMS[claim]} ({', '.join(link(i, paper) for i in EVIDENCE[claim])})"
            f" {claim_counts([r for r in own if r['claim_id'] == claim])}"
            for claim in dict.fromkeys(r["claim_id"] for r in own)
        )
        parts.append(f"## Paper {paper}: {title}\n\n{claims}\n\n" + summary_markdown(own))
    parts.append(
        "## Tests changed after their results were seen\n\n"
        "Each declared test below was changed after some of its results had been seen; what "
        "changed, when (commit and date) and why:\n\n" + changes_markdown(rows)
    )
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


REPLICATE_KEYS = ("value", "interval_low", "interval_high", "target", "margin")
"""What the replicates table keeps of each replicate's row besides its verdict (column
"<key> <r>"), so that the claims forest can draw every replicate's interval."""


def replicates_numbers(by_replicate: Mapping[int, Sequence[Mapping]]) -> tuple[tuple, list[list]]:
    """(header, rows): each row's statistic, 95 % interval, target and margin per replicate
    (:data:`REPLICATE_KEYS`), in the rows' order of :func:`replicates_rows`."""
    replicates = sorted(by_replicate)
    header = tuple(f"{key} {r}" for r in replicates for key in REPLICATE_KEYS)
    count = len(by_replicate[replicates[0]])
    return header, [
        [by_replicate[r][i].get(key, "") for r in replicates for key in REPLICATE_KEYS]
        for i in range(count)
    ]


def replicates_markdown(header: Sequence[str], table: Sequence[Sequence]) -> str:
    agree = sum(row[-1] == "yes" for row in table)
    return (
        "# Verdicts under independent replicates\n\n"
        "Every judged simulation rerun with re-keyed random streams (config key `replicate`; "
        "`snakemake --cores all replicates`), judged by the same registry. Each cell: verdict "
        f"(stability under resampling). {agree} of {len(table)} rows give the same verdict in "
        "every replicate.\n" + to_markdown(header, table)
    )
