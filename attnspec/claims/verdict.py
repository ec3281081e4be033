"""The four verdicts a row can read (:class:`Verdict`), in the engine's order: the two passes
first, then the two that are not."""

from enum import StrEnum


class Verdict(StrEnum):
    """A row's verdict; its value is the text the tables print."""

    HOLDS = "holds"
    FINITE_SIZE_CAVEAT = "holds with a finite-size caveat"
    INCONCLUSIVE = "inconclusive at these sizes"
    DOES_NOT_REPRODUCE = "does not reproduce"

    @property
    def passes(self) -> bool:
        """Holds, or holds with a finite-size caveat."""
        return self in (Verdict.HOLDS, Verdict.FINITE_SIZE_CAVEAT)

    @property
    def code(self) -> int:
        """Its position in the engine's order (the verdict arrays of resampled judgements)."""
        return ORDER.index(self)


ORDER = tuple(Verdict)
