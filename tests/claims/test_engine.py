"""The verdict engine on synthetic evidence whose truth is known (attnspec.claims.engine and
the modules it joins: rule, resampling, stability, power, rows)."""

import dataclasses

import numpy as np
import pytest

from attnspec.claims.declared import Alternative, DeclaredTest, FiniteSize
from attnspec.claims.engine import judge
from attnspec.claims.evidence import STATISTICS, Evidence
from attnspec.claims.resampling import statistic_value
from attnspec.claims.rows import ROW_HEADER, judge_row
from attnspec.claims.rule import Interval, decide, pass_region
from attnspec.claims.verdict import ORDER, Verdict
from attnspec.papers.registry import REGISTRY, TESTS, registry_of

SIZES = np.array([1024.0, 2048.0, 4096.0, 8192.0])
TW_MEAN, TW_SD = -1.2065335745820, 1.2680340580149


def evidence(values, target=0.0, **extra):
    """Median-type evidence at the judged size."""
    return Evidence(
        row_id="synthetic",
        samples={"values": np.asarray(values, dtype=float)},
        target=target,
        **extra,
    )


# Stability resamples of the tests that do not read the stability (the engine's default: 1000).
QUICK = 20


def declared(
    statistic="median",
    comparison="equivalence",
    margin=0.1,
    interval="bootstrap",
    exponents=None,
    alternatives=(),
    alternative_exponents=None,
    caveat_distance=np.inf,
    interval_scale=1.0,
) -> DeclaredTest:
    """A declared test for synthetic evidence: a model row (so that it may declare no wrong
    theories) of claim A.1, with ``exponents`` its finite-size model's rates (None: none) and
    ``alternative_exponents`` the rates of those wrong theories that declare their own."""
    own = alternative_exponents or {}
    model = None
    if exponents is not None:
        model = FiniteSize(exponents, "synthetic", "synthetic", "0", caveat_distance, "synthetic")
    return DeclaredTest(
        row_id="A.1/synthetic",
        kind="model",
        subject="synthetic",
        figure="",
        statistic=statistic,
        describes="synthetic",
        points="synthetic",
        target="synthetic",
        comparison=comparison,
        margin=margin,
        margin_unit="",
        margin_reason="synthetic",
        interval=interval,
        finite_size=model,
        interval_scale=interval_scale,
        interval_scale_reason="synthetic" if interval_scale != 1.0 else "",
        alternatives=tuple(
            Alternative(
                name,
                "synthetic",
                "synthetic",
                own.get(name),
                "synthetic" * (name in own),
                "synthetic" * (name in own),
            )
            for name in alternatives
        ),  # fmt: skip
    )


def verdict_of(ev, *, streams=None, stability_resamples=QUICK, **declaration):
    """The engine's judgement of ``ev`` by :func:`declared`'s test (quick stability unless
    ``stability_resamples`` is given), its streams keyed by the evidence's row unless given."""
    test = declared(**declaration)
    keyed = {"test": ev.row_id} if streams is None else streams
    return judge(test, ev, streams=keyed, stability_resamples=stability_resamples)


def test_wide_noise_centred_on_target_is_inconclusive():
    rng = np.random.default_rng(1)
    found = verdict_of(evidence(rng.normal(0.0, 1.0, 10)))
    assert found.interval.high - found.interval.low > 2 * 0.1
    assert found.verdict == Verdict.INCONCLUSIVE


def test_tight_at_target_holds_and_tight_far_off_does_not_reproduce():
    rng = np.random.default_rng(2)
    found = verdict_of(evidence(rng.normal(0.0, 0.01, 12)))
    assert found.verdict == Verdict.HOLDS
    assert -0.1 <= found.interval.low <= found.interval.high <= 0.1
    assert verdict_of(evidence(rng.normal(0.5, 0.01, 12))).verdict == Verdict.DOES_NOT_REPRODUCE


