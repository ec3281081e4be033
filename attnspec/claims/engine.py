"""The engine's entry: :func:`judge` takes a row's declared test
(:class:`attnspec.claims.declared.DeclaredTest`) and its evidence
(:class:`attnspec.claims.evidence.Evidence`) and returns a :class:`Judgement`: the claim's
theory and each declared wrong theory judged by the one rule (:mod:`attnspec.claims.rule`) on
intervals from :mod:`attnspec.claims.resampling`, the power rule joining them, the stability
(:mod:`attnspec.claims.stability`) and the power (:mod:`attnspec.claims.power`). The engine
knows no paper: it judges whatever test and evidence it is given.
"""

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from attnspec.claims.declared import DeclaredTest
from attnspec.claims.evidence import STATISTICS, Evidence
from attnspec.claims.finite_size import MIN_SIZES
from attnspec.claims.power import power_shifts
from attnspec.claims.resampling import statistic_value, theory_intervals, unresampled
from attnspec.claims.rule import Interval, Limit, TheoryTest, decide, power_rule
from attnspec.claims.stability import FRAGILE_BELOW, STABILITY_RESAMPLES, stability
from attnspec.claims.verdict import Verdict
from attnspec.validation import check_count


@dataclass(frozen=True)
class TheoryJudgement:
    """One theory (the claim's, or a declared alternative) judged on the row's data."""

    value: float
    target: float
    limit_target: float
    interval: Interval
    limit: Limit | None
    verdict: Verdict


def _judge_theory(test: TheoryTest, evidence: Evidence, seed_key, cache: dict) -> TheoryJudgement:
    """One theory on the data as they are (every draw once)."""
    outer = unresampled(evidence.samples)
    if evidence.by_size is not None:
        outer["__by_size"] = [unresampled(own) for own in evidence.by_size]
    _, lows, highs, errors, limit = theory_intervals(test, evidence, outer, seed_key, cache)
    interval = Interval(float(lows[0]), float(highs[0]), float(errors[0]))
    found = None
    if limit is not None:
        found = Limit(
            float(limit.values[0]),
            float(limit.lows[0]),
            float(limit.highs[0]),
            float(limit.exponents[0]),
            float(limit.pvalues[0]),
            bool(limit.fit_ok[0]),
        )
    region, limit_region = test.regions(evidence)
    verdict = decide(
        interval,
        region,
        found and found.interval,
        limit_region,
        found is None or found.fit_ok,
        test.caveat_reach,
    )
    return TheoryJudgement(
        statistic_value(test.statistic, evidence.samples),
        evidence.target,
        evidence.limit_target,
        interval,
        found,
        verdict,
    )


@dataclass(frozen=True)
class Judgement:
    """The engine's numbers for one row (without its texts)."""

    claim: TheoryJudgement
    margin: float
    alternatives: Mapping[str, TheoryJudgement]
    verdict: Verdict
    stability: float
    alternative: Verdict | None
    alternative_share: float
    power_up: float
    power_down: float
    draws: int

    @property
    def value(self) -> float:
        return self.claim.value

    @property
    def interval(self) -> Interval:
        return self.claim.interval

    @property
    def standing(self) -> tuple[str, ...]:
        """The alternatives not ruled out (not reading does not reproduce)."""
        return tuple(
            name
            for name, found in self.alternatives.items()
            if found.verdict is not Verdict.DOES_NOT_REPRODUCE
        )

    @property
    def no_power_against(self) -> tuple[str, ...]:
        """The alternatives that turned a pass into *inconclusive* (the power rule): those left
        standing when the claim passes against its own theory; none when it fails on its own
        (an alternative left standing then is agreement with a wrong theory, not lack of
        power: the alternatives column shows it)."""
        return self.standing if self.claim.verdict.passes else ()

    @property
    def fragile(self) -> bool:
        return self.stability < FRAGILE_BELOW


