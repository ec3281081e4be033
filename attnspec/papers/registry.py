"""The rooms and the claims registry. :data:`ROOMS` is the one list of the papers' rooms
(``attnspec/papers/<room>/``); the plumbing finds a room's modules of one kind through
:func:`room_modules` rather than by naming papers: each room's table of declared tests
(``declared_tests.py``, collected here in claim order into :data:`REGISTRY`) and its config
check (``config_check.py``, :mod:`attnspec.papers.config_rules`). What a declared test is:
:mod:`attnspec.claims.declared`."""

import importlib
from collections import Counter
from types import ModuleType

from attnspec.claims.declared import DeclaredTest

ROOMS: tuple[str, ...] = ("a", "b", "c", "d")
"""The papers' rooms, in claim order: attnspec.papers.<room> holds paper <ROOM>."""


def room_modules(name: str) -> list[ModuleType]:
    """Module ``name`` of every room (``attnspec.papers.<room>.<name>``), in the order of ROOMS."""
    return [importlib.import_module(f"attnspec.papers.{room}.{name}") for room in ROOMS]


REGISTRY: tuple[DeclaredTest, ...] = tuple(
    test for module in room_modules("declared_tests") for test in module.TESTS
)
"""Every declared test, in claim order."""

_repeated = sorted(row_id for row_id, n in Counter(t.row_id for t in REGISTRY).items() if n > 1)
if _repeated:
    raise ValueError(f"the declared tests' row ids must be unique, repeated: {_repeated}")

TESTS: dict[str, DeclaredTest] = {test.row_id: test for test in REGISTRY}
"""Every declared test by its row id."""


def registry_of(paper: str) -> list[DeclaredTest]:
    """The registry rows of one paper ("A", "B", "C", "D"), in order."""
    return [test for test in REGISTRY if test.claim_id.startswith(f"{paper}.")]
