"""Importing attnspec.theory is cheap: numpy only, scipy and numpy.polynomial on first use."""

import subprocess
import sys

HEAVY = ("scipy", "numpy.polynomial", "matplotlib", "pandas")


def loaded_after(statement: str) -> list[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    return out.split()


def test_import_loads_no_heavy_module():
    modules = loaded_after("import attnspec.theory")
    assert "attnspec.theory.nu_infinity" in modules
    assert not [m for m in modules if m.startswith(HEAVY)]


def test_a_root_solve_imports_scipy_optimize_when_first_needed():
    modules = loaded_after("from attnspec.theory import bulk_edge; bulk_edge(1.0)")
    assert "scipy.optimize" in modules
    modules = loaded_after("from attnspec.theory import mp_edge, edge_small_beta; mp_edge(1.0)")
    assert "scipy.optimize" not in modules