def judge(
    test: DeclaredTest,
    evidence: Evidence,
    *,
    replicate: int = 0,
    alone: bool = False,
    variant: str | None = None,
    streams: Mapping | None = None,
    stability_resamples: int = STABILITY_RESAMPLES,
) -> Judgement:
    """Judge ``evidence`` by the declared ``test`` (module docstring).

    The bootstrap's random streams are keyed by the row and ``replicate`` (and ``variant``), or
    by ``streams`` when given (:func:`attnspec.seeding.rng_for`), so a judgement is reproducible
    bit for bit. ``alone``: the evidence is one wrong theory's, judged by itself as the engine
    judges it within the row (an equivalence with that theory's target, no alternatives; its
    margin scale should be the claim's). ``variant``: judge the evidence's variant of that name
    (another declared resolution of the row's wrong theories, with its own alternatives and
    margin scale) instead. ``stability_resamples`` is lowered only by callers that do not read
    the stability. ValueError when the evidence does not fit the test (a sample the statistic
    needs, finite-size data without a model or the reverse, too few sizes, other alternatives).
    """
    check_count(stability_resamples, "stability_resamples", 1)
    seed_key = {"row": test.row_id, "replicate": int(replicate)}
    if variant is not None:
        if variant not in evidence.variants:
            raise ValueError(
                f"{evidence.row_id}: variant must be one of {sorted(evidence.variants)}, got "
                f"{variant!r}"
            )
        seed_key["variant"] = variant
        evidence = evidence.variants[variant]
    model = test.finite_size
    exponents = None if model is None else tuple(float(p) for p in model.exponents)
    declared = {} if alone else {a.name: a.exponents for a in test.alternatives}
    names = tuple(evidence.alternatives) if variant is not None else tuple(declared)
    _check_fits(test, evidence, exponents, names)
    theory = TheoryTest(
        test.statistic,
        "equivalence" if alone else test.comparison,
        test.margin * evidence.margin_scale,
        test.interval,
        exponents,
        test.interval_scale,
        np.inf if model is None else model.caveat_distance,
    )
    rivals = {name: theory.against_alternative(declared.get(name)) for name in names}
    streams = seed_key if streams is None else dict(streams)
    return _judged(theory, evidence, rivals, streams, stability_resamples)


def _check_fits(test: DeclaredTest, evidence: Evidence, exponents, names) -> None:
    """ValueError unless ``evidence`` can be judged by ``test`` with the alternatives ``names``
    (the declaration itself was checked when it was made)."""
    missing = [key for key in STATISTICS[test.statistic].arrays if key not in evidence.samples]
    if missing:
        raise ValueError(f"{evidence.row_id}: statistic {test.statistic!r} needs samples {missing}")
    if (exponents is None) != (evidence.by_size is None):
        raise ValueError(
            f"{evidence.row_id}: the evidence has {'no ' if evidence.by_size is None else ''}"
            f"finite-size data but the test declares {'no' if exponents is None else 'a'} "
            "finite-size model"
        )
    if exponents is not None and evidence.sizes.size < MIN_SIZES:
        raise ValueError(
            f"{evidence.row_id}: the finite-size model needs at least {MIN_SIZES} sizes, got "
            f"{evidence.sizes.size}"
        )
    if sorted(evidence.alternatives) != sorted(names):
        raise ValueError(
            f"{evidence.row_id}: the evidence judges alternatives {sorted(evidence.alternatives)}"
            f", the registry declares {sorted(names)}"
        )


def _judged(
    theory: TheoryTest,
    evidence: Evidence,
    rivals: Mapping[str, TheoryTest],
    seed_key: Mapping,
    stability_resamples: int,
) -> Judgement:
    """The claim's theory and each wrong theory (``rivals``: its test, its evidence in
    ``evidence.alternatives``) judged on the same streams, joined by the power rule."""
    cache: dict = {}
    claim = _judge_theory(theory, evidence, seed_key, cache)
    judged = {
        name: _judge_theory(rival, evidence.alternatives[name], seed_key, cache)
        for name, rival in rivals.items()
    }
    final = power_rule(claim.verdict, (found.verdict for found in judged.values()))
    share, other, other_share = stability(
        theory,
        evidence,
        [(evidence.alternatives[name], rival) for name, rival in rivals.items()],
        final,
        seed_key,
        stability_resamples,
    )
    up, down = power_shifts(theory, evidence, claim.interval, claim.limit)
    return Judgement(
        claim=claim,
        margin=theory.margin,
        alternatives=judged,
        verdict=final,
        stability=share,
        alternative=other,
        alternative_share=other_share,
        power_up=up,
        power_down=down,
        draws=evidence.draws,
    )
