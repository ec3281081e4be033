"""Drift check: compare a regenerated output tree with the committed one by tolerance per kind
of file (attnspec.drift), so that another CPU's last-bit differences raise no alarm.

    python tools/compare_outputs.py COMMITTED_DIR FRESH_DIR

Prints one line per difference beyond tolerance; exit status 1 if any, 2 on bad arguments.
"""

import sys

from attnspec.drift import compare_trees


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python tools/compare_outputs.py COMMITTED_DIR FRESH_DIR", file=sys.stderr)
        return 2
    try:
        found = compare_trees(*argv)
    except ValueError as error:
        print(f"compare_outputs: error: {error}", file=sys.stderr)
        return 2
    print("\n".join(found) if found else "no drift beyond tolerance")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
