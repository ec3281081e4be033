"""Drift of regenerated outputs against the committed ones, without false alarms from another
CPU: BLAS and numpy vector kernels change the last bits of floats between machines, so the
comparison is by tolerance per quantity (byte identity stays a same-machine check).

Rows are matched by their keys, not by position: a tidy table's label columns
(:data:`KEY_COLUMNS`: kind, series, panel, row id, ...) name a group of rows, which must have the
same size on both sides; within a group the rows keep their order (a curve's points, a sample's
draws). Each number then gets the tolerance of its quantity (:data:`TOLERANCES`, each with the
reason that fixes it):

- ``float64``: relative :data:`CSV_RTOL`, absolute that relative share of the largest value of
  the same column in its group (a curve's point near zero carries the rounding of the whole
  computation, not its own), at least :data:`CSV_ATOL`.
- ``float32``: paper B's numbers come from float32 scores, so its files and the claims rows of
  paper B get :data:`FLOAT32_RTOL`.
- A number computed from others (a difference, a gap, an extrapolated limit) carries their
  rounding, not its own: in a claims row each number may also move by its tolerance's share of
  the largest of the row's statistics (:data:`ROW_SCALE_COLUMNS`: value, interval, limit), its
  text cells included; a printed number in Markdown or LaTeX by that share of the largest
  non-integer number on its line.
- ``share``: a stability, or a share of resampled verdicts printed as a percentage, moves by
  whole resamples (:data:`SHARE_ATOL`).
- ``count``: a histogram count moves by the values that lie within their cross-CPU error of a
  bin edge; a table that gives that number per bin (column :data:`EDGE_COUNT_COLUMN`, e.g.
  :func:`attnspec.papers.c.pretrained_summary.near_bin_edge`) allows exactly that many.

Text must be equal once its numbers are masked; printed numbers (Markdown, LaTeX, CSV text cells)
may move by one unit of their last printed digit or by their quantity's tolerance. Values at
rounding level are printed as bounds at the source (:class:`attnspec.tables.Residual`). PNGs:
root-mean-square pixel difference at most :data:`PNG_RMS` (0-255 scale). PDFs are not compared
(their PNG twin is); a caption's "Produced by attnspec" line names the commit and is left out.
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass(frozen=True)
class Tolerance:
    """How far a number may move between two honest runs: relative ``rtol`` or absolute
    ``atol``, whichever is larger, and why."""

    rtol: float
    atol: float
    reason: str


CSV_RTOL = 1e-9
CSV_ATOL = 1e-14
FLOAT32_RTOL = 4e-5
SHARE_ATOL = 0.1
PNG_RMS = 6.0
FLOAT32_PAPERS = ("B",)
TOLERANCES = {
    "float64": Tolerance(
        CSV_RTOL,
        CSV_ATOL,
        "float64 arithmetic in other vector kernels: measured within 1e-11 relative on two "
        "machines at one commit; 1e-14 absolute for zeros up to rounding (1e-17 against 0)",
    ),
    "float32": Tolerance(
        FLOAT32_RTOL,
        CSV_ATOL,
        "paper B's scores are float32 (attnspec.papers.b.sticking.SCORE_FLOAT32_BOUND): another "
        "SGEMM kernel moves its numbers by about 1e-6 relative, measured within 2e-5",
    ),
    "share": Tolerance(
        0.0,
        SHARE_ATOL,
        "a share of re-judged bootstrap resamples is a step function of the data: float32 "
        "rounding that moves one resample's interval end across a region edge flips every "
        "resample of that composition (few with 2 draws a point: 0.215 -> 0.254 measured); "
        "0.1 is the resolution a reader uses (fragile below 0.9), and the fragile label itself "
        "is text and must agree",
    ),
}
COMPARED = (".csv", ".md", ".tex", ".png", ".pdf")
PRODUCED_BY = re.compile(r"^\*Produced by attnspec .*$", flags=re.M)
NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w])")
# Columns that name a row in any tidy table or table of outputs: labels (a curve, a row of a
# table) and integer indices within them (a draw, an index k).
LABEL_COLUMNS = (
    "paper", "claim_id", "row_id", "kind", "series", "panel", "model", "profile", "mask",
    "sampler", "stage", "scheme", "covariance", "schedule", "side", "convention", "metric",
    "name", "configuration", "law", "moment", "sharing",
)  # fmt: skip
INDEX_COLUMNS = ("layer", "head", "passage", "draw", "k", "rank", "heads", "spike")
KEY_COLUMNS = LABEL_COLUMNS + INDEX_COLUMNS
SHARE_COLUMNS = ("stability",)
# A histogram's tidy table (x the bin, y its count) gives per bin the values within their
# cross-CPU error of its edges in EDGE_COUNT_COLUMN; y may move by that many.
EDGE_COUNT_COLUMN = "near_bin_edge"
EDGE_COUNTED = "y"
SHARE_CONTEXT = re.compile(r"(stability |fragile, )$")
# The fragile label is the stability against a threshold (0.9): within the stability's tolerance
# of it either label is the same result, so the labels are left out of the text compared (the
# stability itself is compared, as a share) and the dashboard's fragile column is not compared.
_VERDICT = r"(?:[a-z -]+ \(\d+ ?%\)|[a-z -]+ in \d+ ?% of resamples|no single alternative)"
FRAGILE_LABELS = re.compile(
    rf", fragile: {_VERDICT}|; fragile: the same verdict in \d+ ?% of resampled draws, "
    rf"{_VERDICT} otherwise| \((?:fragile, |stability )\d+ ?%\)|fragile pass: "
    r"|\d+(?= verdicts are fragile)"
)
DERIVED_COLUMNS = ("fragile",)
# The statistics of a claims row, computed from the same data: their largest magnitude is the
# row's scale.
ROW_SCALE_COLUMNS = ("value", "interval_low", "interval_high", "limit", "limit_low", "limit_high")
PERCENT_AFTER = re.compile(r"^ ?%(\)| of resampled)")


def relative_tolerance(path: Path) -> float:
    """The relative tolerance of a file's numbers: paper B's files get FLOAT32_RTOL."""
    return FLOAT32_RTOL if any(part == "paperB" for part in Path(path).parts) else CSV_RTOL


def _row_rtol(path: Path, table) -> np.ndarray:
    """Per row, the relative tolerance: the file's, or float32 for a claims row of paper B."""
    rtol = np.full(len(table), relative_tolerance(path))
    if "paper" in table.columns:
        rtol[table["paper"].astype(str).isin(FLOAT32_PAPERS).to_numpy()] = FLOAT32_RTOL
    elif "row_id" in table.columns:
        first = table["row_id"].astype(str).str[0]
        rtol[first.isin(FLOAT32_PAPERS).to_numpy()] = FLOAT32_RTOL
    return rtol


