"""Figures B1-B3 and table B-T1: leading values of A, the per-draw simulation, batches of draws,
the summaries, and the evidence of rows B.1, B.2 and B.4/c=<c> judged by the verdict engine on
synthetic inputs: at the claim's truth (the row holds and every declared alternative is ruled
out) and at each alternative's truth (the claim does not reproduce)."""

from dataclasses import replace

import numpy as np
import pytest

from attnspec.claims.rows import judge_row
from attnspec.claims.verdict import Verdict
from attnspec.models.blocked_scores import sample_scores
from attnspec.models.sampling import attention_matrix
from attnspec.papers.b.edge_formulas_findings import linear_edge_findings
from attnspec.papers.b.sticking import (
    ceil_root,
    query_key_width,
    spike_strength,
    sticking_draw,
    sticking_jobs,
    uniform_index_counts,
)
from attnspec.papers.b.sticking_evidence import (
    COARSE_DILATIONS,
    DILATIONS,
    VARIANT_MARGIN_SCALE,
    X_PLUS_VARIANT,
    edge_evidence,
    linear_edge_evidence,
    sticking_evidence,
    uniform_evidence,
)
from attnspec.papers.b.sticking_findings import (
    edge_findings,
    gap_findings,
    reading,
    uniform_findings,
)
from attnspec.papers.b.sticking_summary import (
    SCHEDULES,
    STICKING_TABLE_HEADER,
    StickingSeries,
    by_draw,
    classical_deviation,
    collect_series,
    fit_rate,
    index_locations,
    relative_gaps,
    spike_correlation,
    sticking_table_rows,
    tracy_widom_expectation,
    uniform_deviation,
)
from attnspec.papers.draw_batches import (
    BATCH_KEY,
    batched_draws,
    is_batched,
    stack_draws,
    unstack_draws,
)
from attnspec.papers.registry import TESTS, registry_of
from attnspec.spectra.dense import top_squared_singular_values_dense
from attnspec.spectra.lanczos import (
    top_nonperron_squared_singular_values,
    top_squared_singular_values,
)
from attnspec.theory.edge import bulk_edge
from attnspec.theory.nu_infinity import NuInfinity
from attnspec.theory.r_transform import TRACY_WIDOM_1_MEAN, SymmetrisedLinearModel
from attnspec.workflow.io import load_evidence, save_evidence


def small_attention(n_tokens=120, beta=1.0, seed=0):
    rng = np.random.default_rng(seed)
    Q, K = rng.standard_normal((2, n_tokens, n_tokens))
    return attention_matrix(Q, K, beta)


# --- leading singular values of A itself ---------------------------------------------------


@pytest.mark.parametrize("beta", [0.5, 1.5])
def test_top_k_of_a_agrees_with_the_dense_solve_and_the_interlacing_bounds(beta):
    A = small_attention(beta=beta)
    k = 8
    dense = np.linalg.svd(A, compute_uv=False)[:k] ** 2
    lanczos = top_squared_singular_values(A, k)
    subset = top_squared_singular_values_dense(A, k)
    np.testing.assert_allclose(lanczos, dense, rtol=1e-10)
    np.testing.assert_allclose(subset, dense, rtol=1e-10)
    # s_{k+1}(A_perp) <= s_k(A) <= s_{k-1}(A_perp) for k >= 2 (rank-one interlacing).
    ell = A.shape[0]
    perp = top_nonperron_squared_singular_values(A, k) / ell  # s_1..s_k(A_perp)^2
    values = lanczos[1:k]  # s_2..s_k(A)^2
    assert np.all(values <= perp[: k - 1] * (1 + 1e-10))
    assert np.all(values >= perp[1:k] * (1 - 1e-10))


def test_singular_vectors_of_both_routes_satisfy_m_v_equals_s_u():
    A = small_attention(beta=1.0, seed=3)
    for values, left, right in (
        top_squared_singular_values(A, 5, return_vectors=True),
        top_squared_singular_values_dense(A, 5, return_vectors=True),
    ):
        np.testing.assert_allclose(A @ right, left * np.sqrt(values), atol=1e-10)
        np.testing.assert_allclose(np.linalg.norm(right, axis=0), 1.0, rtol=1e-12)


# --- the simulation job --------------------------------------------------------------------


def test_ceil_root_is_exact_where_floating_point_roots_are_not():
    assert ceil_root(4096, 3) == 16  # 4096 ** (1/3) = 16.000000000000004
    assert ceil_root(4097, 3) == 17
    assert ceil_root(8192, 2) == 91
    assert ceil_root(8281, 2) == 91
    assert uniform_index_counts(8192) == {"log": 10, "cube_root": 21, "square_root": 91}


