"""Figures A2 and A6: the Perron mode, the full spectrum and the A.2 verdict logic."""

import numpy as np
import pytest

from attnspec.experiments.full_spectrum import (
    FULL_SPECTRUM_TABLE_HEADER,
    TOP_PAIRS,
    full_spectrum_draw,
    full_spectrum_table_rows,
    summarise_full_spectrum,
    top_pairs_above,
)
from attnspec.experiments.perron import (
    PerronCheck,
    fit_power_law,
    judge_perron,
    leading_singular_value,
    perron_check,
    perron_claim,
    perron_draws,
    perron_series,
    perron_squared_prediction,
)
from attnspec.experiments.spectra import model_spectrum
from attnspec.legacy_verdicts import CLAIM_HEADER, DOES_NOT_REPRODUCE, FINITE_SIZE_CAVEAT, HOLDS
from attnspec.models.sampling import attention_matrix
from attnspec.spectra.dense import bulk_squared_singular_values
from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.theory.nu_infinity import NuInfinity


def small_attention(n_tokens=80, d_qk=80, beta=1.0, seed=0):
    rng = np.random.default_rng(seed)
    return attention_matrix(
        rng.standard_normal((n_tokens, d_qk)), rng.standard_normal((n_tokens, d_qk)), beta
    )


# --- A6: s_1(A) and the stable rank -------------------------------------------------------


def test_leading_singular_value_matches_a_dense_svd():
    A = small_attention()
    assert leading_singular_value(A) == pytest.approx(np.linalg.norm(A, 2), rel=1e-13)


def test_perron_draws_are_reproducible_and_match_the_generic_attention_draw():
    first = perron_draws(64, 1.0, 2)
    assert np.array_equal(first["s1"], perron_draws(64, 1.0, 2)["s1"])
    assert np.all(first["s1"] >= 1 - 1e-12)  # row-stochastic: ||A|| >= ||A u|| = 1
    # Draw 1 is the "attention" draw 1 of the generic spectrum rule: same Q, K, hence the same
    # squared singular values of sqrt(ell) A_perp, whose sum is ell (||A||_F^2 - 1).
    bulk = model_spectrum(
        "attention", 1, n_tokens=64, d_qk=64, beta=1.0, sampler="gaussian", d_model=None
    )
    assert np.sum(bulk) / 64 == pytest.approx(first["frobenius_squared"][1] - 1.0, rel=1e-10)


def test_rescaled_perron_value_is_near_its_prediction_at_small_beta():
    ell, beta = 512, 0.5
    s1 = perron_draws(ell, beta, 3)["s1"]
    predicted = ell * (perron_squared_prediction(ell, ell, beta) - 1.0)
    assert predicted == pytest.approx(np.expm1(0.25) + 0.5**4 / 2)
    assert np.mean(ell * (s1**2 - 1.0)) == pytest.approx(predicted, rel=0.1)


def test_power_law_fit_recovers_an_exact_slope_and_rejects_too_few_points():
    x = np.array([100.0, 200.0, 400.0, 800.0])
    fit = fit_power_law(x, 3.0 * x**-1.0)
    assert fit.slope == pytest.approx(-1.0, abs=1e-12)
    assert fit.slope_se == pytest.approx(0.0, abs=1e-12)
    assert fit.intercept == pytest.approx(np.log(3.0))
    assert fit.dof == 2
    with pytest.raises(ValueError, match="power-law fit"):
        fit_power_law([100.0, 200.0], [1.0, 0.5])
    with pytest.raises(ValueError, match="power-law fit"):
        fit_power_law([100.0, 100.0, 100.0], [1.0, 0.5, 0.2])


def test_power_law_fit_standard_error_reflects_the_scatter():
    rng = np.random.default_rng(3)
    x = np.repeat([128.0, 256.0, 512.0, 1024.0, 2048.0], 40)
    fits = [
        fit_power_law(x, x**-0.7 * np.exp(0.1 * rng.standard_normal(x.size))) for _ in range(50)
    ]
    slopes = np.array([f.slope for f in fits])
    assert np.mean(slopes) == pytest.approx(-0.7, abs=0.01)
    assert np.std(slopes) == pytest.approx(np.mean([f.slope_se for f in fits]), rel=0.3)


def synthetic_series(deviation_of_ell, *, beta=1.0, draws=4, scatter=0.02, seed=0):
    """A PerronSeries whose s_1 - 1 follows deviation_of_ell times log-normal scatter."""
    rng = np.random.default_rng(seed)
    ells = [128, 256, 512, 1024, 2048]
    results = []
    for ell in ells:
        deviation = deviation_of_ell(ell) * np.exp(scatter * rng.standard_normal(draws))
        results.append({"s1": 1.0 + deviation, "frobenius_squared": np.full(draws, np.e)})
    return perron_series(beta, ells, results)


def predicted_deviation(beta=1.0):
    return lambda ell: np.sqrt(perron_squared_prediction(ell, ell, beta)) - 1.0


def test_data_following_the_prediction_hold():
    check = perron_check(synthetic_series(predicted_deviation()))
    assert judge_perron(check) == HOLDS


def test_a_slower_decay_is_a_finite_size_caveat_and_no_decay_does_not_reproduce():
    slow = perron_check(synthetic_series(lambda ell: 0.1 / np.sqrt(ell)))
    assert slow.slope == pytest.approx(-0.5, abs=0.05)
    assert judge_perron(slow) == FINITE_SIZE_CAVEAT
    flat = perron_check(synthetic_series(lambda ell: 0.01 + 0 * ell))
    assert judge_perron(flat) == DOES_NOT_REPRODUCE


