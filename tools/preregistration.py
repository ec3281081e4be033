"""Write (or check) docs/preregistration.md: every declared test of papers A-D as a referee reads it
before any data exist (attnspec.claims.preregistration).

    python tools/preregistration.py           # rewrite the document
    python tools/preregistration.py --check   # exit 1 if it is not current (what the test checks)
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from attnspec.claims.preregistration import preregistration_markdown  # noqa: E402
from attnspec.papers.registry import registry_of  # noqa: E402

DOCUMENT = ROOT / "docs" / "preregistration.md"


def document() -> str:
    return preregistration_markdown({paper: registry_of(paper) for paper in "ABCD"})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is not current")
    args = parser.parse_args()
    text = document()
    if args.check:
        if DOCUMENT.is_file() and DOCUMENT.read_text(encoding="utf-8") == text:
            return 0
        print(f"{DOCUMENT} is not current: python tools/preregistration.py")
        return 1
    DOCUMENT.write_text(text, encoding="utf-8")
    print(f"wrote {DOCUMENT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
