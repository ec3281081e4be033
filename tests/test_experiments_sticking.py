"""Figures B1-B3 and table B-T1: leading values of A, the per-draw simulation, batches of draws,
the summaries, and the evidence of rows B.1, B.2 and B.4/c=<c> judged by the verdict engine on
synthetic inputs that should pass and that should fail."""

import numpy as np
import pytest

from attnspec.experiments.draw_batches import (
    BATCH_KEY,
    batched_draws,
    is_batched,
    stack_draws,
    unstack_draws,
)
from attnspec.experiments.sticking import (
    ceil_root,
    query_key_width,
    sample_scores,
    spike_strength,
    sticking_draw,
    sticking_jobs,
    uniform_index_counts,
)
from attnspec.experiments.sticking_evidence import (
    edge_evidence,
    linear_edge_evidence,
    sticking_evidence,
    uniform_evidence,
)
from attnspec.experiments.sticking_findings import edge_findings, reading
from attnspec.experiments.sticking_summary import (
    STICKING_TABLE_HEADER,
    TRACY_WIDOM_1_SD,
    StickingSeries,
    by_draw,
    classical_deviation,
    collect_series,
    fit_rate,
    relative_gaps,
    spike_correlation,
    sticking_table_rows,
    tracy_widom_expectation,
    uniform_deviation,
)
from attnspec.models.sampling import attention_matrix
from attnspec.registry import TESTS, registry_of
from attnspec.spectra.dense import top_squared_singular_values_dense
from attnspec.spectra.lanczos import (
    top_nonperron_squared_singular_values,
    top_squared_singular_values,
)
from attnspec.theory.edge import bulk_edge
from attnspec.theory.nu_infinity import NuInfinity
from attnspec.theory.r_transform import TRACY_WIDOM_1_MEAN, SymmetrisedLinearModel
from attnspec.verdicts import (
    DOES_NOT_REPRODUCE,
    FINITE_SIZE_CAVEAT,
    HOLDS,
    INCONCLUSIVE,
    judge_row,
)


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


def verdict(evidence):
    return judge_row(TESTS[evidence.row_id], evidence)["verdict"]


def at_tracy_widom(beta, ratio=1.0):
    model = SymmetrisedLinearModel(beta, ratio)
    return lambda ell: model.tracy_widom_scale * ell ** (-2 / 3) * TRACY_WIDOM_1_MEAN / model.edge


def test_edge_evidence_is_the_gap_at_the_largest_ell_against_tracy_widom():
    series = synthetic_series(0.5, at_tracy_widom(0.5))
    evidence = edge_evidence(series)
    assert evidence.row_id == "B.1/beta=0.5"
    model = SymmetrisedLinearModel(0.5)
    scale = model.tracy_widom_scale * 4096 ** (-2 / 3) / model.edge
    assert evidence.target == pytest.approx(scale * TRACY_WIDOM_1_MEAN)
    assert evidence.margin_scale == pytest.approx(scale * TRACY_WIDOM_1_SD)
    np.testing.assert_array_equal(evidence.samples["values"], relative_gaps(series)[-1])
    assert evidence.trend_values.shape == (12, 3)
    np.testing.assert_array_equal(evidence.trend_targets, np.zeros(len(ELLS)))
    expected = tracy_widom_expectation(series, ELLS[-1])
    assert expected == pytest.approx(model.edge * (1 + at_tracy_widom(0.5)(ELLS[-1])))
    assert "ell = 4096" in evidence.quantity and "draws above x_+" in evidence.note
    assert verdict(evidence) == HOLDS


@pytest.mark.parametrize("jitter", [1e-4, 0.03])
def test_edge_rows_fail_a_persistent_outlier_and_caveat_a_shrinking_one(jitter):
    # The trend is judged against the limit 0: the finite-ell Tracy-Widom target rises towards
    # 0 with ell, so against it a constant outlier with almost no spread would seem to approach.
    persistent = synthetic_series(1.0, lambda ell: 0.3, jitter=jitter)
    assert verdict(edge_evidence(persistent)) == DOES_NOT_REPRODUCE
    shrinking = edge_evidence(
        synthetic_series(1.0, lambda ell: 3.0 * ell**-0.5, jitter=max(jitter, 0.01))
    )
    assert shrinking.samples["values"].min() > shrinking.target + 2 * shrinking.margin_scale
    assert verdict(shrinking) == FINITE_SIZE_CAVEAT


