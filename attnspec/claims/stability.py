"""Stability: the share of :data:`STABILITY_RESAMPLES` bootstrap resamples of a row's draws (the
statistic, the finite-size data and every alternative's data resampled alike) whose re-judged
final verdict is the row's, each resample's intervals from :data:`STABILITY_INNER_RESAMPLES`
inner resamples. Below :data:`FRAGILE_BELOW` a pass is fragile and never counted as holds."""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.claims.evidence import STATISTICS, Evidence
from attnspec.claims.resampling import outer_of_size, theory_intervals
from attnspec.claims.rule import TheoryTest, decide_codes, power_rule_codes
from attnspec.claims.verdict import ORDER, Verdict
from attnspec.seeding import rng_for

STABILITY_RESAMPLES = 1000
STABILITY_INNER_RESAMPLES = 500
FRAGILE_BELOW = 0.9


def stability(
    test: TheoryTest,
    evidence: Evidence,
    alternatives: Sequence[tuple[Evidence, TheoryTest]],
    verdict: Verdict,
    seed_key: Mapping,
    resamples: int,
) -> tuple[float, Verdict | None, float]:
    """(share of re-judged resamples with the same final verdict, the commonest other verdict
    (None if no resample reads another), its share). Every theory (``alternatives``: its
    evidence and test) is judged on the same resampled draws. A deterministic row (no resampled
    draws, no finite-size data) is stable by construction."""
    names = STATISTICS[test.statistic].resampled if test.interval != "exact" else ()
    if not names and evidence.by_size is None:
        return 1.0, None, 0.0
    rng = rng_for(seed_key, 0, "stability")
    outer = {
        key: rng.integers(
            0, evidence.samples[key].shape[0], (resamples, evidence.samples[key].shape[0])
        )
        for key in names
    }
    if evidence.by_size is not None:
        outer["__by_size"] = [
            outer_of_size(own, evidence, outer, rng, resamples) for own in evidence.by_size
        ]
    cache: dict = {}
    verdicts = []
    for item, own_test in ((evidence, test), *alternatives):
        _, lows, highs, _, limit = theory_intervals(
            own_test, item, outer, seed_key, cache, STABILITY_INNER_RESAMPLES
        )
        region, limit_region = own_test.regions(item)
        if limit is None:
            verdicts.append(decide_codes(lows, highs, region))
        else:
            verdicts.append(
                decide_codes(lows, highs, region, limit.lows, limit.highs, limit_region,
                             limit.fit_ok, own_test.caveat_reach)
            )  # fmt: skip
    final = power_rule_codes(verdicts[0], verdicts[1:])
    shares = np.bincount(final, minlength=len(ORDER)) / final.size
    other = max((v for v in ORDER if v is not verdict), key=lambda v: (shares[v.code], -v.code))
    return (
        float(shares[verdict.code]),
        other if shares[other.code] > 0 else None,
        float(shares[other.code]),
    )
