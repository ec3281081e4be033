"""The generated blocks of the README and the docs, from the files the workflow and the tools
write.

    python tools/readme_blocks.py          # rewrite the blocks in README.md and docs/
    python tools/readme_blocks.py --check  # exit 1 if a block differs (what the test checks)

Each block sits between ``<!-- <name>:start -->`` and ``<!-- <name>:end -->``: in the README the
claims dashboard (figures/claims.csv), the replicates comparison (figures/claims-replicates.csv),
the run time of the default preset (docs/runtime.json, by tools/measure_run.py) and the paper
preset's largest job (docs/largest-job.json, by tools/measure_largest_job.py); in
docs/benchmark.md the benchmark's results (docs/benchmark.json, by tools/benchmark.py, which
also writes the block itself); in docs/architecture.md the rule graph (figures/rulegraph.mmd); in
docs/cluster.md the committed store's draws (data/store) and the paper preset's whole run
(docs/paper-run.json, by tools/paper_run_costs.py).
"""

import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attnspec.claims.dashboard import (  # noqa: E402
    outcome_markdown,
    replicates_match,
    summary_markdown,
)
from attnspec.workflow.io import read_csv  # noqa: E402

README = ROOT / "README.md"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def dashboard_block() -> str:
    return summary_markdown(read_csv(ROOT / "figures" / "claims.csv"), "figures/")


def outcome_block() -> str:
    return outcome_markdown(read_csv(ROOT / "figures" / "claims.csv"))


