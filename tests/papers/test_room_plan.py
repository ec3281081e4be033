"""Every room follows one plan (docs/architecture.md, "Inside a room"): the same room-level
modules in a, b, c and d, and per topic T the modules T (draws), T_summary, T_evidence,
T_plotted, T_findings and plot_T, exactly the topics and roles the docs' table lists, each role
importing nothing its row forbids."""

import ast
import re
from pathlib import Path

import pytest

from attnspec.papers.registry import ROOMS

PAPERS = Path(__file__).resolve().parents[2] / "attnspec" / "papers"
ROOM_LEVEL = {
    "__init__",
    "outputs",
    "assemble_figures",
    "assemble_tables",
    "assemble_evidence",
    "declared_tests",
    "config_check",
}
ROLES = ("summary", "evidence", "plotted", "findings")
# Data a topic's draws read, not a role of a topic: the table D.2 shapes of public models.
DATA = {"d": {"public_models"}}
DRAWING = ("matplotlib", "seaborn", "attnspec.plotting.style", "attnspec.plotting.craft")
# What a role may not import (anywhere in the module, lazy imports included), as the docs' table
# says: only plot_T draws; tidy tables' helpers (attnspec.plotting.tidy) are pandas, not drawing.
# Evidence is made in T_evidence alone: a summary may use the statistics the claims engine
# defines (a function of attnspec.claims.evidence, e.g. threshold_crossings, so the figure shows
# what is judged), not the Evidence class or the engine. A tidy table may carry judged rows'
# verdicts (kind "verdict", read through attnspec.claims.dashboard) but makes no evidence.
FORBIDDEN = {
    "draws": ("attnspec.claims", "pandas", "attnspec.plotting", *DRAWING),
    "summary": ("attnspec.claims", *DRAWING),
    "evidence": DRAWING,
    "plotted": ("attnspec.claims.evidence", "attnspec.claims.engine", *DRAWING),
    "findings": DRAWING,
}
STATISTICS = "attnspec.claims.evidence"
ARCHITECTURE = PAPERS.parents[1] / "docs" / "architecture.md"
PLAN = 'docs/architecture.md, "Inside a room"'


def _allowed(role: str, module: str) -> bool:
    """A summary's import of the claims engine's statistics (lower-case functions)."""
    if role != "summary" or not (module + ".").startswith(STATISTICS + "."):
        return False
    name = module.removeprefix(STATISTICS).lstrip(".")
    return not name or name.islower()


def documented_topics() -> dict[str, dict[str, set[str]]]:
    """room -> topic -> roles, from the table of docs/architecture.md whose header is
    ``| room | topic | roles | outputs |``."""
    lines = ARCHITECTURE.read_text(encoding="utf-8").splitlines()
    start = lines.index("| room | topic | roles | outputs |")
    topics: dict[str, dict[str, set[str]]] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        room, topic, roles = (cell.strip() for cell in line.strip("|").split("|")[:3])
        topics.setdefault(room, {})[topic] = {role.strip() for role in roles.split(",")}
    return topics


def _modules(room: str) -> list[str]:
    return sorted(p.stem for p in (PAPERS / room).glob("*.py"))


def role_of(name: str) -> tuple[str, str]:
    """(role, topic) of a room module by its name: ``plot_T`` draws figures of topic T,
    ``T_<role>`` is one role of T, a bare ``T`` holds T's draws."""
    if name.startswith("plot_"):
        return "plot", name.removeprefix("plot_")
    for role in ROLES:
        if name.endswith(f"_{role}"):
            return role, name.removesuffix(f"_{role}")
    return "draws", name