@pytest.mark.parametrize("seed", range(6))
def test_more_noise_never_turns_a_verdict_into_a_pass(seed):
    """Spreading the same draws further from their centre can only weaken the verdict, with
    and without a finite-size model."""
    rng = np.random.default_rng(100 + seed)
    base = rng.normal(0.03 * seed, 0.02, (10, SIZES.size))
    for model in (False, True):
        verdicts = []
        for factor in (1.0, 2.0, 4.0, 8.0):
            centre = np.median(base, axis=0)
            spread = centre + factor * (base - centre)
            extra = {}
            if model:
                extra = {"sizes": SIZES, "by_size": tuple({"values": c} for c in spread.T)}
            options = {"exponents": (2 / 3, 2 / 3)} if model else {}
            verdicts.append(verdict_of(evidence(spread[:, -1], **extra), **options).verdict)
        passes = (Verdict.HOLDS, Verdict.FINITE_SIZE_CAVEAT)
        for before, after in zip(verdicts, verdicts[1:], strict=False):
            assert not (before not in passes and after in passes), verdicts
            assert not (before != Verdict.HOLDS and after == Verdict.HOLDS), verdicts


def test_decide_never_holds_with_an_interval_wider_than_the_region():
    region = pass_region("equivalence", 0.0, 0.1)
    for centre in np.linspace(-0.2, 0.2, 41):
        wide = Interval(centre - 0.11, centre + 0.11, 0.05)
        assert decide(wide, region) != Verdict.HOLDS
        narrow = Interval(-0.01, 0.01, 0.005)
        assert decide(narrow, region, wide, region) not in (
            Verdict.HOLDS,
            Verdict.FINITE_SIZE_CAVEAT,
        )


@pytest.mark.parametrize(
    "judged, limit, verdict",
    [
        ((-0.01, 0.01), (-0.05, 0.05), Verdict.HOLDS),
        ((0.2, 0.3), (-0.05, 0.05), Verdict.FINITE_SIZE_CAVEAT),
        ((-0.01, 0.01), (-0.05, 0.2), Verdict.INCONCLUSIVE),  # the limit cannot be placed
        ((0.2, 0.3), (-0.3, 0.5), Verdict.INCONCLUSIVE),  # wide is inconclusive, not a failure
        ((-0.01, 0.01), (0.2, 0.3), Verdict.DOES_NOT_REPRODUCE),  # a crossing, not agreement
        ((0.2, 0.3), (0.2, 0.3), Verdict.DOES_NOT_REPRODUCE),
    ],
)
def test_with_a_finite_size_model_the_limit_decides(judged, limit, verdict):
    region = pass_region("equivalence", 0.0, 0.1)
    found = decide(Interval(*judged, 0.0), region, Interval(*limit, 0.0), region)
    assert found == verdict


def test_stability_near_a_boundary_is_below_0_9():
    rng = np.random.default_rng(6)
    values = rng.normal(0.0, 0.05, 10)
    values += 0.1 - np.percentile(values, 97.5)  # the interval's upper end sits on the margin
    found = verdict_of(evidence(values), stability_resamples=1000)
    assert found.stability < 0.9
    assert found.alternative in ORDER and found.alternative != found.verdict
    assert found.fragile


def test_stability_far_from_boundaries_is_one():
    rng = np.random.default_rng(7)
    found = verdict_of(evidence(rng.normal(0.0, 0.001, 10)), stability_resamples=1000)
    assert found.verdict == Verdict.HOLDS and found.stability == 1.0


def test_judgement_is_reproducible_bit_for_bit():
    rng = np.random.default_rng(8)
    ev = evidence(rng.normal(0.05, 0.05, 10))
    assert verdict_of(ev) == verdict_of(ev)


