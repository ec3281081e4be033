"""Figure A5 computations: distances to nu_inf (and to the wrong laws), the collapse analysis,
the threshold beta*, and the evidence of the rows A.1 (a finite-size series over every ell, with
the variant at beta +- 3 %) and A.5 judged by the registry's tests on synthetic data, with their
declared alternatives."""

from dataclasses import replace

import numpy as np
import pytest

from attnspec.claims.engine import judge
from attnspec.claims.evidence import Evidence, threshold_crossings
from attnspec.claims.rows import judge_row
from attnspec.claims.verdict import Verdict
from attnspec.distances import kolmogorov_distance
from attnspec.papers.a.bulk_laws_evidence import BETA_VARIANT, VARIANT_LAWS, nearest_law_unit
from attnspec.papers.a.bulk_laws_summary import (
    COARSE_BETA_MUTANTS,
    WRONG_LAWS,
    alternative_laws,
    attention_bulk,
)
from attnspec.papers.a.linearisation_evidence import (
    convergence_evidence,
    linearisation_evidence,
    location_samples,
)
from attnspec.papers.a.linearisation_summary import (
    ALTERNATIVE_METRICS,
    EXCESS_THRESHOLD,
    bulk_distances,
    collapse_analysis,
    distance_table,
    excess_over_floor,
    rescaled_beta,
    size_exponent,
    summarise_distances,
    threshold_betas,
)
from attnspec.papers.registry import TESTS
from attnspec.papers.spectra import model_spectrum
from attnspec.theory.nu_infinity import NuInfinity

N_TOKENS = np.array([250, 500, 1000, 2000])
BETAS = np.array([0.5, 1.0, 1.25, 1.5, 1.75, 2.0, 3.0])


WRONG_LAW_OFFSET = 0.1


def synthetic_table(attention, linear, draws=10, spread=0.02, seed=0, betas=BETAS):
    """A distance table (both metrics) with per-draw values value x (1 + spread N(0, 1)); the
    attention distances to the wrong laws at the judged betas are WRONG_LAW_OFFSET larger."""
    rng = np.random.default_rng(seed)
    rows = {k: [] for k in ("model", "n_tokens", "beta", "draw", "kolmogorov")}
    for model, values in (("attention", attention), ("linear", linear)):
        for i, n in enumerate(N_TOKENS):
            for j, beta in enumerate(betas):
                for draw in range(draws):
                    rows["model"].append(model)
                    rows["n_tokens"].append(n)
                    rows["beta"].append(beta)
                    rows["draw"].append(draw)
                    rows["kolmogorov"].append(values[i][j] * (1 + spread * rng.standard_normal()))
    table = {k: np.array(v) for k, v in rows.items()}
    table["wasserstein1_relative"] = table["kolmogorov"].copy()
    judged = (table["model"] == "attention") & np.isin(table["beta"], (0.5, 1.0))
    for metric in ALTERNATIVE_METRICS:
        table[metric] = np.where(judged, table["kolmogorov"] + WRONG_LAW_OFFSET, np.nan)
    return table


def floor_values():
    """Y_lin-like distances ~ 2.5 / ell at every beta."""
    return np.broadcast_to(2.5 / N_TOKENS[:, None], (N_TOKENS.size, BETAS.size))


def threshold_at(location):
    """Attention distances whose excess over the floor is a logistic curve in beta centred at
    location(ell): the excess reaches 0.1 at beta* = location(ell) exactly (log-linear in beta
    between the grid points, see below)."""
    log_beta = np.log(BETAS)[None, :]
    centre = np.log(location(N_TOKENS.astype(float)))[:, None]
    excess = 0.9 / (1 + 8.0 * np.exp(-(log_beta - centre) / 0.15))
    return floor_values() + excess


def sqrt_log_location(ell):
    return 0.65 * np.sqrt(np.log(ell))


