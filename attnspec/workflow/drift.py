"""Drift of regenerated outputs against the committed ones, without false alarms from another
CPU: BLAS and numpy vector kernels change the last bits of floats between machines, so the
comparison is by tolerance per kind of file (byte identity stays a same-machine check).

Tolerances, each fixed from what two machines at the same commit produced (README, "Committed
outputs"):
- CSV numbers: relative :data:`CSV_RTOL` (measured within 1e-11), absolute :data:`CSV_ATOL`
  for zeros up to rounding (1e-17 against 0); paper B's numbers come from float32 scores
  (``attnspec.papers.b.sticking.SCORE_FLOAT32_BOUND``, measured within 2e-5), so its files
  get :data:`FLOAT32_RTOL`. Text cells must be equal.
- Markdown and LaTeX tables: the same text, and each printed number within one unit of its
  last printed digit (a rounding boundary or a count moved by one value on a bin edge), or
  within the file's relative tolerance.
- PNG: root-mean-square pixel difference at most :data:`PNG_RMS` (0-255 scale;
  ``matplotlib.testing.compare``); the measured worst case, 388 changed pixels in a 7 in wide
  figure, is RMS < 6 even if every one changed fully, while a moved curve changes thousands.
- PDFs are not compared (their PNG twin is); a caption's "Produced by attnspec" line names the
  commit and is left out.
"""

import re
from pathlib import Path

CSV_RTOL = 1e-9
CSV_ATOL = 1e-14
FLOAT32_RTOL = 4e-5
FLOAT32_PAPERS = ("paperB",)
PNG_RMS = 6.0
COMPARED = (".csv", ".md", ".tex", ".png")
PRODUCED_BY = re.compile(r"^\*Produced by attnspec .*$", flags=re.M)
NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])")


def relative_tolerance(path: Path) -> float:
    """The relative tolerance of a file's numbers: float32 papers get FLOAT32_RTOL."""
    return FLOAT32_RTOL if any(part in FLOAT32_PAPERS for part in path.parts) else CSV_RTOL


def _last_digit_unit(text: str) -> float:
    """One unit of the last printed digit of a number as printed (``0.0123`` -> 1e-4)."""
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def compare_csv(committed: Path, fresh: Path, rtol: float) -> list[str]:
    """Differences between two tidy CSVs: columns, row count, text cells, numbers beyond
    ``rtol`` (and CSV_ATOL)."""
    import numpy as np
    import pandas as pd

    old, new = pd.read_csv(committed), pd.read_csv(fresh)
    if list(old.columns) != list(new.columns) or len(old) != len(new):
        return [f"{fresh}: columns or row count differ ({old.shape} -> {new.shape})"]
    found = []
    for column in old.columns:
        a, b = old[column], new[column]
        if pd.api.types.is_numeric_dtype(a) and pd.api.types.is_numeric_dtype(b):
            close = np.isclose(b, a, rtol=rtol, atol=CSV_ATOL, equal_nan=True)
        else:
            close = (a.fillna("") == b.fillna("")).to_numpy()
        if not close.all():
            row = int(np.argmin(close))
            was, now = a.tolist()[row], b.tolist()[row]  # Python values: no np.float64(...)
            found.append(f"{fresh}: column {column!r}, {int((~close).sum())} cells differ "
                         f"(row {row}: {was!r} -> {now!r})")  # fmt: skip
    return found


def compare_text_table(committed: Path, fresh: Path, rtol: float) -> list[str]:
    """Differences between two Markdown/LaTeX files: any text change, or a printed number
    moved by more than one unit of its last digit and more than ``rtol``."""
    old = PRODUCED_BY.sub("", committed.read_text(encoding="utf-8"))
    new = PRODUCED_BY.sub("", fresh.read_text(encoding="utf-8"))
    if NUMBER.sub("#", old) != NUMBER.sub("#", new):
        return [f"{fresh}: text differs"]
    found = []
    for a, b in zip(NUMBER.findall(old), NUMBER.findall(new), strict=True):
        x, y = float(a), float(b)
        if abs(x - y) > max(_last_digit_unit(a), _last_digit_unit(b)) + rtol * abs(x):
            found.append(f"{fresh}: {a} -> {b}")
    return found


def compare_png(committed: Path, fresh: Path) -> list[str]:
    """A difference when the PNGs' sizes differ or their RMS pixel difference exceeds PNG_RMS
    (compared in a scratch folder: matplotlib writes a diff image next to a failing one)."""
    import shutil
    import tempfile

    from matplotlib.testing.compare import compare_images
    from matplotlib.testing.exceptions import ImageComparisonFailure

    with tempfile.TemporaryDirectory() as scratch:
        expected = shutil.copy(committed, Path(scratch) / "committed.png")
        actual = shutil.copy(fresh, Path(scratch) / "fresh.png")
        try:
            result = compare_images(expected, actual, tol=PNG_RMS, in_decorator=True)
        except ImageComparisonFailure as error:  # the sizes differ
            return [f"{fresh}: {str(error).splitlines()[0]}"]
    if result is None:
        return []
    return [f"{fresh}: RMS pixel difference {result['rms']:.2f} > {PNG_RMS}"]


def compare_trees(committed: Path, fresh: Path) -> list[str]:
    """Every difference beyond tolerance between two output trees (files missing on either
    side included), one line each; an empty list means no drift."""
    committed, fresh = Path(committed), Path(fresh)
    for root, name in ((committed, "committed"), (fresh, "fresh")):
        if not root.is_dir():
            raise ValueError(f"{name} must be a directory of outputs; got {str(root)!r}")

    def files(root):
        return {p.relative_to(root) for p in root.rglob("*") if p.suffix in COMPARED}

    old, new = files(committed), files(fresh)
    found = [f"{fresh / p}: missing" for p in sorted(old - new)]
    found += [f"{fresh / p}: not committed" for p in sorted(new - old)]
    for relative in sorted(old & new):
        a, b = committed / relative, fresh / relative
        if a.read_bytes() == b.read_bytes():
            continue
        if relative.suffix == ".png":
            found += compare_png(a, b)
        elif relative.suffix == ".csv":
            found += compare_csv(a, b, relative_tolerance(relative))
        else:
            found += compare_text_table(a, b, relative_tolerance(relative))
    return found
