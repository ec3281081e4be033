"""Paper A's evidence builders together give exactly one Evidence per registry row of paper A,
and each item carries the arrays its row's statistic reads."""

import numpy as np

from attnspec.evidence import STATISTICS
from attnspec.experiments.bulk_laws import not_marchenko_pastur_evidence_rows
from attnspec.experiments.gaussian_equivalence import equivalence_evidence
from attnspec.experiments.linearisation import linearisation_evidence, summarise_distances
from attnspec.experiments.perron import perron_evidence_rows, perron_series
from attnspec.registry import TESTS, registry_of

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
    return summarise_distances(table)


def bulk_summary(beta):
    return {
        "beta": np.float64(beta),
        "ratio": np.float64(1.0),
        "ks_attention_mp": RNG.random(DRAWS),
        "ks_attention_nu_inf": RNG.random(DRAWS),
        "ks_linear_mp": RNG.random(DRAWS),
        "ks_linear_nu_inf": RNG.random(DRAWS),
        "edge_mass_attention": RNG.random(DRAWS),
        "edge_mass_theory": np.float64(0.05),
    }


def perron(beta):
    results = [
        {"s1": 1 + RNG.random(DRAWS) / n, "frobenius_squared": np.full(DRAWS, 2.0)} for n in SIZES
    ]
    return perron_series(beta, SIZES, results)


def test_the_builders_cover_every_registry_row_of_paper_a_once():
    pairs = {
        "n_tokens": SIZES,
        "d_al": RNG.random((SIZES.size, DRAWS)),
        "d_ll": RNG.random((SIZES.size, DRAWS)),
    }
    evidence = (
        linearisation_evidence(linearisation_summary())
        + not_marchenko_pastur_evidence_rows([bulk_summary(b) for b in (0.5, 1.0)], n_tokens=250)
        + perron_evidence_rows([perron(b) for b in (0.5, 1.0)])
        + [equivalence_evidence(pairs, beta=1.0)]
    )
    ids = [item.row_id for item in evidence]
    assert sorted(ids) == sorted(test.row_id for test in registry_of("A"))
    for item in evidence:
        needed = STATISTICS[TESTS[item.row_id].statistic].arrays
        assert set(needed) <= set(item.samples), item.row_id
        assert item.quantity and item.note, item.row_id