def test_jobs_merge_the_sticking_and_ratio_scan_points():
    jobs = sticking_jobs(
        {"n_tokens": [64, 100], "betas": [0.5, 1.0], "draws": 2, "top_k": 4},
        {"n_tokens": [64], "betas": [1.5], "ratios": [1.0, 2.0], "draws": 3},
    )
    assert set(jobs) == {(64, 1.0), (100, 1.0), (64, 2.0)}
    assert jobs[(64, 1.0)].betas == (0.5, 1.0, 1.5)
    assert jobs[(64, 1.0)].n_values == 8  # ceil(sqrt(64)) for B3
    assert jobs[(64, 1.0)].draws == 3
    assert jobs[(100, 1.0)].n_values == 10
    assert jobs[(64, 2.0)].n_values == 4 and jobs[(64, 2.0)].betas == (1.5,)
    with pytest.raises(ValueError, match="whole number"):
        query_key_width(100, 3.0)


def test_scores_drawn_in_blocks_equal_one_whole_draw():
    keys_rng, queries_rng = np.random.default_rng(1), np.random.default_rng(2)
    scores = sample_scores(np.random.default_rng(1), np.random.default_rng(2), 300, 150)
    K = keys_rng.standard_normal((300, 150))
    Q = queries_rng.standard_normal((300, 150))
    np.testing.assert_allclose(scores, Q @ K.T / np.sqrt(150), rtol=1e-12, atol=1e-12)


def test_spike_strength_is_the_largest_entry_of_sqrt_ell_a_perp():
    A = small_attention(beta=1.5)
    ell = A.shape[0]
    assert spike_strength(A) == pytest.approx(np.sqrt(ell) * np.max(np.abs(A - 1 / ell)))


def test_sticking_draw_is_reproducible_and_consistent():
    result = sticking_draw(96, 2.0, 1, betas=[0.5, 1.0], n_values=10, top_k=4)
    again = sticking_draw(96, 2.0, 1, betas=[0.5, 1.0], n_values=10, top_k=4)
    for key, value in result.items():
        assert np.array_equal(value, again[key]), key
    assert int(result["d_qk"]) == 48
    assert result["attention"].shape == (2, 10) and result["linear"].shape == (2, 3)
    assert result["ipr_left"].shape == (2, 3)
    # Perron value ell s_1(A)^2 ~ ell, the rest O(1) and descending.
    assert np.all(result["attention"][:, 0] > 90)
    assert np.all(np.diff(result["attention"], axis=1) <= 0)
    assert np.all(result["attention"][:, 1] < 30)
    # A larger beta makes the entries more extreme.
    assert result["theta_max"][1] > result["theta_max"][0]
    assert np.all((result["ipr_left"] >= 1 / 96) & (result["ipr_left"] <= 1))


# --- summaries ------------------------------------------------------------------------------


def test_batched_draws_equal_single_draws_bit_for_bit():
    job = dict(betas=[0.5, 1.0], n_values=9, top_k=4, replicate=1)
    batch = batched_draws(lambda d: sticking_draw(81, 1.0, d, **job), range(3))
    assert int(batch[BATCH_KEY]) == 3 and batch["attention"].shape == (3, 2, 9)
    for draw, record in enumerate(unstack_draws(batch)):
        alone = sticking_draw(81, 1.0, draw, **job)
        assert sorted(record) == sorted(alone)
        for key, value in alone.items():
            assert np.array_equal(record[key], value) and record[key].dtype == value.dtype, key
    single = sticking_draw(81, 1.0, 0, **job)
    assert unstack_draws(single) == [single]
    assert is_batched(2048) and not is_batched(4096)
    with pytest.raises(ValueError, match="keys"):
        stack_draws([single, {"other": np.zeros(1)}])


def test_rate_fit_recovers_a_known_exponent_with_its_95_percent_interval():
    rng = np.random.default_rng(5)
    ells = [512, 1024, 2048, 4096, 8192]
    values = [0.3 * ell**-0.4 * np.exp(0.1 * rng.standard_normal(6)) for ell in ells]
    fit = fit_rate(ells, values)
    assert fit.low < -0.4 < fit.high and fit.high - fit.low < 0.2
    assert np.exp(fit.intercept) == pytest.approx(0.3, rel=0.3)
    assert fit.describe().startswith(f"{fit.slope:+.2f} [")
    assert np.isnan(fit_rate([512], [values[0]]).slope)
    flat = fit_rate(ells, [0.01 * np.exp(0.2 * rng.standard_normal(6)) for _ in ells])
    assert flat.low < 0 < flat.high


