"""Paper C figures C1-C4 and table C-T1: jobs, summaries and the verdict logic of C.1-C.4."""

import numpy as np
import pytest

from attnspec.experiments.degeneration import (
    bulk_count_job,
    bulk_grid,
    canonical_sigma,
    spike_tied_values,
    stable_rank_job,
    survival_job,
)
from attnspec.experiments.degeneration_summary import (
    BulkSeries,
    StableRankSeries,
    bulk_quantile,
    bulk_series,
    cesaro_from_jobs,
    counts_by_size,
    fit_line,
    iid_bidirectional_bulk_cdf,
    series_from_jobs,
    survival_crossing,
)
from attnspec.experiments.degeneration_verdicts import (
    bounded_claim,
    bulk_claim,
    judge_bounded,
    judge_decay,
    judge_log_growth,
    judge_spikes_kept,
)
from attnspec.legacy_verdicts import CLAIM_HEADER, DOES_NOT_REPRODUCE, FINITE_SIZE_CAVEAT, HOLDS

MODEL = {
    "spikes": 3,
    "kappa": 2.0,
    "spike_placement": "spread",
    "bulk_scale": 1.0,
    "gaussian_ratio": 1.0,
}


def test_same_draw_same_bulk_for_every_kappa():
    low = canonical_sigma(128, MODEL, "iid", 1, kappa=0.5)
    high = canonical_sigma(128, MODEL, "iid", 1, kappa=1.5)
    differs = low != high
    assert np.count_nonzero(differs) == 3
    assert not np.array_equal(canonical_sigma(128, MODEL, "iid", 2), high)


def test_spike_tied_values_select_by_weight_on_the_spike_rows():
    vectors = np.eye(5)[:, [3, 0, 1]]  # pairs localised on rows 3, 0, 1
    values = np.array([4.0, 1.0, 0.25])
    np.testing.assert_allclose(spike_tied_values(values, vectors, [0, 3], 2), [2.0, 1.0])
    tied = spike_tied_values(values, vectors, [2, 4], 2)
    assert np.all(np.isnan(tied))


def test_fit_line_recovers_slope_and_flags_a_curved_series():
    x = np.log(np.repeat([256.0, 1024.0, 4096.0], 3))
    noise = np.tile([-1e-3, 0.0, 1e-3], 3)
    fit = fit_line(x, 0.25 * x + 1.0 + noise)
    assert fit.slope == pytest.approx(0.25, abs=1e-3)
    assert fit.halfwidth < 0.01
    curved = fit_line(x, 0.02 * x**2 + noise)
    assert curved.halfwidth > 10 * fit.halfwidth


def test_bulk_quantile_interpolates_counts_and_flags_an_unresolved_bulk():
    grid = np.array([0.1, 1.0, 10.0])
    assert bulk_quantile([0, 50, 100], grid, 100, 100, 0.5) == pytest.approx(1.0)
    assert bulk_quantile([0, 40, 100], grid, 100, 100, 0.5) == pytest.approx(10 ** (1 / 6))
    assert np.isnan(bulk_quantile([96, 96, 100], grid, 100, 96, 0.5))


def test_iid_bidirectional_bulk_follows_its_limit_law():
    """n s_k(A) of the bidirectional iid bulk against P(|e^{beta xi} - 1| <= x)."""
    n = 4000
    counts = bulk_count_job([n], MODEL, ["iid"], 1, bulk_grid(60))
    job = counts_by_size(counts, [n])[0]
    empirical = job["iid/bidirectional/counts"][0] / (n - 4)
    limit = iid_bidirectional_bulk_cdf(job["grid"], 1.0)
    assert np.max(np.abs(np.minimum(empirical, 1.0) - limit)) < 0.03
    assert (
        np.max(np.abs(np.minimum(empirical, 1.0) - iid_bidirectional_bulk_cdf(job["grid"], 2.0)))
        > 0.1
    )


def test_bulk_median_scales_like_one_over_n():
    ns = [256, 1024, 4096]
    jobs = counts_by_size(bulk_count_job(ns, MODEL, ["iid", "zeros"], 2, bulk_grid(200)), ns)
    series = bulk_series("iid", "causal", ns, jobs, 3)
    assert -series.fit().slope == pytest.approx(1.0, abs=0.1)
    assert bulk_series("zeros", "bidirectional", ns, jobs, 3).fit() is None


