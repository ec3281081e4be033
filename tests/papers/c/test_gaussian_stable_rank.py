"""The derived stable-rank references of the Gaussian model (claims C.3, C.4): exact row
expectations of log-normal softmax weights and the deterministic norm approximation, against
Monte Carlo and against simulated attention matrices."""

import numpy as np
import pytest

from attnspec.models.canonical import diagonal_softmax
from attnspec.papers.c.degeneration import gaussian_model_job
from attnspec.papers.c.gaussian_stable_rank_summary import (
    bidirectional_reference,
    causal_reference,
    cesaro_gram_top,
    lognormal_row_moments,
    reference_slope,
    reference_table,
)


@pytest.mark.parametrize("b", [0.3, 1.0, 1.5])
def test_row_moments_match_monte_carlo(b):
    rho = lognormal_row_moments(50, b)
    assert rho[0] == 1.0
    rng = np.random.default_rng(11)
    for i in (2, 7, 50):
        w = np.exp(b * rng.standard_normal((200_000, i)))
        sample = np.sum(w**2, axis=1) / np.sum(w, axis=1) ** 2
        assert abs(rho[i - 1] - sample.mean()) < 4 * sample.std() / np.sqrt(sample.size)


def test_row_moments_limits():
    """b -> 0: equal weights, rho_i -> 1/i; large i: i rho_i -> E w^2 / (E w)^2 = e^(b^2)."""
    small = lognormal_row_moments(6, 0.01)
    np.testing.assert_allclose(small, 1.0 / np.arange(1, 7), rtol=1e-3)
    large = lognormal_row_moments(20_000, 1.0)
    assert 20_000 * large[-1] == pytest.approx(np.e, rel=2e-3)
    with pytest.raises(ValueError, match="b must be"):
        lognormal_row_moments(5, 0.0)


def test_cesaro_gram_top_is_the_cesaro_norm():
    n = 3000
    cesaro = diagonal_softmax(np.zeros(n), "causal").top_squared_singular_values(1)[0]
    assert cesaro_gram_top(np.zeros(n)) == pytest.approx(cesaro, rel=1e-10)


@pytest.fixture(scope="module")
def simulated():
    return {n: gaussian_model_job(n, 1.0, 30) for n in (64, 128, 256)}


def test_expected_frobenius_norms_match_simulation(simulated):
    for n, job in simulated.items():
        for mask, reference in (
            ("causal", causal_reference),
            ("bidirectional", bidirectional_reference),
        ):
            sample = job[f"{mask}/frobenius_squared"]
            expected = reference(n, 1.0)["frobenius_squared"]
            assert abs(sample.mean() - expected) < 4 * sample.std() / np.sqrt(sample.size), (
                n,
                mask,
            )


def test_norm_approximation_is_a_close_lower_bound(simulated):
    """lambda_max(E[A A^T]) <= E ||A||^2 (Jensen), within 5 % at these n; bidirectional,
    1 + theta_1 / n + beta^4 / (2 d) (papers.md section 3, first order in 1/n) within 1 %."""
    for n, job in simulated.items():
        approximation = causal_reference(n, 1.0)["norm_squared"]
        measured = job["causal/norm_squared"]
        assert approximation < measured.mean()
        assert approximation == pytest.approx(measured.mean(), rel=0.05)
        bidirectional = bidirectional_reference(n, 1.0)["norm_squared"]
        assert bidirectional == pytest.approx(job["bidirectional/norm_squared"].mean(), rel=1e-2)


def test_reference_slope_matches_the_simulated_slope(simulated):
    """The causal reference slope against the OLS slope over every (draw, n), within a tenth
    (the C.4/gaussian margin is a quarter of the reference)."""
    ns = sorted(simulated)
    table = reference_table(ns, 1.0)
    x = np.repeat(np.log(ns), 30)
    y = np.concatenate(
        [simulated[n]["causal/frobenius_squared"] / simulated[n]["causal/norm_squared"] for n in ns]
    )
    measured = np.polyfit(x, y, 1)[0]
    assert float(table["causal/slope"]) == pytest.approx(measured, rel=0.1)
    # well above the canonical 1/4, near the heuristic e/4 = 0.68
    assert 0.6 < float(table["causal/slope"]) < 0.75
    assert reference_slope([1, np.e], [0.0, 2.0]) == pytest.approx(2.0)