def test_by_draw_pads_missing_draws_with_nan():
    table = by_draw([np.array([1.0, 2.0, 3.0]), np.array([4.0])])
    assert table.shape == (3, 2)
    np.testing.assert_array_equal(table[:, 0], [1, 2, 3])
    assert table[0, 1] == 4 and np.all(np.isnan(table[1:, 1]))


def test_uniform_deviation_takes_the_largest_relative_distance_from_k_2_on():
    values = np.array([[1000.0, 10.5, 9.0, 7.0], [1000.0, 12.0, 9.9, 9.8]])
    np.testing.assert_allclose(uniform_deviation(values, 10.0, 3), [0.1, 0.2])
    np.testing.assert_allclose(uniform_deviation(values, 10.0, 4), [0.3, 0.2])
    with pytest.raises(ValueError):
        uniform_deviation(values, 10.0, 5)


def test_classical_deviation_vanishes_for_a_sublinear_index_count():
    law = NuInfinity(1.0)
    deviations = [classical_deviation(law, ell, ceil_root(ell, 2)) for ell in (256, 4096, 65536)]
    assert deviations[0] > deviations[1] > deviations[2] > 0
    # (x_+ - x_k) / x_+ ~ (k/ell)^{2/3}: a factor 16^(1/3) ~ 2.5 per step of ell x 16.
    assert deviations[1] / deviations[2] == pytest.approx(16 ** (1 / 3), rel=0.2)


# --- synthetic series judged by the engine ---------------------------------------------------

ELLS = (256, 1024, 4096)
# A finite-size model judged over the declared range of rates [1/3, 2] places the limit within a
# margin only over sizes that span 2.4 decades: the tests of verdicts draw these.
JUDGED_ELLS = (1024, 4096, 16384, 65536, 262144)
SMALL_ELLS = (64, 256, 1024)  # for rows B.2, whose statistic reads every index up to k_ell
JUDGED_SMALL_ELLS = (256, 1024, 4096, 16384, 65536)


def synthetic_series(beta, top_gap, *, draws=12, seed=0, ells=ELLS, ratio=1.0, jitter=1e-3):
    """A series whose values sit at the classical locations of nu_inf except the k = 2 value,
    placed at x_+ (1 + top_gap(ell)) times a small per-draw jitter; Y_lin's top value at the
    Gaussian model's Tracy-Widom expectation times the same kind of jitter."""
    rng = np.random.default_rng(seed)
    law = NuInfinity(beta, ratio)
    model = SymmetrisedLinearModel(beta, ratio)
    attention, linear, theta = [], [], []
    for ell in ells:
        n_values = ceil_root(ell, 2)
        k = np.arange(2, n_values + 1)
        locations = np.concatenate([[ell], law.quantile(1.0 - (k - 1.5) / ell)])
        rows = np.tile(locations, (draws, 1))
        rows[:, 1] = law.edge * (1 + top_gap(ell)) * np.exp(jitter * rng.standard_normal(draws))
        attention.append(rows)
        top = model.edge + model.tracy_widom_scale * ell ** (-2 / 3) * TRACY_WIDOM_1_MEAN
        lin = np.tile(locations[1:6], (draws, 1))
        lin[:, 0] = top * np.exp(jitter * rng.standard_normal(draws))
        linear.append(lin)
        theta.append(np.full(draws, 0.1))
    zeros = tuple(np.zeros((draws, 5)) for _ in ells)
    return StickingSeries(
        ratio=ratio,
        beta=beta,
        n_tokens=np.array(ells),
        attention=tuple(attention),
        linear=tuple(linear),
        theta_max=tuple(theta),
        ipr_left=zeros,
        ipr_right=zeros,
    )


def dilated(series, factor):
    """The series of a law dilated by ``factor``: every non-Perron value of A and of Y_lin."""
    attention = tuple(np.column_stack([a[:, :1], factor * a[:, 1:]]) for a in series.attention)
    return replace(series, attention=attention, linear=tuple(factor * v for v in series.linear))


def at_tracy_widom(beta, ratio=1.0):
    model = SymmetrisedLinearModel(beta, ratio)
    return lambda ell: model.tracy_widom_scale * ell ** (-2 / 3) * TRACY_WIDOM_1_MEAN / model.edge


QUICK = 20
"""Stability resamples of these tests: they check verdicts, which the stability share (reported
beside them) does not enter."""


def judged(evidence):
    return judge_row(TESTS[evidence.row_id], evidence, stability_resamples=QUICK)


