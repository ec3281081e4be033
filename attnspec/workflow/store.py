"""The committed store of expensive draws: computed once (hours at paper scale), kept compactly,
reused by a fresh clone, never reused silently after a change.

A draw is one call ``function(*args, **kwargs)`` returning a dict of arrays (e.g.
:func:`attnspec.papers.b.sticking.sticking_draw` at ell = 32768). Its **key** is the SHA-256 of
everything its values depend on: the function's qualified name, its arguments, the source of
every attnspec module the function's module imports (transitively) and the numpy and scipy
versions. A stored draw is two files under the store folder (``data/store/`` for the paper
preset, config key ``store``), named after the job's output: ``<name>.npz`` (the arrays, written
as the job writes them) and ``<name>.json`` (the key, the arguments, the seed parameters, the
code digest and versions, and what computing it cost: CPU seconds, peak memory, wall time, the
CPU and the commit). A job asks :func:`stored_or_computed`: the stored arrays when the key
matches, else it computes (and, with a store configured, keeps the new draw). A changed
argument or module changes the key of exactly the draws it touches; a stored draw with another
key is reported and recomputed. :mod:`attnspec.workflow.store_verify` recomputes chosen draws
and compares them with the store.
"""

import ast
import hashlib
import inspect
import json
import logging
import os
import platform
import resource
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from attnspec.workflow.io import atomic_path, load_npz, save_npz

LOG = logging.getLogger(__name__)
PACKAGE = "attnspec"
ROOT = Path(__file__).resolve().parents[1]


def _imports(path: Path) -> set[str]:
    """The attnspec modules a source file imports (at module or function level)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == PACKAGE}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == PACKAGE:
                found.add(node.module)
                found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def _source(module: str, root: Path = ROOT) -> Path | None:
    """The source file of an attnspec module (a package's __init__) under the package folder
    ``root``, or None for a name that is not a module (an imported function or constant)."""
    parts = module.split(".")[1:]
    if not parts:
        return root / "__init__.py"
    relative = Path(*parts)
    for candidate in (root / relative.with_suffix(".py"), root / relative / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def module_closure(module: str, root: Path = ROOT) -> list[str]:
    """``module`` and every attnspec module it imports, transitively, sorted (sources under
    the package folder ``root``)."""
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        path = _source(name, root)
        if name in seen or path is None:
            continue
        seen.add(name)
        todo += sorted(_imports(path) - seen)
        parent = name.rpartition(".")[0]
        if parent and parent not in seen:
            todo.append(parent)  # a package's __init__ runs on import
    return sorted(seen)


def code_digest(function: Callable, root: Path = ROOT) -> str:
    """SHA-256 of the source of the function's module, of every attnspec module it imports
    (transitively) and of the numpy and scipy versions: what, beyond its arguments, decides a
    draw's values. ``root``: the package folder whose sources count (another checkout's, for a
    draw that checkout made)."""
    import scipy

    inside = function.__module__.split(".")[0] == PACKAGE
    own = _source(function.__module__, root) if inside else Path(inspect.getsourcefile(function))
    roots = [function.__module__] if inside else sorted(_imports(own))
    modules = sorted(set().union(set(), *(module_closure(m, root) for m in roots)))
    digest = hashlib.sha256(own.read_bytes())
    for module in modules:
        digest.update(module.encode() + b"\0" + _source(module, root).read_bytes() + b"\0")
    digest.update(f"numpy {np.__version__} scipy {scipy.__version__}".encode())
    return digest.hexdigest()


def _plain(value):
    """Arguments as JSON values (tuples as lists, numpy scalars as Python numbers, dtypes and
    types by name)."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, type) or isinstance(value, np.dtype):
        return np.dtype(value).name
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise ValueError(f"a stored draw's arguments must be plain values, got {value!r}")


def arguments(function: Callable, args: tuple, kwargs: Mapping) -> dict:
    """Every argument of the call by name, defaults included (so a call that spells out a
    default has the key of one that leaves it out)."""
    bound = inspect.signature(function).bind(*args, **kwargs)
    bound.apply_defaults()
    return _plain(dict(bound.arguments))


def draw_key(
    function: Callable, args: tuple = (), kwargs: Mapping | None = None, root: Path = ROOT
) -> dict:
    """The key of one call and what it is made of: ``{"key", "function", "arguments",
    "code"}``; ``root`` as for :func:`code_digest`."""
    called = arguments(function, args, kwargs or {})
    name = f"{function.__module__}.{function.__qualname__}"
    code = code_digest(function, root)
    text = json.dumps({"function": name, "arguments": called, "code": code}, sort_keys=True)
    return {
        "key": hashlib.sha256(text.encode()).hexdigest(),
        "function": name,
        "arguments": called,
        "code": code,
    }


