"""Figure A5 computations: distances to nu_inf, the collapse analysis and the A.1/A.5 verdicts."""

import numpy as np
import pytest

from attnspec.claims import CLAIMS
from attnspec.experiments.linearisation import (
    bulk_distances,
    collapse_analysis,
    convergence_claim,
    convergence_verdict,
    distance_table,
    rescaled_beta,
    size_exponent,
    summarise_distances,
    threshold_claim,
    threshold_verdict,
)
from attnspec.experiments.spectra import model_spectrum
from attnspec.legacy_verdicts import DOES_NOT_REPRODUCE, FINITE_SIZE_CAVEAT, HOLDS, VERDICTS
from attnspec.theory.nu_infinity import NuInfinity


def synthetic_table(attention, linear, n_tokens, betas, spread=0.02):
    """A distance table whose two draws are value * (1 -+ spread), for both metrics."""
    rows = {k: [] for k in ("model", "n_tokens", "beta", "draw", "kolmogorov")}
    for model, values in (("attention", attention), ("linear", linear)):
        for i, n in enumerate(n_tokens):
            for j, beta in enumerate(betas):
                for draw, factor in enumerate((1 - spread, 1 + spread)):
                    rows["model"].append(model)
                    rows["n_tokens"].append(n)
                    rows["beta"].append(beta)
                    rows["draw"].append(draw)
                    rows["kolmogorov"].append(values[i][j] * factor)
    table = {k: np.array(v) for k, v in rows.items()}
    table["wasserstein1_relative"] = table["kolmogorov"].copy()
    return table


N_TOKENS = np.array([250, 500, 1000, 2000])
BETAS = np.linspace(0.25, 3.0, 12)


def floor_values(jitter=0.0):
    """Y_lin-like distances ~ 2.5 / ell, with a small beta-dependent jitter."""
    wiggle = 1 + jitter * (-1.0) ** np.arange(BETAS.size)
    return 2.5 / N_TOKENS[:, None] * wiggle[None, :]


def threshold_like():
    """Attention distances with a threshold in x: D = floor + 0.9 / (1 + exp(-(x - 0.8) / 0.08))."""
    x = rescaled_beta(BETAS[None, :], N_TOKENS[:, None])
    return floor_values() + 0.9 / (1 + np.exp(-(x - 0.8) / 0.08))


def fixed_beta_like():
    """Attention distances that break down at a fixed beta and heal like 1/ell at every beta."""
    return floor_values() * (1 + 50 * BETAS[None, :] ** 4)


def summary_of(attention, jitter=0.1):
    return summarise_distances(synthetic_table(attention, floor_values(jitter), N_TOKENS, BETAS))


def test_rescaled_beta_is_beta_over_root_log_ell():
    assert rescaled_beta(2.0, np.e**4) == pytest.approx(1.0)


def test_distances_of_the_linear_model_are_small_and_of_a_wrong_law_large():
    law = NuInfinity(1.0)
    spectrum = model_spectrum(
        "linear", 0, n_tokens=300, d_qk=300, beta=1.0, sampler="gaussian", d_model=None
    )
    ks, w1 = bulk_distances(spectrum, "linear", law)
    assert ks < 0.03 and w1 < 0.03
    ks_wrong, w1_wrong = bulk_distances(1.5 * spectrum, "linear", law)
    assert ks_wrong > 0.1 and w1_wrong > 0.3


def test_attention_bulk_drops_the_structural_zero():
    law = NuInfinity(0.5)
    spectrum = np.array([3.0, 2.0, 1.0, 0.0])
    assert bulk_distances(spectrum, "attention", law) == bulk_distances(
        spectrum[:-1], "linear", law
    )
    with pytest.raises(ValueError, match="model"):
        bulk_distances(spectrum, "entrywise", law)


def test_distance_table_rows_follow_the_points():
    points = [
        {"model": m, "n_tokens": 120, "beta": 0.5, "draw": d}
        for m in ("attention", "linear")
        for d in range(2)
    ]
    spectra = [
        model_spectrum(
            p["model"],
            p["draw"],
            n_tokens=120,
            d_qk=120,
            beta=0.5,
            sampler="gaussian",
            d_model=None,
        )
        for p in points
    ]
    table = distance_table(spectra, points)
    assert list(table["model"]) == ["attention", "attention", "linear", "linear"]
    assert table["kolmogorov"].shape == (4,)
    assert np.all((table["kolmogorov"] > 0) & (table["kolmogorov"] < 0.2))


def test_summary_floor_is_the_mean_and_spread_of_the_linear_distances():
    summary = summary_of(threshold_like())
    linear = floor_values(0.1)
    draws = np.concatenate([linear * 0.98, linear * 1.02], axis=1)
    np.testing.assert_allclose(summary["floor"], draws.mean(axis=1))
    np.testing.assert_allclose(summary["tolerance"], 2 * draws.std(axis=1, ddof=1))
    np.testing.assert_allclose(summary["kolmogorov/attention/mean"], threshold_like())


