"""Import paper B's sticking draws computed by a paper-preset run in another checkout into the
committed store (attnspec.workflow.store), with the cost its benchmark files measured.

    python tools/store_import.py CHECKOUT [--config config/paper.yaml]

CHECKOUT is the folder of that run (its results/paperB/sticking/ell<N>-c<c>/draw<d>.npz and
benchmarks/results/...tsv). A draw is imported only if the code that made it (CHECKOUT's git
commit) has the same sources as this checkout for every module of the draw's code digest
(otherwise its key would not describe it) and its arrays are finite; each is keyed as a job of
this checkout would key it (same function, arguments, code). Prints one line per draw.
"""

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attnspec.papers.b.sticking import sticking_draw, sticking_jobs  # noqa: E402
from attnspec.workflow.io import load_npz  # noqa: E402
from attnspec.workflow.store import draw_key, keep, module_closure, read_entry  # noqa: E402

USAGE = "usage: python tools/store_import.py CHECKOUT [--config config/paper.yaml]"


def _benchmark(path: Path) -> dict:
    """CPU-s, wall-s and peak MB of a Snakemake benchmark file."""
    header, values = path.read_text().strip().splitlines()[:2]
    row = dict(zip(header.split("\t"), values.split("\t"), strict=True))
    return {
        "cpu_s": float(row["cpu_time"]),
        "wall_s": float(row["s"]),
        "peak_mb": float(row["max_rss"]),
    }


def same_code(checkout: Path) -> tuple[bool, str]:
    """(whether the draw's module sources in ``checkout`` equal this checkout's, its commit)."""
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=checkout, capture_output=True, text=True
    ).stdout.strip()
    files = [f"attnspec/{'/'.join(m.split('.')[1:]) or '__init__'}" for m in module_closure(
        sticking_draw.__module__)]  # fmt: skip
    for name in files:
        for candidate in (Path(f"{name}.py"), Path(name) / "__init__.py"):
            here, there = ROOT / candidate, checkout / candidate
            if here.is_file() and (not there.is_file() or here.read_bytes() != there.read_bytes()):
                return False, commit
    return True, commit


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    checkout = Path(argv[0]).resolve()
    preset = ROOT / (
        argv[argv.index("--config") + 1] if "--config" in argv else "config/paper.yaml"
    )
    config = yaml.safe_load(preset.read_text())
    store = ROOT / (config.get("store") or "data/store")
    equal, commit = same_code(checkout)
    if not equal:
        print(f"store_import: the draw code of {checkout} ({commit}) differs from this checkout's")
        return 1
    jobs = sticking_jobs(config["paperB"]["sticking"], config["paperB"]["ratio_scan"])
    imported = 0
    for path in sorted(checkout.glob("results/paperB/sticking/ell*-c*/draw*.npz")):
        point = path.parent.name  # ell<N>-c<c>
        ell, ratio = int(point[3 : point.index("-c")]), float(point[point.index("-c") + 2 :])
        draw = int(path.stem.removeprefix("draw"))
        job = jobs[(ell, ratio)]
        output = path.relative_to(checkout)
        made = draw_key(
            sticking_draw,
            (ell, ratio, draw),
            {"betas": job.betas, "n_values": job.n_values, "top_k": job.top_k, "replicate": 0},
        )
        found = read_entry(store, output)
        if found is not None and found["key"] == made["key"]:
            print(f"{output}: already stored")
            continue
        arrays = load_npz(path)
        if not all(np.all(np.isfinite(v)) for v in arrays.values() if v.dtype.kind == "f"):
            print(f"{output}: not finite, not imported")
            continue
        bench = checkout / "benchmarks" / output.with_suffix(".tsv")
        cost = _benchmark(bench) if bench.is_file() else {}
        made_at = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(path.stat().st_mtime))
        keep(store, output, made, arrays, {**cost, "commit": commit, "made": made_at})
        imported += 1
        print(f"{output}: stored ({cost.get('cpu_s', '?')} CPU-s, {cost.get('peak_mb', '?')} MB)")
    print(f"{imported} draws imported into {store.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
