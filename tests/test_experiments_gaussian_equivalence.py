"""Claim A.3: pair distances between attention and Y_lin draws, and the evidence of the row
A.3/beta=1 judged by the registry's test on synthetic spectra that pass and that fail."""

import numpy as np
import pytest

from attnspec.distances import kolmogorov_distance
from attnspec.experiments.bulk_laws import law_separation
from attnspec.experiments.gaussian_equivalence import (
    TREND_HEADER,
    equivalence_evidence,
    pair_distance_table,
    pair_distances,
    trend_rows,
)
from attnspec.registry import TESTS
from attnspec.theory.nu_infinity import NuInfinity
from attnspec.verdicts import DOES_NOT_REPRODUCE, HOLDS, judge_row

LAW = NuInfinity(1.0, 1.0)


def rigid(n, draws, seed, scale=1.0):
    """Stratified samples of nu_inf (as rigid as eigenvalues), times ``scale``, descending."""
    rng = np.random.default_rng(seed)
    return [
        scale * np.sort(LAW.quantile((np.arange(n) + rng.random(n)) / n))[::-1]
        for _ in range(draws)
    ]


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


def table_of(scale):
    sizes = (200, 400, 800)
    spectra = {
        n: (with_zero(rigid(n, 10, 10 * i, scale)), rigid(n, 10, 10 * i + 5))
        for i, n in enumerate(sizes)
    }
    return pair_distance_table(spectra)


def test_the_same_law_holds_and_a_dilated_law_does_not_reproduce():
    same = equivalence_evidence(table_of(1.0), beta=1.0)
    assert same.row_id == "A.3/beta=1" and same.margin_scale == law_separation(1.0)
    assert same.trend_values.shape == (10, 3)
    assert judge_row(TESTS["A.3/beta=1"], same)["verdict"] == HOLDS
    dilated = equivalence_evidence(table_of(1.3), beta=1.0)
    assert judge_row(TESTS["A.3/beta=1"], dilated)["verdict"] == DOES_NOT_REPRODUCE


def test_trend_rows_are_the_per_ell_means():
    table = table_of(1.0)
    rows = trend_rows(table)
    assert [row[0] for row in rows] == [200, 400, 800] and len(rows[0]) == len(TREND_HEADER)
    assert rows[-1][3] == pytest.approx(table["d_al"][-1].mean() - table["d_ll"][-1].mean())
