"""A job pays only for the imports it uses: the heavy modules load where they are called.

The module-level imports of every script are run together in one fresh interpreter per kind;
simulation, evidence and summary jobs must load none of scipy.stats, scipy.optimize, seaborn,
matplotlib, pandas (numpy and the kernels only), tables and the claims jobs pandas at most.
tools/import_costs.py measures what each kind pays.
"""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
PAPERS = SCRIPTS.parent / "attnspec" / "papers"
HEAVY = ("scipy.stats", "scipy.optimize", "seaborn", "matplotlib", "pandas")


def import_statements(script: Path) -> list[str]:
    nodes = ast.parse(script.read_text()).body
    return [ast.unparse(node) for node in nodes if isinstance(node, ast.Import | ast.ImportFrom)]


def heavy_loaded(scripts: list[Path]) -> list[str]:
    statements = sorted({line for script in scripts for line in import_statements(script)})
    code = "\n".join(
        [*statements, f"import sys; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"]
    )
    env = dict(os.environ, MPLBACKEND="Agg")
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=env,
    )
    return result.stdout.split()


def scripts_of_kind(kind: str) -> list[Path]:
    """The scripts of one kind of job, with the rooms' assembling modules the generic ones run
    (scripts/figure.py runs assemble_figures, table.py assemble_tables, evidence.py
    assemble_evidence: attnspec.papers.outputs)."""
    every = sorted(SCRIPTS.glob("*.py"))
    drawing = [s for s in every if s.stem == "figure" or s.stem.endswith("_figure")]
    tables = [
        s for s in every if s.stem == "table" or s.stem.endswith("_table") or "claims_" in s.stem
    ]
    chosen = {"drawing": drawing, "tables": tables}.get(kind)
    scripts = chosen if chosen is not None else [s for s in every if s not in drawing + tables]
    assembling = {"drawing": "figures", "tables": "tables"}.get(kind, "evidence")
    return scripts + sorted(PAPERS.glob(f"*/assemble_{assembling}.py"))


@pytest.mark.parametrize(("kind", "allowed"), [("compute", ()), ("tables", ("pandas",))])
def test_jobs_load_no_heavy_module_they_do_not_call(kind, allowed):
    scripts = scripts_of_kind(kind)
    assert len(scripts) > 5
    assert [m for m in heavy_loaded(scripts) if m not in allowed] == []
