"""Committed outputs (``figures/``) replaced only by complete, checked new ones.

A rule whose outputs are committed files flags them ``update()`` (Snakemake then neither
deletes them before the job runs nor after it fails) and adds a receipt,
``results/published/<path under figures/>.sha256``. Its script runs through
:func:`run_staged`: the script writes each committed output under ``results/staged/`` instead;
when it has returned and every staged file passes :func:`output_problem`, each committed file is
replaced by its new version (written beside it, then ``os.replace``: atomic per file), and the
receipt records the SHA-256 of each file as published (``sha256sum -c`` reads it). A job that
fails leaves every committed file as it was and has no receipt (Snakemake removes a failed
job's other outputs), so the next run of a target that needs it runs it again.

At the start of a run, :func:`remove_outdated_receipts` removes every receipt whose files no
longer hold what was published (cut, edited, checked out from git, deleted, or replaced by a
folder): a run of a target that includes them reruns their job, which restores the files.
"""

import contextlib
import hashlib
import logging
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from attnspec.workflow.io import atomic_path, write_text

COMMITTED = Path("figures")
STAGING = Path("results") / "staged"
RECEIPTS = Path("results") / "published"


class PublishError(RuntimeError):
    """A committed output cannot be replaced; the message names the file and what to do."""


def staged_path(path: str | os.PathLike) -> Path:
    """Where a job stages the committed output ``path`` (relative to the working directory)."""
    return STAGING / Path(path)


def is_committed(path: str | os.PathLike) -> bool:
    """Whether ``path`` (relative to the working directory) is under ``figures/``."""
    return Path(path).parts[:1] == COMMITTED.parts


def receipt_of(path: str | os.PathLike) -> Path:
    """The receipt of the job writing ``figures/<stem>.*`` from ``path`` = ``figures/<stem>``."""
    return RECEIPTS / f"{Path(path).relative_to(COMMITTED)}.sha256"


_SIGNATURES = {".png": b"\x89PNG\r\n\x1a\n", ".pdf": b"%PDF-", ".npz": b"PK\x03\x04"}
_TEXTS = (".csv", ".md", ".tex", ".mmd")


def output_problem(path: Path) -> str | None:
    """Why the staged file ``path`` is not a complete output of its kind, or None: it must be a
    non-empty regular file; a PNG, PDF or npz must start with its format's signature, a text
    must be UTF-8, and a CSV must hold a header and at least one row."""
    if not path.is_file():
        return "was not written"
    data = path.read_bytes()
    if not data:
        return "is empty"
    signature = _SIGNATURES.get(path.suffix)
    if signature is not None and not data.startswith(signature):
        return f"does not start as a {path.suffix} file does"
    if path.suffix in _TEXTS:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return "is not UTF-8 text"
        if path.suffix == ".csv" and len([line for line in text.splitlines() if line]) < 2:
            return "has no row under its header"
    return None


def destination_problem(path: Path) -> str | None:
    """Why the committed output ``path`` cannot be replaced by a file, or None."""
    if path.exists() and not path.is_file():
        what = "a folder" if path.is_dir() else "not a regular file"
        return (
            f"{path} is {what}, where this job writes a file: move it away (nothing in it is "
            "touched) and run the command again"
        )
    return None


def digest(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def publish(staged: Path, committed: Path) -> None:
    """Replace ``committed`` by a copy of ``staged``: written beside it, then renamed over it."""
    with atomic_path(committed) as tmp:
        shutil.copyfile(staged, tmp)


class StagedOutputs(list):
    """A job's output paths by position and by name, as Snakemake's own list gives them."""

    def __init__(self, paths, names):
        super().__init__(paths)
        self._names = dict(names)

    def __getattr__(self, name):
        try:
            return self[self._names[name]]
        except KeyError:
            raise AttributeError(name) from None

    def keys(self):
        """The output names, as Snakemake's output list gives them."""
        return self._names.keys()


class StagedJob:
    """The Snakemake job object ``smk`` with the committed outputs staged: everything else is
    the job's own."""

    def __init__(self, smk, output: StagedOutputs):
        self._smk = smk
        self.output = output

    def __getattr__(self, name):
        return getattr(self._smk, name)


def _named(output) -> dict[str, int]:
    """Index of each named single output of Snakemake's output list (none for a plain list)."""
    paths = [str(p) for p in output]
    named = {}
    for name in getattr(output, "keys", dict)():
        value = getattr(output, name)
        if isinstance(value, str):
            named[name] = paths.index(str(value))
    return named


def run_staged(main: Callable, smk) -> None:
    """Run ``main`` on the job ``smk`` with its committed outputs staged, then publish them and
    write the job's receipt (the one output under results/published/). PublishError, before
    ``main`` runs, if a committed output is a folder; after it, if a staged file is not
    complete (:func:`output_problem`). On any error nothing under figures/ has changed."""
    paths = [Path(p) for p in smk.output]
    committed = [p for p in paths if is_committed(p)]
    receipts = [p for p in paths if p.parts[:2] == RECEIPTS.parts]
    if len(receipts) != 1 or not committed:
        raise PublishError(
            f"the rule must have committed outputs under {COMMITTED}/ and one receipt under "
            f"{RECEIPTS}/ (workflow/rules/common.smk: committed, receipt); it has {paths}"
        )
    for path in committed:
        problem = destination_problem(path)
        if problem:
            raise PublishError(problem)
    staged = {path: staged_path(path) for path in committed}
    for path in staged.values():
        path.unlink(missing_ok=True)
        path.parent.mkdir(parents=True, exist_ok=True)
    view = [str(staged.get(p, p)) for p in paths]
    try:
        main(StagedJob(smk, StagedOutputs(view, _named(smk.output))))
        for path, staged_file in staged.items():
            problem = output_problem(staged_file)
            if problem:
                raise PublishError(f"{staged_file} (the new {path}) {problem}: {path} is kept")
        for path, staged_file in staged.items():
            publish(staged_file, path)
    finally:
        for path in staged.values():
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
    lines = [f"{digest(path)}  {path.as_posix()}" for path in committed]
    write_text(receipts[0], "\n".join(lines) + "\n")
    logging.getLogger("attnspec").info("published %s", ", ".join(map(str, committed)))


def _receipt_problem(root: Path, receipt: Path) -> str | None:
    """The first file the receipt lists that no longer holds what was published, and how."""
    try:
        lines = receipt.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return f"{receipt.relative_to(root)} is unreadable"
    for line in lines:
        recorded, _, name = line.partition("  ")
        path = root / name
        if not name or not path.is_file():
            return f"{name or receipt.relative_to(root)} is missing or not a file"
        if digest(path) != recorded:
            return f"{name} has changed"
    return None


def remove_outdated_receipts(root: str | os.PathLike) -> list[str]:
    """Remove every receipt under ``root/results/published`` whose files no longer hold what
    its job published, and return why for each (its first such file, and how)."""
    root = Path(root)
    found = []
    for receipt in sorted((root / RECEIPTS).rglob("*.sha256")):
        problem = _receipt_problem(root, receipt)
        if problem:
            receipt.unlink()
            found.append(problem)
    return found


def remove_staged_leftovers(root: str | os.PathLike) -> list[Path]:
    """Remove the staged files under ``root/results/staged`` and return them: left by a job
    that was killed. Call only while holding the run lock (no job of a live run is writing)."""
    staged = [p for p in sorted((Path(root) / STAGING).rglob("*")) if p.is_file()]
    for path in staged:
        path.unlink()
    return staged