def _last_digit_unit(text: str) -> float:
    """One unit of the last printed digit of a number as printed (``0.0123`` -> 1e-4)."""
    mantissa, _, exponent = text.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def _is_share(text: str, match: re.Match, in_share_column: bool) -> bool:
    """Whether a printed number is a share of resamples: a stability (its column, or after
    "stability " / "fragile, "), or a percentage closing a parenthesis ("(42%)")."""
    before, after = text[max(0, match.start() - 12) : match.start()], text[match.end() :]
    return in_share_column or bool(SHARE_CONTEXT.search(before) or PERCENT_AFTER.match(after))


def _line_scale(text: str, offset: int) -> float:
    """The largest magnitude of the non-integer numbers printed on the line of ``offset``."""
    start = text.rfind("\n", 0, offset) + 1
    end = text.find("\n", offset)
    line = text[start : end if end >= 0 else len(text)]
    numbers = [
        abs(float(m.group())) for m in NUMBER.finditer(line) if re.search(r"[.eE]", m.group())
    ]
    return max(numbers, default=0.0)


def _number_moved(
    a: str, b: str, rtol: float, share: bool, percent: bool, scale: float = 0.0
) -> bool:
    x, y = float(a), float(b)
    allowed = max(_last_digit_unit(a), _last_digit_unit(b)) + rtol * max(abs(x), scale)
    if share:
        allowed = max(allowed, SHARE_ATOL * (100.0 if percent else 1.0))
    return abs(x - y) > allowed


def compare_text(
    old: str,
    new: str,
    rtol: float,
    share_column: Callable[[str, int], bool] | None = None,
    scale: float | None = None,
) -> list[str]:
    """Differences between two texts: ``text differs`` when they differ once numbers are
    masked, else ``a -> b`` for each printed number moved beyond one unit of its last digit and
    ``rtol`` of the larger of itself and ``scale`` (None: the largest non-integer number on its
    line; a share of resamples: beyond SHARE_ATOL). ``share_column(text, offset)`` says whether
    the number at ``offset`` lies in a stability column of a table. Fragile labels
    (:data:`FRAGILE_LABELS`) are left out of both."""
    old, new = FRAGILE_LABELS.sub("", old), FRAGILE_LABELS.sub("", new)
    if NUMBER.sub("#", old) != NUMBER.sub("#", new):
        return ["text differs"]
    found = []
    for a, b in zip(NUMBER.finditer(old), NUMBER.finditer(new), strict=True):
        in_column = share_column is not None and share_column(old, a.start())
        share = _is_share(old, a, in_column)
        percent = share and bool(PERCENT_AFTER.match(old[a.end() :]))
        around = _line_scale(old, a.start()) if scale is None else scale
        if _number_moved(a.group(), b.group(), rtol, share, percent, around):
            found.append(f"{a.group()} -> {b.group()}")
    return found


