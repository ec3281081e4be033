"""Figures B5 and B6: conditional covariances given K, finite edges E_ell, the evidence of rows
B.3 judged by the verdict engine on synthetic data (at x_+, 1 % off it, and fading like 1/ell),
batches and replicates."""

import numpy as np
import pytest

from attnspec.claims.rows import judge_row
from attnspec.claims.verdict import Verdict
from attnspec.models.gaussian_equivalent import conditional_covariance
from attnspec.models.sampling import sample_queries_keys
from attnspec.papers.b.conditional import COVARIANCES, conditional_draw
from attnspec.papers.b.conditional_evidence import conditional_evidence
from attnspec.papers.b.conditional_findings import conditional_findings
from attnspec.papers.b.conditional_plotted import population_density
from attnspec.papers.b.conditional_summary import (
    conditional_series,
    edge_scale,
    group_by_size,
    population_series,
    population_table_rows,
    wishart_edge_scale,
)
from attnspec.papers.b.sticking_evidence import (
    COARSE_DILATIONS,
    VARIANT_MARGIN_SCALE,
    X_PLUS_VARIANT,
)
from attnspec.papers.draw_batches import batched_draws, unstack_draws
from attnspec.papers.registry import TESTS
from attnspec.papers.spectra import draw_parameters
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


def test_conditional_draw_replicates_differ_and_replicate_0_is_the_default_stream():
    ell, d_qk, beta = 40, 40, 1.0
    default = conditional_draw(ell, d_qk, beta, 2)
    zero = conditional_draw(ell, d_qk, beta, 2, replicate=0)
    one = conditional_draw(ell, d_qk, beta, 2, replicate=1)
    again = conditional_draw(ell, d_qk, beta, 2, replicate=1)
    for key, value in default.items():
        assert np.array_equal(zero[key], value), key
        assert np.array_equal(again[key], one[key]), key
    for name in COVARIANCES:
        assert not np.any(one[f"eigenvalues_{name}"] == default[f"eigenvalues_{name}"])
        assert one[f"edge_{name}"] != default[f"edge_{name}"]
    assert (int(one["n_tokens"]), int(one["d_qk"]), int(one["draw"])) == (ell, d_qk, 2)


def test_a_batch_of_draws_equals_the_single_draws_bit_for_bit():
    batch = batched_draws(lambda d: conditional_draw(32, 16, 1.0, d, replicate=1), range(3))
    records = unstack_draws(batch)
    assert len(records) == 3
    for draw, record in enumerate(records):
        alone = conditional_draw(32, 16, 1.0, draw, replicate=1)
        assert sorted(record) == sorted(alone)
        for key, value in alone.items():
            assert np.array_equal(record[key], value) and record[key].dtype == value.dtype, key
    sizes, grouped = group_by_size(list(reversed(records)) + [conditional_draw(16, 8, 1.0, 0)])
    assert sizes == [16, 32]
    assert [int(r["draw"]) for r in grouped[1]] == [0, 1, 2]


# --- figure B5: series, fit and the evidence of rows B.3 -----------------------------------


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
    offsets = [-1.0, 0.0, 1.0]
    series = conditional_series(1.0, 1.0, ells, synthetic_results(x_plus, ells, offsets, -0.75))
    assert list(series.n_tokens) == [256, 512, 1024, 2048]
    for name in COVARIANCES:
        rate = series.rates[name]
        assert rate.low < -0.75 < rate.high and rate.high - rate.low < 0.2
    assert series.edges["sigma_f"].shape == (4, 3)


ELLS = [256, 512, 1024, 2048]
DRAWS = np.linspace(-1.0, 1.0, 10)
COVARIANCE_NAMES = {"B.3/Sigma_f": "sigma_f", "B.3/Sigma_G": "sigma_g"}
QUICK = 20
"""Stability resamples of these tests: they check verdicts, which the stability share (reported
beside them) does not enter."""


def judged(series):
    """The judged rows B.3 of a series, by the engine."""
    return {
        item.row_id: judge_row(TESTS[item.row_id], item, stability_resamples=QUICK)
        for item in conditional_evidence(series)
    }


def test_evidence_is_the_relative_edge_at_the_largest_ell_with_every_size_and_x_plus_mutants():
    x_plus = bulk_edge(1.0)
    series = conditional_series(1.0, 1.0, ELLS, synthetic_results(x_plus, ELLS, DRAWS))
    evidence = conditional_evidence(series)
    assert [item.row_id for item in evidence] == ["B.3/Sigma_f", "B.3/Sigma_G"]
    item = evidence[0]
    np.testing.assert_allclose(item.samples["values"], (50 / 2048 + DRAWS / 2048) / x_plus)
    assert item.target == 0.0 and item.margin_scale == 1.0 and item.limit_target == 0.0
    np.testing.assert_array_equal(item.sizes, ELLS)
    for ell, own in zip(ELLS, item.by_size, strict=True):
        np.testing.assert_allclose(own["values"], (50 / ell + DRAWS / ell) / x_plus)
    assert sorted(item.alternatives) == sorted(a.name for a in TESTS["B.3/Sigma_f"].alternatives)
    edges = series.edges["sigma_f"][-1]
    for name, factor in (("x+ -1%", 0.99), ("x+ +1%", 1.01)):
        mutant = item.alternatives[name]
        np.testing.assert_allclose(mutant.samples["values"], edges / (factor * x_plus) - 1)
        assert mutant.target == mutant.limit_target == 0.0 and len(mutant.by_size) == len(ELLS)
    assert "Sigma_f" in item.quantity and "ell = 2048" in item.quantity


