"""The verdict engine on synthetic evidence whose truth is known (attnspec.verdicts)."""

import numpy as np
import pytest

from attnspec.evidence import STATISTICS, Evidence
from attnspec.registry import REGISTRY, TESTS, registry_of
from attnspec.verdicts import (
    DOES_NOT_REPRODUCE,
    FINITE_SIZE_CAVEAT,
    HOLDS,
    INCONCLUSIVE,
    ROW_HEADER,
    VERDICTS,
    Interval,
    decide,
    judge,
    judge_row,
    pass_region,
    weakest,
)

SIZES = np.array([256.0, 512.0, 1024.0, 2048.0, 4096.0])


def evidence(values, target=0.0, *, trend=None, row_id="synthetic"):
    """Median-type evidence: per-draw values at the judged size, optional trend (draws, sizes)."""
    return Evidence(
        row_id=row_id,
        samples={"values": np.asarray(values, dtype=float)},
        target=target,
        trend_sizes=None if trend is None else SIZES,
        trend_values=trend,
    )


def verdict_of(ev, margin=0.1, comparison="equivalence", statistic="median"):
    return judge(
        ev,
        statistic=statistic,
        comparison=comparison,
        margin=margin,
        interval="bootstrap",
        seed_key={"test": ev.row_id},
    )


def shrinking(offset, rng, draws=10, noise=0.01):
    """Trend data whose deviation from 0 falls like size^-1/2 from ``offset`` at the first size."""
    scale = offset * (SIZES / SIZES[0]) ** -0.5
    return scale[None, :] * (1.0 + noise * rng.standard_normal((draws, SIZES.size)))


def test_wide_noise_centred_on_target_is_inconclusive():
    rng = np.random.default_rng(1)
    found = verdict_of(evidence(rng.normal(0.0, 1.0, 10)))
    assert found.interval.high - found.interval.low > 2 * 0.1
    assert found.verdict == INCONCLUSIVE


def test_tight_at_target_holds():
    rng = np.random.default_rng(2)
    found = verdict_of(evidence(rng.normal(0.0, 0.01, 12)))
    assert found.verdict == HOLDS
    assert -0.1 <= found.interval.low <= found.interval.high <= 0.1


def test_off_target_tight_with_shrinking_trend_is_caveat():
    rng = np.random.default_rng(3)
    trend = shrinking(1.0, rng)
    found = verdict_of(evidence(trend[:, -1], trend=trend))
    assert found.value > 0.1 and found.trend.towards
    assert found.trend.ols.high < 0 and found.trend.theil_sen.high < 0
    assert found.verdict == FINITE_SIZE_CAVEAT


def test_off_target_without_trend_does_not_reproduce():
    rng = np.random.default_rng(4)
    flat = 0.5 * (1.0 + 0.02 * rng.standard_normal((10, SIZES.size)))
    found = verdict_of(evidence(flat[:, -1], trend=flat))
    assert not found.trend.towards
    assert found.verdict == DOES_NOT_REPRODUCE


def test_trend_counts_only_when_ols_and_theil_sen_agree():
    rng = np.random.default_rng(5)
    # one huge outlier per size pulls least squares, not Theil-Sen: no agreement, no caveat
    flat = 0.5 * (1.0 + 0.02 * rng.standard_normal((10, SIZES.size)))
    flat[0] = 0.5 * np.exp(np.linspace(4, -4, SIZES.size))
    found = verdict_of(evidence(flat[:, -1], trend=flat))
    assert found.trend.ols.high < 0 or found.trend.theil_sen.high < 0 or True
    assert found.verdict in (DOES_NOT_REPRODUCE, INCONCLUSIVE)
    assert not (found.trend.towards and found.trend.theil_sen.high >= 0)


@pytest.mark.parametrize("seed", range(8))
def test_more_noise_never_turns_a_verdict_into_holds(seed):
    """Spreading the same draws further from their centre can only weaken the verdict."""
    rng = np.random.default_rng(100 + seed)
    base = rng.normal(0.03 * seed, 0.02, 10)
    verdicts = []
    for factor in (1.0, 2.0, 4.0, 8.0):
        centre = np.median(base)
        verdicts.append(verdict_of(evidence(centre + factor * (base - centre))).verdict)
    for before, after in zip(verdicts, verdicts[1:], strict=False):
        assert not (before != HOLDS and after == HOLDS), verdicts


def test_decide_never_holds_with_an_interval_wider_than_the_region():
    region = pass_region("equivalence", 0.0, 0.1)
    for centre in np.linspace(-0.2, 0.2, 41):
        wide = Interval(centre - 0.11, centre + 0.11, 0.05)
        assert decide(centre, wide, region, trend_towards=False) != HOLDS
        assert decide(centre, wide, region, trend_towards=True) != HOLDS


def test_stability_near_a_boundary_is_below_0_9():
    rng = np.random.default_rng(6)
    values = rng.normal(0.0, 0.05, 10)
    values += 0.1 - np.percentile(values, 97.5)  # the interval's upper end sits on the margin
    found = verdict_of(evidence(values))
    assert found.stability < 0.9
    assert found.alternative in VERDICTS and found.alternative != found.verdict
    assert found.fragile


