"""Figures A3 and A7: bulk summaries, the claim A.4 decision on inputs that pass and that fail."""

import numpy as np
import pytest

from attnspec.experiments.bulk_laws import (
    NOT_SEPARATED,
    SEPARATED,
    UNRESOLVED,
    attention_bulk,
    density_histogram,
    not_marchenko_pastur_claim,
    pack_panels,
    ratio_table_rows,
    separation_test,
    summarise_bulk_laws,
    summarise_ratio_panel,
    theory_grid,
    unpack_panels,
)
from attnspec.legacy_verdicts import DOES_NOT_REPRODUCE, HOLDS
from attnspec.theory.edge import bulk_edge
from attnspec.theory.marchenko_pastur import MarchenkoPasturSurrogate
from attnspec.theory.nu_infinity import NuInfinity


def rigid_draws(law, n: int, draws: int, seed: int = 0) -> list[np.ndarray]:
    """Stratified samples x_k = F^{-1}((k + U_k)/n), descending: as rigid as eigenvalues
    (Kolmogorov distance <= 1/n to the law), unlike iid samples."""
    rng = np.random.default_rng(seed)
    return [np.sort(law.quantile((np.arange(n) + rng.random(n)) / n))[::-1] for _ in range(draws)]


def with_structural_zero(draws: list[np.ndarray]) -> list[np.ndarray]:
    """Append the zero that sqrt(ell) A_perp u = 0 puts in every attention spectrum."""
    return [np.append(d, 0.0) for d in draws]


def fake_summary(beta, ks_mp, ks_nu, ks_floor):
    """The fields of a :func:`summarise_bulk_laws` output that the claim decision reads."""
    return {
        "beta": np.float64(beta),
        "ks_attention_mp": np.array(ks_mp),
        "ks_attention_nu_inf": np.array(ks_nu),
        "ks_linear_nu_inf": np.array(ks_floor),
        "ks_linear_mp": np.array(ks_mp),
        "edge_mass_attention": np.array([0.05, 0.05]),
        "edge_mass_theory": np.float64(0.05),
        "m1_attention": np.float64(1.0),
        "theta1": np.float64(1.0),
    }


def test_attention_bulk_drops_only_the_structural_zero():
    spectrum = np.array([5.0, 3.0, 1.0, 1e-17])
    np.testing.assert_array_equal(attention_bulk(spectrum), [5.0, 3.0, 1.0])


def test_density_histogram_normalises_by_every_value_including_those_beyond_the_axis():
    edges, density = density_histogram(np.array([0.2, 0.3, 0.7, 10.0]), top=1.0, bins=2)
    np.testing.assert_allclose(edges, [0.0, 0.5, 1.0])
    np.testing.assert_allclose(density, [1.0, 0.5])
    assert np.sum(density * np.diff(edges)) == pytest.approx(0.75)


def test_theory_grid_resolves_the_internal_gap_of_nu_inf():
    law = NuInfinity(0.5, 4.0)  # papers.md section 3: a gap for small beta and c > 1
    (_, gap_start), (gap_end, edge) = law.support()
    x = theory_grid(1.2 * edge, [gap_start, gap_end, edge])
    assert {gap_start, gap_end, edge} <= set(x)
    inside_gap = (x > gap_start * (1 + 1e-6)) & (x < gap_end * (1 - 1e-6))
    assert inside_gap.any()
    assert np.all(law.density(x[inside_gap]) == 0.0)
    assert law.density(np.array([0.5 * (gap_end + edge)]))[0] > 0


def test_separation_test_separated_noisy_and_unresolved():
    clear = separation_test(
        0.5, [0.117, 0.118, 0.116], [0.004, 0.005, 0.004], [0.003, 0.004, 0.003]
    )
    assert clear.status == SEPARATED and clear.tolerance == pytest.approx(
        2 * clear.spread, abs=0.004
    )
    noisy = separation_test(1.0, [0.07, 0.02, 0.08], [0.01, 0.015, 0.005], [0.003] * 3)
    assert noisy.resolved and noisy.status == NOT_SEPARATED  # mean Delta 0.047 < 2 sd 0.074
    below_floor = separation_test(2.0, [0.0020, 0.0021], [0.0005, 0.0006], [0.003, 0.003])
    assert below_floor.resolved and below_floor.status == NOT_SEPARATED  # 0.0015 < floor 0.003
    slowed = separation_test(1.5, [0.088, 0.092], [0.078, 0.081], [0.003, 0.003])
    assert slowed.separated and not slowed.resolved and slowed.status == UNRESOLVED