def replicates_block() -> str:
    path = ROOT / "figures" / "claims-replicates.csv"
    if not path.is_file():
        return "Not run for the committed outputs: `snakemake --cores all replicates`.\n"
    with open(path, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    judged = read_csv(ROOT / "figures" / "claims.csv")
    if not replicates_match(rows, {row["row_id"]: row["verdict"] for row in judged}):
        return (
            "Not run for the committed verdicts: [`figures/claims-replicates.md`]"
            "(figures/claims-replicates.md) was made from earlier tests and its replicate 0 is "
            "not what is judged now, so neither it nor the dashboard uses it as evidence; "
            "`snakemake --cores all replicates` remakes it.\n"
        )
    agree = sum(row["agree"] == "yes" for row in rows)
    differing = [row["row_id"] for row in rows if row["agree"] != "yes"]
    text = (
        f"In independent replicates 1 and 2 ([`figures/claims-replicates.md`]"
        f"(figures/claims-replicates.md)) {agree} of {len(rows)} rows give replicate 0's verdict"
    )
    return text + (f"; they differ for {', '.join(differing)}.\n" if differing else ".\n")


def runtime_block() -> str:
    report = json.loads((ROOT / "docs" / "runtime.json").read_text(encoding="utf-8"))
    papers = report["cpu_s_by_paper"]
    shares = ", ".join(f"{paper} {papers[paper]:.0f} s" for paper in sorted(papers))
    load = report["load_average_before"][0]
    return (
        f"`snakemake --cores {report['cores']}` of `{report['preset']}` from a clean `results/`: "
        f"**{report['jobs']} jobs, {report['wall_s'] / 60:.1f} min wall, "
        f"{report['cpu_s']:.0f} s of CPU** (the whole process tree, `/usr/bin/time -v`; load "
        f"average {load:.2f} when it started), largest job {report['largest_job_rss_mb']} MB "
        f"(benchmark file `benchmarks/{report['largest_job']}`). CPU by paper from the per-job "
        f"benchmark files: {shares}, "
        f"together {sum(papers.values()):.0f} s (Snakemake samples a job every 0.5 s for 15 s, "
        "then every 30 s, so each job counts low by up to its last interval; the rest is "
        "Snakemake's own process). Measured by `tools/measure_run.py` into "
        "`docs/runtime.json`.\n"
    )


def largest_job_block() -> str:
    report = json.loads((ROOT / "docs" / "largest-job.json").read_text(encoding="utf-8"))
    return (
        f"The paper preset's largest job, `{report['target']}`, run end to end with `--cores 1` "
        f"({report['machine']}; `tools/measure_largest_job.py`, commit {report['commit']}, "
        f"{report['finished']} UTC): **{report['wall_s'] / 60:.0f} min wall, "
        f"{report['cpu_s'] / 60:.0f} min of CPU, peak {report['max_rss_mb'] / 1000:.1f} GB** "
        f"(Snakemake reserved {report['reserved_mem_mb'] / 1000:.1f} GB for it; "
        "`docs/largest-job.json`).\n"
    )


def benchmark_block() -> str:
    """The benchmark's results (its provenance line and tables) as tools/benchmark.py writes them,
    from its last run's docs/benchmark.json."""
    sys.path.insert(0, str(ROOT / "tools"))
    from benchmark import markdown

    return markdown(json.loads((ROOT / "docs" / "benchmark.json").read_text(encoding="utf-8")))


def store_block() -> str:
    """The committed store's draws (data/store/**/*.json) with what they cost, one row per
    point (the first three levels of a draw's folder: paper, experiment, point)."""
    store = ROOT / "data" / "store"
    folders: dict[str, list[dict]] = {}
    for path in sorted(store.rglob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        point = "/".join(path.parent.relative_to(store).parts[:3])
        folders.setdefault(point, []).append(record)
    rows = [
        f"| `{folder}` | {len(records)} | {sum(r['cpu_s'] for r in records):.0f} | "
        f"{sum(r['wall_s'] for r in records):.0f} | {max(r['peak_mb'] for r in records):.0f} | "
        f"{', '.join(sorted({r['commit'] for r in records}))} | "
        f"{max(r['made'] for r in records).removesuffix(' UTC')} |"
        for folder, records in folders.items()
    ]
    records = [record for group in folders.values() for record in group]
    total = sum(record["cpu_s"] for record in records)
    return (
        "| point | draws | CPU-s | wall-s | largest peak MB | made by commits | last made (UTC) "
        "|\n"
        + "|---|---|---|---|---|---|---|\n"
        + "\n".join(rows)
        + f"\n\n{len(records)} draws at {len(folders)} points, "
        f"{total / 3600:.2f} core-hours kept.\n"
    )


SMALL_RULE_CPU_S = 30.0  # rules below this CPU in the whole run share one line


def paper_run_block() -> str:
    """The paper preset's whole run, per rule (docs/paper-run.json, tools/paper_run_costs.py)."""
    path = ROOT / "docs" / "paper-run.json"
    if not path.is_file():
        return "Not measured yet: `python tools/paper_run_costs.py <the run's clone>`.\n"
    report = json.loads(path.read_text(encoding="utf-8"))
    large = {rule: r for rule, r in report["rules"].items() if r["cpu_s"] >= SMALL_RULE_CPU_S}
    small = [r for rule, r in report["rules"].items() if rule not in large]
    rows = [
        f"| `{rule}` | {r['jobs']} | {r['from_store']} | {r['cpu_s'] / 60:.1f} | "
        f"{r['wall_s'] / 60:.1f} | {r['peak_mb']:.0f} |"
        for rule, r in large.items()
    ]
    if small:
        rows.append(
            f"| {len(small)} other rules (figures, tables, evidence, under "
            f"{SMALL_RULE_CPU_S:.0f} CPU-s each) | {sum(r['jobs'] for r in small)} | "
            f"{sum(r['from_store'] for r in small)} | "
            f"{sum(r['cpu_s'] for r in small) / 60:.1f} | "
            f"{sum(r['wall_s'] for r in small) / 60:.1f} | "
            f"{max(r['peak_mb'] for r in small):.0f} |"
        )
    missing = len(report["not_measured"])
    return (
        f"{report['jobs']} jobs (commit {report['commit']}, `{report['preset']}`): "
        f"{report['cpu_s'] / 3600:.2f} core-hours of CPU, {report['wall_s'] / 3600:.2f} h of wall "
        f"time summed over the jobs, largest peak {report['peak_mb'] / 1000:.1f} GB"
        + (f"; {missing} jobs not measured (listed in the JSON)" if missing else "")
        + ".\n\n| rule | jobs | of them from store records | CPU min | wall min | peak MB |\n"
        + "|---|---|---|---|---|---|\n"
        + "\n".join(rows)
        + "\n"
    )


def rulegraph_block() -> str:
    return "```mermaid\n" + (ROOT / "figures" / "rulegraph.mmd").read_text(encoding="utf-8") + "```"


README_BLOCKS = {
    "claims-outcome": outcome_block,
    "claims-dashboard": dashboard_block,
    "replicates": replicates_block,
    "runtime": runtime_block,
    "largest-job": largest_job_block,
}
BENCHMARK_BLOCKS = {"benchmark": benchmark_block}
ARCHITECTURE_BLOCKS = {"rulegraph": rulegraph_block}
CLUSTER_BLOCKS = {"store": store_block, "paper-run": paper_run_block}
DOCUMENTS = {
    README: README_BLOCKS,
    ROOT / "docs" / "benchmark.md": BENCHMARK_BLOCKS,
    ARCHITECTURE: ARCHITECTURE_BLOCKS,
    ROOT / "docs" / "cluster.md": CLUSTER_BLOCKS,
}


def rendered(text: str, blocks=README_BLOCKS) -> str:
    """``text`` (the README, or another document with its ``blocks``) with every block
    regenerated."""
    for name, make in blocks.items():
        start, end = f"<!-- {name}:start -->\n", f"<!-- {name}:end -->"
        if start not in text or end not in text:
            raise SystemExit(f"the document has no block {name}")
        before, rest = text.split(start, 1)
        _, after = rest.split(end, 1)
        text = before + start + make().strip("\n") + "\n" + end + after
    return text


def main() -> None:
    for path, blocks in DOCUMENTS.items():
        text = path.read_text(encoding="utf-8")
        new = rendered(text, blocks)
        if "--check" in sys.argv and new != text:
            sys.exit(f"{path.name} blocks are stale: python tools/readme_blocks.py")
        if new != text:
            path.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    main()