@pytest.mark.parametrize("model", [False, True])
def test_power_is_the_smallest_target_shift_the_engine_calls_a_failure(model):
    """Shifting the targets by the reported power (in margins) plus a little reads does not
    reproduce; by a little less it does not."""
    rng = np.random.default_rng(9)
    data = rng.normal(0.0, 0.02, (12, SIZES.size))
    extra = {"sizes": SIZES, "by_size": tuple({"values": c} for c in data.T)} if model else {}
    options = {"exponents": (2 / 3, 2 / 3)} if model else {}
    found = verdict_of(evidence(data[:, -1], **extra), **options)
    assert 0 < found.power_up < np.inf and 0 < found.power_down < np.inf
    for shift, sign in ((found.power_up, 1), (found.power_down, -1)):
        for factor, fails in ((1.001, True), (0.999, False)):
            offset = sign * shift * factor * 0.1
            moved = dataclasses.replace(
                evidence(data[:, -1], **extra), target=offset, limit_target=offset
            )
            got = verdict_of(moved, **options).verdict
            assert (got == Verdict.DOES_NOT_REPRODUCE) == fails, (shift, factor, got)


def test_a_one_sided_row_cannot_fail_on_its_passing_side():
    rng = np.random.default_rng(10)
    found = verdict_of(evidence(5.0 + rng.normal(0, 0.01, 10)), margin=1.0, comparison="at_least")
    assert found.verdict == Verdict.HOLDS
    assert np.isfinite(found.power_up) and np.isinf(found.power_down)


@pytest.mark.parametrize(
    "comparison, value, verdict",
    [
        ("at_most", -5.0, Verdict.HOLDS),
        ("at_most", 5.0, Verdict.DOES_NOT_REPRODUCE),
        ("at_least", 5.0, Verdict.HOLDS),
        ("at_least", -5.0, Verdict.DOES_NOT_REPRODUCE),
        ("below", -5.0, Verdict.HOLDS),
        ("below", 5.0, Verdict.DOES_NOT_REPRODUCE),
    ],
)
def test_one_sided_regions(comparison, value, verdict):
    rng = np.random.default_rng(10)
    found = verdict_of(evidence(value + rng.normal(0, 0.01, 10)), margin=1.0, comparison=comparison)
    assert found.verdict == verdict


def _with_alternatives(values, alternatives):
    return evidence(
        values, alternatives={n: evidence(v, target=t) for n, (v, t) in alternatives.items()}
    )


def test_a_row_that_cannot_rule_out_an_alternative_is_inconclusive_without_power():
    rng = np.random.default_rng(11)
    values = rng.normal(0.0, 0.01, 12)
    near = {"near": (values, 0.05), "far": (values, 1.0)}
    found = verdict_of(_with_alternatives(values, near), alternatives=list(near))
    assert found.claim.verdict == Verdict.HOLDS
    assert found.verdict == Verdict.INCONCLUSIVE and found.standing == ("near",)
    assert found.alternatives["far"].verdict == Verdict.DOES_NOT_REPRODUCE
    apart = {"far": (values, 1.0), "other": (values, -0.5)}
    found = verdict_of(_with_alternatives(values, apart), alternatives=list(apart))
    assert found.verdict == Verdict.HOLDS and found.standing == ()


def test_alternatives_of_a_one_sided_row_are_placed_against_their_own_prediction():
    """A separation (at least) row holds on data far above its null; its alternative, the null
    itself as a prediction, is ruled out; a prediction near the data is not."""
    rng = np.random.default_rng(12)
    values = 5.0 + rng.normal(0, 0.01, 10)
    null = {"null": (values, 0.0)}
    found = verdict_of(
        _with_alternatives(values, null), margin=1.0, comparison="at_least", alternatives=["null"]
    )
    assert (
        found.verdict == Verdict.HOLDS
        and found.alternatives["null"].verdict == Verdict.DOES_NOT_REPRODUCE
    )
    close = {"close": (values, 5.0)}
    found = verdict_of(
        _with_alternatives(values, close), margin=1.0, comparison="at_least", alternatives=["close"]
    )
    assert found.claim.verdict == Verdict.HOLDS and found.verdict == Verdict.INCONCLUSIVE


