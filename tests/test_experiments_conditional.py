"""Figures B5 and B6: conditional covariances given K, finite edges E_ell, the B.3 verdict."""

import numpy as np
import pytest

from attnspec.experiments.conditional import (
    COVARIANCES,
    ConditionalCheck,
    PopulationSeries,
    conditional_check,
    conditional_claim,
    conditional_draw,
    conditional_series,
    edge_scale,
    judge_conditional,
    population_histograms,
    population_series,
    population_table_rows,
    wishart_edge_scale,
)
from attnspec.experiments.spectra import draw_parameters
from attnspec.legacy_verdicts import CLAIM_HEADER, DOES_NOT_REPRODUCE, FINITE_SIZE_CAVEAT, HOLDS
from attnspec.models.gaussian_equivalent import conditional_covariance
from attnspec.models.sampling import sample_queries_keys
from attnspec.plotting.conditional import (
    conditional_plotted_rows,
    plot_conditional_edges,
    plot_population,
    population_plotted_rows,
)
from attnspec.plotting.style import close
from attnspec.seeding import rng_for
from attnspec.theory import bulk_edge, finite_deformed_mp_edge, nonlinearity_coefficients
from attnspec.theory.population import population_law

# --- the kernel and the finite edge --------------------------------------------------------


def test_sigma_f_is_the_conditional_covariance_of_a_row_of_f_of_s():
    """Monte Carlo: rows f(q^T K^T / sqrt(d)) with q ~ N(0, I) have covariance Sigma_f."""
    rng = np.random.default_rng(7)
    ell, d_qk, beta, samples = 5, 6, 0.8, 400_000
    keys = rng.standard_normal((ell, d_qk))
    scores = rng.standard_normal((samples, d_qk)) @ keys.T / np.sqrt(d_qk)
    rows = np.expm1(beta * scores - beta * beta / 2)
    empirical = np.cov(rows, rowvar=False)
    centred = rows - rows.mean(axis=0)
    products = centred[:, :, None] * centred[:, None, :]
    standard_error = products.std(axis=0) / np.sqrt(samples)
    sigma = conditional_covariance(keys, beta)
    assert np.all(np.abs(empirical - sigma) <= 5 * standard_error)
    # Without the diagonal conjugation D0 the kernel is measurably wrong.
    bare = np.expm1(beta * beta * keys @ keys.T / d_qk)
    assert np.max(np.abs(empirical - bare) / standard_error) > 20


@pytest.mark.parametrize(("beta", "ratio"), [(0.5, 1.0), (1.0, 1.0), (1.0, 0.5), (1.0, 2.0)])
def test_finite_edge_of_a_large_sample_of_rho_is_x_plus(beta, ratio):
    """E_ell(Sigma) -> x_+ when the eigenvalues of Sigma are the quantiles of rho = a + b MP_c."""
    n = 20_000
    sample = population_law(beta, ratio).quantile((np.arange(n) + 0.5) / n)
    assert finite_deformed_mp_edge(sample) == pytest.approx(bulk_edge(beta, ratio), rel=2e-4)


def test_conditional_draw_uses_the_keys_of_the_attention_draw():
    ell, d_qk, beta, draw = 48, 24, 1.0, 1
    result = conditional_draw(ell, d_qk, beta, draw)
    params = draw_parameters(ell, d_qk, beta, "gaussian", None)
    _, keys = sample_queries_keys(rng_for(params, draw, "queries_keys"), ell, d_qk)
    expected_f = np.linalg.eigvalsh(conditional_covariance(keys, beta))
    assert np.allclose(result["eigenvalues_sigma_f"], expected_f, rtol=1e-10, atol=1e-12)
    # Sigma_G = a I + b K K^T / d_qk: eigenvalues a + b s_k(K)^2 / d_qk (ell - d_qk of them a).
    c = nonlinearity_coefficients(beta)
    singular = np.linalg.svd(keys, compute_uv=False)
    expected_g = np.sort(np.concatenate([c.a + c.b * singular**2 / d_qk, np.full(ell - d_qk, c.a)]))
    assert np.allclose(result["eigenvalues_sigma_g"], expected_g, rtol=1e-10)
    assert float(result["edge_sigma_g"]) == pytest.approx(finite_deformed_mp_edge(expected_g))
    again = conditional_draw(ell, d_qk, beta, draw)
    assert np.array_equal(again["eigenvalues_sigma_f"], result["eigenvalues_sigma_f"])


# --- figure B5: series, fit and verdict ------------------------------------------------------


def synthetic_results(x_plus, ells, offsets, exponent=-1.0, amplitude=50.0):
    """Fake draws with E_ell = x_+ + amplitude ell^exponent + offset_draw / ell."""
    return [
        [
            {
                f"edge_{name}": np.float64(x_plus + amplitude * ell**exponent + o / ell)
                for name in COVARIANCES
            }
            for o in offsets
        ]
        for ell in ells
    ]


def test_conditional_series_fit_recovers_a_known_exponent():
    x_plus = bulk_edge(1.0)
    ells = [256, 1024, 512, 2048]  # any order: the series sorts by ell
    series = conditional_series(1.0, 1.0, ells, synthetic_results(x_plus, ells, [0.0, 0.0], -0.75))
    assert list(series.n_tokens) == [256, 512, 1024, 2048]
    for name in COVARIANCES:
        assert series.fits[name].slope == pytest.approx(-0.75, abs=1e-10)
    assert series.edges["sigma_f"].shape == (4, 2)


def check(mean_edge, tolerance, slope, slope_tolerance=0.1, x_plus=9.0):
    return ConditionalCheck("sigma_f", 4096, mean_edge, tolerance, x_plus, slope, slope_tolerance)


