"""Machine-checked verdicts on the papers' claims (the rows of ``figures/paper*/claims.csv``).

A claim is checked through one measured quantity against a target. The tolerance is the
sampling error measured in the same run (e.g. the spread over draws, or the distance of a model
whose limit is known exactly at the same size), never chosen to make the row pass. Verdicts:

- ``holds``: the value passes the row's comparison with the target within the tolerance
  (two-sided :data:`WITHIN`, one-sided :data:`AT_MOST` or separation :data:`EXCEEDS`);
- ``holds with a finite-size caveat``: it does not, but the measured trend in the size goes
  towards the target (the row's note says how);
- ``does not reproduce``: it does not and there is no trend towards the target.

Each row states its own test in its ``test`` column (:func:`describe_test`): the pass condition
in the row's terms, from the statement of the comparison its judge makes, and the trend that
decides the caveat.
"""

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields

HOLDS = "holds"
FINITE_SIZE_CAVEAT = "holds with a finite-size caveat"
DOES_NOT_REPRODUCE = "does not reproduce"
VERDICTS = (HOLDS, FINITE_SIZE_CAVEAT, DOES_NOT_REPRODUCE)


@dataclass(frozen=True)
class PassCondition:
    """A judge's pass condition on a row's (value, target, tolerance): the statement shown in the
    row's ``test`` column next to the comparison that the judge makes."""

    statement: str
    compare: Callable[[float, float, float], bool]

    def __call__(self, value: float, target: float, tolerance: float) -> bool:
        return bool(self.compare(value, target, tolerance))


WITHIN = PassCondition("abs(value - target) <= tolerance", lambda v, t, tol: abs(v - t) <= tol)
"""Two-sided agreement (:func:`judge`)."""
AT_MOST = PassCondition("value <= target + tolerance", lambda v, t, tol: v <= t + tol)
"""One-sided consistency: a distance at most a noise floor (:func:`judge_at_most`)."""
EXCEEDS = PassCondition("value > target + tolerance", lambda v, t, tol: v > t + tol)
"""Separation beyond the noise (:func:`judge_exceeds`)."""
PASS_CONDITIONS = (WITHIN, AT_MOST, EXCEEDS)


def stated_condition(test: str) -> PassCondition:
    """The pass condition a ``test`` text starts with ("holds if <statement>...")."""
    for condition in PASS_CONDITIONS:
        if test.startswith(f"holds if {condition.statement}"):
            return condition
    raise ValueError(f"test must start with 'holds if' and a pass condition: {test!r}")


@dataclass(frozen=True)
class ClaimCheck:
    """One verdict row: which claim, which figure, what was measured and how it was judged."""

    claim_id: str
    claim: str
    figure: str
    quantity: str
    value: float
    target: float
    tolerance: float
    tolerance_basis: str
    test: str
    verdict: str
    note: str

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if not self.tolerance >= 0:
            raise ValueError(f"tolerance must be >= 0, got {self.tolerance!r}")
        meets = self.meets_condition()  # ValueError unless the test states a pass condition
        if self.verdict == HOLDS and not meets:
            raise ValueError(f"claim {self.claim_id} holds but fails its test {self.test!r}")

    @property
    def condition(self) -> PassCondition:
        """The comparison of value, target and tolerance that the row's ``test`` starts with."""
        return stated_condition(self.test)

    def meets_condition(self) -> bool:
        """Whether the row's numbers pass its stated comparison (necessary for "holds")."""
        return self.condition(self.value, self.target, self.tolerance)

    def as_row(self) -> tuple:
        return tuple(asdict(self).values())


CLAIM_HEADER = tuple(f.name for f in fields(ClaimCheck))


def weakest(verdicts: Sequence[str], tiebreak: Sequence[float] | None = None) -> int:
    """Index of the weakest verdict (does not reproduce, then the caveat, then holds): the one a
    claim's row reports. Among equals the largest ``tiebreak`` value wins, else the first."""
    keys = [-i for i in range(len(verdicts))] if tiebreak is None else list(tiebreak)
    return max(range(len(verdicts)), key=lambda i: (VERDICTS.index(verdicts[i]), keys[i]))


def describe_test(condition: PassCondition, *also: str, caveat: str | None = None) -> str:
    """The ``test`` text of a row: holds if ``condition`` and every ``also``; the finite-size
    caveat if not but ``caveat`` (the trend its judge tests; None: the claim has no caveat)."""
    holds = " and ".join((condition.statement, *also))
    if caveat is None:
        return f"holds if {holds}; otherwise does not reproduce (no caveat)"
    return f"holds if {holds}; caveat if not but {caveat}; otherwise does not reproduce"


def _verdict(
    condition: PassCondition, value: float, target: float, tolerance: float, improving: bool
) -> str:
    if not tolerance >= 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance!r}")
    if condition(value, target, tolerance):
        return HOLDS
    return FINITE_SIZE_CAVEAT if improving else DOES_NOT_REPRODUCE


def judge(value: float, target: float, tolerance: float, *, improving: bool = False) -> str:
    """Verdict for ``value`` against ``target`` within ``tolerance`` (:data:`WITHIN`).

    ``improving`` says whether the measured trend over sizes goes towards the target; it only
    matters when the value is outside the tolerance (finite-size caveat versus failure).
    """
    return _verdict(WITHIN, value, target, tolerance, improving)


def judge_at_most(value: float, bound: float, tolerance: float, *, improving: bool = False) -> str:
    """Verdict for a one-sided claim ``value <= bound`` (e.g. a distance below a noise floor;
    :data:`AT_MOST`)."""
    return _verdict(AT_MOST, value, bound, tolerance, improving)


def judge_exceeds(value: float, bound: float, tolerance: float, *, improving: bool = False) -> str:
    """Verdict for a separation claim: ``value`` exceeds ``bound`` by more than the noise
    (:data:`EXCEEDS`).

    Unlike :func:`judge_at_most` (consistency within the tolerance), a separation is only
    established when value > bound + tolerance; a value inside the noise does not pass.
    """
    return _verdict(EXCEEDS, value, bound, tolerance, improving)