def test_summary_needs_two_sizes_and_two_draws():
    table = synthetic_table(threshold_like()[:1], floor_values()[:1], N_TOKENS[:1], BETAS)
    with pytest.raises(ValueError, match="at least 2 ell"):
        summarise_distances(table)


def test_size_exponent_recovers_a_power_law_and_propagates_errors():
    values = 3.0 * N_TOKENS.astype(float) ** -0.7
    exponent, error = size_exponent(N_TOKENS, np.log(values), np.full(4, 0.1))
    assert exponent == pytest.approx(-0.7)
    u = np.log(N_TOKENS)
    assert error == pytest.approx(0.1 / np.sqrt(np.sum((u - u.mean()) ** 2)))


def test_collapse_found_for_a_threshold_in_x():
    collapse = collapse_analysis(summary_of(threshold_like()))
    assert 0.6 < collapse["crossover"] < 0.9
    assert collapse["x_spread_beyond"] < collapse["beta_spread_beyond"]
    assert np.all(collapse["beta_exponent"] < 0)


def test_no_collapse_for_a_breakdown_at_fixed_beta():
    collapse = collapse_analysis(summary_of(fixed_beta_like()))
    assert np.isnan(collapse["crossover"])
    assert collapse["x_exponent"].max() < -0.5


def test_convergence_verdict_on_synthetic_inputs():
    decreasing, errors = np.array([-0.8, -0.6]), np.array([0.05, 0.05])
    assert convergence_verdict(0.010, 0.009, 0.002, decreasing, errors) == HOLDS
    assert convergence_verdict(0.020, 0.009, 0.002, decreasing, errors) == FINITE_SIZE_CAVEAT
    flat = np.array([-0.8, -0.05])
    assert convergence_verdict(0.020, 0.009, 0.002, flat, errors) == DOES_NOT_REPRODUCE


def test_threshold_verdict_on_synthetic_inputs():
    tolerance = np.array([0.003, 0.001])
    args = (np.array([0.8, 0.7]), tolerance, np.array([0.001, -0.0005]))
    assert threshold_verdict(*args, 0.05, 0.01) == HOLDS
    # Still decreasing with ell at the largest x: not a threshold in x.
    assert threshold_verdict(*args, -0.3, 0.05) == DOES_NOT_REPRODUCE
    # No breakdown beyond the noise at one ell.
    small = (np.array([0.8, 0.0008]), tolerance, np.array([0.001, -0.0005]))
    assert threshold_verdict(*small, 0.05, 0.01) == DOES_NOT_REPRODUCE
    # The Gaussian model is off its floor too: the distance is not specific to attention.
    off = (np.array([0.8, 0.7]), tolerance, np.array([0.001, 0.01]))
    assert threshold_verdict(*off, 0.05, 0.01) == DOES_NOT_REPRODUCE


def test_claim_rows_for_a_threshold_in_x():
    summary = summary_of(threshold_like())
    convergence = convergence_claim(summary)
    threshold = threshold_claim(summary, collapse_analysis(summary))
    assert (convergence.claim_id, convergence.claim) == ("A.1", CLAIMS["A.1"])
    assert (threshold.claim_id, threshold.claim) == ("A.5", CLAIMS["A.5"])
    assert convergence.verdict in VERDICTS and threshold.verdict == HOLDS
    assert convergence.target == pytest.approx(summary["floor"][-1])
    assert threshold.value > threshold.tolerance > 0
    sizes = summary["n_tokens"]
    change = np.sqrt(np.log(sizes.max()) / np.log(sizes.min())) - 1.0
    assert f"sqrt(log ell) changes by only {change:.0%}" in threshold.note


def test_claim_rows_for_a_breakdown_at_fixed_beta():
    summary = summary_of(fixed_beta_like())
    assert threshold_claim(summary, collapse_analysis(summary)).verdict == DOES_NOT_REPRODUCE
    # Distances at beta <= 1 far above the floor, healing like 1/ell: a finite-size caveat.
    convergence = convergence_claim(summary)
    assert convergence.verdict == FINITE_SIZE_CAVEAT and not convergence.meets_condition()
    assert "caveat if not but the distance falls with ell" in convergence.test


def test_convergence_claim_without_small_beta_cannot_hold():
    betas = BETAS + 1.0
    table = synthetic_table(threshold_like(), floor_values(0.1), N_TOKENS, betas)
    claim = convergence_claim(summarise_distances(table))
    assert claim.verdict == DOES_NOT_REPRODUCE and "cannot be judged" in claim.note