def summary_of(attention, **kwargs):
    return summarise_distances(synthetic_table(attention, floor_values(), **kwargs))


QUICK = 20
"""Stability resamples of these tests: they check verdicts, intervals and alternatives, which the
stability share (reported beside them) does not enter."""


def judged(evidence, row_id):
    (item,) = [e for e in evidence if e.row_id == row_id]
    return judge_row(TESTS[row_id], item, stability_resamples=QUICK)


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


def test_distance_table_rows_follow_the_points_and_add_the_wrong_laws_at_judged_betas():
    points = [
        {"model": m, "n_tokens": 120, "beta": beta, "draw": d}
        for beta in (0.5, 1.25)
        for m in ("attention", "linear")
        for d in range(2)
    ]
    spectra = [
        model_spectrum(
            p["model"],
            p["draw"],
            n_tokens=120,
            d_qk=120,
            beta=p["beta"],
            sampler="gaussian",
            d_model=None,
        )
        for p in points
    ]
    table = distance_table(spectra, points)
    assert list(table["model"][:4]) == ["attention", "attention", "linear", "linear"]
    assert np.all((table["kolmogorov"] > 0) & (table["kolmogorov"] < 0.3))
    computed = np.array([p["model"] == "attention" and p["beta"] == 0.5 for p in points])
    laws = alternative_laws(0.5)
    assert ALTERNATIVE_METRICS == tuple(f"kolmogorov/{name}" for name in WRONG_LAWS)
    for metric, name in zip(ALTERNATIVE_METRICS, WRONG_LAWS, strict=True):
        assert np.all(np.isfinite(table[metric]) == computed)
        assert table[metric][0] == kolmogorov_distance(attention_bulk(spectra[0]), laws[name].cdf)


def test_summary_keeps_every_draw_and_their_mean():
    summary = summary_of(threshold_at(sqrt_log_location))
    grid = summary["kolmogorov/attention/draws"]
    assert grid.shape == (N_TOKENS.size, BETAS.size, 10) and int(summary["draws"]) == 10
    np.testing.assert_allclose(summary["kolmogorov/attention/mean"], grid.mean(axis=2))


def test_summary_needs_two_sizes_betas_and_draws():
    table = synthetic_table(threshold_at(sqrt_log_location), floor_values(), draws=1)
    with pytest.raises(ValueError, match="at least 2 ell, 2 betas and 2 draws"):
        summarise_distances(table)


def test_size_exponent_recovers_a_power_law_and_propagates_errors():
    values = 3.0 * N_TOKENS.astype(float) ** -0.7
    exponent, error = size_exponent(N_TOKENS, np.log(values), np.full(4, 0.1))
    assert exponent == pytest.approx(-0.7)
    u = np.log(N_TOKENS)
    assert error == pytest.approx(0.1 / np.sqrt(np.sum((u - u.mean()) ** 2)))


def test_collapse_found_for_a_threshold_in_x_with_95_percent_intervals():
    betas = np.linspace(0.25, 3.0, 12)
    x = rescaled_beta(betas[None, :], N_TOKENS[:, None])
    floor = 2.5 / N_TOKENS[:, None] + 0 * x
    attention = floor + 0.9 / (1 + np.exp(-(x - 0.8) / 0.08))
    collapse = collapse_analysis(
        summarise_distances(synthetic_table(attention, floor, betas=betas))
    )
    assert np.all(collapse["x_exponent_low"] <= collapse["x_exponent"])
    assert np.all(collapse["x_exponent"] <= collapse["x_exponent_high"])
    assert np.isfinite(collapse["crossover"])
    assert collapse["x_spread_beyond"] < collapse["beta_spread_beyond"]