def test_no_power_is_named_only_when_an_alternative_turned_a_pass_into_inconclusive():
    """A claim that fails on its own while a wrong theory fits is agreement with that theory,
    not lack of power: the alternative is left standing but not named as "no power"."""
    rng = np.random.default_rng(14)
    values = rng.normal(0.5, 0.01, 12)
    found = verdict_of(_with_alternatives(values, {"truth": (values, 0.5)}), alternatives=["truth"])
    assert found.verdict == Verdict.DOES_NOT_REPRODUCE and found.standing == ("truth",)
    assert found.no_power_against == ()
    near = rng.normal(0.0, 0.01, 12)
    found = verdict_of(_with_alternatives(near, {"near": (near, 0.05)}), alternatives=["near"])
    assert found.verdict == Verdict.INCONCLUSIVE and found.no_power_against == ("near",)


def test_an_alternative_must_have_the_claims_draws_and_takes_its_margin_unit():
    rng = np.random.default_rng(15)
    values = rng.normal(0.0, 0.01, 12)
    with pytest.raises(ValueError, match="alternative 'short' must have the claim's arrays"):
        evidence(values, alternatives={"short": evidence(values[:10])})
    ev = evidence(values, margin_scale=3.0, alternatives={"a": evidence(values, target=1.0)})
    assert ev.alternatives["a"].margin_scale == 3.0


def test_an_at_most_limit_extrapolated_below_the_target_does_not_pass():
    """A distance (at most) row with a finite-size model: a fit that overshoots below 0 by more
    than the margin is not a pass, whatever its judged size shows."""
    rng = np.random.default_rng(16)
    falling = -0.01 + 0.013 * SIZES[-1] / SIZES  # 0.003 at the judged size, limit -0.01
    data = falling[None, :] + rng.normal(0.0, 1e-4, (20, SIZES.size))
    by_size = tuple({"values": data[:, i]} for i in range(SIZES.size))
    ev = evidence(data[:, -1], sizes=SIZES, by_size=by_size)
    found = verdict_of(ev, margin=0.005, comparison="at_most", exponents=(1.0, 1.0))
    assert found.interval.high < 0.005 and found.claim.limit.high < -0.005
    assert found.verdict == Verdict.DOES_NOT_REPRODUCE


@pytest.mark.parametrize(
    "options, message",
    [
        ({"stability_resamples": 0}, "stability_resamples must be an integer >= 1"),
        ({"stability_resamples": 2.0}, "stability_resamples must be an integer >= 1"),
        ({"interval": "exact", "exponents": (1.0, 1.0)}, "needs a resampled interval"),
        ({"comparison": "at_least", "exponents": (1.0, 1.0)}, "a finite-size model goes with"),
    ],
)
def test_judge_refuses_arguments_it_cannot_honour(options, message):
    values = np.random.default_rng(17).normal(0.0, 0.01, (12, SIZES.size))
    by_size = tuple({"values": values[:, i]} for i in range(SIZES.size))
    ev = evidence(values[:, -1], sizes=SIZES, by_size=by_size)
    with pytest.raises(ValueError, match=message):
        verdict_of(ev, streams={"test": "refused"}, **{"exponents": (1.0, 1.0), **options})


def test_an_unknown_variant_is_refused_naming_the_known_ones():
    ev = evidence(np.zeros(12), variants={"beta +-3 %": evidence(np.zeros(12))})
    with pytest.raises(ValueError, match=r"variant must be one of \['beta \+-3 %'\]"):
        judge(declared(), ev, variant="beta +-1 %")
    assert judge(declared(), ev, variant="beta +-3 %", stability_resamples=1).verdict.passes


def test_the_evidence_must_carry_exactly_the_declared_alternatives():
    rng = np.random.default_rng(13)
    values = rng.normal(0.0, 0.01, 12)
    ev = _with_alternatives(values, {"a": (values, 1.0)})
    with pytest.raises(ValueError, match="alternatives"):
        verdict_of(ev, alternatives=["a", "b"])
    with pytest.raises(ValueError, match="alternatives"):
        verdict_of(ev)