def test_separation_test_needs_two_draws():
    with pytest.raises(ValueError, match="two draws"):
        separation_test(1.0, [0.1], [0.01], [0.003])


def test_claim_decision_on_synthetic_summaries():
    good = fake_summary(0.5, [0.117, 0.118], [0.004, 0.005], [0.003, 0.003])
    slowed = fake_summary(1.5, [0.088, 0.092], [0.078, 0.081], [0.003, 0.003])
    fails = fake_summary(1.0, [0.0025, 0.0026], [0.0010, 0.0011], [0.003, 0.003])
    holds = not_marchenko_pastur_claim([good, slowed], n_tokens=1000)
    assert holds.verdict == HOLDS and "beta=0.5" in holds.quantity
    assert "unresolved" in holds.note and "beta=1.5" in holds.note
    # A resolved beta that does not separate the laws sinks the claim, whatever the others show.
    failed = not_marchenko_pastur_claim([good, fails], n_tokens=1000)
    assert failed.verdict == DOES_NOT_REPRODUCE and "beta=1" in failed.quantity
    assert not failed.meets_condition() and failed.test.startswith("holds if value > target")
    # Nothing resolved: the data cannot tell the laws apart.
    assert not_marchenko_pastur_claim([slowed], n_tokens=1000).verdict == DOES_NOT_REPRODUCE


def test_bulk_drawn_from_nu_inf_separates_and_bulk_drawn_from_mp_does_not():
    summaries = []
    for beta in (0.5, 1.0):
        law = NuInfinity(beta, 1.0)
        summary = summarise_bulk_laws(
            with_structural_zero(rigid_draws(law, 300, 3, seed=1)),
            rigid_draws(law, 300, 3, seed=2),
            beta=beta,
            ratio=1.0,
            bins=20,
        )
        assert summary["pooled_ks_attention_nu_inf"] < 0.01
        assert abs(np.mean(summary["edge_mass_attention"]) - summary["edge_mass_theory"]) < 0.01
        summaries.append(summary)
    assert not_marchenko_pastur_claim(summaries, n_tokens=300).verdict == HOLDS

    surrogate = MarchenkoPasturSurrogate(0.5)
    from_mp = summarise_bulk_laws(
        with_structural_zero(rigid_draws(surrogate, 300, 3, seed=3)),
        rigid_draws(NuInfinity(0.5, 1.0), 300, 3, seed=4),
        beta=0.5,
        ratio=1.0,
        bins=20,
    )
    assert np.all(from_mp["edge_mass_attention"] == 0.0)
    assert not_marchenko_pastur_claim([from_mp], n_tokens=300).verdict == DOES_NOT_REPRODUCE


def test_ratio_panel_uses_c_equal_to_ell_over_d_qk():
    beta, n_tokens, d_qk = 1.0, 400, 100  # c = 4, the swapped mistake would be 1/4
    draws = with_structural_zero(rigid_draws(NuInfinity(beta, 4.0), 399, 2))
    panel = summarise_ratio_panel(draws, n_tokens=n_tokens, d_qk=d_qk, beta=beta, bins=20)
    assert panel["ratio"] == 4.0
    assert panel["x_plus"] == pytest.approx(bulk_edge(beta, 4.0))
    assert panel["ks"] < 0.01 < 0.05 < panel["ks_swapped"]
    assert panel["ks_per_draw"].shape == (2,)


def test_ratio_table_lists_the_gap_and_the_literal_case():
    law = NuInfinity(0.5, 4.0)
    gap_panel = summarise_ratio_panel(
        with_structural_zero(rigid_draws(law, 199, 2)), n_tokens=200, d_qk=50, beta=0.5, bins=20
    )
    literal = summarise_ratio_panel(
        with_structural_zero(rigid_draws(NuInfinity(0.5, 1.0), 199, 2)),
        n_tokens=200,
        d_qk=200,
        beta=0.5,
        bins=20,
        sampler="literal",
        d_model=400,
    )
    gap_row, literal_row = ratio_table_rows([gap_panel, literal])
    assert gap_row[5].count("[") == 2 and " u " in gap_row[5]
    assert gap_row[1] == "-" and literal_row[:4] == ("literal", 400, 200, 1.0)
    restored = unpack_panels(pack_panels([gap_panel, literal]))
    assert [str(p["sampler"]) for p in restored] == ["gaussian", "literal"]
    np.testing.assert_array_equal(restored[0]["support"], gap_panel["support"])