def declared(row_id):
    return sorted(a.name for a in TESTS[row_id].alternatives)


def assert_claim_holds_and_rules_out_every_alternative(row):
    total = len(TESTS[row["row_id"]].alternatives)
    assert row["claim_verdict"] == Verdict.HOLDS and row["verdict"] == Verdict.HOLDS, row[
        "alternatives"
    ]
    assert row["ruled_out"] == f"{total} of {total}" and row["no_power_against"] == ""


def assert_wrong_truth_fails_the_claim(row, truth):
    """Data made by a declared wrong theory: the claim does not reproduce, that theory is not
    ruled out (it is the truth)."""
    assert row["claim_verdict"] == Verdict.DOES_NOT_REPRODUCE, (row["value"], row["limit"])
    assert row["verdict"] == Verdict.DOES_NOT_REPRODUCE
    assert f"{truth}: " in row["alternatives"]
    assert f"{truth}: does not reproduce" not in row["alternatives"]


def test_edge_evidence_is_the_gap_at_the_largest_ell_with_every_size_and_its_alternatives():
    series = synthetic_series(0.5, at_tracy_widom(0.5))
    evidence = edge_evidence(series)
    assert evidence.row_id == "B.1/beta=0.5"
    model = SymmetrisedLinearModel(0.5)
    expected = model.tracy_widom_scale * 4096 ** (-2 / 3) * TRACY_WIDOM_1_MEAN / model.edge
    assert evidence.target == pytest.approx(expected) and evidence.margin_scale == 1.0
    gaps = relative_gaps(series)
    np.testing.assert_array_equal(evidence.samples["values"], gaps[-1])
    np.testing.assert_array_equal(evidence.sizes, ELLS)
    for own, values in zip(evidence.by_size, gaps, strict=True):
        np.testing.assert_array_equal(own["values"], values)
    assert evidence.limit_target == 0.0
    assert sorted(evidence.alternatives) == declared("B.1/beta=0.5")
    low = evidence.alternatives["x+ -1%"]
    top = series.attention[-1][:, 1]
    np.testing.assert_allclose(low.samples["values"], top / (0.99 * model.edge) - 1, rtol=1e-12)
    assert low.target == evidence.target and low.limit_target == 0.0
    assert len(low.by_size) == len(ELLS)
    outlier = evidence.alternatives["outlier +2%"]
    np.testing.assert_array_equal(outlier.samples["values"], gaps[-1])
    assert outlier.target == outlier.limit_target == 0.02
    assert tracy_widom_expectation(series, 4096) == pytest.approx(model.edge * (1 + expected))
    assert "ell = 4096" in evidence.quantity and "draws above x_+" in evidence.note


def test_edge_row_holds_at_tracy_widom_and_rules_out_every_alternative():
    row = judged(edge_evidence(synthetic_series(0.5, at_tracy_widom(0.5), ells=JUDGED_ELLS)))
    assert_claim_holds_and_rules_out_every_alternative(row)
    assert abs(float(row["limit"])) < 1e-3


@pytest.mark.parametrize(
    ("truth", "make"),
    [
        (
            "x+ -1%",
            lambda: dilated(synthetic_series(0.5, at_tracy_widom(0.5), ells=JUDGED_ELLS), 0.99),
        ),
        (
            "x+ +1%",
            lambda: dilated(synthetic_series(0.5, at_tracy_widom(0.5), ells=JUDGED_ELLS), 1.01),
        ),
        ("outlier +2%", lambda: synthetic_series(1.0, lambda ell: 0.02, jitter=0.01)),
    ],
)
def test_edge_row_does_not_reproduce_the_data_of_each_wrong_theory(truth, make):
    assert_wrong_truth_fails_the_claim(judged(edge_evidence(make())), truth)


def test_an_excursion_at_the_judged_size_is_no_caveat_while_the_rate_is_unknown():
    """An excursion 1.2 margins above the region at the judged size that fades like ell^(-2/3):
    over the declared rates [1/3, 2] the fast ones leave the limit near the judged value and the
    slow ones carry it past the target, so the union is not inside the limit's region: no
    caveat (with one declared rate 2/3 this read holds with a finite-size caveat)."""
    tracy_widom = at_tracy_widom(1.0)
    fading = edge_evidence(
        synthetic_series(1.0, lambda ell: tracy_widom(ell) + 30 * ell ** (-2 / 3), ells=JUDGED_ELLS)
    )
    assert fading.samples["values"].min() > fading.target + 0.005
    row = judged(fading)
    assert row["claim_verdict"] == Verdict.INCONCLUSIVE and row["verdict"] == Verdict.INCONCLUSIVE
    assert float(row["limit_low"]) < -0.005 < 0.005 < float(row["limit_high"])


