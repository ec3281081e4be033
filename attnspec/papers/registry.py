"""The claims registry: each paper's table of declared tests
(``attnspec/papers/<paper>/declared_tests.py``), collected in claim order. What a declared test
is: :mod:`attnspec.claims.declared`."""

from collections import Counter

from attnspec.claims.declared import DeclaredTest
from attnspec.papers.a.declared_tests import TESTS as PAPER_A
from attnspec.papers.b.declared_tests import TESTS as PAPER_B
from attnspec.papers.c.declared_tests import TESTS as PAPER_C
from attnspec.papers.d.declared_tests import TESTS as PAPER_D

REGISTRY: tuple[DeclaredTest, ...] = (*PAPER_A, *PAPER_B, *PAPER_C, *PAPER_D)
"""Every declared test, in claim order."""

_repeated = sorted(row_id for row_id, n in Counter(t.row_id for t in REGISTRY).items() if n > 1)
if _repeated:
    raise ValueError(f"the declared tests' row ids must be unique, repeated: {_repeated}")

TESTS: dict[str, DeclaredTest] = {test.row_id: test for test in REGISTRY}
"""Every declared test by its row id."""


def registry_of(paper: str) -> list[DeclaredTest]:
    """The registry rows of one paper ("A", "B", "C", "D"), in order."""
    return [test for test in REGISTRY if test.claim_id.startswith(f"{paper}.")]
