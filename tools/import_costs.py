"""Measure what each job pays for its imports, summed by rule kind, into docs/imports.json.

    python tools/import_costs.py [--configfile config/config.yaml] [--repeats 3] [--output FILE]

For every rule with a script, the script's module-level imports run in a fresh interpreter (one
BLAS thread, as in the jobs); its CPU (user + system, the fastest of --repeats) minus a bare
interpreter's is the import CPU that rule's jobs pay. The job counts are those a dry run of the
preset plans from scratch, so a kind's total is the import CPU the whole run spends there. The
heavy modules each script loads without calling them (scipy.stats, scipy.optimize, seaborn,
matplotlib, pandas) are listed per kind.
"""

import argparse
import ast
import json
import os
import re
import resource
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SNAKEMAKE = Path(sys.executable).parent / "snakemake"
OUTPUT = ROOT / "docs" / "imports.json"
HEAVY = ("scipy.stats", "scipy.optimize", "seaborn", "matplotlib", "pandas")
REPORT_HEAVY = "import sys; print(' '.join(m for m in {heavy!r} if m in sys.modules))"


GENERIC_KINDS = {"figure": "figure", "table": "table", "evidence": "evidence"}
"""The generic scripts (attnspec.workflow.jobs) and the kind of their rules."""


def kind_of(script: str) -> str:
    """A rule's kind from its script's name (scripts/<paper>_<item>_<kind>.py, or a generic
    script "figure:<output name>")."""
    generic = script.partition(":")[0]
    if generic in GENERIC_KINDS:
        return GENERIC_KINDS[generic]
    for suffix, kind in (
        ("_figure", "figure"),
        ("_table", "table"),
        ("_evidence", "evidence"),
        ("_summary", "summary"),
    ):
        if script.endswith(suffix):
            return kind
    if script.startswith("claims_"):
        return "claims"
    if script in ("paper_notebook", "rulegraph", "config_snapshot"):
        return "plumbing"
    return "simulate"


def rule_scripts() -> dict[str, str]:
    """Rule name -> script stem, read from the rule files; for a generic script, "stem:output
    name" (the entry of the rooms' outputs lists it runs)."""
    scripts = {}
    for path in sorted((ROOT / "workflow" / "rules").glob("*.smk")):
        for block in re.split(r"^rule ", path.read_text(), flags=re.M)[1:]:
            found = re.search(r'script:\s*\n\s*f"\{SCRIPTS\}/(\w+)\.py"', block)
            if found:
                name = re.search(r'\n        output_name="([^"]+)",', block)
                script = f"{found[1]}:{name[1]}" if name else found[1]
                scripts[block.split(":", 1)[0].strip()] = script
    return scripts


def planned_jobs(configfile: str) -> dict[str, int]:
    """Jobs per rule that a dry run of all plans from scratch."""
    result = subprocess.run(
        [str(SNAKEMAKE), "-n", "-F", "--quiet", "rules", "--configfile", configfile],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    table = result.stdout.split("Job stats:")[1].split("total")[0]
    return {name: int(count) for name, count in re.findall(r"^(\w+)\s+(\d+)\s*$", table, re.M)}


def import_lines(script: str) -> str:
    """The module-level import statements of scripts/<script>.py, as source; for a generic
    script, also the import of the room's module that assembles its output."""
    stem, _, output_name = script.partition(":")
    source = (ROOT / "scripts" / f"{stem}.py").read_text()
    nodes = ast.parse(source).body
    lines = [
        ast.get_source_segment(source, node)
        for node in nodes
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    if output_name:
        from attnspec.papers.outputs import Evidence, Figure, Table, find_output

        kind = {"figure": Figure, "table": Table, "evidence": Evidence}[stem]
        lines.append(f"import {find_output(output_name, kind).assemble.partition(':')[0]}")
    return "\n".join(lines)


def child_cpu(code: str) -> tuple[float, str]:
    """CPU seconds of a fresh interpreter running code, and what it printed."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, result.stdout.strip()


def fastest(code: str, repeats: int) -> tuple[float, str]:
    runs = [child_cpu(code) for _ in range(repeats)]
    return min(cpu for cpu, _ in runs), runs[0][1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configfile", default="config/config.yaml")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args()

    jobs = planned_jobs(args.configfile)
    bare, _ = fastest("pass", args.repeats)
    per_script, by_kind = {}, defaultdict(lambda: {"jobs": 0, "import_cpu_s": 0.0, "heavy": set()})
    for rule, script in sorted(rule_scripts().items()):
        if rule not in jobs:
            continue
        if script not in per_script:
            code = import_lines(script) + "\n" + REPORT_HEAVY.format(heavy=HEAVY)
            cpu, heavy = fastest(code, args.repeats)
            per_script[script] = {"import_cpu_s": round(max(cpu - bare, 0.0), 3), "heavy": heavy}
            print(f"{script:40s} {cpu - bare:6.2f} s  {heavy}", flush=True)
        entry = by_kind[kind_of(script)]
        entry["jobs"] += jobs[rule]
        entry["import_cpu_s"] += jobs[rule] * per_script[script]["import_cpu_s"]
        entry["heavy"].update(per_script[script]["heavy"].split())
    summary = {
        "preset": args.configfile,
        "bare_interpreter_cpu_s": round(bare, 3),
        "repeats": args.repeats,
        "load_average": os.getloadavg(),
        "by_kind": {
            kind: {
                "jobs": entry["jobs"],
                "import_cpu_s": round(entry["import_cpu_s"], 1),
                "heavy_modules": sorted(entry["heavy"]),
            }
            for kind, entry in sorted(by_kind.items())
        },
        "by_script": per_script,
    }
    args.output.write_text(json.dumps(summary, indent=2) + "\n")
    print(json.dumps(summary["by_kind"], indent=2))


if __name__ == "__main__":
    main()