def test_more_noise_never_turns_an_inconclusive_edge_row_into_holds():
    noisy = [
        judged(
            edge_evidence(
                synthetic_series(0.5, at_tracy_widom(0.5), jitter=j, seed=3, ells=JUDGED_ELLS)
            )
        )["verdict"]
        for j in (1e-3, 3e-2, 1e-1)
    ]
    assert noisy[0] == Verdict.HOLDS and noisy[-1] == Verdict.INCONCLUSIVE
    assert all(v != Verdict.HOLDS for v in noisy[noisy.index(Verdict.INCONCLUSIVE) :])


def test_uniform_evidence_is_every_index_against_its_own_location():
    series = synthetic_series(1.0, at_tracy_widom(1.0))
    x_plus = series.x_plus
    for schedule in ("log", "cube_root", "square_root"):
        evidence = uniform_evidence(series, schedule)
        assert evidence.row_id == f"B.2/beta=1/{schedule}" and evidence.target == 0.0
        assert evidence.margin_scale == 1.0 and evidence.limit_target == 0.0
        assert sorted(evidence.alternatives) == declared(evidence.row_id)
        for ell, own in zip(ELLS, evidence.by_size, strict=True):
            assert own["values"].shape == (12, uniform_index_counts(ell)[schedule] - 1)
        values = evidence.samples["values"]
        np.testing.assert_array_equal(values, evidence.by_size[-1]["values"])
        # k >= 3 at their classical locations exactly, k = 2 at the Tracy-Widom expectation.
        np.testing.assert_allclose(values[:, 1:], 0.0, atol=1e-12)
        assert np.all(np.abs(values[:, 0]) < 5e-3)
        locations = index_locations(series, 4096, values.shape[1] + 1)
        top = series.attention[-1][:, 1]
        for name, factor in (("x+ -1%", 0.99), ("x+ +1%", 1.01)):
            shifted = evidence.alternatives[name].samples["values"]
            np.testing.assert_allclose(
                shifted[:, 0], (top - factor * locations[0]) / (factor * x_plus)
            )
            expected = (1 / factor - 1) * locations[1:] / x_plus
            np.testing.assert_allclose(shifted[:, 1:], np.tile(expected, (12, 1)))
        outlier = evidence.alternatives["outlier +2%"].samples["values"]
        np.testing.assert_allclose(outlier[:, 0], top / x_plus - 1.02)
        np.testing.assert_array_equal(outlier[:, 1:], values[:, 1:])
    with pytest.raises(ValueError, match="schedule"):
        uniform_evidence(series, "linear")
    with pytest.raises(ValueError, match="k_max"):
        index_locations(series, 64, 64)


@pytest.mark.parametrize("schedule", ["log", "square_root"])
def test_uniform_row_holds_at_the_locations_and_rules_out_every_alternative(schedule):
    series = synthetic_series(1.0, at_tracy_widom(1.0), ells=JUDGED_SMALL_ELLS)
    assert_claim_holds_and_rules_out_every_alternative(judged(uniform_evidence(series, schedule)))


@pytest.mark.parametrize(
    ("truth", "make"),
    [
        (
            "x+ -1%",
            lambda: dilated(
                synthetic_series(1.0, at_tracy_widom(1.0), ells=JUDGED_SMALL_ELLS), 0.99
            ),
        ),
        (
            "x+ +1%",
            lambda: dilated(
                synthetic_series(1.0, at_tracy_widom(1.0), ells=JUDGED_SMALL_ELLS), 1.01
            ),
        ),
        ("outlier +2%", lambda: synthetic_series(1.0, lambda ell: 0.02, ells=JUDGED_SMALL_ELLS)),
    ],
)
def test_uniform_row_does_not_reproduce_the_data_of_each_wrong_theory(truth, make):
    assert_wrong_truth_fails_the_claim(judged(uniform_evidence(make(), "log")), truth)


def test_uniform_row_catches_an_outlier_at_a_deeper_index():
    series = synthetic_series(1.0, at_tracy_widom(1.0), ells=JUDGED_ELLS)
    attention = tuple(a.copy() for a in series.attention)
    for a in attention:
        a[:, 4] *= 1.02  # k = 5, 2 % above its classical location at every ell
    deep = replace(series, attention=attention)
    assert judged(edge_evidence(deep))["claim_verdict"] == Verdict.HOLDS  # B.1 reads k = 2 only
    row = judged(uniform_evidence(deep, "log"))
    assert row["claim_verdict"] == Verdict.DOES_NOT_REPRODUCE
    assert "at k = 5" in uniform_evidence(deep, "log").note