def test_judge_conditional_on_synthetic_checks():
    assert judge_conditional(check(9.01, 0.02, 0.5)) == HOLDS
    assert judge_conditional(check(9.10, 0.02, -1.0)) == FINITE_SIZE_CAVEAT
    assert judge_conditional(check(9.10, 0.02, 0.05)) == DOES_NOT_REPRODUCE
    assert judge_conditional(check(9.10, 0.02, -0.05)) == DOES_NOT_REPRODUCE  # not significant
    assert judge_conditional(check(9.0, float("nan"), -1.0)) == FINITE_SIZE_CAVEAT  # one draw


def test_claims_from_synthetic_series_hold_fail_and_carry_a_caveat():
    x_plus = bulk_edge(1.0)
    ells = [256, 512, 1024, 2048]
    # Gap 50/ell shrinking, spread 1/ell: outside the spread at every ell -> caveat.
    shrinking = conditional_series(1.0, 1.0, ells, synthetic_results(x_plus, ells, [-1, 0, 1]))
    checks = [conditional_check(shrinking, name) for name in COVARIANCES]
    claim = conditional_claim(checks, draws=3)
    assert claim.verdict == FINITE_SIZE_CAVEAT
    assert claim.target == x_plus
    assert claim.value == pytest.approx(x_plus + 50 / 2048)
    assert len(claim.as_row()) == len(CLAIM_HEADER)
    assert not claim.meets_condition() and "OLS slope of log|E_ell - x_+|" in claim.test
    # Spread larger than the gap at the largest ell -> holds.
    noisy = conditional_series(1.0, 1.0, ells, synthetic_results(x_plus, ells, [-400, 0, 400]))
    assert conditional_claim([conditional_check(noisy, "sigma_f")], draws=3).verdict == HOLDS
    # A constant gap that does not shrink -> does not reproduce.
    stuck = conditional_series(
        1.0, 1.0, ells, synthetic_results(x_plus, ells, [-1, 0, 1], exponent=0.0, amplitude=0.5)
    )
    verdict = conditional_claim([conditional_check(stuck, "sigma_f")], draws=3).verdict
    assert verdict == DOES_NOT_REPRODUCE


def test_figure_b5_draws_and_lists_every_number():
    x_plus = bulk_edge(1.0)
    ells = [256, 512, 1024]
    series = conditional_series(1.0, 1.0, ells, synthetic_results(x_plus, ells, [-1, 0, 1]))
    verdicts = {name: judge_conditional(conditional_check(series, name)) for name in COVARIANCES}
    close(plot_conditional_edges(series, verdicts))
    rows = list(conditional_plotted_rows(series))
    # 2 covariances x 2 panels x 3 ells x (3 draws + median, min, max) + 2 x 2 fit ends + 3 x_+.
    assert len(rows) == 2 * 2 * 3 * 6 + 4 + 3


# --- figure B6: the population spectrum ------------------------------------------------------


def test_wishart_edge_scale_tends_to_the_square_tracy_widom_scaling():
    centre, scale = wishart_edge_scale(10**6, 10**6)
    assert centre == pytest.approx(4.0, rel=1e-5)
    assert scale == pytest.approx(2 ** (4 / 3) * (10**6) ** (-2 / 3), rel=1e-5)
    edge = edge_scale(1.0, 1.0, 10**6, 10**6)
    assert edge.rho_edge == pytest.approx(population_law(1.0).edge)
    assert edge.tracy_widom_mean < edge.rho_edge < edge.tracy_widom_q99


def rho_draws(ell, draws, beta=1.0, outlier=None):
    """Fake draws whose eigenvalues are the quantiles of rho (plus one outlier if given)."""
    values = population_law(beta).quantile((np.arange(ell) + 0.5) / ell)
    result = []
    for _ in range(draws):
        eigenvalues = values.copy()
        if outlier is not None:
            eigenvalues[-1] = outlier
        result.append({f"eigenvalues_{name}": eigenvalues for name in COVARIANCES})
    return result


def test_population_series_flags_an_outlier_and_not_a_clean_spectrum():
    ells = [256, 1024]
    edge = population_law(1.0).edge
    clean = population_series(1.0, 1.0, ells, [rho_draws(ell, 2) for ell in ells])
    assert np.all(clean.largest_units("sigma_f") < 0)
    assert np.all(clean.kolmogorov["sigma_f"] <= 1.0 / 256)
    spiked = population_series(
        1.0, 1.0, ells, [rho_draws(ell, 2, outlier=edge + 1) for ell in ells]
    )
    units = spiked.largest_units("sigma_g")
    assert np.all(units > 10) and units[1, 0] > units[0, 0]  # grows with ell
    rows = population_table_rows(spiked)
    assert len(rows) == 2 * 2
    assert rows[0][8] > 10  # separation (lambda_1 - lambda_2) / s


def test_population_histograms_and_figure_b6():
    ells = [128, 256]
    results = [rho_draws(ell, 2) for ell in ells]
    histograms = population_histograms(results[-1], beta=1.0, ratio=1.0, bins=30)
    widths = np.diff(histograms["bin_edges"])
    for name in COVARIANCES:
        assert np.sum(histograms[f"density_{name}"] * widths) == pytest.approx(1.0)
        assert histograms[f"top_{name}"].shape == (2, 10)
    series = population_series(1.0, 1.0, ells, results)
    assert isinstance(series, PopulationSeries)
    close(plot_population(histograms, series))
    rows = list(population_plotted_rows(histograms, series))
    # 2 x (30 bins + 2 x 10 top + 2 ells x (2 draws + 1)) + 800 density + 2 ells x 4 references.
    assert len(rows) == 2 * (30 + 20 + 6) + 800 + 8
