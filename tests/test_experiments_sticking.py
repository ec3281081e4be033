"""Figures B1-B3 and table B-T1: leading values of A, the per-draw simulation, the summaries and
the B.1 / B.2 verdict logic on synthetic inputs that should pass and that should fail."""

import numpy as np
import pytest

from attnspec.experiments.sticking import (
    ceil_root,
    job_memory_copies,
    query_key_width,
    sample_scores,
    spike_strength,
    sticking_draw,
    sticking_jobs,
    uniform_index_counts,
)
from attnspec.experiments.sticking_summary import (
    STICKING_TABLE_HEADER,
    StickingSeries,
    classical_deviation,
    collect_series,
    fit_rate,
    relative_gaps,
    robust_trend,
    spike_correlation,
    sticking_table_rows,
    tracy_widom_expectation,
    uniform_deviation,
)
from attnspec.experiments.sticking_verdicts import (
    edge_check,
    edge_claim,
    judge_edge,
    judge_uniform,
    robust_spread,
    uniform_check,
    uniform_claim,
)
from attnspec.legacy_verdicts import DOES_NOT_REPRODUCE, FINITE_SIZE_CAVEAT, HOLDS
from attnspec.models.sampling import attention_matrix
from attnspec.spectra.dense import top_squared_singular_values_dense
from attnspec.spectra.lanczos import (
    top_nonperron_squared_singular_values,
    top_squared_singular_values,
)
from attnspec.theory.nu_infinity import NuInfinity
from attnspec.theory.r_transform import TRACY_WIDOM_1_MEAN, SymmetrisedLinearModel


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
    assert job_memory_copies(1.0) == 3 and job_memory_copies(0.25) == 5


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


def test_rate_fit_recovers_a_known_exponent_from_synthetic_data():
    rng = np.random.default_rng(5)
    ells = [512, 1024, 2048, 4096, 8192]
    values = [0.3 * ell**-0.4 * np.exp(0.1 * rng.standard_normal(6)) for ell in ells]
    fit = fit_rate(ells, values)
    assert abs(fit.slope + 0.4) < 3 * fit.slope_se
    assert fit.slope_se < 0.05
    assert np.exp(fit.intercept) == pytest.approx(0.3, rel=0.3)
    assert np.isnan(fit_rate([512], [values[0]]).slope)


def test_robust_trend_sees_a_decay_through_outlying_draws_and_no_decay_in_a_flat_series():
    rng = np.random.default_rng(6)
    ells = [1024, 2048, 4096, 8192]
    values = [0.3 * ell**-0.5 * np.exp(0.2 * rng.standard_normal(4)) for ell in ells]
    values[-1][0] = 1e-5  # a gap that crossed 0: far out on the log scale
    values[0][0] = 1e-6
    trend = robust_trend(ells, values)
    assert trend.low < -0.5 < trend.high and trend.decreasing
    flat = robust_trend(ells, [0.01 * np.exp(0.2 * rng.standard_normal(4)) for _ in ells])
    assert not flat.decreasing
    growing = robust_trend(ells, [1e-4 * ell * np.ones(4) for ell in ells])
    assert growing.slope == pytest.approx(1.0) and not growing.decreasing


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


# --- synthetic series for the verdicts -------------------------------------------------------

ELLS = (256, 1024, 4096)


def synthetic_series(beta, top_gap, *, draws=4, seed=0, ells=ELLS):
    """A series whose values sit at the classical locations of nu_inf except the k = 2 value,
    placed at x_+ (1 + top_gap(ell)) times a small per-draw jitter."""
    rng = np.random.default_rng(seed)
    law = NuInfinity(beta)
    attention, linear, theta = [], [], []
    for ell in ells:
        n_values = ceil_root(ell, 2)
        k = np.arange(2, n_values + 1)
        locations = np.concatenate([[ell], law.quantile(1.0 - (k - 1.5) / ell)])
        rows = np.tile(locations, (draws, 1))
        rows[:, 1] = law.edge * (1 + top_gap(ell)) * np.exp(1e-3 * rng.standard_normal(draws))
        attention.append(rows)
        linear.append(np.tile(locations[1:6], (draws, 1)))
        theta.append(np.full(draws, 0.1))
    zeros = tuple(np.zeros((draws, 5)) for _ in ells)
    return StickingSeries(
        ratio=1.0,
        beta=beta,
        n_tokens=np.array(ells),
        attention=tuple(attention),
        linear=tuple(linear),
        theta_max=tuple(theta),
        ipr_left=zeros,
        ipr_right=zeros,
    )


