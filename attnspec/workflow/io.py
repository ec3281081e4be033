"""File I/O for the workflow's scripts: atomic writes, deterministic figures, logs.

The maths modules never touch files; scripts call these helpers so that a failed job leaves
nothing half-written (write to a temporary file in the same folder, then rename) and so that
figures are byte-identical across reruns (PDF/PNG metadata stripped).
"""

import contextlib
import csv
import logging
import os
import re
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import numpy as np

PDF_METADATA = {"Creator": None, "Producer": None, "CreationDate": None}
PNG_METADATA = {"Software": None}


def is_partial_file(name: str) -> bool:
    """Whether ``name`` is a temporary file of :func:`atomic_path`: ".<output name>.<8
    characters of mkstemp><suffix of the output name>"."""
    found = re.fullmatch(r"\.(?P<name>.+)\.[a-z0-9_]{8}(?P<suffix>\.[^./]+)?", name)
    return bool(found) and Path(found["name"]).suffix == (found["suffix"] or "")


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix, dir=target.parent)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the usual permissions of a new file
    try:
        yield Path(tmp)
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def save_npz(path: str | os.PathLike, **arrays: np.ndarray) -> None:
    """Write arrays to an uncompressed ``.npz`` atomically."""
    with atomic_path(path) as tmp, open(tmp, "wb") as handle:
        np.savez(handle, **arrays)


def load_npz(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """Read every array of an ``.npz`` into a dict. A member holding pickled objects is refused
    (never unpickled), and an intermediate file's members are checked against its kind
    (:func:`attnspec.workflow.npzschema.check_arrays`): a
    :class:`~attnspec.workflow.npzschema.ResultError` names the file and the member."""
    from attnspec.workflow.npzschema import check_arrays, pickled

    arrays = {}
    with np.load(path, allow_pickle=False) as data:
        for key in data.files:
            try:
                arrays[key] = data[key]
            except ValueError as error:
                if "allow_pickle" not in str(error):
                    raise
                raise pickled(path, key) from None
    check_arrays(path, arrays)
    return arrays


EVIDENCE_SEPARATOR = "::"


def save_fixed_npz(path: str | os.PathLike, **arrays: np.ndarray) -> None:
    """Write arrays to an uncompressed ``.npz`` atomically with byte-identical content on every
    run: np.savez stamps each member with the current time, this writes a fixed 1980-01-01."""
    import io
    import zipfile

    with atomic_path(path) as tmp, zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as archive:
        for name, value in arrays.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asanyarray(value), allow_pickle=False)
            archive.writestr(
                zipfile.ZipInfo(f"{name}.npy", (1980, 1, 1, 0, 0, 0)), buffer.getvalue()
            )


def save_evidence(path: str | os.PathLike, evidence: Sequence) -> None:
    """Write :class:`attnspec.claims.evidence.Evidence` items to one ``.npz`` atomically, with the
    same bytes on every run: arrays under ``<row_id>::<key>``, the texts as string arrays (no
    pickling)."""
    arrays = {}
    for item in evidence:
        for key, value in item.to_arrays().items():
            arrays[f"{item.row_id}{EVIDENCE_SEPARATOR}{key}"] = value
        arrays[f"{item.row_id}{EVIDENCE_SEPARATOR}quantity"] = np.array(item.quantity)
        arrays[f"{item.row_id}{EVIDENCE_SEPARATOR}note"] = np.array(item.note)
    save_fixed_npz(path, **arrays)


def load_evidence(path: str | os.PathLike) -> list:
    """The :class:`attnspec.claims.evidence.Evidence` items of a file written by
    :func:`save_evidence`, in the order they were written."""
    from attnspec.claims.evidence import from_arrays

    arrays = load_npz(path)
    split = [key.split(EVIDENCE_SEPARATOR, 1) for key in arrays]
    rows = list(dict.fromkeys(row for row, _ in split))
    items = []
    for row in rows:
        own = {key: arrays[f"{r}{EVIDENCE_SEPARATOR}{key}"] for r, key in split if r == row}
        quantity, note = str(own.pop("quantity")), str(own.pop("note"))
        items.append(from_arrays(row, own, quantity=quantity, note=note))
    return items


def write_table(path: str | os.PathLike, frame, missing: str = "") -> None:
    """Write a table (a pandas DataFrame) as CSV atomically: no index, ``\\n`` line ends, floats
    in shortest round-trip form (pandas' own), ``missing`` for missing values (empty cells in
    the figures' tables; the claims tables write ``nan``, a number their readers parse)."""
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False, lineterminator="\n", na_rep=missing)


def read_csv(path: str | os.PathLike) -> list[dict[str, str]]:
    """Read a CSV written by :func:`write_table` as a list of row dicts (values as text)."""
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def write_text(path: str | os.PathLike, text: str) -> None:
    """Write text atomically, as UTF-8 (captions and notebooks hold non-ASCII maths)."""
    with atomic_path(path) as tmp:
        Path(tmp).write_text(text, encoding="utf-8")


