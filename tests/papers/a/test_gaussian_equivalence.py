"""Claim A.3: pair distances between attention and Y_lin draws, the Y_lin draws carried to the
wrong laws, and the evidence of the row A.3/beta=1 (a finite-size series over every ell, with
the variant at beta +- 3 %) judged by the registry's test on synthetic data that pass and that
fail."""

import numpy as np
import pytest

from attnspec.claims.rows import judge_row
from attnspec.claims.verdict import Verdict
from attnspec.distances import kolmogorov_distance, law_kolmogorov_distance
from attnspec.papers.a.bulk_laws_evidence import BETA_VARIANT, VARIANT_LAWS, nearest_law_unit
from attnspec.papers.a.bulk_laws_summary import COARSE_BETA_MUTANTS, WRONG_LAWS, alternative_laws
from attnspec.papers.a.gaussian_equivalence_evidence import equivalence_evidence
from attnspec.papers.a.gaussian_equivalence_summary import (
    BY_SIZE_HEADER,
    by_size_rows,
    carried_distances,
    carried_to,
    pair_distance_table,
    pair_distances,
)
from attnspec.papers.registry import TESTS
from attnspec.theory.nu_infinity import NuInfinity

LAW = NuInfinity(1.0, 1.0)
QUICK = 20
"""Stability resamples of these tests: they check verdicts, intervals and alternatives, which the
stability share (reported beside them) does not enter."""


def rigid(n, draws, seed, scale=1.0):
    """Stratified samples of nu_inf (as rigid as eigenvalues), times ``scale``, descending."""
    rng = np.random.default_rng(seed)
    return [
        scale * np.sort(LAW.quantile((np.arange(n) + rng.random(n)) / n))[::-1]
        for _ in range(draws)
    ]


def iid(n, draws, seed, scale=1.0):
    """Independent samples of nu_inf times ``scale``, descending: their Kolmogorov distances
    vary from draw to draw, as eigenvalues' do (rigid samples give one value for every draw)."""
    rng = np.random.default_rng(seed)
    return [scale * np.sort(LAW.quantile(rng.random(n)))[::-1] for _ in range(draws)]


def with_zero(draws):
    return [np.append(d, 0.0) for d in draws]


def test_pair_distances_leave_out_the_same_seed_and_the_structural_zero():
    attention = with_zero(rigid(50, 3, 0))
    linear = rigid(50, 3, 1)
    d_al, d_ll = pair_distances(attention, linear)
    expected = np.mean([kolmogorov_distance(attention[0][:-1], linear[j]) for j in (1, 2)])
    assert d_al[0] == pytest.approx(expected, abs=0)
    assert d_ll[2] == pytest.approx(
        np.mean([kolmogorov_distance(linear[2], linear[k]) for k in (0, 1)]), abs=0
    )
    with pytest.raises(ValueError, match="two Y_lin draws"):
        pair_distances(attention, linear[:1])


def test_the_quantile_map_carries_nu_inf_to_each_wrong_law_and_keeps_two_sample_distances():
    rng = np.random.default_rng(3)
    first, second = (LAW.quantile(rng.random(300)) for _ in range(2))  # iid, inside the support
    for name, wrong in alternative_laws(1.0).items():
        carried = carried_to(first, LAW, wrong)
        assert np.all(np.diff(carried[np.argsort(first)]) > 0), name  # strictly increasing
        assert kolmogorov_distance(carried, wrong.cdf) == pytest.approx(
            kolmogorov_distance(first, LAW.cdf), abs=1e-9
        )
        # KS between two samples is invariant under a strictly increasing map of both
        assert kolmogorov_distance(carried, carried_to(second, LAW, wrong)) == pytest.approx(
            kolmogorov_distance(first, second), abs=0
        )


def test_carried_distances_compare_attention_with_the_wrong_laws():
    attention, linear = with_zero(rigid(400, 3, 0)), rigid(400, 3, 1)
    carried = carried_distances(attention, linear, 1.0)
    assert tuple(carried) == WRONG_LAWS
    mp = alternative_laws(1.0)["MP"]
    expected = np.mean([kolmogorov_distance(attention[0][:-1], carried_to(y, LAW, mp))
                        for y in linear[1:]])  # fmt: skip
    assert carried["MP"][0] == pytest.approx(expected, abs=0)
    # rigid samples of nu_inf: the distance to a carried draw is nearly that between the laws
    for name, wrong in alternative_laws(1.0).items():
        assert carried[name].mean() == pytest.approx(
            kolmogorov_distance(attention[0][:-1], wrong.cdf), abs=0.01
        )


SIZES = np.array([250, 500, 1000, 2000])