def test_threshold_crossing_interpolates_linearly_in_log_beta_and_needs_a_bracket():
    betas = np.array([1.0, 2.0, 4.0])
    # 0.1 is reached halfway (in log beta) between 1 and 2: beta* = sqrt(2)
    assert threshold_crossings(np.array([0.0, 0.2, 0.5]), betas, 0.1) == pytest.approx(np.sqrt(2))
    # the first crossing counts, even if the excess falls again later
    assert threshold_crossings(np.array([0.0, 0.1, 0.05]), betas, 0.1) == pytest.approx(2.0)
    rows = np.array([[0.2, 0.3, 0.4], [0.0, 0.01, 0.02]])  # reached at once; never reached
    assert np.all(np.isnan(threshold_crossings(rows, betas, 0.1)))
    with pytest.raises(ValueError, match="ascending"):
        threshold_crossings(np.zeros(3), betas[::-1], 0.1)


def test_threshold_betas_follow_the_synthetic_location():
    summary = summarise_distances(
        synthetic_table(threshold_at(sqrt_log_location), floor_values(), spread=0.0)
    )
    crossings = threshold_betas(summary)
    assert crossings.shape == (10, N_TOKENS.size)
    # the logistic excess is not log-linear between grid points: a few per cent off
    np.testing.assert_allclose(crossings[0], sqrt_log_location(N_TOKENS), rtol=0.05)
    assert np.all(excess_over_floor(summary)[:, 0, :] < EXCESS_THRESHOLD)


def test_evidence_covers_the_registry_rows_with_theory_margins_and_their_alternatives():
    summary = summary_of(threshold_at(sqrt_log_location))
    evidence = linearisation_evidence(summary)
    assert [e.row_id for e in evidence] == [
        "A.1/beta=0.5",
        "A.1/beta=1",
        "A.5/breakdown",
        "A.5/location",
    ]
    for item in evidence:
        declared = [a.name for a in TESTS[item.row_id].alternatives]
        assert sorted(item.alternatives) == sorted(declared), item.row_id
    for item, j in zip(evidence[:2], (0, 1), strict=True):
        beta = float(item.row_id.split("=")[1])
        assert item.margin_scale == nearest_law_unit(beta)
        attention = summary["kolmogorov/attention/draws"][:, j]
        linear = summary["kolmogorov/linear/draws"][:, j]
        np.testing.assert_array_equal(item.samples["values"], attention[-1] - linear[-1])  # paired
        # the finite-size data: every ell of the table, the judged one last
        np.testing.assert_array_equal(item.sizes, N_TOKENS)
        for i, own in enumerate(item.by_size):
            np.testing.assert_array_equal(own["values"], attention[i] - linear[i])
        assert item.limit_target == 0.0
        variant = item.variants[BETA_VARIANT]
        assert variant.margin_scale == nearest_law_unit(beta, mutants=COARSE_BETA_MUTANTS)
        assert list(variant.alternatives) == list(VARIANT_LAWS)
        np.testing.assert_array_equal(variant.sizes, N_TOKENS)
        for own in (item, variant):
            for name, alternative in own.alternatives.items():
                wrong = summary[f"kolmogorov/{name}/attention/draws"][:, j]
                np.testing.assert_array_equal(alternative.samples["values"], wrong[-1] - linear[-1])
                for i, at_size in enumerate(alternative.by_size):
                    np.testing.assert_array_equal(at_size["values"], wrong[i] - linear[i])
                assert alternative.target == 0.0 == alternative.limit_target
    location = evidence[3]
    assert location.samples["values"].shape == (10, 2, N_TOKENS.size, BETAS.size)
    np.testing.assert_array_equal(location.samples["log_sizes"], np.log(N_TOKENS))
    np.testing.assert_array_equal(location.samples["betas"], BETAS)
    assert location.samples["threshold"] == EXCESS_THRESHOLD
    assert {n: a.target for n, a in location.alternatives.items()} == {"fixed": 0, "log ell": 1}
    assert evidence[2].alternatives["no threshold"].target == 0.0