def test_student_t_interval_of_a_mean_difference_is_welch():
    rng = np.random.default_rng(11)
    a, b = rng.normal(1.0, 1.0, 10), rng.normal(0.0, 3.0, 20)
    ev = Evidence("t", {"values": a, "reference": b}, target=0.0)
    found = verdict_of(ev, statistic="mean_difference", interval="student-t", streams={})
    from scipy import stats

    welch = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
    assert found.interval.low == pytest.approx(welch.low, rel=1e-9)
    assert found.interval.high == pytest.approx(welch.high, rel=1e-9)


def test_exact_value_has_a_point_interval_and_full_stability():
    ev = Evidence("exact", {"values": np.array([3e-16])}, target=0.0)
    found = verdict_of(
        ev, statistic="value", comparison="at_most", margin=1e-10, interval="exact", streams={}
    )
    assert found.interval.low == found.interval.high == pytest.approx(3e-16)
    assert found.verdict == Verdict.HOLDS and found.stability == 1.0


def test_one_draw_is_inconclusive_not_holds():
    assert verdict_of(evidence([0.0])).verdict == Verdict.INCONCLUSIVE


def test_slope_statistics_match_least_squares():
    rng = np.random.default_rng(12)
    sizes = np.array([100.0, 200.0, 400.0, 800.0])
    values = sizes[None, :] ** -0.7 * np.exp(0.05 * rng.standard_normal((6, 4)))
    ev = Evidence("slope", {"values": values, "sizes": sizes}, target=-0.7)
    expected = np.polyfit(np.log(np.tile(sizes, 6)), np.log(values.ravel()), 1)[0]
    assert statistic_value("loglog_slope", ev.samples) == pytest.approx(expected, rel=1e-12)


def test_resampled_medians_and_means_equal_numpy_with_and_without_missing_values():
    from attnspec.claims.evidence import resampled_means, resampled_medians

    rng = np.random.default_rng(14)
    for shape in ((20,), (7,), (12, 3)):
        values = rng.normal(size=shape)
        index = rng.integers(0, shape[0], (300, shape[0]))
        gathered = values[index].reshape(300, -1)
        np.testing.assert_array_equal(resampled_medians(values, index), np.median(gathered, 1))
        np.testing.assert_allclose(resampled_means(values, index), gathered.mean(1), atol=1e-15)
        values.ravel()[1] = np.nan
        gathered = values[index].reshape(300, -1)
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(
                resampled_medians(values, index), np.nanmedian(gathered, 1)
            )


def test_max_abs_median_is_the_worst_column_median():
    rng = np.random.default_rng(15)
    values = rng.normal(0.0, 1.0, (9, 5)) + np.array([0.0, 0.1, -3.0, 0.2, 1.0])
    expected = np.max(np.abs(np.median(values, axis=0)))
    assert statistic_value("max_abs_median", {"values": values}) == pytest.approx(expected)


def test_threshold_slope_recomputes_the_floor_in_every_resample():
    from attnspec.claims.evidence import threshold_crossings

    rng = np.random.default_rng(16)
    betas, log_sizes = np.array([1.0, 1.5, 2.0, 3.0]), np.log([250.0, 1000.0, 4000.0])
    crossing = 1.2 * np.sqrt(log_sizes / log_sizes[0])  # beta* ~ sqrt(log ell)
    attention = 0.1 * (betas[None, None, :] / crossing[None, :, None]) ** 4
    attention = attention + rng.normal(0, 0.002, (6, 3, 4))
    linear = rng.normal(0.01, 0.001, (6, 3, 4))
    samples = {
        "values": np.stack([attention + 0.01, linear], axis=1),
        "betas": betas,
        "log_sizes": log_sizes,
        "threshold": np.float64(0.1),
    }
    excess = attention + 0.01 - linear.mean(axis=0)
    beta_star = threshold_crossings(excess, betas, 0.1)
    u = np.broadcast_to(np.log(log_sizes), beta_star.shape)
    expected = np.polyfit(u.ravel(), np.log(beta_star).ravel(), 1)[0]
    assert statistic_value("threshold_slope", samples) == pytest.approx(expected, rel=1e-12)
    index = {"values": np.array([[0, 0, 1, 1, 2, 2]])}
    floor = linear[[0, 0, 1, 1, 2, 2]].mean(axis=0)
    resampled = threshold_crossings(attention[[0, 0, 1, 1, 2, 2]] + 0.01 - floor, betas, 0.1)
    expected = np.polyfit(u.ravel(), np.log(resampled).ravel(), 1)[0]
    got = STATISTICS["threshold_slope"].reduce(samples, index)[0]
    assert got == pytest.approx(expected, rel=1e-12)


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
    expected = stats.ks_2samp(np.concatenate(model), np.concatenate(reference)).statistic
    assert statistic_value("ks_two_sample", samples) == pytest.approx(expected, rel=1e-12)


