"""Drift check: compare a regenerated output tree with the committed one by tolerance per kind
of file (attnspec.workflow.drift), so that another CPU's last-bit differences raise no alarm.

    python tools/compare_outputs.py COMMITTED_DIR FRESH_DIR

Prints one line per difference beyond tolerance; exit status 1 if any, 2 on bad arguments.
"""

import sys
from pathlib import Path

from attnspec.workflow.drift import COMPARED, compare_trees


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) != 2:
        print(
            "usage: python tools/compare_outputs.py COMMITTED_DIR FRESH_DIR "
            f"(got {len(argv)} argument(s), 2 needed)",
            file=sys.stderr,
        )
        return 2
    try:
        found = compare_trees(*argv)
    except ValueError as error:
        print(f"compare_outputs: error: {error}", file=sys.stderr)
        return 2
    compared = sum(1 for p in Path(argv[0]).rglob("*") if p.suffix in COMPARED)
    print("\n".join(found) if found else f"no drift beyond tolerance ({compared} files compared)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
