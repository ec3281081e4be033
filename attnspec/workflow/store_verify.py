"""Verify the committed store of draws (:mod:`attnspec.workflow.store`): recompute chosen stored
draws from their records (function and arguments) and compare them with the stored arrays,
bit for bit on the machine kind that made them, else within the drift tolerances of
:mod:`attnspec.workflow.drift` (paper B's float32 scores: FLOAT32_RTOL).
"""

import importlib
import inspect
import json
import re
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from attnspec.workflow.drift import CSV_ATOL, relative_tolerance
from attnspec.workflow.io import load_npz
from attnspec.workflow.store import as_arrays, draw_key


def stored_draws(store: str | Path) -> list[Path]:
    """Every stored draw's record (``*.json`` with its ``.npz``), sorted."""
    return sorted(p for p in Path(store).rglob("*.json") if p.with_suffix(".npz").is_file())


def _size(record: Path) -> int:
    """The size a stored draw's folder names (``ell32768-c1.0`` -> 32768; 0 if none)."""
    found = re.search(r"\d+", record.parent.name)
    return int(found.group()) if found else 0


def default_selection(store: str | Path, count: int = 1) -> list[Path]:
    """The first ``count`` stored draws at the largest size of every kind of draw (the folder
    above the size's, e.g. paperB/sticking): by default one at the largest ell."""
    kinds: dict[Path, list[Path]] = {}
    for record in stored_draws(store):
        kinds.setdefault(record.parent.parent, []).append(record)
    chosen = []
    for members in kinds.values():
        largest = max(map(_size, members))
        chosen += sorted(p for p in members if _size(p) == largest)[:count]
    return sorted(chosen)


def _call_arguments(function, arguments: dict) -> dict:
    """The recorded arguments as the function takes them (a dtype recorded by name is given as
    its numpy type where the parameter's default is a type)."""
    signature = inspect.signature(function)
    found = {}
    for name, value in arguments.items():
        default = signature.parameters[name].default
        typed = default is not inspect.Parameter.empty and isinstance(default, type)
        if typed and isinstance(value, str):  # a parameter without a default has "empty"
            value = np.dtype(value).type
        found[name] = value
    return found


def compare_arrays(stored: dict, fresh: dict, rtol: float) -> tuple[str, float]:
    """(``identical`` | ``within tolerance`` | ``differs``, the largest relative difference)
    between two draws' arrays (the same members and shapes needed)."""
    if sorted(stored) != sorted(fresh):
        return "differs", np.inf
    largest = 0.0
    for key in stored:
        a, b = np.asarray(stored[key]), np.asarray(fresh[key])
        if a.shape != b.shape or a.dtype.kind != b.dtype.kind:
            return "differs", np.inf
        if a.dtype.kind not in "fc":
            if not np.array_equal(a, b):
                return "differs", np.inf
            continue
        with np.errstate(invalid="ignore", divide="ignore"):
            gap = np.abs(a - b) / np.maximum(np.abs(a), CSV_ATOL / rtol)
        gap = np.where(np.isnan(a) & np.isnan(b), 0.0, gap)
        largest = max(largest, float(np.nanmax(gap)) if gap.size else 0.0)
    if all(np.array_equal(stored[k], fresh[k], equal_nan=True) for k in stored):
        return "identical", 0.0
    return ("within tolerance" if largest <= rtol else "differs"), largest


def _recomputed(record: Mapping, moved: Mapping[str, str]):
    """(function, its arguments as it takes them, the current key record) of a stored draw;
    ``moved`` maps a function's stored qualified name to its new one (a module renamed)."""
    module, _, name = moved.get(record["function"], record["function"]).rpartition(".")
    function = getattr(importlib.import_module(module), name)
    arguments = _call_arguments(function, record["arguments"])
    return function, arguments, draw_key(function, (), arguments)


def _point(record: Mapping) -> tuple:
    """A stored draw's point: its function, code and arguments but its draw index."""
    others = {k: v for k, v in record["arguments"].items() if k != "draw"}
    return record["function"], record["code"], json.dumps(others, sort_keys=True)


def verify(
    store: str | Path,
    records: Sequence[str | Path],
    *,
    rekey: bool = False,
    moved: Mapping[str, str] | None = None,
) -> list[str]:
    """One line per chosen stored draw: recomputed and compared. A stale draw (its key is not
    the one the current code and arguments give) is reported as such, or, with ``rekey``,
    recomputed: if bit-identical, it and every stored draw of the same point made by the same
    code (all arguments equal but the draw index) get the current key (and, for a function in
    ``moved``, old qualified name -> new, its new name), a line each."""
    moved = dict(moved or {})
    store = Path(store)
    lines = []
    for record_path in map(Path, records):
        record = json.loads(record_path.read_text(encoding="utf-8"))
        function, arguments, made = _recomputed(record, moved)
        label = str(record_path.with_suffix(".npz").relative_to(store))
        stale = made["key"] != record["key"]
        if stale and not rekey:
            lines.append(f"{label}: stale (the code or its arguments changed since it was made)")
            continue
        started = time.process_time()
        fresh = function(**arguments)
        cpu = time.process_time() - started
        rtol = relative_tolerance(Path(label))
        stored = load_npz(record_path.with_suffix(".npz"))
        verdict, largest = compare_arrays(stored, as_arrays(fresh), rtol)
        lines.append(
            f"{label}: {verdict} (largest relative difference {largest:.2g}, tolerance "
            f"{rtol:g}; recomputed in {cpu:.0f} CPU-s, stored {record.get('cpu_s', '?')} CPU-s "
            f"on {record.get('cpu', '?')})"
        )
        if stale and verdict == "identical":
            lines += _rekey(store, record, moved)
    return lines


def _rekey(store: Path, verified: Mapping, moved: Mapping[str, str]) -> list[str]:
    """Give every stored draw of the verified draw's point and code the current key (and the
    function's current name)."""
    lines = []
    for path in stored_draws(store):
        record = json.loads(path.read_text(encoding="utf-8"))
        if _point(record) != _point(verified):
            continue
        _, _, current = _recomputed(record, moved)
        record.update(
            key=current["key"],
            function=current["function"],
            code=current["code"],
            rekeyed=f"from code {verified['code'][:12]} after a bit-identical recomputation of "
            f"draw {verified['arguments'].get('draw', '?')} of this point",
        )
        path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        lines.append(f"{path.with_suffix('.npz').relative_to(store)}: re-keyed to the current code")
    return lines