def _markdown_share_column(text: str, offset: int) -> bool:
    """Whether ``offset`` lies in a Markdown table cell under a header named in SHARE_COLUMNS."""
    start = text.rfind("\n", 0, offset) + 1
    line = text[start : text.find("\n", offset) if "\n" in text[offset:] else len(text)]
    if not line.startswith("|"):
        return False
    lines = text[:start].split("\n")
    header = None
    for previous in reversed(lines[:-1]):
        if not previous.startswith("|"):
            break
        header = previous
    if header is None:
        return False
    column = line[: offset - start].count("|") - 1
    names = [cell.strip() for cell in header.strip("|").split("|")]
    return 0 <= column < len(names) and names[column] in SHARE_COLUMNS


def _label(value) -> str:
    """A key cell as text: missing as "", whole numbers without a decimal point (an integer
    column with missing cells reads as floats)."""
    if isinstance(value, float | np.floating):
        return "" if np.isnan(value) else str(int(value)) if value.is_integer() else repr(value)
    return "" if value is None else str(value)


def _groups(table, keys: Sequence[str]) -> dict[tuple, list[int]]:
    """Row positions per key, in file order."""
    groups: dict[tuple, list[int]] = {}
    for position, row in enumerate(table[list(keys)].itertuples(index=False, name=None)):
        groups.setdefault(tuple(map(_label, row)), []).append(position)
    return groups


def _column_scale(values: np.ndarray, positions: Sequence[int]) -> float:
    finite = np.abs(values[positions])
    finite = finite[np.isfinite(finite)]
    return float(finite.max()) if finite.size else 0.0


def compare_csv(committed: Path, fresh: Path, rtol: float | None = None) -> list[str]:
    """Differences between two CSVs, rows matched by :data:`KEY_COLUMNS`: columns, a key's
    row count, text cells (numbers in them printed-number rules), numbers beyond their
    quantity's tolerance. ``rtol`` overrides the file's relative tolerance."""
    import pandas as pd

    old, new = pd.read_csv(committed), pd.read_csv(fresh)
    if list(old.columns) != list(new.columns):
        return [f"{fresh}: columns differ ({list(old.columns)} -> {list(new.columns)})"]
    keys = [c for c in old.columns if c in KEY_COLUMNS]
    old_groups = _groups(old, keys) if keys else {(): list(range(len(old)))}
    new_groups = _groups(new, keys) if keys else {(): list(range(len(new)))}
    labels = [c for c in keys if c in LABEL_COLUMNS]
    curves = _groups(old, labels) if labels else {(): list(range(len(old)))}
    found = []
    for key in sorted(set(old_groups) ^ set(new_groups)):
        side = "missing" if key in old_groups else "not committed"
        found.append(f"{fresh}: rows {dict(zip(keys, key, strict=True))} {side}")
    row_rtol = _row_rtol(Path(committed), old) if rtol is None else np.full(len(old), rtol)
    row_scale = _row_scale(old)
    pairs_old, pairs_new = [], []
    for key, rows in old_groups.items():
        if key not in new_groups:
            continue
        if len(rows) != len(new_groups[key]):
            found.append(f"{fresh}: rows {dict(zip(keys, key, strict=True))}: {len(rows)} -> "
                         f"{len(new_groups[key])}")  # fmt: skip
            continue
        pairs_old += rows
        pairs_new += new_groups[key]
    if not pairs_old:
        return found
    old_rows, new_rows = old.iloc[pairs_old], new.iloc[pairs_new]
    for column in old.columns:
        if column in keys or column in DERIVED_COLUMNS:
            continue
        found += _compare_column(fresh, column, old, old_rows, new_rows, pairs_old, curves,
                                 row_rtol, row_scale)  # fmt: skip
    return found


def _row_scale(table) -> np.ndarray:
    """Per row, the largest magnitude of its statistics (:data:`ROW_SCALE_COLUMNS`; 0 for a
    table without them)."""
    import pandas as pd

    columns = [c for c in ROW_SCALE_COLUMNS if c in table.columns]
    if not columns:
        return np.zeros(len(table))
    values = table[columns].apply(pd.to_numeric, errors="coerce").abs().to_numpy(dtype=np.float64)
    return np.where(np.isfinite(values), values, 0.0).max(axis=1)


