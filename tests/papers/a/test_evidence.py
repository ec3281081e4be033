"""Paper A's evidence builders together give exactly one Evidence per registry row of paper A,
each item carries the arrays its row's statistic reads, and its alternatives are exactly the
wrong theories the registry declares for the row, each with those arrays too; a row with a
finite-size model has its data at every size, and a row whose wrong theories move beta carries
the variant at beta +- 3 %, which survives the evidence file."""

import numpy as np

from attnspec.claims.evidence import STATISTICS
from attnspec.claims.rows import judge_row
from attnspec.papers.a.bulk_laws_evidence import (
    BETA_VARIANT,
    VARIANT_LAWS,
    edge_mass_unit,
    nearest_law_unit,
    not_marchenko_pastur_evidence,
    not_marchenko_pastur_evidence_rows,
)
from attnspec.papers.a.bulk_laws_summary import (
    BETA_MUTANTS,
    COARSE_BETA_MUTANTS,
    WRONG_LAWS,
    edge_shares,
    mass_above_mp_edge,
)
from attnspec.papers.a.gaussian_equivalence_evidence import equivalence_evidence
from attnspec.papers.a.linearisation_evidence import linearisation_evidence
from attnspec.papers.a.linearisation_summary import ALTERNATIVE_METRICS, summarise_distances
from attnspec.papers.a.perron_evidence import perron_evidence_rows
from attnspec.papers.a.perron_summary import perron_series
from attnspec.papers.registry import TESTS, registry_of
from attnspec.theory.nu_infinity import NuInfinity
from attnspec.workflow.io import load_evidence, save_evidence

RNG = np.random.default_rng(0)
SIZES = np.array([250, 500, 1000])
BETAS = np.array([0.5, 1.0, 1.5, 2.0, 3.0])
DRAWS = 4


def linearisation_summary():
    model, n_tokens, beta, draw, values = [], [], [], [], []
    for name, level in (("attention", 0.05), ("linear", 0.005)):
        for n in SIZES:
            for b in BETAS:
                for d in range(DRAWS):
                    model.append(name)
                    n_tokens.append(n)
                    beta.append(b)
                    draw.append(d)
                    values.append(level * b**2 * (1 + 0.1 * RNG.random()))
    table = {
        "model": np.array(model),
        "n_tokens": np.array(n_tokens),
        "beta": np.array(beta),
        "draw": np.array(draw),
        "kolmogorov": np.array(values),
        "wasserstein1_relative": np.array(values),
    }
    table |= {metric: np.array(values) + 0.1 for metric in ALTERNATIVE_METRICS}
    return summarise_distances(table)


def square_spectra(beta, n):
    """DRAWS synthetic spectra at ell = n, c = 1: values spread over [0, 6 theta_1], so that a
    share of each lies above the MP edge 4 theta_1 (and the attention's structural zero)."""
    return [np.append(6 * np.expm1(beta**2) * RNG.random(n - 1), 0.0) for _ in range(DRAWS)]


def edge_share_points():
    """Square spectra at every (ell, beta) of the rows A.4: (points, attention, linear)."""
    points = [{"n_tokens": int(n), "beta": b} for b in (0.5, 1.0) for n in SIZES]
    attention = [square_spectra(p["beta"], p["n_tokens"]) for p in points]
    linear = [square_spectra(p["beta"], p["n_tokens"]) for p in points]
    return points, attention, linear


def perron(beta):
    results = [
        {"s1": 1 + RNG.random(DRAWS) / n, "frobenius_squared": np.full(DRAWS, 2.0)} for n in SIZES
    ]
    return perron_series(beta, SIZES, results)


def every_row():
    pairs = {
        "n_tokens": SIZES,
        "d_al": RNG.random((SIZES.size, DRAWS)),
        "d_ll": RNG.random((SIZES.size, DRAWS)),
    }
    pairs |= {f"d_al/{name}": RNG.random((SIZES.size, DRAWS)) for name in WRONG_LAWS}
    return (
        linearisation_evidence(linearisation_summary())
        + not_marchenko_pastur_evidence_rows(*edge_share_points())
        + perron_evidence_rows([perron(b) for b in (0.5, 1.0)])
        + [equivalence_evidence(pairs, beta=1.0)]
    )


# The rows whose wrong theories move beta by a percentage (issue 33, item 5).
BETA_ROWS = ("A.1/beta=0.5", "A.1/beta=1", "A.3/beta=1", "A.4/beta=0.5", "A.4/beta=1")
# The rows judged with a finite-size model over every ell of paperA.linearisation.
SERIES_ROWS = BETA_ROWS


def test_the_builders_cover_every_registry_row_of_paper_a_once_with_its_alternatives():
    evidence = every_row()
    ids = [item.row_id for item in evidence]
    assert sorted(ids) == sorted(test.row_id for test in registry_of("A"))
    for item in evidence:
        test = TESTS[item.row_id]
        needed = STATISTICS[test.statistic].arrays
        series = item.row_id in SERIES_ROWS
        assert (test.finite_size is not None) == series == (item.by_size is not None), item.row_id
        assert set(needed) <= set(item.samples), item.row_id
        assert item.quantity and item.note, item.row_id
        assert list(item.alternatives) == [a.name for a in test.alternatives], item.row_id
        for name, alternative in item.alternatives.items():
            assert set(needed) <= set(alternative.samples), (item.row_id, name)
            assert alternative.quantity and alternative.note, (item.row_id, name)
            assert (alternative.by_size is not None) == series, (item.row_id, name)