def entry_paths(
    store: str | os.PathLike, output: str | os.PathLike, part: str = ""
) -> tuple[Path, Path]:
    """(npz, json) of the stored draw of a job output ``results/<path>.npz`` or
    ``results/paper-scale/<path>.npz`` (one draw whichever scale asks for it; a replicate's
    ``results/replicate<r>/<path>`` keeps its replicate folder); ``part`` names one of several
    draws a job makes (``results/<path>/<part>``)."""
    relative = Path(output)
    if relative.parts and relative.parts[0] == "results":
        relative = Path(*relative.parts[1:])
        if relative.parts and relative.parts[0] == "paper-scale":
            relative = Path(*relative.parts[1:])
    base = Path(store) / relative.with_suffix("")
    base = base / part if part else base
    return base.parent / f"{base.name}.npz", base.parent / f"{base.name}.json"


def read_entry(store: str | os.PathLike, output: str | os.PathLike, part: str = "") -> dict | None:
    """The record (json) of a stored draw, or None when there is none."""
    _, record = entry_paths(store, output, part)
    if not record.is_file():
        return None
    try:
        return json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"stored draw record {record} is unreadable: {error}") from None


def _cost(started_cpu: float, started_wall: float) -> dict:
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "cpu_s": round(time.process_time() - started_cpu, 3),
        "wall_s": round(time.perf_counter() - started_wall, 3),
        "peak_mb": round(peak_kb / 1024, 1),
    }


def _machine() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


ARRAY = "array"  # the member under which a draw that is one array is stored


def as_arrays(result) -> dict[str, np.ndarray]:
    """A draw's result as the arrays stored: a mapping as it is, one array under ARRAY."""
    return dict(result) if isinstance(result, Mapping) else {ARRAY: np.asarray(result)}


def from_arrays(arrays: Mapping[str, np.ndarray], returns: str):
    """The inverse of :func:`as_arrays` for a draw whose record says it ``returns`` an array or
    a mapping."""
    return arrays[ARRAY] if returns == ARRAY else dict(arrays)


def keep(
    store: str | os.PathLike,
    output: str | os.PathLike,
    made: Mapping,
    arrays: Mapping[str, np.ndarray],
    cost: Mapping,
    part: str = "",
) -> Path:
    """Write a computed draw into the store (arrays, then its record, each atomically): a
    half-kept draw has no record and is never read. The record names the code commit
    (:func:`attnspec.workflow.provenance.code_commit`), the CPU and the time; ``cost`` (CPU-s,
    wall-s, peak MB) may override them for a draw made elsewhere."""
    from attnspec.workflow.provenance import code_commit

    npz, record = entry_paths(store, output, part)
    save_npz(npz, **arrays)
    entry = {
        **made,
        "output": str(output),
        "cpu": _machine(),
        "made": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "commit": code_commit(ROOT.parent),
        **cost,
    }
    with atomic_path(record) as tmp:
        tmp.write_text(json.dumps(entry, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return npz


def stored_or_computed(
    store: str | os.PathLike | None,
    output: str | os.PathLike,
    function: Callable,
    *args,
    part: str = "",
    unkeyed: Mapping | None = None,
    **kwargs,
):
    """``function(*args, **kwargs, **unkeyed)`` (a mapping of arrays, or one array), read from
    the store when it holds this call under the same key; computed otherwise, and kept in the
    store when one is given (``store`` empty or None: always computed). ``unkeyed`` are
    arguments that cannot change the values (a progress callback); ``part`` names one of
    several draws of the job. A stored draw under another key (its code or arguments changed)
    is logged and recomputed."""
    made = draw_key(function, args, kwargs)
    if store:
        found = read_entry(store, output, part)
        npz, _ = entry_paths(store, output, part)
        if found is not None and found.get("key") == made["key"] and npz.is_file():
            LOG.info("stored draw %s (key %s, made %s): not recomputed", npz, made["key"][:12],
                     found.get("made", "?"))  # fmt: skip
            return from_arrays(load_npz(npz), found.get("returns", "mapping"))
        if found is not None:
            changed = [
                part for part in ("function", "arguments", "code") if found.get(part) != made[part]
            ]
            LOG.warning("stored draw %s is stale (%s changed): recomputed", npz,
                        ", ".join(changed) or "key")  # fmt: skip
    started_cpu, started_wall = time.process_time(), time.perf_counter()
    result = function(*args, **kwargs, **dict(unkeyed or {}))
    if store:
        returns = "mapping" if isinstance(result, Mapping) else ARRAY
        made = {**made, "returns": returns}
        cost = _cost(started_cpu, started_wall)
        kept = keep(store, output, made, as_arrays(result), cost, part)
        LOG.info("kept in the store: %s", kept)
    return dict(result) if isinstance(result, Mapping) else result
