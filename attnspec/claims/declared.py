"""A declared test: one verdict row's test, declared once, apart from the data (a change made after
its results were seen is kept in ``changed_after_results`` with its commit and date).

Each :class:`DeclaredTest` states what the data are (``subject``), the statistic (a name from
:data:`attnspec.claims.evidence.STATISTICS` and its meaning), the parameter points judged, the
target, the comparison, the margin with its scientific reason (a number fixed in the claim's own
units, never derived from the spread of the data it judges and never widening when the judged
size shrinks), the interval method, the finite-size model (a declared exponent and its reason,
or none: then no finite-size caveat is possible), and the wrong theories a referee would put
forward that the row must rule out on its own data (:class:`Alternative`). The engine
(:func:`attnspec.claims.engine.judge`) applies the one rule to all of them; per-paper code only
computes the samples (:class:`attnspec.claims.evidence.Evidence`).

The tests themselves are data, one table per paper (``attnspec/papers/<paper>/declared_tests.py``,
collected in :mod:`attnspec.papers.registry`). Changing a test is a diff of its paper's table,
and a test changed after its results were seen says so in ``changed_after_results``.

Kinds: ``empirical`` rows judge random draws against a limit and can fail; ``model`` rows
evaluate a closed-form model whose spread over draws is below what the margin resolves;
``identity`` rows compare two exact computations (a failure is a bug); ``bound`` rows hold by
construction (a theorem). Only empirical rows are evidence; every claim has at least one.
"""

import math
from dataclasses import dataclass

from attnspec.claims.catalogue import CLAIMS
from attnspec.claims.evidence import STATISTICS
from attnspec.claims.finite_size import exponent_grid
from attnspec.claims.rule import COMPARISONS, INTERVALS, KINDS, check_finite_size_test
from attnspec.validation import check_choice


@dataclass(frozen=True)
class Alternative:
    """A wrong theory a referee would put forward against a row: ``name`` (its key in the
    evidence), ``theory`` (what it says, in the statistic's terms) and ``reason`` (why a referee
    would propose it); for a row with a finite-size model, ``exponents`` the range of rates at
    which that theory approaches its limit when it differs from the claim's (None: the row's),
    with its text and reason."""

    name: str
    theory: str
    reason: str
    exponents: tuple[float, float] | None = None
    exponents_text: str = ""
    exponents_reason: str = ""

    def __post_init__(self):
        if (self.exponents is None) != (not self.exponents_reason):
            raise ValueError(f"{self.name}: exponents and exponents_reason go together")
        if self.exponents is not None:
            exponent_grid(self.exponents)


@dataclass(frozen=True)
class FiniteSize:
    """A row's finite-size model T(ell) = g + a ell^(-p) (:mod:`attnspec.claims.finite_size`):
    the range of rates p with its text and reason (it must hold the claim's rate and every
    wrong theory's), the limit's target in words, and how far (in margins) the judged interval
    may lie from its pass region for a finite-size caveat, with its reason."""

    exponents: tuple[float, float]
    exponents_text: str
    reason: str
    limit: str
    caveat_distance: float
    caveat_reason: str

    def __post_init__(self):
        exponent_grid(self.exponents)
        if not (self.caveat_distance >= 0 and self.caveat_reason):
            raise ValueError("caveat_distance must be >= 0 and given with its reason")


@dataclass(frozen=True)
class DeclaredTest:
    """One verdict row's declared test (see the module docstring). ``scope``: what the row does
    not cover (e.g. a blind spot of its diagnostic); ``beyond_paper``: for a row that tests a
    stronger statement of ours than the paper makes, that statement and why it is not the
    paper's claim (such a row is labelled beyond the paper and never read as the paper's claim
    failing or holding)."""

    row_id: str
    kind: str
    subject: str
    figure: str
    statistic: str
    describes: str
    points: str
    target: str
    comparison: str
    margin: float
    margin_unit: str
    margin_reason: str
    interval: str
    finite_size: FiniteSize | None = None
    interval_scale: float = 1.0
    interval_scale_reason: str = ""
    alternatives: tuple[Alternative, ...] = ()
    scope: str = ""
    beyond_paper: str = ""
    changed_after_results: tuple[str, ...] = ()

    def __post_init__(self):
        claim = self.claim_id
        if claim not in CLAIMS:
            raise ValueError(f"{self.row_id}: unknown claim {claim!r}")
        for name, value, allowed in (
            ("kind", self.kind, KINDS),
            ("statistic", self.statistic, tuple(STATISTICS)),
            ("comparison", self.comparison, COMPARISONS),
            ("interval", self.interval, INTERVALS),
        ):
            check_choice(value, f"{self.row_id}: {name}", allowed)
        if not (math.isfinite(self.margin) and self.margin >= 0):
            raise ValueError(f"{self.row_id}: margin must be finite and >= 0, got {self.margin!r}")
        scaled = self.interval_scale != 1.0
        if not (
            math.isfinite(self.interval_scale) and self.interval_scale >= 1.0
        ) or scaled != bool(self.interval_scale_reason):
            raise ValueError(
                f"{self.row_id}: interval_scale must be finite, >= 1 and differ from 1 exactly "
                f"when interval_scale_reason is given, got {self.interval_scale!r} with "
                f"{'a' if self.interval_scale_reason else 'no'} reason"
            )
        if self.finite_size is not None:
            check_finite_size_test(self.row_id, self.comparison, self.interval)
        own_rates = [a.name for a in self.alternatives if a.exponents is not None]
        if own_rates and self.finite_size is None:
            raise ValueError(
                f"{self.row_id}: alternatives {own_rates} declare their own rates, which need a "
                "finite-size model"
            )
        if self.kind == "empirical" and not self.alternatives:
            raise ValueError(f"{self.row_id}: an empirical row must declare its alternatives")
        names = [a.name for a in self.alternatives]
        if len(set(names)) != len(names) or any("/" in n for n in names):
            raise ValueError(f"{self.row_id}: alternative names must be unique, without '/'")

    @property
    def claim_id(self) -> str:
        return self.row_id.split("/", 1)[0]