def test_rows_whose_wrong_theories_move_beta_carry_the_three_percent_variant():
    """At beta +- 3 %: the same samples, the other declared alternatives unchanged (MP), the
    wrong betas at 3 % under their own names, and the margin unit of that resolution."""
    for item in every_row():
        if item.row_id not in BETA_ROWS:
            assert not item.variants, item.row_id
            continue
        assert list(item.variants) == [BETA_VARIANT], item.row_id
        variant = item.variants[BETA_VARIANT]
        assert list(variant.alternatives) == list(VARIANT_LAWS), item.row_id
        for key, value in item.samples.items():
            np.testing.assert_array_equal(variant.samples[key], value)
        assert variant.target == item.target and variant.margin_scale > item.margin_scale
        beta = float(item.row_id.split("=")[1])
        unit = edge_mass_unit if item.row_id.startswith("A.4/") else nearest_law_unit
        assert item.margin_scale == unit(beta)
        assert variant.margin_scale == unit(beta, mutants=COARSE_BETA_MUTANTS)
        np.testing.assert_array_equal(variant.sizes, item.sizes)
        np.testing.assert_array_equal(item.sizes, SIZES)


def test_the_series_rows_have_every_ell():
    """A.1's, A.3's and A.4's finite-size data hold every ell of the table, the judged one
    last."""
    for item in every_row():
        if item.row_id not in SERIES_ROWS:
            continue
        np.testing.assert_array_equal(item.sizes, SIZES)
        assert len(item.by_size) == SIZES.size
        for key, value in item.samples.items():
            np.testing.assert_array_equal(item.by_size[-1][key], value)
        for alternative in item.alternatives.values():
            assert len(alternative.by_size) == SIZES.size


def test_the_variants_survive_the_evidence_file_and_are_judged(tmp_path):
    evidence = every_row()
    path = tmp_path / "evidence.npz"
    save_evidence(path, evidence)
    loaded = {item.row_id: item for item in load_evidence(path)}
    for item in evidence:
        again = loaded[item.row_id]
        assert list(again.variants) == list(item.variants), item.row_id
        for name, variant in item.variants.items():
            back = again.variants[name]
            assert back.margin_scale == variant.margin_scale, item.row_id
            assert list(back.alternatives) == list(variant.alternatives), item.row_id
            assert back.quantity == variant.quantity and back.note == variant.note
            for key, value in variant.samples.items():
                np.testing.assert_array_equal(back.samples[key], value)
            if variant.sizes is not None:
                np.testing.assert_array_equal(back.sizes, variant.sizes)
                for own, back_own in zip(variant.by_size, back.by_size, strict=True):
                    for key, value in own.items():
                        np.testing.assert_array_equal(back_own[key], value)
    row = judge_row(TESTS["A.4/beta=1"], loaded["A.4/beta=1"], stability_resamples=5)
    assert row["other_resolutions"].startswith(f"{BETA_VARIANT}: ")


def test_the_edge_share_series_judges_every_theory_on_the_same_draws_at_every_ell():
    """Row A.4 from square spectra at several ell: the shares above 4 theta_1 of each ell's
    draws (the judged ell's last), target and limit target nu_inf's mass there at every ell; MP
    the same shares against 0; each wrong beta' the shares above 4 theta_1(beta') against
    nu_inf(beta')'s mass, at every ell."""
    beta, sizes = 1.0, [100, 200, 400]
    attention = [square_spectra(beta, n) for n in sizes]
    linear = [square_spectra(beta, n) for n in sizes]
    item = not_marchenko_pastur_evidence(sizes, attention, linear, beta=beta)
    shares = [edge_shares(draws, beta) for draws in attention]
    assert item.row_id == "A.4/beta=1"
    np.testing.assert_array_equal(item.sizes, sizes)
    assert item.target == item.limit_target == mass_above_mp_edge(beta)
    assert [a.target for a in item.alternatives.values()] == [
        0.0,
        *(mass_above_mp_edge(f * beta) for f in BETA_MUTANTS.values()),
    ]
    for evidence in (item, item.alternatives["MP"]):
        np.testing.assert_array_equal(evidence.sizes, sizes)
        for own, size_shares in zip(evidence.by_size, shares, strict=True):
            np.testing.assert_array_equal(own["values"], size_shares["beta"])
        np.testing.assert_array_equal(evidence.samples["values"], shares[-1]["beta"])
    for mutants, own in ((BETA_MUTANTS, item), (COARSE_BETA_MUTANTS, item.variants[BETA_VARIANT])):
        for name, factor in mutants.items():
            wrong = own.alternatives[name]
            assert wrong.target == wrong.limit_target == mass_above_mp_edge(factor * beta)
            for values, size_shares in zip(wrong.by_size, shares, strict=True):
                np.testing.assert_array_equal(values["values"], size_shares[name])


def test_a_bulk_at_a_wrong_beta_does_not_give_the_right_target():
    """A bulk that follows nu_inf(1.01 beta) (its ell - 1 quantiles at every ell): its share
    above 4 theta_1(beta) is nu_inf(1.01 beta)'s mass there up to 1/(ell - 1), outside the row's
    pass region about its target at every ell, where the beta+1% theory is met."""
    beta, sizes = 1.0, [500, 1000, 2000]
    wrong = NuInfinity(1.01 * beta, 1.0)

    def quantiles(n):
        return [np.append(wrong.quantile((np.arange(n - 1) + 0.5) / (n - 1)), 0.0)] * DRAWS

    spectra = [quantiles(n) for n in sizes]
    item = not_marchenko_pastur_evidence(sizes, spectra, spectra, beta=beta)
    theory = item.alternatives["beta+1%"]
    margin = TESTS[item.row_id].margin * item.margin_scale
    for n, own, alternative in zip(sizes, item.by_size, theory.by_size, strict=True):
        assert abs(float(np.mean(own["values"])) - item.target) > margin
        assert abs(float(np.mean(alternative["values"])) - theory.target) <= 1 / (n - 1)
