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

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attnspec.workflow.store_verify import default_selection, verify  # noqa: E402

STORE = ROOT / "data" / "store"


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    rekey = "--rekey" in argv
    moved, names, rest = {}, [], [a for a in argv if a != "--rekey"]
    while rest:
        argument = rest.pop(0)
        if argument != "--moved":
            names.append(argument)
            continue
        old, _, new = (rest.pop(0) if rest else "").partition("=")
        if not (old and new):
            print("verify_store: --moved takes OLD=NEW (two qualified names)", file=sys.stderr)
            return 2
        moved[old] = new
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
