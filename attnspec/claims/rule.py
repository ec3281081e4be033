"""The decision rule: one theory's verdict from its intervals, and the power rule that joins a
row's theories (:func:`attnspec.claims.engine.judge` applies it to every row).

- **Interval**: the 95 % interval of the statistic (:mod:`attnspec.claims.resampling`):
  percentile bootstrap over draws, Student-t (means: t quantile x s/sqrt(n); a difference of
  means: Welch), or exact (a deterministic value: the interval is the value).
- **Pass region** R from the target t and the margin m (a number fixed in the claim's own units,
  never from the data's spread or the judged size): equivalence [t - m, t + m], at most
  (-inf, t + m], at least [t + m, inf) and below (-inf, t - m] (separated from the target by at
  least the margin).
- **Finite-size model** (declared for some rows; :mod:`attnspec.claims.finite_size`): the statistic
  extrapolated from every size by m(ell) = g + a ell^(-p) at every rate p of a declared range
  (the claim's rate and every wrong theory's inside it), the limit's interval the union over
  the rates of the bootstrap intervals of g, placed against the limit's pass region (limit
  target +- the same margin); the best rate's fit must pass a chi-square test of its weighted
  residuals.
- **Verdict against one theory**, without a finite-size model: *holds* when the judged
  interval lies inside R, *does not reproduce* when it lies entirely outside, else
  *inconclusive at these sizes*. With one, the claim is about the limit, and the limit decides,
  provided the model fits: *holds* when the limit's interval lies inside the limit's region and
  the judged interval inside R; *holds with a finite-size caveat* when the limit's lies inside
  and the judged one does not but lies within the declared distance of R; *does not
  reproduce* when the limit's lies entirely outside (whatever the judged size shows: a finite
  size that agrees while the model carries the data away is a crossing, not agreement); else,
  or when the fit is rejected, *inconclusive at these sizes* (a limit the sizes or the rates
  cannot place is wide, and wide is inconclusive); a rejected fit passes nothing and reads
  *does not reproduce* only where the limit's union and the judged interval both lie outside,
  on one side. Each wrong theory is judged with its own
  range of rates. Every rule needs an interval inside a region to pass, so a wider interval
  (more noise, a smaller simulation, a wider range of rates) can only move a verdict away from
  a pass.
- **Power rule** (the built-in mutation test): the same data are judged, by the same statistic,
  interval, finite-size model and margin, against each wrong theory the row declares
  (:attr:`Evidence.alternatives`: the evidence recomputed with that theory's quantities, or on
  the data it would produce), as an equivalence with that theory's prediction; one is *ruled
  out* when it reads *does not reproduce* (for an equivalence row this is the row's own test
  with the wrong theory's target; for a one-sided row, whose target is the refuted value, it is
  the same interval placed against the wrong theory's prediction). An empirical row reads
  *holds* (or the caveat) only if every alternative is ruled out; otherwise *inconclusive at
  these sizes*, with no power against the alternatives left standing.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from attnspec.claims.evidence import Evidence
from attnspec.claims.verdict import ORDER, Verdict

KINDS = ("empirical", "model", "identity", "bound")
"""empirical: data from random draws against a limit, which can fail (evidence); model: a
deterministic evaluation of a closed-form model (its spread over draws below what the margin
resolves); identity: two exact computations agree; bound: holds by construction (a theorem).
Only empirical rows are evidence; the others are shown and labelled."""
COMPARISONS = ("equivalence", "at_most", "at_least", "below")
INTERVALS = ("bootstrap", "student-t", "exact")


# The level of every interval the rule places.
CONFIDENCE = 0.95
# Rows whose claim is about a limit: the limit's region is the limit target +- the margin.
FINITE_SIZE_COMPARISONS = ("equivalence", "at_most")
RULE_TEXT = (
    f"holds if the {CONFIDENCE:.0%} interval lies inside the pass region; does not reproduce if "
    "it lies entirely outside; else inconclusive at these sizes"
)
FINITE_SIZE_RULE_TEXT = (
    "the limit decides if the model fits (the best rate's weighted residuals pass a chi-square "
    "test at the 1 % level): holds if the union over the rates of the limit's "
    f"{CONFIDENCE:.0%} bootstrap intervals lies inside the limit's region (limit target +- the "
    "margin) and the judged interval inside the pass region; holds with a finite-size caveat if "
    "the union lies inside and the judged interval does not but lies within the declared "
    "distance of the pass region; does not reproduce if the union lies entirely outside, "
    "whatever the judged size shows (with a rejected fit, only if the judged interval lies "
    "outside on the same side); else, or if the fit is rejected, inconclusive at these sizes"
)


@dataclass(frozen=True)
class Interval:
    """A 95 % interval [low, high] of a statistic, with its standard error."""

    low: float
    high: float
    standard_error: float


def pass_region(comparison: str, target: float, margin: float) -> tuple[float, float]:
    """(low, high) of the pass region R of a comparison."""
    if comparison == "equivalence":
        return target - margin, target + margin
    if comparison == "at_most":
        return -np.inf, target + margin
    if comparison == "at_least":
        return target + margin, np.inf
    if comparison == "below":
        return -np.inf, target - margin
    raise ValueError(f"comparison must be one of {COMPARISONS}, got {comparison!r}")


@dataclass(frozen=True)
class Limit:
    """The finite-size model's extrapolated limit (at the best-fitting rate) with its 95 %
    interval (the union over the declared rates), the best rate, its fit's chi-square p-value
    and whether that fit is acceptable."""

    value: float
    low: float
    high: float
    exponent: float = np.nan
    pvalue: float = np.nan
    fit_ok: bool = True

    @property
    def interval(self) -> Interval:
        return Interval(self.low, self.high, np.nan)


def check_finite_size_test(row_id: str, comparison: str, interval: str) -> None:
    """ValueError unless a finite-size model can go with ``comparison`` (one of
    :data:`FINITE_SIZE_COMPARISONS`: the limit's region is its target +- the margin) and
    ``interval`` (resampled: the limit's interval is a bootstrap)."""
    if comparison not in FINITE_SIZE_COMPARISONS:
        raise ValueError(
            f"{row_id}: a finite-size model goes with a comparison in "
            f"{FINITE_SIZE_COMPARISONS}, got {comparison!r}"
        )
    if interval == "exact":
        raise ValueError(f"{row_id}: a finite-size model needs a resampled interval, not 'exact'")


@dataclass(frozen=True)
class TheoryTest:
    """What the rule needs to judge one theory of a row, derived from its declared test
    (:class:`attnspec.claims.declared.DeclaredTest`): the margin in the statistic's units (the
    declared one times the evidence's margin scale), ``exponents`` the finite-size model's range
    of rates (None: no model), ``caveat_distance`` in margins."""

    statistic: str
    comparison: str
    margin: float
    interval: str
    exponents: tuple[float, float] | None
    interval_scale: float = 1.0
    caveat_distance: float = np.inf

    @property
    def caveat_reach(self) -> float:
        """How far, in the statistic's units, the judged interval may lie from its region for
        a finite-size caveat."""
        return self.caveat_distance * self.margin

    def regions(self, evidence: Evidence, shift: float = 0.0):
        """(region, limit region) with both targets shifted by ``shift`` margins; the limit's
        region is the limit target +- the margin, for an at-most row too (its statistics are
        distances: a limit extrapolated below the target by more than the margin is a model
        that does not fit, not a pass)."""
        offset = shift * self.margin
        return (
            pass_region(self.comparison, evidence.target + offset, self.margin),
            pass_region("equivalence", evidence.limit_target + offset, self.margin),
        )

    def against_alternative(self, exponents: tuple[float, float] | None) -> "TheoryTest":
        """The test a wrong theory is judged by: an equivalence with its prediction, at its own
        rates where it declares them."""
        rival = replace(self, comparison="equivalence")
        return (
            rival if exponents is None else replace(rival, exponents=tuple(map(float, exponents)))
        )


def _placement(lows, highs, region):
    """(inside, disjoint) of each interval [low, high] against the region (non-finite: neither)."""
    low, high = region
    finite = np.isfinite(lows) & np.isfinite(highs)
    inside = finite & (low <= lows) & (highs <= high)
    disjoint = finite & ((highs < low) | (lows > high))
    return inside, disjoint


def _distance(lows, highs, region):
    """How far each interval lies from the region (0 where they meet)."""
    low, high = region
    with np.errstate(invalid="ignore"):
        return np.maximum(0.0, np.maximum(low - highs, lows - high))


def decide_codes(
    lows,
    highs,
    region,
    limit_lows=None,
    limit_highs=None,
    limit_region=None,
    fit_ok=None,
    caveat_distance=np.inf,
):
    """The code (:attr:`Verdict.code`) of each resample's verdict against one theory (module
    docstring); the limit arrays (the union over the declared rates), ``fit_ok`` (the model's
    fit acceptable) and ``caveat_distance`` (how far, in the statistic's units, the judged
    interval may lie from its region for a caveat) are None / inf for a row without a
    finite-size model. A rejected fit passes nothing; it reads does not reproduce only where
    the judged interval lies outside its region on the same side as the limit's union (data
    far off at every scale the model tried, e.g. a wrong law's distance)."""
    inside, disjoint = _placement(lows, highs, region)
    verdict = np.full(np.shape(lows), Verdict.INCONCLUSIVE.code)
    if limit_lows is None:
        verdict[disjoint] = Verdict.DOES_NOT_REPRODUCE.code
        verdict[inside] = Verdict.HOLDS.code
        return verdict
    limit_inside, limit_disjoint = _placement(limit_lows, limit_highs, limit_region)
    fit_ok = np.ones(np.shape(lows), dtype=bool) if fit_ok is None else np.asarray(fit_ok)
    near = _distance(lows, highs, region) <= caveat_distance
    with np.errstate(invalid="ignore"):
        below = (np.asarray(limit_highs) < limit_region[0]) & (np.asarray(highs) < region[0])
        above = (np.asarray(limit_lows) > limit_region[1]) & (np.asarray(lows) > region[1])
    verdict[limit_inside & fit_ok & near] = Verdict.FINITE_SIZE_CAVEAT.code
    verdict[limit_inside & fit_ok & inside] = Verdict.HOLDS.code
    verdict[limit_disjoint & (fit_ok | below | above)] = Verdict.DOES_NOT_REPRODUCE.code
    return verdict


def decide(
    interval: Interval,
    region: tuple[float, float],
    limit: Interval | None = None,
    limit_region: tuple[float, float] | None = None,
    fit_ok: bool = True,
    caveat_distance: float = np.inf,
) -> Verdict:
    """The verdict against one theory from the judged interval and, for a row with a
    finite-size model, the limit's interval (the union over the declared rates), whether the
    model's fit is acceptable and how far the judged interval may lie from its region for a
    caveat (module docstring)."""
    arrays = [np.array([interval.low]), np.array([interval.high]), region]
    if limit is not None:
        arrays += [np.array([limit.low]), np.array([limit.high]), limit_region]
        arrays += [np.array([fit_ok]), caveat_distance]
    return ORDER[int(decide_codes(*arrays)[0])]


def power_rule(claim: Verdict, alternatives: Iterable[Verdict]) -> Verdict:
    """The row's final verdict: a pass against the claim's theory becomes inconclusive when some
    alternative is not ruled out (does not read does not reproduce)."""
    standing = any(verdict is not Verdict.DOES_NOT_REPRODUCE for verdict in alternatives)
    return Verdict.INCONCLUSIVE if claim.passes and standing else claim


def power_rule_codes(claim: np.ndarray, alternatives: Sequence[np.ndarray]) -> np.ndarray:
    """:func:`power_rule` on arrays of verdict codes (:attr:`Verdict.code`), one per resample."""
    passing = np.isin(claim, [verdict.code for verdict in ORDER if verdict.passes])
    standing = np.zeros(claim.shape, dtype=bool)
    for verdict in alternatives:
        standing |= verdict != Verdict.DOES_NOT_REPRODUCE.code
    return np.where(passing & standing, Verdict.INCONCLUSIVE.code, claim)