def test_more_noise_never_turns_an_inconclusive_edge_row_into_holds():
    noisy = [
        verdict(edge_evidence(synthetic_series(0.5, at_tracy_widom(0.5), jitter=j, seed=3)))
        for j in (1e-3, 3e-2, 1e-1)
    ]
    assert noisy[0] == HOLDS and noisy[-1] == INCONCLUSIVE
    assert all(v != HOLDS for v in noisy[noisy.index(INCONCLUSIVE) :])


def test_uniform_rows_hold_at_the_classical_locations_and_fail_above_them():
    at_edge = synthetic_series(1.0, lambda ell: 0.0)
    for schedule in ("log", "cube_root", "square_root"):
        evidence = uniform_evidence(at_edge, schedule)
        assert evidence.row_id == f"B.2/beta=1/{schedule}"
        assert evidence.target == 0.0 and evidence.trend_values.shape == (12, 3)
        assert verdict(evidence) == HOLDS
    outlier = uniform_evidence(synthetic_series(1.0, lambda ell: 0.5), "log")
    assert "at k = 2 (the top value, row B.1) in 12 of 12 draws" in outlier.note
    assert verdict(outlier) == DOES_NOT_REPRODUCE


def test_linear_edge_rows_hold_at_the_scalar_formula_and_fail_one_percent_off():
    per_beta = [synthetic_series(beta, lambda ell: 0.0, ratio=2.0) for beta in (0.5, 1.0)]
    evidence = linear_edge_evidence(per_beta, 4096)
    assert evidence.row_id == "B.4/c=2" and evidence.samples["values"].shape == (12, 2)
    assert np.all(np.abs(evidence.samples["values"]) < 1)
    assert verdict(evidence) == HOLDS
    shifted = [
        StickingSeries(
            s.ratio,
            s.beta,
            s.n_tokens,
            s.attention,
            tuple(v * 1.01 for v in s.linear),
            s.theta_max,
            s.ipr_left,
            s.ipr_right,
        )
        for s in per_beta
    ]
    off = linear_edge_evidence(shifted, 4096)
    # 1 % of x_+ in Tracy-Widom standard deviations at ell = 4096, c = 2.
    model = SymmetrisedLinearModel(1.0, 2.0)
    sd = model.tracy_widom_scale * 4096 ** (-2 / 3) * TRACY_WIDOM_1_SD
    assert np.max(off.samples["values"][:, 1]) > 0.9 * 0.01 * bulk_edge(1.0, 2.0) / sd
    assert verdict(off) == DOES_NOT_REPRODUCE


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
    restricted = sticking_evidence(
        series, sticking_sizes=ELLS[1:], ratio_scan_sizes=[256], ratio_scan_betas=[0.5, 1.0]
    )
    assert restricted[0].trend_values.shape == (12, 2)
    assert "ell = 256" in restricted[-1].quantity
    with pytest.raises(ValueError, match=r"paperB.sticking has no draws at c = 1, beta = 0.5"):
        sticking_evidence(
            series[1:], sticking_sizes=ELLS, ratio_scan_sizes=[256], ratio_scan_betas=[0.5]
        )
    with pytest.raises(ValueError, match=r"paperB.ratio_scan: no draws at ell = \[4096\]"):
        sticking_evidence(
            series, sticking_sizes=ELLS, ratio_scan_sizes=[4096], ratio_scan_betas=[0.5]
        )


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
    series = synthetic_series(1.0, lambda ell: 3.0 * ell**-0.5, jitter=0.03)
    row = judge_row(TESTS["B.1/beta=1"], edge_evidence(series))
    text = reading(row)
    assert text.startswith(f"row B.1/beta=1: {row['verdict']}, value ")
    assert "95 % interval" in text and "OLS" in text and "Theil-Sen" in text
    fragile = {**row, "stability": "0.55", "alternative": "inconclusive at these sizes (40%)"}
    assert "fragile: the same verdict in 55% of resampled draws" in reading(fragile)
    for verdict_text in (HOLDS, DOES_NOT_REPRODUCE):
        assert verdict_text in reading({**row, "verdict": verdict_text})
    findings = edge_findings([series], {"B.1/beta=1": row})
    assert "12 of 12 draws above x_+" in findings and "row B.1/beta=1" in findings
    assert "shown, not judged" in edge_findings([series], {})