def test_rows_hold_at_the_edge_and_rule_out_both_mutants():
    x_plus = bulk_edge(1.0)
    # Within a tenth of the margin (0.5 % of x_+), tight.
    at_edge = synthetic_results(x_plus, ELLS, DRAWS, exponent=0.0, amplitude=5e-4 * x_plus)
    for row in judged(conditional_series(1.0, 1.0, ELLS, at_edge)).values():
        assert row["claim_verdict"] == Verdict.HOLDS and row["verdict"] == Verdict.HOLDS
        assert row["ruled_out"] == "2 of 2" and row["no_power_against"] == ""


def test_rows_fail_an_edge_one_percent_off_and_that_mutant_stands():
    x_plus = bulk_edge(1.0)
    for name, factor in (("x+ -1%", 0.99), ("x+ +1%", 1.01)):
        off = synthetic_results(factor * x_plus, ELLS, DRAWS, exponent=0.0, amplitude=0.0)
        for row in judged(conditional_series(1.0, 1.0, ELLS, off)).values():
            assert row["claim_verdict"] == Verdict.DOES_NOT_REPRODUCE
            assert row["verdict"] == Verdict.DOES_NOT_REPRODUCE and row["no_power_against"] == ""
            assert f"{name}: holds" in row["alternatives"], row["alternatives"]


def test_rows_carry_the_three_percent_variant():
    """Issue 33, item 5: rows B.3 judged at x_+ +- 3 % too (margin 1.5 % of x_+): an edge
    1 % off fails at 1 % and holds at 3 %, and other_resolutions says so."""
    x_plus = bulk_edge(1.0)
    off = synthetic_results(1.01 * x_plus, ELLS, DRAWS, exponent=0.0, amplitude=0.0)
    series = conditional_series(1.0, 1.0, ELLS, off)
    for item in conditional_evidence(series):
        variant = item.variants[X_PLUS_VARIANT]
        assert sorted(variant.alternatives) == sorted(COARSE_DILATIONS)
        assert variant.margin_scale == VARIANT_MARGIN_SCALE
        np.testing.assert_array_equal(variant.sizes, item.sizes)
        for name, factor in COARSE_DILATIONS.items():
            edges = series.edges[COVARIANCE_NAMES[item.row_id]][-1]
            np.testing.assert_allclose(
                variant.alternatives[name].samples["values"], edges / (factor * x_plus) - 1
            )
    for row in judged(series).values():
        assert row["verdict"] == Verdict.DOES_NOT_REPRODUCE
        assert row["other_resolutions"] == f"{X_PLUS_VARIANT}: {Verdict.HOLDS}", row["row_id"]


def test_a_gap_three_margins_off_at_the_judged_size_is_no_caveat_while_the_rate_is_unknown():
    """Three margins above x_+ at ell = 2048, shrinking like 1/ell: with one declared rate 1 this
    read holds with a finite-size caveat; over the declared rates [1/3, 2] the union of the
    limit's intervals is not inside its region (slow rates carry it past x_+), and the judged
    size is beyond the caveat's one margin: inconclusive."""
    x_plus = bulk_edge(1.0)
    shrinking = synthetic_results(x_plus, ELLS, DRAWS, amplitude=3 * 0.005 * x_plus * 2048)
    for row in judged(conditional_series(1.0, 1.0, ELLS, shrinking)).values():
        assert (
            row["claim_verdict"] == Verdict.INCONCLUSIVE and row["verdict"] == Verdict.INCONCLUSIVE
        )
        assert float(row["limit_low"]) < -0.005


def test_caption_findings_read_both_rows_with_their_limits():
    x_plus = bulk_edge(1.0)
    shrinking = synthetic_results(x_plus, ELLS, DRAWS, amplitude=3 * 0.005 * x_plus * 2048)
    series = conditional_series(1.0, 1.0, ELLS, shrinking)
    text = conditional_findings(series, judged(series))
    for label in ("Sigma_f", "Sigma_G"):
        assert f"row B.3/{label}: {Verdict.INCONCLUSIVE}" in text
    assert "limit of the declared finite-size model" in text and "ruled out: 0 of 2" in text


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


def test_population_density_spans_every_eigenvalue_and_the_support_of_rho():
    draws = rho_draws(128, 2, outlier=population_law(1.0).edge + 1)
    x, density = population_density(draws, beta=1.0, ratio=1.0)
    low, high = population_law(1.0).support()[0]
    assert x[0] < low and x[-1] > population_law(1.0).edge + 1 and len(x) == 800
    inside = (x > low) & (x < high)
    assert np.all(density[inside] > 0) and np.all(density[~inside] == 0)