def test_a_level_off_the_prediction_is_a_caveat_even_with_the_right_slope():
    check = perron_check(synthetic_series(lambda ell: 1.5 * predicted_deviation()(ell)))
    assert abs(check.slope + 1) <= check.slope_tolerance
    assert judge_perron(check) == FINITE_SIZE_CAVEAT


def test_one_draw_gives_no_spread_so_at_most_a_caveat():
    check = perron_check(synthetic_series(predicted_deviation(), draws=1))
    assert np.isnan(check.largest_tolerance)
    assert judge_perron(check) == FINITE_SIZE_CAVEAT


def test_claim_row_reports_the_worst_beta_and_every_beta_in_its_note():
    good = PerronCheck(0.5, -1.0, 0.05, 4096, 4e-5, 1e-6, 4e-5)
    slow = PerronCheck(1.0, -0.8, 0.05, 4096, 3e-4, 1e-5, 2.7e-4)
    row = perron_claim([good, slow], draws=4)
    assert (row.claim_id, row.verdict, row.value, row.tolerance) == (
        "A.2",
        FINITE_SIZE_CAVEAT,
        -0.8,
        0.05,
    )
    assert "beta=0.5" in row.note and "beta=1" in row.note
    assert len(row.as_row()) == len(CLAIM_HEADER)
    # The row's test says why: outside the slope's interval, but value + tolerance < 0.
    assert not row.meets_condition() and row.value + row.tolerance < 0
    assert "caveat if not but value + tolerance < 0" in row.test
    # The row is rendered in Markdown tables: no cell may contain a pipe.
    assert not any("|" in str(cell) for cell in row.as_row())
    assert perron_claim([good], draws=4).verdict == HOLDS


def test_series_sorts_by_ell_and_predicts_the_stable_rank():
    results = [{"s1": np.array([1.01]), "frobenius_squared": np.array([2.0])} for _ in range(3)]
    results[0] = {"s1": np.array([1.001]), "frobenius_squared": np.array([2.5])}
    series = perron_series(1.0, [1024, 128, 256], results)
    assert list(series.n_tokens) == [128, 256, 1024]
    assert series.stable_rank[-1, 0] == pytest.approx(2.5 / 1.001**2)
    theta1 = nonlinearity_coefficients(1.0).theta1
    assert series.predicted_stable_rank[0] == pytest.approx(np.e / (1 + (theta1 + 0.5) / 128))
    assert series.rescaled_prediction == pytest.approx(theta1 + 0.5)


# --- A2: the full spectrum -----------------------------------------------------------------


def test_top_pairs_reach_below_the_threshold_and_match_the_dense_spectrum():
    A = small_attention(n_tokens=100, d_qk=100)
    dense = bulk_squared_singular_values(A)  # sqrt(ell) A_perp, descending
    # A threshold between two dense values, so that rounding cannot move a value across it.
    threshold = 0.5 * (dense[TOP_PAIRS + 3] + dense[TOP_PAIRS + 4])
    values, left, right = top_pairs_above(A, threshold=threshold)
    assert values.size == 2 * TOP_PAIRS  # doubled once
    np.testing.assert_allclose(values, dense[: values.size], rtol=1e-9)
    assert np.sum(values > threshold) == TOP_PAIRS + 4
    np.testing.assert_allclose(np.linalg.norm(left, axis=0), 1.0)
    np.testing.assert_allclose(np.linalg.norm(right, axis=0), 1.0)
    assert top_pairs_above(A, threshold=1e9)[0].size == TOP_PAIRS


def test_full_spectrum_draw_contains_the_perron_value_and_the_largest_entry():
    ell, beta = 120, 1.0
    draw = full_spectrum_draw(0, n_tokens=ell, d_qk=ell, beta=beta)
    values = draw["squared_singular_values"]
    assert values.size == ell and np.all(np.diff(values) <= 0)
    assert values[0] == pytest.approx(ell * perron_squared_prediction(ell, ell, beta), rel=0.01)
    assert values[1] < 0.5 * ell  # one Perron mode
    assert np.all((draw["ipr_left"] >= 1 / ell) & (draw["ipr_left"] <= 1))
    assert np.all((draw["ipr_right"] >= 1 / ell) & (draw["ipr_right"] <= 1))
    # Interlacing, top[j] = s_{j+1}(A_perp): s_{k+1}(A_perp) <= s_k(A) <= s_{k-1}(A_perp).
    top = draw["top_values"]
    assert np.all(values[1 : top.size + 1] <= top * (1 + 1e-9))
    assert np.all(top[1:] <= values[: top.size - 1] * (1 + 1e-9))


def test_summary_counts_every_value_and_the_values_above_the_edge():
    ell = 100
    draws = [full_spectrum_draw(i, n_tokens=ell, d_qk=ell, beta=1.0) for i in range(2)]
    summary = summarise_full_spectrum(draws, n_tokens=ell, d_qk=ell, beta=1.0)
    assert summary["counts"].sum() == 2 * ell
    # nu_inf mass inside the bins: all but the mass below the smallest value's decade.
    below = NuInfinity(1.0).cdf(summary["edges"][0])
    assert summary["theory_counts"].sum() == pytest.approx(2 * (ell - 1) * (1 - below))
    for i, d in enumerate(draws):
        assert summary["n_above_edge"][i] == np.sum(d["top_values"] > summary["x_plus"])
    assert summary["x_plus"] > summary["mp_edge"]  # paper A: x_+ > 4 theta1
    assert summary["outlier_threshold"] > summary["x_plus"]
    rows = full_spectrum_table_rows(summary)
    assert len(rows) == 2 and all(len(r) == len(FULL_SPECTRUM_TABLE_HEADER) for r in rows)
    assert rows[0][1] == pytest.approx(draws[0]["squared_singular_values"][0] - ell)