def test_a_bulk_at_its_floor_holds_and_a_breakdown_at_large_beta_holds():
    evidence = linearisation_evidence(summary_of(threshold_at(sqrt_log_location)))
    for row_id in ("A.1/beta=0.5", "A.5/breakdown"):
        row = judged(evidence, row_id)
        assert row["verdict"] == Verdict.HOLDS and row["no_power_against"] == "", row_id


def test_a_bulk_far_from_nu_inf_does_not_reproduce_a1():
    attention = floor_values() + 0.05  # excess 0.05 at every beta and ell
    evidence = linearisation_evidence(summary_of(attention))
    assert judged(evidence, "A.1/beta=1")["verdict"] == Verdict.DOES_NOT_REPRODUCE


def test_an_old_distance_table_without_the_wrong_laws_is_named():
    table = synthetic_table(threshold_at(sqrt_log_location), floor_values())
    old = {key: value for key, value in table.items() if key not in ALTERNATIVE_METRICS}
    with pytest.raises(ValueError, match="paperA_A5_distances"):
        convergence_evidence(summarise_distances(old), 1.0)


def rigid_spectra(law, n, draws, seed):
    """Stratified samples x_k = F^{-1}((k + U_k)/n), descending: as rigid as eigenvalues."""
    rng = np.random.default_rng(seed)
    return [np.sort(law.quantile((np.arange(n) + rng.random(n)) / n))[::-1] for _ in range(draws)]


RIGID_SIZES = (250, 500, 1000)


@pytest.fixture(scope="module")
def rigid_summary():
    """Distances of rigid samples of nu_inf (attention with its structural zero, and Y_lin) at
    three sizes and the judged betas, computed by distance_table."""
    spectra, points = [], []
    for n in RIGID_SIZES:
        for beta in (0.5, 1.0):
            law = NuInfinity(beta, 1.0)
            for model, seed in (("attention", n), ("linear", n + 1)):
                draws = rigid_spectra(law, n, 6, seed)
                if model == "attention":
                    draws = [np.append(d, 0.0) for d in draws]
                spectra += draws
                points += [
                    {"model": model, "n_tokens": n, "beta": beta, "draw": d} for d in range(6)
                ]
    return summarise_distances(distance_table(spectra, points))


@pytest.mark.parametrize("beta", [0.5, 1.0])
def test_a1_rules_out_mp_and_the_wrong_betas_where_the_old_cancellation_could_not(
    rigid_summary, beta
):
    evidence = convergence_evidence(rigid_summary, beta)
    row = judge_row(TESTS[evidence.row_id], evidence, stability_resamples=QUICK)
    assert row["verdict"] == Verdict.HOLDS and row["ruled_out"] == "3 of 3", row["alternatives"]
    # The old statistic, KS(attention, L) - KS(Y_lin, L), with L = MP: the same law on both
    # sides cancels, so it reads near 0 and MP is not ruled out.
    j = int(np.flatnonzero(rigid_summary["beta"] == beta)[0])
    mp = alternative_laws(beta)["MP"]
    attention = rigid_summary["kolmogorov/MP/attention/draws"][-1, j]
    n = RIGID_SIZES[-1]
    linear = [kolmogorov_distance(d, mp.cdf) for d in rigid_spectra(NuInfinity(beta), n, 6, n + 1)]
    old = Evidence(
        evidence.row_id,
        {"values": attention - np.array(linear)},
        target=0.0,
        margin_scale=evidence.margin_scale,
    )
    # The old statistic at the judged size alone: no finite-size model, no wrong theories.
    test = replace(TESTS[evidence.row_id], kind="model", finite_size=None, alternatives=())
    cancelled = judge(test, old, alone=True, streams={"row": "old A.1"}, stability_resamples=QUICK)
    assert cancelled.verdict != Verdict.DOES_NOT_REPRODUCE