def _imported(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


@pytest.mark.parametrize("room", ROOMS)
def test_every_room_has_the_room_level_modules(room):
    assert ROOM_LEVEL <= set(_modules(room)), (
        f"room {room} lacks {ROOM_LEVEL - set(_modules(room))}"
    )


@pytest.mark.parametrize("room", ROOMS)
def test_a_room_s_modules_are_exactly_the_roles_of_its_documented_topics(room):
    """A module of a topic the docs' table does not list, or a role it does not give that topic,
    fails (a misnamed or stray module is caught, and the table stays true)."""
    found: dict[str, set[str]] = {}
    for name in set(_modules(room)) - ROOM_LEVEL - DATA.get(room, set()):
        role, topic = role_of(name)
        found.setdefault(topic, set()).add(role)
    documented = documented_topics().get(room, {})
    problems = [
        f"attnspec/papers/{room}/: topic {topic!r} has roles {sorted(found.get(topic, ()))}, "
        f"the table says {sorted(documented.get(topic, ()))}"
        for topic in sorted(set(found) | set(documented))
        if found.get(topic) != documented.get(topic)
    ]
    assert not problems, "\n".join(problems) + f"\n(modules are named <topic>_<role>: {PLAN})"


@pytest.mark.parametrize("room", ROOMS)
def test_each_role_imports_only_what_it_may(room):
    problems = []
    for name in sorted(set(_modules(room)) - ROOM_LEVEL):
        role, topic = role_of(name)
        imported = _imported(PAPERS / room / f"{name}.py")
        for forbidden in FORBIDDEN.get(role, ()):
            hits = sorted(
                m
                for m in imported
                if (m == forbidden or m.startswith(f"{forbidden}.")) and not _allowed(role, m)
            )
            if hits:
                problems.append(
                    f"attnspec/papers/{room}/{name}.py ({role} of topic {topic}) imports "
                    f"{hits[0]}; a {role} module may not import {', '.join(FORBIDDEN[role])}"
                )
        if role == "draws":
            others = sorted(
                m
                for m in imported
                if m.startswith(f"attnspec.papers.{room}.")
                and role_of(m.split(".")[3])[0] != "draws"
                and m.split(".")[3] not in DATA.get(room, set())
            )
            problems += [
                f"attnspec/papers/{room}/{name}.py (draws) imports {m}: draws import no other role"
                for m in others[:1]
            ]
    assert not problems, "\n".join(problems) + f"\n(what each role holds: {PLAN})"


@pytest.mark.parametrize(
    "name, expected",
    [
        ("sticking", ("draws", "sticking")),
        ("sticking_summary", ("summary", "sticking")),
        ("pretrained_stable_rank_plotted", ("plotted", "pretrained_stable_rank")),
        ("plot_conditional", ("plot", "conditional")),
        ("perron_evidence", ("evidence", "perron")),
    ],
)
def test_a_module_s_role_and_topic_come_from_its_name(name, expected):
    assert role_of(name) == expected


REFERENCE = re.compile(
    r"attnspec[./]papers[./](?P<room>[a-z])[./](?P<module>[a-z0-9_]+)(?:\.py)?"
    r"(?:[.:](?P<name>[A-Za-z_][A-Za-z0-9_]*))?"
)
TEXTS = (
    "attnspec/**/*.py",
    "tests/**/*.py",
    "scripts/*.py",
    "tools/*.py",
    "docs/*.md",
    "workflow/**/*.smk",
    "workflow/**/*.rst",
    "workflow/notebooks/*.py",
    "README.md",
)


def _top_level_names(path: Path) -> set[str]:
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def test_every_reference_to_a_room_s_module_or_function_resolves():
    """Docstrings, docs, captions and rules name room modules and functions by their dotted
    path; after a module is split or renamed, none may point at a name that is gone."""
    repository = PAPERS.parents[1]
    known: dict[tuple[str, str], set[str] | None] = {}
    dangling = []
    for pattern in TEXTS:
        for path in sorted(repository.glob(pattern)):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for match in REFERENCE.finditer(line):
                    room, module, name = match.group("room", "module", "name")
                    source = PAPERS / room / f"{module}.py"
                    if (room, module) not in known:
                        known[room, module] = _top_level_names(source) if source.is_file() else None
                    names = known[room, module]
                    where = f"{path.relative_to(repository)}:{number}"
                    if names is None:
                        dangling.append(f"{where}: no module attnspec/papers/{room}/{module}.py")
                    elif name and name != "py" and name not in names:
                        dangling.append(f"{where}: attnspec.papers.{room}.{module} has no {name}")
    assert not dangling, "\n".join(dangling)