def test_ols_slopes_batch_equals_each_fit_with_and_without_missing_points():
    from attnspec.claims.evidence import ols_slopes

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


def test_registry_rows_are_declared_completely():
    from attnspec.claims.catalogue import CLAIMS

    assert len(TESTS) == len(REGISTRY)
    for claim in CLAIMS:
        rows = [t for t in REGISTRY if t.claim_id == claim]
        assert any(t.kind == "empirical" for t in rows), claim
    for test in REGISTRY:
        assert test.statistic in STATISTICS
        assert test.margin_reason and test.describes and test.points and test.target
        assert test.subject
        if test.kind == "empirical":
            assert test.alternatives, test.row_id
            assert all(a.theory and a.reason for a in test.alternatives), test.row_id
        if test.finite_size is not None:
            assert test.finite_size.exponents[0] > 0 and test.finite_size.reason
            assert test.statistic in ("median", "mean", "mean_difference", "max_abs_median")
    assert [t.row_id for t in registry_of("A")] == [
        t.row_id for t in REGISTRY if t.claim_id[0] == "A"
    ]


def test_judge_row_has_every_column_and_changes_with_the_margin():
    rng = np.random.default_rng(14)
    test = TESTS["B.3/Sigma_G"]
    values = rng.normal(0.0005, 0.0005, (10, 4))
    by_size = tuple({"values": column} for column in values.T)

    def shifted(offset):
        return Evidence(
            test.row_id,
            {"values": values[:, -1] + offset},
            target=0.0,
            sizes=np.array([256.0, 512.0, 1024.0, 2048.0]),
            by_size=tuple({"values": s["values"] + offset} for s in by_size),
        )

    ev = dataclasses.replace(
        shifted(0.0), alternatives={a.name: shifted(0.03) for a in test.alternatives}
    )
    row = judge_row(test, ev, stability_resamples=QUICK)
    assert tuple(row) == ROW_HEADER
    assert row["verdict"] == Verdict.HOLDS and row["ruled_out"] == "2 of 2"
    tighter = judge_row(dataclasses.replace(test, margin=1e-5), ev, stability_resamples=QUICK)
    assert tighter["verdict"] != Verdict.HOLDS


def _tracy_widom(rng, count, size=100):
    """Largest eigenvalues of GOE(size) on the Tracy-Widom scale: approximate TW1 draws."""
    matrices = rng.standard_normal((count, size, size))
    goe = (matrices + np.swapaxes(matrices, 1, 2)) / np.sqrt(2 * size)
    return (np.linalg.eigvalsh(goe)[:, -1] - 2.0) * size ** (2 / 3)


def _edge_evidence(gaps, tw_scale, *, x_plus_factor=1.0):
    """B.1-like evidence: per (draw, size) relative gaps (ell s^2 - x_+)/x_+, target the
    Tracy-Widom expectation, judged against an x_+ off by ``x_plus_factor``."""

    def moved(values):
        return (1.0 + values) / x_plus_factor - 1.0

    target = tw_scale * SIZES[-1] ** (-2 / 3) * TW_MEAN / x_plus_factor
    return Evidence(
        "B.1/beta=0.5",
        {"values": moved(gaps[:, -1])},
        target=target,
        sizes=SIZES,
        by_size=tuple({"values": moved(column)} for column in gaps.T),
        limit_target=0.0,
    )