def test_linear_edge_evidence_is_the_relative_top_gap_with_its_alternatives():
    per_beta = [synthetic_series(beta, lambda ell: 0.0, ratio=2.0) for beta in (0.5, 1.0)]
    evidence = linear_edge_evidence(per_beta, 4096)
    assert evidence.row_id == "B.4/c=2" and evidence.samples["values"].shape == (12, 2)
    assert evidence.sizes is None and evidence.margin_scale == 1.0
    assert np.all(np.abs(evidence.samples["values"]) < 5e-3)
    assert sorted(evidence.alternatives) == declared("B.4/c=2")
    top = per_beta[1].linear[-1][:, 0]
    inverted = evidence.alternatives["c inverted"].samples["values"][:, 1]
    model = SymmetrisedLinearModel(1.0, 0.5)
    expected = model.edge + model.tracy_widom_scale * 4096 ** (-2 / 3) * TRACY_WIDOM_1_MEAN
    np.testing.assert_allclose(inverted, (top - expected) / bulk_edge(1.0, 0.5), rtol=1e-9)


def with_linear_top_at(series, ratio):
    """The series with Y_lin's top value at the Tracy-Widom expectation of the model at c =
    ``ratio`` (same jitter)."""
    own, other = (
        SymmetrisedLinearModel(series.beta, series.ratio),
        SymmetrisedLinearModel(series.beta, ratio),
    )
    linear = []
    for ell, values in zip(series.n_tokens, series.linear, strict=True):
        shift = float(ell) ** (-2 / 3) * TRACY_WIDOM_1_MEAN
        moved = values.copy()
        moved[:, 0] *= (other.edge + other.tracy_widom_scale * shift) / (
            own.edge + own.tracy_widom_scale * shift
        )
        linear.append(moved)
    return replace(series, linear=tuple(linear))


def test_linear_edge_row_holds_at_the_scalar_formula_and_rules_out_every_alternative():
    per_beta = [synthetic_series(beta, lambda ell: 0.0, ratio=2.0) for beta in (0.5, 1.0)]
    assert_claim_holds_and_rules_out_every_alternative(judged(linear_edge_evidence(per_beta, 4096)))


@pytest.mark.parametrize(
    ("truth", "change"),
    [
        ("x+ -1%", lambda s: dilated(s, 0.99)),
        ("x+ +1%", lambda s: dilated(s, 1.01)),
        ("c inverted", lambda s: with_linear_top_at(s, 1 / s.ratio)),
    ],
)
def test_linear_edge_row_does_not_reproduce_the_data_of_each_wrong_theory(truth, change):
    per_beta = [change(synthetic_series(b, lambda ell: 0.0, ratio=0.5)) for b in (0.5, 1.0)]
    assert_wrong_truth_fails_the_claim(judged(linear_edge_evidence(per_beta, 4096)), truth)


def test_sticking_evidence_gives_one_item_per_b1_b2_b4c_row_and_names_missing_points():
    series = [synthetic_series(beta, lambda ell: 0.0) for beta in (0.5, 1.0, 1.5)]
    series += [
        synthetic_series(beta, lambda ell: 0.0, ratio=ratio, ells=(256, 1024))
        for ratio in (0.5, 2.0)
        for beta in (0.5, 1.0)
    ]
    evidence = sticking_evidence(
        series, sticking_sizes=ELLS, ratio_scan_sizes=[256, 1024], ratio_scan_betas=[0.5, 1.0]
    )
    wanted = [t.row_id for t in registry_of("B") if t.row_id.startswith(("B.1/", "B.2/", "B.4/c="))]
    assert sorted(item.row_id for item in evidence) == sorted(wanted)
    assert all("1.5" not in item.row_id for item in evidence)  # shown, not judged
    for item in evidence:
        assert sorted(item.alternatives) == declared(item.row_id)
        assert (item.by_size is None) == (TESTS[item.row_id].finite_size is None)
    restricted = sticking_evidence(
        series, sticking_sizes=ELLS[1:], ratio_scan_sizes=[256], ratio_scan_betas=[0.5, 1.0]
    )
    np.testing.assert_array_equal(restricted[0].sizes, ELLS[1:])
    assert "ell = 256" in restricted[-1].quantity
    with pytest.raises(ValueError, match=r"paperB.sticking has no draws at c = 1, beta = 0.5"):
        sticking_evidence(
            series[1:], sticking_sizes=ELLS, ratio_scan_sizes=[256], ratio_scan_betas=[0.5]
        )
    with pytest.raises(ValueError, match=r"paperB.ratio_scan: no draws at ell = \[4096\]"):
        sticking_evidence(
            series, sticking_sizes=ELLS, ratio_scan_sizes=[4096], ratio_scan_betas=[0.5]
        )