def save_figure(figure, pdf_path: str | os.PathLike | None, png_path: str | os.PathLike) -> None:
    """Save a matplotlib figure as PNG and, unless ``pdf_path`` is None, PDF at its own size (a
    print width, never widened by a tight bounding box) with deterministic bytes (metadata
    stripped).

    The layout is computed once: one draw runs the figure's layout engine, and both files reuse
    its positions. What a figure editor would reject
    (:func:`attnspec.plotting.craft.craft_problems`) and what breaks the journal conventions
    (:func:`attnspec.plotting.craft.convention_problems`: a suptitle, a panel without its
    letter) and what hides data (:func:`attnspec.plotting.craft.layering_problems`: text over
    data, a hidden line, two series in near colours) is logged as a warning; the figure tests
    and the workflow test fail on it.
    """
    from attnspec.plotting.craft import convention_problems, craft_problems, layering_problems
    from attnspec.plotting.style import PNG_DPI

    figure.set_dpi(PNG_DPI)  # the layout is computed at the PNG's resolution
    log = logging.getLogger("attnspec")
    for problem in craft_problems(figure) + convention_problems(figure):
        log.warning("%s: %s", png_path, problem)
    for problem in layering_problems(figure):
        log.warning("%s: hides data: %s", png_path, problem)
    figure.set_layout_engine("none")  # keep the positions that draw computed
    if pdf_path is not None:
        with atomic_path(pdf_path) as tmp:
            figure.savefig(tmp, format="pdf", metadata=PDF_METADATA)
    with atomic_path(png_path) as tmp:
        figure.savefig(tmp, format="png", dpi=PNG_DPI, metadata=PNG_METADATA)


def configure_logging(log_path: str | os.PathLike | None) -> logging.Logger:
    """Send the script's log records to its Snakemake ``log:`` file (stderr if none)."""
    handler = logging.FileHandler(log_path, mode="w") if log_path else logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
    logging.getLogger("fontTools").setLevel(logging.WARNING)  # PDF font subsetting chatter
    logging.getLogger("matplotlib").setLevel(logging.WARNING)
    return logging.getLogger("attnspec")


def render_caption(template: str, config: dict) -> str:
    """Render a Snakemake report caption (Jinja2, ``snakemake.config[...]``) outside a report."""
    from types import SimpleNamespace

    import jinja2

    return jinja2.Template(template, undefined=jinja2.StrictUndefined).render(
        snakemake=SimpleNamespace(config=config)
    )


def rule_caption(smk) -> str:
    """The rule's ``input.caption`` (UTF-8) rendered with the run's config, ending with the
    provenance line of the config snapshot ``input.config`` (version and code commit)."""
    from attnspec.workflow.provenance import read_provenance

    caption = render_caption(Path(smk.input.caption).read_text(encoding="utf-8"), smk.config)
    provenance = read_provenance(Path(smk.input.config).read_text(encoding="utf-8"))
    return caption.rstrip("\n") + (f"\n\n*Produced by {provenance}.*" if provenance else "")


METHODS_HEADING = "**Methods.**"
"""The line of a caption that starts its methods block (after the short part: what is shown)."""


def with_verdicts(caption: str, judged, at_scale: Mapping | None = None) -> str:
    """The caption with one line naming the verdict of each judged claims-table row (headline
    verdicts, :func:`attnspec.claims.dashboard.verdict_label`; ``at_scale``: the paper preset's
    rows by row id, whose verdicts follow) inserted before its methods block, so that the short
    part a reader sees first says what is shown and what was decided; a caption without a
    methods block, or a figure without judged rows, is returned unchanged."""
    from attnspec.claims.dashboard import verdict_label

    if not judged or METHODS_HEADING not in caption:
        return caption
    at_scale = at_scale or {}
    labels = [verdict_label(row, at_scale.get(row["row_id"])) for row in judged]
    line = "Verdicts: " + "; ".join(labels) + "."
    head, tail = caption.split(METHODS_HEADING, 1)
    return f"{head.rstrip()}\n\n{line}\n\n{METHODS_HEADING}{tail}"


def paper_scale_rows(smk) -> dict[str, Mapping]:
    """The paper preset's judged rows by row id, from the job's ``paper_scale`` inputs (its
    committed claims tables, given to the default preset's figures when they exist); empty
    without them."""
    paths = getattr(smk.input, "paper_scale", None) or []
    return {row["row_id"]: row for path in paths for row in read_csv(path)}


def write_plotted(smk, frame):
    """Write a figure's tidy table (a DataFrame: every number drawn, a ``kind`` column telling
    data, theory and statistics apart) as ``output.plotted`` and return it as read back from
    that CSV: the figure is drawn from exactly what a reader of the CSV gets."""
    import pandas as pd

    write_table(smk.output.plotted, frame)
    return pd.read_csv(smk.output.plotted)


def write_figure_outputs(
    smk,
    figure,
    tables=(),
    judged=(),
    digits: int = 4,
    *,
    intro: str = "\n\n",
) -> None:
    """Write the files of one figure rule and release the figure.

    ``output.png`` and, when the rule has it (config vector_pdfs), ``output.pdf`` (deterministic
    bytes) and ``output.caption`` (the rendered
    ``input.caption``, then the Markdown text ``intro`` in the figures' symbols
    (:func:`attnspec.plotting.symbols.with_symbols`), then the ``tables``, each a (header,
    rows) pair, then the verdicts of the ``judged`` claims-table rows this figure supports,
    :func:`attnspec.claims.dashboard.verdict_table`); ``output.plotted`` is written before the
    figure is drawn, by :func:`write_plotted`.
    """
    from matplotlib import pyplot

    from attnspec.claims.dashboard import verdict_table
    from attnspec.plotting.symbols import with_symbols
    from attnspec.tables import to_markdown

    save_figure(figure, getattr(smk.output, "pdf", None), smk.output.png)
    pyplot.close(figure)
    tables = list(tables)
    at_scale = paper_scale_rows(smk)
    if judged:
        tables.append(verdict_table(judged, at_scale))
    caption = with_verdicts(rule_caption(smk), judged, at_scale)
    markdown = "\n".join(to_markdown(header, rows, digits=digits) for header, rows in tables)
    write_text(smk.output.caption, caption + with_symbols(intro) + markdown)