EDGE = {
    "statistic": "median",
    "comparison": "equivalence",
    "margin": 0.005,
    "exponents": (1 / 3, 2.0),
}
TW_SCALE = 0.135  # gamma_TW / x_+ at beta = 0.5, c = 1 (1.33 % relative sd at ell = 1024)


def _sticking_data(rng, draws=40, excess=None):
    """Per (draw, size) relative gaps of an edge eigenvalue of the Gaussian model: Tracy-Widom
    fluctuations around x_+ at scale TW_SCALE ell^(-2/3); plus ``excess(ell)`` if given."""
    gaps = np.stack(
        [TW_SCALE * ell ** (-2 / 3) * _tracy_widom(rng, draws) for ell in SIZES], axis=1
    )
    return gaps if excess is None else gaps + excess(SIZES)[None, :]


def test_true_sticking_of_the_gaussian_model_passes_and_never_fails():
    rng = np.random.default_rng(20)
    verdicts = []
    for _ in range(8):
        found = verdict_of(_edge_evidence(_sticking_data(rng), TW_SCALE), streams={}, **EDGE)
        verdicts.append(found.verdict)
    assert Verdict.DOES_NOT_REPRODUCE not in verdicts
    assert sum(v in (Verdict.HOLDS, Verdict.FINITE_SIZE_CAVEAT) for v in verdicts) >= 6, verdicts


@pytest.mark.parametrize("location", [0.01, 0.02, 0.05])
def test_an_outlier_converging_above_the_edge_never_passes(location):
    """Synthetic B.1 data converging to an outlier 1-5 % above x_+ (from above, like a spike)
    never read holds or a finite-size caveat."""
    rng = np.random.default_rng(21)
    for amplitude in (0.0, 2.0, 8.0):
        for _ in range(4):
            data = _sticking_data(rng, 20, lambda ell, a=amplitude: location + a * ell ** (-1 / 2))
            found = verdict_of(_edge_evidence(data, TW_SCALE), streams={}, **EDGE)
            assert found.verdict not in (Verdict.HOLDS, Verdict.FINITE_SIZE_CAVEAT), (
                amplitude,
                found,
            )


@pytest.mark.parametrize("factor", [1.02, 1.05, 1.1, 0.98, 0.985])
def test_true_sticking_against_a_wrong_edge_never_passes(factor):
    """The referee's mutation: true sticking data judged against x_+ off by -2 % ... +10 %."""
    rng = np.random.default_rng(22)
    for _ in range(4):
        ev = _edge_evidence(_sticking_data(rng), TW_SCALE, x_plus_factor=factor)
        found = verdict_of(ev, streams={}, **EDGE)
        assert found.verdict not in (Verdict.HOLDS, Verdict.FINITE_SIZE_CAVEAT), (factor, found)


def test_a_declared_interval_scale_widens_the_interval_about_its_value():
    rng = np.random.default_rng(23)
    ev = evidence(rng.normal(0.08, 0.01, 12))
    plain, wide = verdict_of(ev, margin=0.09), verdict_of(ev, margin=0.09, interval_scale=3.0)
    assert wide.value == plain.value
    assert wide.interval.high - wide.value == pytest.approx(3 * (plain.interval.high - plain.value))
    assert wide.value - wide.interval.low == pytest.approx(3 * (plain.value - plain.interval.low))
    assert plain.verdict == Verdict.HOLDS and wide.verdict == Verdict.INCONCLUSIVE
    with pytest.raises(ValueError, match="interval_scale"):
        verdict_of(ev, interval_scale=0.5)