def synthetic_table(excess, *, draws=10, seed=0):
    """A pair-distance table at :data:`SIZES`: D_LL and the attention floor near 0.02 with
    per-draw noise of sd 0.001, D_AL the floor plus ``excess`` (a function of ell); each wrong
    law L adds KS(nu_inf, L) to D_AL, as a bulk that follows nu_inf shows against L."""
    rng = np.random.default_rng(seed)
    shape = (SIZES.size, draws)
    d_ll = 0.02 + 0.001 * rng.standard_normal(shape)
    d_al = 0.02 + 0.001 * rng.standard_normal(shape) + excess(SIZES)[:, None]
    table = {"n_tokens": SIZES, "d_al": d_al, "d_ll": d_ll}
    for name, wrong in alternative_laws(1.0).items():
        table[f"d_al/{name}"] = d_al + law_kolmogorov_distance(LAW, wrong)
    return table


@pytest.fixture(scope="module")
def same_law():
    return synthetic_table(lambda ell: 0.001 * 250 / ell)


def test_the_same_law_holds_and_rules_out_every_wrong_law_at_both_resolutions(same_law):
    same = equivalence_evidence(same_law, beta=1.0)
    assert same.row_id == "A.3/beta=1" and same.margin_scale == nearest_law_unit(1.0)
    assert sorted(same.alternatives) == sorted(a.name for a in TESTS["A.3/beta=1"].alternatives)
    np.testing.assert_array_equal(same.sizes, SIZES)
    for i, own in enumerate(same.by_size):
        np.testing.assert_array_equal(own["values"], same_law["d_al"][i])
        np.testing.assert_array_equal(own["reference"], same_law["d_ll"][i])
    for name, item in same.alternatives.items():
        np.testing.assert_array_equal(item.samples["values"], same_law[f"d_al/{name}"][-1])
        np.testing.assert_array_equal(item.samples["reference"], same_law["d_ll"][-1])
        assert item.target == 0.0 and item.limit_target == 0.0
        assert len(item.by_size) == SIZES.size
    variant = same.variants[BETA_VARIANT]
    assert list(variant.alternatives) == list(VARIANT_LAWS)
    assert variant.margin_scale == nearest_law_unit(1.0, mutants=COARSE_BETA_MUTANTS)
    row = judge_row(TESTS["A.3/beta=1"], same, stability_resamples=QUICK)
    assert row["verdict"] == Verdict.HOLDS and row["ruled_out"] == "3 of 3", row["alternatives"]
    assert row["other_resolutions"] == f"{BETA_VARIANT}: {Verdict.HOLDS}"


def test_a_series_that_needs_the_rates_to_place_its_limit_does_not_hold(same_law):
    """An excess of 1.5 margins at the largest ell, halving per doubling: the limit depends on
    the rate inside the declared range, so the row cannot hold at either resolution."""
    margin = 0.5 * nearest_law_unit(1.0)
    slow = equivalence_evidence(synthetic_table(lambda ell: 1.5 * margin * 2000 / ell), beta=1.0)
    row = judge_row(TESTS["A.3/beta=1"], slow, stability_resamples=QUICK)
    assert row["verdict"] != Verdict.HOLDS and row["limit_high"] - row["limit_low"] > 2 * margin


def test_a_dilated_law_does_not_reproduce():
    spectra = {
        n: (with_zero(iid(n, 5, 10 * i, 2.0)), iid(n, 5, 10 * i + 5))
        for i, n in enumerate((300, 500, 800))
    }
    dilated = equivalence_evidence(pair_distance_table(spectra, beta=1.0), beta=1.0)
    row = judge_row(TESTS["A.3/beta=1"], dilated, stability_resamples=QUICK)
    assert row["verdict"] == Verdict.DOES_NOT_REPRODUCE, (
        row["value"],
        row["limit"],
        row["limit_fit"],
    )


def test_fewer_than_three_sizes_are_named_by_their_config_key(same_law):
    two = {key: value[:2] for key, value in same_law.items()}
    with pytest.raises(ValueError, match="paperA.linearisation.n_tokens"):
        equivalence_evidence(two, beta=1.0)


def test_an_old_pair_table_without_the_wrong_laws_is_named(same_law):
    old = {key: same_law[key] for key in ("n_tokens", "d_al", "d_ll")}
    with pytest.raises(ValueError, match="paperA_AT2_pairs"):
        equivalence_evidence(old, beta=1.0)


def test_by_size_rows_are_the_per_ell_means(same_law):
    rows = by_size_rows(same_law)
    assert [row[0] for row in rows] == SIZES.tolist() and len(rows[0]) == len(BY_SIZE_HEADER)
    assert rows[-1][3] == pytest.approx(same_law["d_al"][-1].mean() - same_law["d_ll"][-1].mean())
