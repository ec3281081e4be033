"""Power: the smallest shift of a row's target (and of its limit's target), in margins, up and
down, that the whole rule, finite-size caveat included, calls *does not reproduce* on the row's
own intervals (bisection on the rule's own decision, :func:`attnspec.claims.rule.decide`);
infinite where no shift up to :data:`POWER_SEARCH_LIMIT` margins does (a one-sided row cannot
fail on one side)."""

import numpy as np

from attnspec.claims.evidence import Evidence
from attnspec.claims.rule import Interval, Limit, TheoryTest, decide
from attnspec.claims.verdict import Verdict

POWER_SEARCH_LIMIT = 100.0


def power_shifts(
    test: TheoryTest, evidence: Evidence, claim_interval: Interval, claim_limit: Limit | None
) -> tuple[float, float]:
    """(up, down): the smallest shifts of the targets, in margins, that the engine calls does
    not reproduce on the claim's judged interval and limit (module docstring); inf where none
    up to :data:`POWER_SEARCH_LIMIT` margins does, NaN for a zero margin."""
    if not test.margin > 0:
        return np.nan, np.nan

    def fails(shift: float) -> bool:
        region, limit_region = test.regions(evidence, shift)
        limit = claim_limit.interval if claim_limit is not None else None
        fit_ok = claim_limit is None or claim_limit.fit_ok
        verdict = decide(claim_interval, region, limit, limit_region, fit_ok, test.caveat_reach)
        return verdict is Verdict.DOES_NOT_REPRODUCE

    found = []
    for sign in (1.0, -1.0):
        if fails(0.0):
            found.append(0.0)
            continue
        if not fails(sign * POWER_SEARCH_LIMIT):
            found.append(np.inf)
            continue
        low, high = 0.0, POWER_SEARCH_LIMIT
        for _ in range(60):
            middle = 0.5 * (low + high)
            low, high = (low, middle) if fails(sign * middle) else (middle, high)
        found.append(high)
    return found[0], found[1]