def test_every_row_carries_the_three_percent_variant_and_it_survives_the_evidence_file(tmp_path):
    """Issue 33, item 5: each row whose wrong theories move x_+ by 1 % is judged at 3 % too:
    the same samples, the wrong edges at 3 % under their own names, every other declared
    alternative unchanged, and the margin 1.5 % of x_+ (scale 3)."""
    series = [synthetic_series(beta, lambda ell: 0.0) for beta in (0.5, 1.0)]
    series += [
        synthetic_series(beta, lambda ell: 0.0, ratio=ratio, ells=(256, 1024))
        for ratio in (0.5, 2.0)
        for beta in (0.5, 1.0)
    ]
    evidence = sticking_evidence(
        series, sticking_sizes=ELLS, ratio_scan_sizes=[256, 1024], ratio_scan_betas=[0.5, 1.0]
    )
    assert VARIANT_MARGIN_SCALE == 3.0
    for item in evidence:
        assert list(item.variants) == [X_PLUS_VARIANT], item.row_id
        variant = item.variants[X_PLUS_VARIANT]
        others = sorted(set(declared(item.row_id)) - set(DILATIONS))
        assert sorted(variant.alternatives) == sorted([*COARSE_DILATIONS, *others]), item.row_id
        assert variant.margin_scale == VARIANT_MARGIN_SCALE and item.margin_scale == 1.0
        np.testing.assert_array_equal(variant.samples["values"], item.samples["values"])
        assert (variant.by_size is None) == (item.by_size is None)
        for name in others:
            np.testing.assert_array_equal(
                variant.alternatives[name].samples["values"],
                item.alternatives[name].samples["values"],
            )
            assert variant.alternatives[name].target == item.alternatives[name].target
    edge = evidence[0]
    top, x_plus = series[0].attention[-1][:, 1], bulk_edge(0.5)
    for name, factor in COARSE_DILATIONS.items():
        np.testing.assert_allclose(
            edge.variants[X_PLUS_VARIANT].alternatives[name].samples["values"],
            top / (factor * x_plus) - 1,
            rtol=1e-12,
        )
    path = tmp_path / "evidence.npz"
    save_evidence(path, evidence)
    for item, back in zip(evidence, load_evidence(path), strict=True):
        variant, again = item.variants[X_PLUS_VARIANT], back.variants[X_PLUS_VARIANT]
        assert sorted(again.alternatives) == sorted(variant.alternatives)
        assert again.margin_scale == VARIANT_MARGIN_SCALE
        if variant.by_size is not None:
            for own, back_own in zip(variant.by_size, again.by_size, strict=True):
                np.testing.assert_array_equal(back_own["values"], own["values"])


def test_an_edge_one_percent_off_fails_at_one_percent_and_holds_at_three():
    """The Gaussian model's top value at 1.01 x_+: the row does not reproduce at its declared
    resolution, and its other_resolutions shows that at 3 % it would hold."""
    per_beta = [dilated(synthetic_series(b, lambda ell: 0.0, ratio=0.5), 1.01) for b in (0.5, 1.0)]
    row = judged(linear_edge_evidence(per_beta, 4096))
    assert row["verdict"] == Verdict.DOES_NOT_REPRODUCE
    assert row["other_resolutions"] == f"{X_PLUS_VARIANT}: {Verdict.HOLDS}"


# --- collection and table -------------------------------------------------------------------


def test_collect_series_and_table_rows():
    records = [
        sticking_draw(64, 1.0, draw, betas=[0.5, 1.0], n_values=8, top_k=3) for draw in (1, 0)
    ] + [sticking_draw(100, 1.0, 0, betas=[0.5, 1.0], n_values=10, top_k=3)]
    series = collect_series(records)
    assert [(s.ratio, s.beta) for s in series] == [(1.0, 0.5), (1.0, 1.0)]
    assert list(series[0].n_tokens) == [64, 100]
    assert series[0].attention[0].shape == (2, 8)
    np.testing.assert_array_equal(series[1].attention[0][0], records[1]["attention"][1])
    rows = sticking_table_rows(series)
    assert STICKING_TABLE_HEADER == (
        "ell", "c", "beta", "draws", "k", "median", "q10", "q90", "x_plus", "relative_gap"
    )  # fmt: skip
    assert len(rows) == 2 * 2 * 2  # (ell, beta) x k in {2, 3}
    ell, c, beta, draws, k, median, q10, q90, x_plus, gap = rows[0]
    assert (ell, c, beta, draws, k) == (64, 1.0, 0.5, 2, 2)
    assert q10 <= median <= q90 and gap == pytest.approx((median - x_plus) / x_plus)
    assert median == pytest.approx(np.median(relative_gaps(series[0])[0]) * x_plus + x_plus)


