"""Import paper B's sticking draws computed by a paper-preset run in another checkout into the
committed store (attnspec.workflow.store), with the cost its benchmark files measured.

    python tools/store_import.py CHECKOUT [--config config/paper.yaml]

CHECKOUT is the folder of that run (its results/paperB/sticking/ell<N>-c<c>/draw<d>.npz and
benchmarks/results/...tsv). Each finite draw is keyed by the code that made it (the sources of
CHECKOUT's attnspec modules in the draw's code digest) and its arguments, so a job of this
checkout reuses it only if its own code has the same digest; after a change of that code that
leaves the values alone, `python tools/verify_store.py --rekey <draw>` recomputes the draw and,
if it is bit-identical, re-keys every stored draw of its point. Prints one line per draw.
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
from attnspec.workflow.store import draw_key, keep, read_entry  # noqa: E402

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


def maker_commit(checkout: Path) -> str:
    """The git commit of the checkout that made the draws."""
    return subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=checkout, capture_output=True, text=True
    ).stdout.strip()


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
    commit = maker_commit(checkout)
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
            root=checkout / "attnspec",
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
