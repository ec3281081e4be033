"""The package's layers (docs/architecture.md): an import only runs down, never up or sideways.

The library's maths (theory, models, spectra, multihead, pretrained and the root helpers) imports
no other layer; the claims engine and the shared drawing import only the maths; a paper's room
imports the layers below, its own modules and the rooms' shared ones, never another room;
the workflow plumbing may import everything below it; only the command line sits above it.
Every import is read from the source, inside functions too.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "attnspec"
LIBRARY = ("theory", "models", "spectra", "multihead", "pretrained")
ROOT_HELPERS = ("distances", "intervals", "seeding", "validation", "tables", "__init__")
RANK = {
    **{name: 0 for name in (*LIBRARY, *ROOT_HELPERS)},
    "claims": 1,
    "plotting": 1,
    "papers": 2,
    "workflow": 3,
    "cli": 4,
}


def part_of(module: str) -> str:
    """The top-level part of ``attnspec.<part>[...]`` ('__init__' for the package itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imported_parts(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        found |= {part_of(name) for name in names if name.split(".")[0] == "attnspec"}
    return found


SOURCES = sorted(PACKAGE.rglob("*.py"))


def test_every_part_of_the_package_has_a_layer():
    parts = {path.relative_to(PACKAGE).parts[0].removesuffix(".py") for path in SOURCES}
    assert parts <= set(RANK), f"parts without a layer: {sorted(parts - set(RANK))}"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_run_down_the_layers(path):
    own = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
    upward = {
        part
        for part in imported_parts(path) - {own}
        if RANK[part] >= RANK[own] and not (RANK[own] == 0 and RANK[part] == 0)
    }
    assert not upward, f"{own} (layer {RANK[own]}) imports {sorted(upward)}"


@pytest.mark.parametrize(
    "path", sorted(PACKAGE.glob("papers/?/*.py")), ids=lambda p: str(p.relative_to(PACKAGE))
)
def test_a_room_imports_no_other_room(path):
    """A room imports its own modules and the rooms' shared ones (attnspec/papers/*.py, not the
    registry of all rooms); where a paper uses another's result, its script imports both."""
    room = path.parent.name
    modules = {
        node.module
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("attnspec.papers.")
    }
    other_rooms = {m for m in modules if len(m.split(".")) > 3 and m.split(".")[2] != room}
    assert not other_rooms
    assert "attnspec.papers.registry" not in modules, "a room reads its own declared tests"
