"""Paper A's evidence builders together give exactly one Evidence per registry row of paper A,
each item carries the arrays its row's statistic reads, and its alternatives are exactly the
wrong theories the registry declares for the row, each with those arrays too."""

import numpy as np

from attnspec.claims.evidence import STATISTICS
from attnspec.papers.a.bulk_laws import (
    ALTERNATIVE_LAWS,
    BETA_MUTANTS,
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
    for name in BETA_MUTANTS:
        summary[f"edge_mass_attention/{name}"] = RNG.random(DRAWS)
        summary[f"edge_mass_theory/{name}"] = np.float64(0.05)
    return summary


def perron(beta):
    results = [
        {"s1": 1 + RNG.random(DRAWS) / n, "frobenius_squared": np.full(DRAWS, 2.0)} for n in SIZES
    ]
    return perron_series(beta, SIZES, results)


def test_the_builders_cover_every_registry_row_of_paper_a_once_with_its_alternatives():
    pairs = {
        "n_tokens": SIZES,
        "d_al": RNG.random((SIZES.size, DRAWS)),
        "d_ll": RNG.random((SIZES.size, DRAWS)),
    }
    pairs |= {f"d_al/{name}": RNG.random((SIZES.size, DRAWS)) for name in ALTERNATIVE_LAWS}
    evidence = (
        linearisation_evidence(linearisation_summary())
        + not_marchenko_pastur_evidence_rows([bulk_summary(b) for b in (0.5, 1.0)], n_tokens=250)
        + perron_evidence_rows([perron(b) for b in (0.5, 1.0)])
        + [equivalence_evidence(pairs, beta=1.0)]
    )
    ids = [item.row_id for item in evidence]
    assert sorted(ids) == sorted(test.row_id for test in registry_of("A"))
    for item in evidence:
        test = TESTS[item.row_id]
        needed = STATISTICS[test.statistic].arrays
        assert test.finite_size is None and item.by_size is None, item.row_id
        assert set(needed) <= set(item.samples), item.row_id
        assert item.quantity and item.note, item.row_id
        assert list(item.alternatives) == [a.name for a in test.alternatives], item.row_id
        for name, alternative in item.alternatives.items():
            assert set(needed) <= set(alternative.samples), (item.row_id, name)
            assert alternative.quantity and alternative.note, (item.row_id, name)