def test_stable_rank_job_bounded_bidirectional_growing_causal():
    ns = [256, 4096]
    jobs = [stable_rank_job(n, MODEL, ["iid"], 2) for n in ns]
    bidirectional = series_from_jobs("canonical", "iid", "bidirectional", ns, jobs)
    causal = series_from_jobs("canonical", "iid", "causal", ns, jobs)
    assert np.all(bidirectional.stable_rank <= 4.0)
    assert causal.stable_rank[1].mean() > causal.stable_rank[0].mean() + 0.2
    cesaro = cesaro_from_jobs(ns, jobs)
    np.testing.assert_allclose(cesaro.frobenius_squared, cesaro.harmonic)
    spikes = jobs[1]["iid/bidirectional/spike_values"]
    assert np.all(np.abs(spikes - 1.0) < 0.02)


def test_survival_switches_near_kappa_one():
    job = survival_job(4096, MODEL, "iid", [0.5, 0.9, 1.1, 1.5], 1)
    values = job["bidirectional/spike_values"].mean(axis=(1, 2))
    assert values[0] < 0.05 and values[-1] > 0.95
    crossing = survival_crossing(job["kappas"], np.nan_to_num(values))
    assert 0.9 < crossing < 1.1


def test_judge_decay_and_spikes_kept():
    assert judge_decay(0.5, 0.1) == HOLDS
    assert judge_decay(0.05, 0.1) == FINITE_SIZE_CAVEAT
    assert judge_decay(-0.2, 0.1) == DOES_NOT_REPRODUCE
    assert judge_decay(float("nan"), 0.1) == DOES_NOT_REPRODUCE
    assert judge_spikes_kept(0.5, 0.1, all_tied=True) == HOLDS
    assert judge_spikes_kept(0.5, 0.1, all_tied=False) == DOES_NOT_REPRODUCE


def test_judge_bounded():
    assert judge_bounded(3.99, 4.0, 0.001, decreasing=False) == HOLDS
    assert judge_bounded(4.3, 4.0, 0.01, decreasing=True) == FINITE_SIZE_CAVEAT
    assert judge_bounded(4.3, 4.0, 0.01, decreasing=False) == DOES_NOT_REPRODUCE


def test_judge_log_growth():
    assert judge_log_growth(0.24, 0.02, 0.2, 0.26) == HOLDS
    assert judge_log_growth(0.18, 0.01, 0.12, 0.21) == FINITE_SIZE_CAVEAT
    assert judge_log_growth(0.18, 0.01, 0.21, 0.12) == DOES_NOT_REPRODUCE
    assert judge_log_growth(0.01, 0.05, 0.0, 0.02) == DOES_NOT_REPRODUCE


def synthetic_series(values, mask="bidirectional"):
    values = np.asarray(values, dtype=float)
    return StableRankSeries(
        "canonical", "iid", mask, np.array([256, 1024, 4096])[: len(values)], values
    )


def test_bounded_claim_on_synthetic_series():
    row = bounded_claim(
        [synthetic_series([[3.6, 3.6], [3.8, 3.8], [3.9, 3.9]])], spikes=3, gaussian=None
    )
    assert row.verdict == HOLDS and row.value == pytest.approx(3.9)
    assert row.test.startswith("holds if value <= target + tolerance;")
    growing = bounded_claim(
        [synthetic_series([[3.6, 3.7], [4.4, 4.5], [5.3, 5.2]])], spikes=3, gaussian=None
    )
    assert growing.verdict == DOES_NOT_REPRODUCE
    assert len(growing.as_row()) == len(CLAIM_HEADER)
    # Above the bound, and the largest value is at the largest n: the caveat's trend is absent.
    assert not growing.meets_condition() and "reached before the largest n" in growing.test


def test_bulk_claim_on_synthetic_series():
    ns = np.array([256, 1024, 4096])
    shrinking = BulkSeries(
        "iid", "causal", ns, np.full((3, 2), 2.0) + [[0, 1e-3]] * 3, np.full((3, 2), 5.0)
    )
    assert bulk_claim([shrinking]).verdict == HOLDS
    assert bulk_claim([shrinking]).test.startswith("holds if value > target + tolerance;")
    flat = BulkSeries(
        "iid", "causal", ns, ns[:, None] * np.array([[1.0, 1.01]]), np.full((3, 2), 5.0)
    )
    assert bulk_claim([flat]).verdict in (FINITE_SIZE_CAVEAT, DOES_NOT_REPRODUCE)