def test_spike_correlation_is_one_when_the_data_follow_the_prediction():
    model = SymmetrisedLinearModel(1.5)
    theta = np.array([4.0, 5.0, 7.0, 9.0])
    series = synthetic_series(1.5, lambda ell: 0.0, ells=(256,), draws=4)
    attention = series.attention[0].copy()
    attention[:, 1] = model.spike_outlier(theta)
    series = StickingSeries(
        1.0,
        1.5,
        series.n_tokens,
        (attention,),
        series.linear,
        (theta,),
        series.ipr_left,
        series.ipr_right,
    )
    r, count = spike_correlation(series)
    assert count == 4 and r == pytest.approx(1.0)


def test_caption_findings_read_the_judged_rows_and_compute_no_verdict():
    series = synthetic_series(1.0, at_tracy_widom(1.0), ells=JUDGED_ELLS)
    row = judged(edge_evidence(series))
    text = reading(row)
    assert text.startswith(f"row B.1/beta=1: {row['verdict']}, value ")
    assert "95 % interval" in text and "limit of the declared finite-size model" in text
    assert f"against the claim's theory alone: {row['claim_verdict']}" in text
    assert "declared wrong theories ruled out: 3 of 3" in text and "no power" not in text
    fragile = {**row, "stability": "0.55", "alternative": "inconclusive at these sizes (40%)"}
    assert "fragile: the same verdict in 55% of resampled draws" in reading(fragile)
    standing = {
        **row,
        "verdict": Verdict.INCONCLUSIVE,
        "ruled_out": "2 of 3",
        "no_power_against": "x+ +1%",
    }
    assert "ruled out: 2 of 3 (no power against x+ +1%)" in reading(standing)
    without_model = {**row, "limit": "nan", "limit_low": "nan", "limit_high": "nan"}
    assert "finite-size model" not in reading(without_model)
    tracy_widom = at_tracy_widom(1.0)
    above = synthetic_series(1.0, lambda ell: tracy_widom(ell) + 2 * ell ** (-2 / 3))
    findings = edge_findings([above], {"B.1/beta=1": judged(edge_evidence(above))})
    assert "12 of 12 draws above x_+" in findings and "row B.1/beta=1" in findings
    assert "shown, not judged" in edge_findings([above], {})


def test_every_caption_paragraph_names_its_rows_and_the_numbers_they_judge():
    series = synthetic_series(1.0, at_tracy_widom(1.0), ells=SMALL_ELLS)
    row = judged(edge_evidence(series))

    def rows(*ids):
        return {row_id: {**row, "row_id": row_id} for row_id in ids}

    uniform = uniform_findings([series], rows(*(f"B.2/beta=1/{s}" for s in SCHEDULES)))
    for schedule, k_ell in uniform_index_counts(1024).items():
        assert f"beta = 1, {schedule} (k_ell = {k_ell} at ell = 1024): largest" in uniform
        assert f"row B.2/beta=1/{schedule}: " in uniform
    per_ratio = [
        synthetic_series(b, lambda ell: 0.0, ratio=c) for c in (0.5, 2.0) for b in (0.5, 1)
    ]
    linear = linear_edge_findings(per_ratio, 4096, rows("B.4/c=0.5", "B.4/c=2"))
    assert "c = 0.5 (beta 0.5: +0.0" in linear and "row B.4/c=2: " in linear
    assert "(s_1(Y_lin)^2 - E lambda_max)/x_+" in linear
    assert "declared finite-size model" in gap_findings([series])


def test_whole_width_step_makes_every_ratio_divide_ell():
    from attnspec.papers.b.sticking import whole_width_step

    assert [whole_width_step(r) for r in ([1.0], [0.5, 2.0], [0.25, 4.0], [1.5], [0.3])] == [
        1,
        2,
        4,
        3,
        3,
    ]
    with pytest.raises(ValueError, match="ratios: no ell up to 8"):
        whole_width_step([1 / 3 + 1e-9], largest=8)
