"""Figures A2 and A6: the Perron mode, the full spectrum, and the evidence of the rows A.2 judged by
the registry's tests on synthetic series."""

import numpy as np
import pytest

from attnspec.claims.rows import judge_row
from attnspec.claims.verdict import Verdict
from attnspec.models.sampling import attention_matrix
from attnspec.papers.a.full_spectrum import TOP_PAIRS, full_spectrum_draw, top_pairs_above
from attnspec.papers.a.full_spectrum_summary import (
    FULL_SPECTRUM_TABLE_HEADER,
    full_spectrum_table_rows,
    summarise_full_spectrum,
)
from attnspec.papers.a.perron import (
    leading_singular_value,
    perron_draws,
    perron_squared_prediction,
)
from attnspec.papers.a.perron_evidence import (
    SLOPE_ALTERNATIVES,
    perron_evidence,
    perron_evidence_rows,
)
from attnspec.papers.a.perron_summary import fit_power_law, local_slopes, perron_series
from attnspec.papers.registry import TESTS
from attnspec.papers.spectra import model_spectrum
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
    assert fit.intercept == pytest.approx(np.log(3.0))
    with pytest.raises(ValueError, match="power-law fit"):
        fit_power_law([100.0], [1.0])
    with pytest.raises(ValueError, match="power-law fit"):
        fit_power_law([100.0, 100.0, 100.0], [1.0, 0.5, 0.2])


ELLS = [128, 256, 512, 1024, 2048]


def synthetic_series(deviation_of_ell, *, beta=1.0, draws=10, scatter=0.02, seed=0):
    """A PerronSeries whose s_1 - 1 follows deviation_of_ell times log-normal scatter."""
    rng = np.random.default_rng(seed)
    results = []
    for ell in ELLS:
        deviation = deviation_of_ell(ell) * np.exp(scatter * rng.standard_normal(draws))
        results.append({"s1": 1.0 + deviation, "frobenius_squared": np.full(draws, np.e)})
    return perron_series(beta, ELLS, results)


def predicted_deviation(beta=1.0):
    return lambda ell: np.sqrt(perron_squared_prediction(ell, ell, beta)) - 1.0


QUICK = 20
"""Stability resamples of these tests: they check verdicts, intervals and alternatives, which the
stability share (reported beside them) does not enter."""


def verdict(series):
    evidence = perron_evidence(series)
    return judge_row(TESTS[evidence.row_id], evidence, stability_resamples=QUICK)


def test_evidence_holds_the_draws_the_sizes_and_the_declared_alternatives():
    series = synthetic_series(predicted_deviation(), beta=0.5)
    evidence = perron_evidence(series)
    assert evidence.row_id == "A.2/beta=0.5" and evidence.target == -1.0
    np.testing.assert_array_equal(evidence.samples["values"], series.deviation.T)
    np.testing.assert_array_equal(evidence.samples["sizes"], ELLS)
    assert sorted(evidence.alternatives) == sorted(
        a.name for a in TESTS[evidence.row_id].alternatives
    )
    for name, slope in SLOPE_ALTERNATIVES.items():
        alternative = evidence.alternatives[name]
        assert alternative.target == slope
        np.testing.assert_array_equal(alternative.samples["values"], series.deviation.T)
    sizes, slopes = local_slopes(series)
    np.testing.assert_allclose(sizes, np.sqrt(np.array(ELLS[1:]) * ELLS[:-1]))
    assert slopes.shape == (10, 4) and "local slope" in evidence.note


def test_data_following_the_prediction_hold_and_rule_out_both_wrong_slopes():
    row = verdict(synthetic_series(predicted_deviation()))
    assert row["verdict"] == Verdict.HOLDS and row["ruled_out"] == "2 of 2"
    assert float(row["value"]) == pytest.approx(-1.0, abs=0.05)


def test_a_slower_decay_does_not_reproduce_and_its_own_theory_is_not_ruled_out():
    row = verdict(synthetic_series(lambda ell: 0.1 / np.sqrt(ell)))
    assert float(row["value"]) == pytest.approx(-0.5, abs=0.05)
    assert row["verdict"] == Verdict.DOES_NOT_REPRODUCE
    assert "slope -0.5: does not reproduce" not in row["alternatives"]
    assert row["no_power_against"] == ""  # the claim fails on its own: not a lack of power


def test_noisy_draws_are_inconclusive_not_holds():
    row = verdict(synthetic_series(predicted_deviation(), draws=3, scatter=0.6, seed=2))
    assert row["verdict"] in (Verdict.INCONCLUSIVE, Verdict.DOES_NOT_REPRODUCE)


def test_evidence_rows_need_the_judged_betas():
    series = [synthetic_series(predicted_deviation(b), beta=b) for b in (0.5, 1.0, 1.5)]
    assert [e.row_id for e in perron_evidence_rows(series)] == ["A.2/beta=0.5", "A.2/beta=1"]
    with pytest.raises(ValueError, match="paperA.perron.betas"):
        perron_evidence_rows(series[1:])


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
