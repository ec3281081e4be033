"""Paper A's evidence builders together give exactly one Evidence per registry row of paper A,
each item carries the arrays its row's statistic reads, and its alternatives are exactly the
wrong theories the registry declares for the row, each with those arrays too; a row with a
finite-size model has its data at every size, and a row whose wrong theories move beta carries
the variant at beta +- 3 %, which survives the evidence file."""

import numpy as np

from attnspec.claims.evidence import STATISTICS
from attnspec.claims.verdicts import judge_row
from attnspec.papers.a.bulk_laws import (
    BETA_MUTANTS,
    BETA_VARIANT,
    COARSE_BETA_MUTANTS,
    VARIANT_LAWS,
    WRONG_LAWS,
    nearest_law_unit,
    not_marchenko_pastur_evidence_rows,
)
from attnspec.papers.a.gaussian_equivalence import equivalence_evidence
from attnspec.papers.a.linearisation import (
    ALTERNATIVE_METRICS,
    linearisation_evidence,
    summarise_distances,
)
from attnspec.papers.a.perron import perron_evidence_rows, perron_series
from attnspec.papers.registry import TESTS, registry_of
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


def bulk_summary(beta):
    summary = {
        "beta": np.float64(beta),
        "ratio": np.float64(1.0),
        "mp_edge": np.float64(4 * np.expm1(beta**2)),
        "ks_attention_mp": RNG.random(DRAWS),
        "ks_attention_nu_inf": RNG.random(DRAWS),
        "edge_mass_attention": RNG.random(DRAWS),
        "edge_mass_linear": RNG.random(DRAWS),
        "edge_mass_theory": np.float64(0.05),
    }
    for name in (*BETA_MUTANTS, *COARSE_BETA_MUTANTS):
        summary[f"edge_mass_attention/{name}"] = RNG.random(DRAWS)
        summary[f"edge_mass_theory/{name}"] = np.float64(0.05)
    return summary


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
        + not_marchenko_pastur_evidence_rows([bulk_summary(b) for b in (0.5, 1.0)], n_tokens=250)
        + perron_evidence_rows([perron(b) for b in (0.5, 1.0)])
        + [equivalence_evidence(pairs, beta=1.0)]
    )


# The rows whose wrong theories move beta by a percentage (issue 33, item 5).
BETA_ROWS = ("A.1/beta=0.5", "A.1/beta=1", "A.3/beta=1", "A.4/beta=0.5", "A.4/beta=1")
# The rows judged with a finite-size model over every ell of paperA.linearisation.
SERIES_ROWS = ("A.1/beta=0.5", "A.1/beta=1", "A.3/beta=1")


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
        if item.row_id in SERIES_ROWS:
            beta = float(item.row_id.split("=")[1])
            assert item.margin_scale == nearest_law_unit(beta)
            assert variant.margin_scale == nearest_law_unit(beta, mutants=COARSE_BETA_MUTANTS)
            np.testing.assert_array_equal(variant.sizes, item.sizes)
            np.testing.assert_array_equal(item.sizes, SIZES)


def test_the_series_rows_have_every_ell():
    """A.1's and A.3's finite-size data hold every ell of the table, the judged one last."""
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