def wrong_beta_summary(factor):
    """Distances of rigid samples: attention drawn from nu_inf(factor x beta), Y_lin from
    nu_inf(beta)."""
    spectra, points = [], []
    for n in RIGID_SIZES:
        for beta in (0.5, 1.0):
            for model, law in (
                ("attention", NuInfinity(factor * beta)),
                ("linear", NuInfinity(beta)),
            ):
                draws = rigid_spectra(law, n, 6, n)
                if model == "attention":
                    draws = [np.append(d, 0.0) for d in draws]
                spectra += draws
                points += [
                    {"model": model, "n_tokens": n, "beta": beta, "draw": d} for d in range(6)
                ]
    return summarise_distances(distance_table(spectra, points))


def test_a1_of_a_bulk_at_a_wrong_beta_fails_and_leaves_that_beta_standing():
    """Attention drawn from nu_inf(1.01 beta): at the declared 1 % the claim does not
    reproduce and beta+1% is left standing; at the variant's 3 % the same data hold (1 % is
    inside the margin there, and beta (1 -+ 3 %) are ruled out): the row shows that its verdict
    depends on the resolution."""
    evidence = convergence_evidence(wrong_beta_summary(1.01), 1.0)
    row = judge_row(TESTS[evidence.row_id], evidence, stability_resamples=QUICK)
    assert row["claim_verdict"] == Verdict.DOES_NOT_REPRODUCE
    assert "beta+1%: does not reproduce" not in row["alternatives"]
    assert row["other_resolutions"] == f"{BETA_VARIANT}: {Verdict.HOLDS}"


def test_fewer_than_three_sizes_are_named_by_their_config_key():
    table = synthetic_table(threshold_at(sqrt_log_location), floor_values())
    keep = np.isin(table["n_tokens"], N_TOKENS[:2])
    summary = summarise_distances({key: value[keep] for key, value in table.items()})
    with pytest.raises(ValueError, match="paperA.linearisation.n_tokens"):
        convergence_evidence(summary, 1.0)


def test_location_samples_are_the_attention_and_ylin_distances_per_draw():
    summary = summary_of(threshold_at(sqrt_log_location))
    samples = location_samples(summary)
    np.testing.assert_array_equal(
        samples["values"][3, 0], summary["kolmogorov/attention/draws"][:, :, 3]
    )
    np.testing.assert_array_equal(
        samples["values"][3, 1], summary["kolmogorov/linear/draws"][:, :, 3]
    )


def test_threshold_location_sqrt_log_holds_and_a_fixed_threshold_does_not_reproduce():
    moving = linearisation_evidence(summary_of(threshold_at(sqrt_log_location)))
    row = judged(moving, "A.5/location")
    assert float(row["value"]) == pytest.approx(0.5, abs=0.1)
    assert row["verdict"] == Verdict.HOLDS and row["ruled_out"] == "2 of 2", row["alternatives"]
    fixed = linearisation_evidence(summary_of(threshold_at(lambda ell: 1.5 + 0 * ell)))
    row = judged(fixed, "A.5/location")
    assert float(row["value"]) == pytest.approx(0.0, abs=0.1)
    assert row["verdict"] == Verdict.DOES_NOT_REPRODUCE
    assert "fixed: does not reproduce" not in row["alternatives"]


def test_noisy_thresholds_are_inconclusive_not_holds():
    noisy = linearisation_evidence(summary_of(threshold_at(sqrt_log_location), spread=0.5))
    assert judged(noisy, "A.5/location")["verdict"] in (
        Verdict.INCONCLUSIVE,
        Verdict.DOES_NOT_REPRODUCE,
    )


def test_a_judged_beta_missing_from_the_config_is_named():
    table = synthetic_table(threshold_at(sqrt_log_location), floor_values())
    keep = table["beta"] != 0.5
    summary = summarise_distances({key: value[keep] for key, value in table.items()})
    with pytest.raises(ValueError, match="paperA.linearisation.betas"):
        linearisation_evidence(summary)
