"""Machine-checked verdicts on the papers' claims (the rows of ``figures/paper*/claims.csv``).

A claim is checked through one measured quantity against a target. The tolerance is the
sampling error measured in the same run (e.g. the spread over draws, or the distance of a model
whose limit is known exactly at the same size), never chosen to make the row pass. Verdicts:

- ``holds``: |value - target| <= tolerance;
- ``holds with a finite-size caveat``: outside the tolerance, but the measured trend in the size
  goes towards the target (the row's note says how);
- ``does not reproduce``: outside the tolerance and no trend towards the target.
"""

from dataclasses import asdict, dataclass, fields

HOLDS = "holds"
FINITE_SIZE_CAVEAT = "holds with a finite-size caveat"
DOES_NOT_REPRODUCE = "does not reproduce"
VERDICTS = (HOLDS, FINITE_SIZE_CAVEAT, DOES_NOT_REPRODUCE)


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
    verdict: str
    note: str

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if not self.tolerance >= 0:
            raise ValueError(f"tolerance must be >= 0, got {self.tolerance!r}")

    def as_row(self) -> tuple:
        return tuple(asdict(self).values())


CLAIM_HEADER = tuple(f.name for f in fields(ClaimCheck))


def judge(value: float, target: float, tolerance: float, *, improving: bool = False) -> str:
    """Verdict for ``value`` against ``target`` within ``tolerance``.

    ``improving`` says whether the measured trend over sizes goes towards the target; it only
    matters when the value is outside the tolerance (finite-size caveat versus failure).
    """
    if not tolerance >= 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance!r}")
    if abs(value - target) <= tolerance:
        return HOLDS
    return FINITE_SIZE_CAVEAT if improving else DOES_NOT_REPRODUCE


def judge_at_most(value: float, bound: float, tolerance: float, *, improving: bool = False) -> str:
    """Verdict for a one-sided claim ``value <= bound`` (e.g. a distance below a noise floor)."""
    if not tolerance >= 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance!r}")
    if value <= bound + tolerance:
        return HOLDS
    return FINITE_SIZE_CAVEAT if improving else DOES_NOT_REPRODUCE


def judge_exceeds(value: float, bound: float, tolerance: float, *, improving: bool = False) -> str:
    """Verdict for a separation claim: ``value`` exceeds ``bound`` by more than the noise.

    Unlike :func:`judge_at_most` (consistency within the tolerance), a separation is only
    established when value > bound + tolerance; a value inside the noise does not pass.
    """
    if not tolerance >= 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance!r}")
    if value > bound + tolerance:
        return HOLDS
    return FINITE_SIZE_CAVEAT if improving else DOES_NOT_REPRODUCE