def test_every_change_after_results_is_named_by_commit_and_date():
    """Issue 33, item 7: a reader needs the commit and the date of each test changed after its
    results were seen, not a session's internal numbering."""
    import re

    named = re.compile(r"^([0-9a-f]{7} \(20\d\d-\d\d-\d\d[;)]|20\d\d-\d\d-\d\d \(issue \d+)")
    for test in REGISTRY:
        for change in test.changed_after_results:
            assert named.match(change), (test.row_id, change[:80])
            assert not re.search(r"\bstop \d", change), (test.row_id, change[:80])


def test_papers_a_and_b_set_their_nearest_wrong_theory_by_the_one_rule():
    """Issue 33, item 5: where a row's wrong theories move the parameter that defines its law
    (beta, x_+), the nearest moves it by 1 % and the margin's reason states the one rule
    (papers C and D keep their own tables: C.3/gaussian's beta (1 +- 3 %) and D's citation are
    their owners' to change)."""
    import re

    from attnspec.papers.declared_texts import RESOLUTION_PRINCIPLE

    moved = re.compile(r"^(beta|x\+ )[-+](\d+)%$")
    judged = [t for t in REGISTRY if t.claim_id[0] in "AB"]
    rows = [t for t in judged if any(moved.match(a.name) for a in t.alternatives)]
    assert {t.row_id.split("/")[0] for t in rows} == {
        "A.1",
        "A.3",
        "A.4",
        "B.1",
        "B.2",
        "B.3",
        "B.4",
    }
    for test in rows:
        sizes = {moved.match(a.name).group(2) for a in test.alternatives if moved.match(a.name)}
        assert sizes == {"1"}, test.row_id
        assert RESOLUTION_PRINCIPLE in test.margin_reason, test.row_id


def test_a5_location_widening_is_the_replicate_calibration_ratio():
    """Issue 33, item 5: the interval of A.5/location is widened by the recorded calibration's
    ratio (replicate sd over mean bootstrap standard error), not a rounded-up choice."""
    from attnspec.papers.a import declared_tests

    test = TESTS["A.5/location"]
    ratio = declared_tests.LOCATION_REPLICATE_SD / declared_tests.LOCATION_BOOTSTRAP_SE
    assert test.interval_scale == ratio == pytest.approx(0.027 / 0.017)
    for number in ("0.027", "0.017", "0.018", "9 independent replicates", f"{ratio:.3f}"):
        assert number in test.interval_scale_reason, number


def test_a_rejected_fit_passes_nothing_and_fails_only_data_off_on_one_side():
    """Issue 33, item 1: a model that does not fit the sizes cannot vouch for a limit (no holds,
    no caveat), but a wrong law whose distance sits far off at every scale is still ruled out."""
    from attnspec.claims.rule import decide_codes

    region = limit_region = (-0.005, 0.005)

    def verdict(judged, limit, fit_ok):
        found = decide_codes(
            np.array([judged[0]]), np.array([judged[1]]), region,
            np.array([limit[0]]), np.array([limit[1]]), limit_region,
            np.array([fit_ok]), 0.005,
        )  # fmt: skip
        return ORDER[int(found[0])]

    assert verdict((-0.001, 0.001), (-0.002, 0.002), True) == Verdict.HOLDS
    assert verdict((-0.001, 0.001), (-0.002, 0.002), False) == Verdict.INCONCLUSIVE
    assert verdict((0.006, 0.008), (-0.002, 0.002), True) == Verdict.FINITE_SIZE_CAVEAT
    assert verdict((0.006, 0.008), (-0.002, 0.002), False) == Verdict.INCONCLUSIVE
    too_far_for_a_caveat = verdict((0.012, 0.014), (-0.002, 0.002), True)
    assert too_far_for_a_caveat == Verdict.INCONCLUSIVE
    assert verdict((0.10, 0.12), (0.09, 0.13), False) == Verdict.DOES_NOT_REPRODUCE
    crossing_with_a_bad_fit = verdict((-0.001, 0.001), (0.09, 0.13), False)
    assert crossing_with_a_bad_fit == Verdict.INCONCLUSIVE
    assert verdict((-0.001, 0.001), (0.09, 0.13), True) == Verdict.DOES_NOT_REPRODUCE