def test_edge_verdict_holds_at_the_tracy_widom_expectation():
    model = SymmetrisedLinearModel(0.5)

    def at_tracy_widom(ell):
        return model.tracy_widom_scale * ell ** (-2 / 3) * TRACY_WIDOM_1_MEAN / model.edge

    series = synthetic_series(0.5, at_tracy_widom)
    expected = tracy_widom_expectation(series, ELLS[-1])
    assert expected == pytest.approx(model.edge * (1 + at_tracy_widom(ELLS[-1])))
    assert judge_edge(edge_check(series)) == HOLDS


def test_edge_verdict_fails_for_a_persistent_outlier_and_caveats_a_shrinking_one():
    persistent = edge_check(synthetic_series(1.0, lambda ell: 0.3))
    assert judge_edge(persistent) == DOES_NOT_REPRODUCE
    shrinking = edge_check(synthetic_series(1.0, lambda ell: 3.0 * ell**-0.5))
    assert shrinking.gap > shrinking.expected + shrinking.tolerance
    assert judge_edge(shrinking) == FINITE_SIZE_CAVEAT


def test_uniform_verdict_holds_at_the_classical_locations_and_fails_above_them():
    at_edge = synthetic_series(1.0, lambda ell: 0.0)
    assert all(judge_uniform(uniform_check(at_edge, s)) == HOLDS for s in ("log", "square_root"))
    outlier = synthetic_series(1.0, lambda ell: 0.5)
    assert judge_uniform(uniform_check(outlier, "log")) == DOES_NOT_REPRODUCE


def test_uniform_verdict_is_never_stronger_than_the_edge_verdict_at_the_same_beta():
    """Uniformity over 2 <= k <= k_ell includes k = 2: a shrinking top outlier (B.1 caveat)
    cannot leave B.2 holding, even where D stays within its classical bound."""
    shrinking = synthetic_series(1.0, lambda ell: 3.0 * ell**-0.5)
    assert judge_edge(edge_check(shrinking)) == FINITE_SIZE_CAVEAT
    for schedule in ("log", "square_root"):
        check = uniform_check(shrinking, schedule)
        assert check.edge_verdict == FINITE_SIZE_CAVEAT
        assert judge_uniform(check) == FINITE_SIZE_CAVEAT
        assert judge_uniform(check._replace(edge_verdict=HOLDS)) != DOES_NOT_REPRODUCE
    claim = uniform_claim([shrinking])
    assert claim.verdict == FINITE_SIZE_CAVEAT
    assert "B.1 at this beta: holds with a finite-size caveat" in claim.note
    assert "includes k = 2" in claim.test


def test_claims_judge_beta_at_most_one_and_report_the_rest_in_the_note():
    good = synthetic_series(0.5, lambda ell: 0.0)
    spiky = synthetic_series(1.5, lambda ell: 2.0)
    claim = edge_claim([good, spiky])
    assert claim.claim_id == "B.1" and claim.verdict == HOLDS
    assert claim.test.startswith("holds if abs(value - target) <= tolerance;")
    assert "Theil-Sen slope of log |gap|" in claim.test
    assert "beta=1.5" in claim.note and "not judged" in claim.note
    assert edge_claim([spiky]).verdict == DOES_NOT_REPRODUCE  # nothing within reach: judged
    uniform = uniform_claim([good, spiky])
    assert uniform.claim_id == "B.2" and uniform.verdict == HOLDS
    assert uniform.test.startswith("holds if value <= target + tolerance and B.1")
    assert "beta=1.5" in uniform.note


def test_robust_spread_ignores_one_far_draw():
    assert robust_spread(np.array([1.0, 1.1, 0.9, 50.0])) < 0.3


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
        "ell", "c", "beta", "k", "median", "q10", "q90", "x_plus", "relative_gap"
    )  # fmt: skip
    assert len(rows) == 2 * 2 * 2  # (ell, beta) x k in {2, 3}
    ell, c, beta, k, median, q10, q90, x_plus, gap = rows[0]
    assert (ell, c, beta, k) == (64, 1.0, 0.5, 2)
    assert q10 <= median <= q90 and gap == pytest.approx((median - x_plus) / x_plus)
    assert median == pytest.approx(np.median(relative_gaps(series[0])[0]) * x_plus + x_plus)


def test_spike_correlation_is_one_when_the_data_follow_the_prediction():
    model = SymmetrisedLinearModel(1.5)
    theta = np.array([4.0, 5.0, 7.0, 9.0])
    series = synthetic_series(1.5, lambda ell: 0.0, ells=(256,))
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