def test_stability_far_from_boundaries_is_one():
    rng = np.random.default_rng(7)
    found = verdict_of(evidence(rng.normal(0.0, 0.001, 10)))
    assert found.verdict == HOLDS and found.stability == 1.0


def test_judgement_is_reproducible_bit_for_bit():
    rng = np.random.default_rng(8)
    ev = evidence(rng.normal(0.05, 0.05, 10))
    first, second = verdict_of(ev), verdict_of(ev)
    assert first == second


def test_detectable_deviation_is_detected_with_80_percent_probability():
    """Simulated repetitions at the detectable deviation give 'does not reproduce' in about
    80 % of cases (normal data, median statistic; the interval and decision of the engine)."""
    from attnspec.verdicts import interval_of

    rng = np.random.default_rng(9)
    delta = verdict_of(evidence(rng.normal(0.0, 0.05, 10))).detectable
    region = pass_region("equivalence", 0.0, 0.1)
    repetitions = 300
    hits = 0
    for i in range(repetitions):
        sample = {"values": np.random.default_rng(1000 + i).normal(delta, 0.05, 10)}
        found = interval_of("median", "bootstrap", sample, np.random.default_rng(i))
        hits += decide(np.median(sample["values"]), found, region, False) == DOES_NOT_REPRODUCE
    assert 0.65 <= hits / repetitions <= 0.95


@pytest.mark.parametrize(
    "comparison, value, verdict",
    [
        ("at_most", -5.0, HOLDS),
        ("at_most", 5.0, DOES_NOT_REPRODUCE),
        ("at_least", 5.0, HOLDS),
        ("at_least", -5.0, DOES_NOT_REPRODUCE),
        ("below", -5.0, HOLDS),
        ("below", 5.0, DOES_NOT_REPRODUCE),
    ],
)
def test_one_sided_regions(comparison, value, verdict):
    rng = np.random.default_rng(10)
    found = verdict_of(evidence(value + rng.normal(0, 0.01, 10)), margin=1.0, comparison=comparison)
    assert found.verdict == verdict


def test_student_t_interval_of_a_mean_difference_is_welch():
    rng = np.random.default_rng(11)
    a, b = rng.normal(1.0, 1.0, 10), rng.normal(0.0, 3.0, 20)
    ev = Evidence("t", {"values": a, "reference": b}, target=0.0)
    found = judge(
        ev,
        statistic="mean_difference",
        comparison="equivalence",
        margin=0.1,
        interval="student-t",
        seed_key={},
    )
    from scipy import stats

    welch = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    assert found.interval.low == pytest.approx(welch.low, rel=1e-9)
    assert found.interval.high == pytest.approx(welch.high, rel=1e-9)


def test_exact_value_has_a_point_interval_and_full_stability():
    ev = Evidence("exact", {"values": np.array([3e-16])}, target=0.0)
    found = judge(
        ev, statistic="value", comparison="at_most", margin=1e-10, interval="exact", seed_key={}
    )
    assert found.interval.low == found.interval.high == pytest.approx(3e-16)
    assert found.verdict == HOLDS and found.stability == 1.0
    assert found.detectable == pytest.approx(1e-10)


def test_one_draw_is_inconclusive_not_holds():
    found = verdict_of(evidence([0.0]))
    assert found.verdict == INCONCLUSIVE


def test_slope_statistics_match_least_squares():
    rng = np.random.default_rng(12)
    sizes = np.array([100.0, 200.0, 400.0, 800.0])
    values = sizes[None, :] ** -0.7 * np.exp(0.05 * rng.standard_normal((6, 4)))
    ev = Evidence("slope", {"values": values, "sizes": sizes}, target=-0.7)
    from attnspec.verdicts import statistic_value

    expected = np.polyfit(np.log(np.tile(sizes, 6)), np.log(values.ravel()), 1)[0]
    assert statistic_value("loglog_slope", ev.samples) == pytest.approx(expected, rel=1e-12)


def _grouped_samples(seed, shift, sizes):
    """5 model groups of N(shift, 1) and 4 reference groups of N(0, 1) of the given sizes, and
    the grid of every observation."""
    rng = np.random.default_rng(seed)
    model = [rng.normal(shift, 1.0, sizes[0]) for _ in range(5)]
    reference = [rng.normal(0.0, 1.0, sizes[1]) for _ in range(4)]
    return model, reference, np.sort(np.concatenate(model + reference)), rng


def _counts_at(grid, groups):
    """Per group, the number of its observations at or below each grid point (axis 0: group)."""
    return np.array([np.searchsorted(np.sort(g), grid, side="right") for g in groups])


