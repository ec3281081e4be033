"""Verify the committed store of draws outside Snakemake, and re-key it after a change of code
that leaves the draws' values unchanged (attnspec.workflow.store_verify).

    python tools/verify_store.py [--rekey] [--moved OLD=NEW ...] [DRAW ...]

DRAW: a stored draw as a path relative to data/store without suffix
(paperB/sticking/ell16384-c1.0/draw4); none: the first at the largest size of each kind. Each is
recomputed and compared. With --rekey a stale draw (its code changed) that recomputes bit for
bit gets the current key, and so does every stored draw of its point made by the same code.
--moved OLD=NEW: the draw function stored as OLD (a qualified name) is now NEW (its module was
renamed); a re-keyed draw takes the new name.
Exit status 1 if any draw differs or stays stale.
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attnspec.workflow.store_verify import default_selection, verify  # noqa: E402

STORE = ROOT / "data" / "store"


def _moved(text: str) -> tuple[str, str]:
    old, _, new = text.partition("=")
    if not (old and new):
        raise argparse.ArgumentTypeError(f"takes OLD=NEW (two qualified names), got {text!r}")
    return old, new


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="verify_store",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rekey", action="store_true", help="re-key stale draws that recompute")
    parser.add_argument("--moved", type=_moved, action="append", default=[], metavar="OLD=NEW")
    parser.add_argument("names", nargs="*", metavar="DRAW")
    arguments = parser.parse_args(argv)
    names, rekey, moved = arguments.names, arguments.rekey, dict(arguments.moved)
    records = [STORE / f"{name}.json" for name in names] or default_selection(STORE)
    missing = [str(r.relative_to(STORE).with_suffix("")) for r in records if not r.is_file()]
    if missing:
        print(f"verify_store: no stored draw {', '.join(missing)} in {STORE}", file=sys.stderr)
        return 2
    lines = verify(STORE, records, rekey=rekey, moved=moved)
    print("\n".join(lines))
    bad = [line for line in lines if ": differs" in line or ": stale" in line]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