def _allowed(column, old, old_rows, pairs_old, curves, rtol, x, row_scale) -> np.ndarray:
    """Per row, how far a number of ``column`` may move (module docstring)."""
    if column in SHARE_COLUMNS:
        return np.full(x.shape, SHARE_ATOL)
    values = old[column].to_numpy(dtype=np.float64)
    scale = np.empty(len(old))
    for rows in curves.values():
        scale[rows] = _column_scale(values, rows)
    scale = np.maximum(scale, row_scale)
    with np.errstate(invalid="ignore"):
        allowed = np.maximum(CSV_ATOL, rtol * scale[pairs_old]) + rtol * np.abs(x)
    if column == EDGE_COUNTED and EDGE_COUNT_COLUMN in old.columns:
        near = old_rows[EDGE_COUNT_COLUMN].to_numpy(dtype=np.float64)
        allowed = np.where(np.isnan(near), allowed, near)
    return allowed


def _compare_column(fresh, column, old, old_rows, new_rows, pairs_old, curves, row_rtol, row_scale):
    import pandas as pd

    a, b = old_rows[column], new_rows[column]
    rtol, scale = row_rtol[pairs_old], row_scale[pairs_old]
    if pd.api.types.is_numeric_dtype(a) and pd.api.types.is_numeric_dtype(b):
        x, y = a.to_numpy(dtype=np.float64), b.to_numpy(dtype=np.float64)
        allowed = _allowed(column, old, old_rows, pairs_old, curves, rtol, x, row_scale)
        with np.errstate(invalid="ignore"):
            close = (x == y) | (np.abs(y - x) <= allowed) | (np.isnan(x) & np.isnan(y))
        if close.all():
            return []
        row = int(np.argmin(close))
        was, now = a.tolist()[row], b.tolist()[row]  # Python values: no np.float64(...)
        return [f"{fresh}: column {column!r}, {int((~close).sum())} cells differ "
                f"(row {pairs_old[row]}: {was!r} -> {now!r})"]  # fmt: skip
    found = []
    cells = zip(a.fillna(""), b.fillna(""), rtol, scale, strict=True)
    for row, (was, now, tolerance, around) in enumerate(cells):
        if str(was) == str(now):
            continue
        moved = compare_text(str(was), str(now), float(tolerance), scale=float(around))
        if moved:
            found.append(f"{fresh}: column {column!r}, row {pairs_old[row]}: {moved[0]}")
    return found


def compare_text_table(committed: Path, fresh: Path, rtol: float | None = None) -> list[str]:
    """Differences between two Markdown/LaTeX files (the caption's provenance line left out):
    any text change, or a printed number moved beyond its tolerance (:func:`compare_text`)."""
    rtol = relative_tolerance(Path(committed)) if rtol is None else rtol
    old = PRODUCED_BY.sub("", committed.read_text(encoding="utf-8"))
    new = PRODUCED_BY.sub("", fresh.read_text(encoding="utf-8"))
    share_column = _markdown_share_column if committed.suffix == ".md" else None
    return [f"{fresh}: {line}" for line in compare_text(old, new, rtol, share_column)]


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


PDF_RENDER_DPI = 150
"""A vector PDF that differs in its bytes is rendered at this resolution (the PNG's) and compared
as the PNGs are."""


def compare_pdf(committed: Path, fresh: Path) -> list[str]:
    """A difference when the PDFs' page counts or page sizes differ, or their first pages,
    rendered at PDF_RENDER_DPI (pdfium), differ by more than PNG_RMS."""
    import tempfile

    import pypdfium2

    with tempfile.TemporaryDirectory() as scratch:
        rendered = []
        for name, path in (("committed", committed), ("fresh", fresh)):
            document = pypdfium2.PdfDocument(str(path))
            try:
                pages = [document[i].get_size() for i in range(len(document))]
                image = document[0].render(scale=PDF_RENDER_DPI / 72).to_pil()
            finally:
                document.close()
            image.save(Path(scratch) / f"{name}.png")
            rendered.append((pages, Path(scratch) / f"{name}.png"))
        (old_pages, old_png), (new_pages, new_png) = rendered
        if old_pages != new_pages:
            return [f"{fresh}: pages {new_pages} (points), committed {old_pages}"]
        return [line.replace(str(new_png), str(fresh)) for line in compare_png(old_png, new_png)]


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
    return found + compare_files(committed, fresh, sorted(old & new))


def compare_files(committed: Path, fresh: Path, relatives: Sequence[Path]) -> list[str]:
    """Every difference beyond tolerance between the files ``relatives`` (paths relative to
    both roots, present on both sides), one line each."""
    found = []
    for relative in relatives:
        a, b = Path(committed) / relative, Path(fresh) / relative
        if a.read_bytes() == b.read_bytes():
            continue
        if relative.suffix == ".png":
            found += compare_png(a, b)
        elif relative.suffix == ".pdf":
            found += compare_pdf(a, b)
        elif relative.suffix == ".csv":
            found += compare_csv(a, b)
        else:
            found += compare_text_table(a, b)
    return found