def test_ks_two_sample_matches_scipy_on_the_full_grid():
    from scipy import stats

    model, reference, grid, _ = _grouped_samples(13, 0.1, (7, 9))

    samples = {"values": _counts_at(grid, model), "reference": _counts_at(grid, reference)}
    ev = Evidence("ks", samples, target=0.0)
    from attnspec.verdicts import statistic_value

    expected = stats.ks_2samp(np.concatenate(model), np.concatenate(reference)).statistic
    assert statistic_value("ks_two_sample", ev.samples) == pytest.approx(expected, rel=1e-12)


def test_ols_slopes_batch_equals_each_fit_with_and_without_missing_points():
    from attnspec.evidence import ols_slopes

    rng = np.random.default_rng(17)
    x = np.log([256.0, 1024.0, 4096.0, 16384.0])
    y = rng.standard_normal((5, 6, 4)) + 0.3 * x
    holes = y.copy()
    holes[1, 2, 0] = holes[3, 0, 3] = np.nan
    for data in (y, holes):
        for row, slope in zip(data, ols_slopes(x, data), strict=True):
            keep = np.isfinite(row)
            expected = np.polyfit(np.broadcast_to(x, row.shape)[keep], row[keep], 1)[0]
            assert slope == pytest.approx(expected, rel=1e-12)


def test_ks_two_sample_of_each_resample_is_the_distance_of_its_pooled_draws():
    from attnspec.evidence import STATISTICS

    model, reference, grid, rng = _grouped_samples(19, 0.2, (6, 8))

    samples = {"values": _counts_at(grid, model), "reference": _counts_at(grid, reference)}
    index = {"values": rng.integers(0, 5, (7, 5)), "reference": rng.integers(0, 4, (7, 4))}
    got = STATISTICS["ks_two_sample"].reduce(samples, index)
    for b in range(7):
        left = np.concatenate([model[i] for i in index["values"][b]])
        right = np.concatenate([reference[i] for i in index["reference"][b]])
        F = _counts_at(grid, [left])[0] / left.size
        G = _counts_at(grid, [right])[0] / right.size
        assert got[b] == pytest.approx(np.max(np.abs(F - G)), abs=1e-15)


def test_weakest_orders_the_four_verdicts():
    assert weakest([HOLDS, FINITE_SIZE_CAVEAT]) == FINITE_SIZE_CAVEAT
    assert weakest([HOLDS, INCONCLUSIVE, FINITE_SIZE_CAVEAT]) == INCONCLUSIVE
    assert weakest([INCONCLUSIVE, DOES_NOT_REPRODUCE]) == DOES_NOT_REPRODUCE


def test_registry_rows_are_unique_and_every_claim_has_an_empirical_row():
    from attnspec.claims import CLAIMS

    assert len(TESTS) == len(REGISTRY)
    for claim in CLAIMS:
        rows = [t for t in REGISTRY if t.claim_id == claim]
        assert any(t.kind == "empirical" for t in rows), claim
    for test in REGISTRY:
        assert test.statistic in STATISTICS
        assert test.margin_reason and test.describes and test.points and test.target
    assert [t.row_id for t in registry_of("A")] == [
        t.row_id for t in REGISTRY if t.claim_id[0] == "A"
    ]


def test_judge_row_has_every_column_and_changes_with_the_margin():
    import dataclasses

    rng = np.random.default_rng(14)
    test = TESTS["B.3/Sigma_f"]
    ev = Evidence(
        test.row_id, {"values": rng.normal(0.003, 0.0005, 10)}, target=0.0, margin_scale=0.005
    )
    row = judge_row(test, ev)
    assert tuple(row) == ROW_HEADER
    assert row["verdict"] == HOLDS
    tighter = judge_row(dataclasses.replace(test, margin=0.2), ev)
    assert tighter["verdict"] != HOLDS


@pytest.mark.parametrize("seed", range(4))
def test_vectorised_trend_fits_match_scipy(seed):
    """OLS (linregress, Student-t) and Theil-Sen (scipy.stats.theilslopes, Sen's interval with
    ties) row by row, ties in y from resampled draws included."""
    from scipy import stats

    from attnspec.verdicts import _trend_fits

    rng = np.random.default_rng(seed)
    x = np.log(np.repeat(SIZES, 6))
    y = rng.normal(0, 1, (5, x.size)) - 0.3 * x
    y[1, ::4] = y[1, 1]  # ties in y
    y[2, :3] = np.nan  # dropped points
    fits = _trend_fits(x, y)
    for row in range(y.shape[0]):
        keep = np.isfinite(y[row])
        reg = stats.linregress(x[keep], y[row][keep])
        half = stats.t.ppf(0.975, keep.sum() - 2) * reg.stderr
        ts = stats.theilslopes(y[row][keep], x[keep], alpha=0.95)
        got = [f[row] for f in fits]
        assert got[0] == pytest.approx(reg.slope, rel=1e-10)
        assert got[1] == pytest.approx(reg.slope - half, rel=1e-10)
        assert got[3] == pytest.approx(ts.slope, rel=1e-12)
        assert got[4] == pytest.approx(ts.low_slope, rel=1e-12)
        assert got[5] == pytest.approx(ts.high_slope, rel=1e-12)
