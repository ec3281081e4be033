"""Controls of the eigen-angle diagnostic, its two-sample tests and the C.5 / C.6 evidence: the
structured control must be detected, Gaussian scores must not."""

import numpy as np
import pytest

from attnspec.claims.evidence import STATISTICS
from attnspec.claims.resampling import statistic_value
from attnspec.claims.rows import judge_row
from attnspec.claims.verdict import Verdict
from attnspec.papers.c.pretrained import (
    eigen_angles,
    isotropic_diagnostics,
    model_diagnostics,
    score_svd,
)
from attnspec.papers.c.pretrained_controls import (
    ALIGNED_MAX_ANGLE,
    control_diagnostics,
    rotation_with_angles,
    score_factors,
)
from attnspec.papers.c.pretrained_evidence import (
    blocks,
    common_grid,
    cumulative_counts,
    dominance_evidence,
    eigen_angle_evidence,
    eigen_angle_tests,
    full_rank_distances,
    ks_samples,
    structured_share,
    structured_share_rng,
)
from attnspec.papers.registry import TESTS

N, WIDTH = 16, 16


def test_aligned_control_has_its_known_eigen_angles_through_the_pipeline():
    """U = W R W^T with rotation angles <= pi/3: after factoring, the SVD in descending sigma and
    the sign convention, the eigen-angles of U are exactly the constructed angles."""
    rng = np.random.default_rng(3)
    for _ in range(100):
        angles = rng.uniform(0, ALIGNED_MAX_ANGLE, N // 2)
        left = rotation_with_angles(angles, N, rng)
        right = rotation_with_angles(rng.uniform(0, ALIGNED_MAX_ANGLE, N // 2), N, rng)
        values = np.sort(rng.uniform(0.1, 2.0, N))[::-1]
        u, _, _ = score_svd(*score_factors((left * values) @ right.T, WIDTH))
        np.testing.assert_allclose(eigen_angles(u), np.sort(np.repeat(angles, 2)), atol=1e-7)


def test_score_factors_reproduce_the_scores():
    scores = np.random.default_rng(1).standard_normal((N, N))
    queries, keys = score_factors(scores, 32)
    np.testing.assert_allclose(queries @ keys.T / np.sqrt(32), scores, atol=1e-12)
    with pytest.raises(ValueError, match="n <= d"):
        score_factors(np.zeros((40, 40)), 32)


@pytest.fixture(scope="module")
def samples():
    reference = isotropic_diagnostics(N, WIDTH, 300)
    gaussian_model = isotropic_diagnostics(N, WIDTH, 120, replicate=5)  # a null "model"
    aligned = control_diagnostics("aligned", N, WIDTH, 60)
    local = control_diagnostics("local", N, WIDTH, 60)
    return reference, gaussian_model, aligned, local


def passages(diagnostics, heads):
    """Draws regrouped as passages of ``heads`` heads (layers x heads = 1 x heads)."""
    return {
        key: value.reshape(-1, 1, heads, *value.shape[3:]) for key, value in diagnostics.items()
    }


def test_ks_counts_give_the_pooled_kolmogorov_distance():
    rng = np.random.default_rng(2)
    first = [rng.random(30) for _ in range(5)]
    second = [rng.random(20) + 0.2 for _ in range(7)]
    pooled = np.concatenate(first + second)
    grid = np.unique(pooled)  # every distinct value: exact
    data = {"values": cumulative_counts(first, grid), "reference": cumulative_counts(second, grid)}
    from scipy import stats

    exact = stats.ks_2samp(np.concatenate(first), np.concatenate(second)).statistic
    assert statistic_value("ks_two_sample", data) == pytest.approx(exact)
    approximate = statistic_value("ks_two_sample", ks_samples(first, second))
    assert approximate <= exact + 1e-12 and approximate > exact - 0.05
    assert common_grid(pooled, pooled)[-1] == pooled.max()
    assert [b.size for b in blocks(np.ones((10, 2)), 4)] == [6, 6, 4, 4]
    assert "values" in STATISTICS["ks_two_sample"].resampled


def test_the_structured_control_is_detected_and_gaussian_scores_are_not(samples):
    reference, gaussian_model, aligned, local = samples
    tests = eigen_angle_tests(passages(gaussian_model, 12), reference, aligned, local)
    assert tests["aligned/ks"] > 0.9 and tests["aligned/ks_p"] < 1e-10
    # Gaussian "heads" are Haar: not detected (a level-0.001 test, so 1 seed in 1000 fails)
    assert tests["model/ks_p"] > 1e-3 and tests["model/mw_p"] > 1e-3
    assert tests["null/ks_p"] > 1e-3
    for power in (tests["power/ks"], tests["power/mw"]):  # rejection rates: noisy, but grow
        assert np.all((power >= 0) & (power <= 1)) and power[-1] > power[0]
    assert tests["reference_count"] == 600
    share, low, high = tests["share_above_q95"]
    assert low <= share <= high and abs(share - 0.05) < 0.05
    evidence = {
        e.row_id: e
        for e in eigen_angle_evidence(
            passages(gaussian_model, 12),
            reference,
            aligned,
            tests,
            passage_tokens=N,
            ranks=np.full(10, N),
            resampling_blocks=8,  # fewer units: a cheaper bootstrap
        )
    }
    control = judge_row(TESTS["C.5/control"], evidence["C.5/control"], stability_resamples=QUICK)
    # truth: known structure; the alternative "blind" (distance 0) is ruled out
    assert control["verdict"] == Verdict.HOLDS and control["value"] > 0.9
    assert control["ruled_out"] == "1 of 1"
    # 240 Haar "model" distances against 600: far too few for the margin 0.04 (the percentile
    # interval of a Kolmogorov distance lies above its value at such sizes, here above 0.04);
    # test_a_structured_share_is_ruled_out_and_a_haar_like_sample_is_not judges a null sample
    null = judge_row(TESTS["C.5/minilm"], evidence["C.5/minilm"], stability_resamples=QUICK)
    assert null["value"] < 0.15
    with pytest.raises(ValueError, match="rank S = n"):
        eigen_angle_evidence(
            gaussian_model, reference, aligned, tests, passage_tokens=N, ranks=np.full(3, N - 1)
        )


def test_aligned_heads_posing_as_a_model_are_far_from_haar(samples):
    reference, _, aligned, local = samples
    model = passages(aligned, 6)
    tests = eigen_angle_tests(model, reference, aligned, local)
    evidence = eigen_angle_evidence(
        model, reference, aligned, tests, passage_tokens=N, ranks=np.full(3, N)
    )[0]
    # far beyond the margin 0.1 of the equivalence test: its interval cannot reach back
    assert statistic_value("ks_two_sample", evidence.samples) > 0.9


def test_local_attention_scores_are_a_blind_spot(samples):
    """Toeplitz (-|i - j| / w) plus content: structured, but the eigen-angle distances are
    Haar-like: the diagnostic does not see this structure (reported in the C.5 note)."""
    reference, _, _, local = samples
    distances = full_rank_distances(local).ravel()
    assert abs(np.median(distances) - np.median(full_rank_distances(reference))) < 0.02


def test_replicate_rekeys_the_controls():
    first = control_diagnostics("aligned", 8, 8, 3, replicate=1)
    again = control_diagnostics("aligned", 8, 8, 3, replicate=1)
    default = control_diagnostics("aligned", 8, 8, 3)
    np.testing.assert_array_equal(first["angles"], again["angles"])
    assert not np.array_equal(first["angles"], default["angles"])
    with pytest.raises(ValueError, match="control must be"):
        control_diagnostics("banded", 8, 8, 1)


# C.5/minilm's alternative "5% structured", on synthetic distances whose truth is known: the
# Haar reference and a Haar-like "model" from one law, aligned-control distances far above it.
SHAPE = (40, 6, 12, 2)  # passages, layers, heads, sides: 144 distances per passage
QUICK = 20
"""Stability resamples of these tests: they check verdicts, intervals and alternatives, which the
stability share (reported beside them) does not enter."""


def synthetic(values: np.ndarray) -> dict:
    """A diagnostics dict whose distances are ``values`` (units, ...), both conventions alike."""
    return {"angle_distance": np.repeat(values[..., None], 2, axis=-1)}


@pytest.fixture(scope="module")
def haar_like():
    rng = np.random.default_rng(11)
    reference = synthetic(rng.beta(4.0, 20.0, (1000, 1, 1, 2)))
    model = synthetic(rng.beta(4.0, 20.0, SHAPE))
    aligned = synthetic(rng.uniform(0.6, 0.75, (200, 1, 1, 2)))
    local = synthetic(rng.beta(4.0, 20.0, (200, 1, 1, 2)))
    return model, reference, aligned, local


def c5_row(model, reference, aligned, local, replicate=0):
    with pytest.MonkeyPatch.context() as patch:  # the power study only enters the note
        patch.setattr("attnspec.papers.c.pretrained_evidence.POWER_REPETITIONS", 5)
        tests = eigen_angle_tests(model, reference, aligned, local)
    evidence = eigen_angle_evidence(
        model, reference, aligned, tests, passage_tokens=32, ranks=np.full(3, 32),
        replicate=replicate,
    )[0]  # fmt: skip
    row = judge_row(TESTS["C.5/minilm"], evidence, replicate=replicate, stability_resamples=QUICK)
    return evidence, row


def test_a_structured_share_is_ruled_out_and_a_haar_like_sample_is_not(haar_like):
    """Truth Haar-like: the claim does not read does not reproduce, while the data mutant with
    5 % of each passage's distances from the aligned control does (it is ruled out)."""
    evidence, row = c5_row(*haar_like)
    assert row["claim_verdict"] != Verdict.DOES_NOT_REPRODUCE and row["value"] < 0.04
    assert row["ruled_out"] == "1 of 1", row["alternatives"]
    mutant = evidence.alternatives["5% structured"]
    # the same reference blocks (their totals; the grid is that of the pooled mutant data)
    assert mutant.target == 0.0 and mutant.samples["reference"][:, -1].sum() == 2000
    totals = [item.samples[key][:, -1] for item in (evidence, mutant) for key in ("reference",)]
    np.testing.assert_array_equal(*totals)


def test_a_model_with_a_structured_share_does_not_hold(haar_like):
    """Truth: 5 % of each passage's distances structured. The claim does not hold."""
    model, reference, aligned, local = haar_like
    distances = full_rank_distances(model)
    mutant = structured_share(distances, full_rank_distances(aligned), 0.05, structured_share_rng())
    _, row = c5_row(synthetic(mutant.reshape(SHAPE)), reference, aligned, local)
    assert row["claim_verdict"] == Verdict.DOES_NOT_REPRODUCE


def test_the_structured_share_replaces_round_share_per_passage_reproducibly():
    units = np.zeros((5, 144))
    pool = np.array([0.6, 0.7])
    mutant = structured_share(units, pool, 0.05, structured_share_rng())
    assert np.all((mutant != 0).sum(axis=1) == 7)  # round(0.05 x 144)
    assert set(np.unique(mutant[mutant != 0])) <= set(pool)
    again = structured_share(units, pool, 0.05, structured_share_rng())
    other = structured_share(units, pool, 0.05, structured_share_rng(replicate=1))
    np.testing.assert_array_equal(mutant, again)
    assert not np.array_equal(mutant, other)
    assert np.all(units == 0)  # a copy


def test_dominance_evidence_per_passage_medians():
    """Isotropic scores (truth: the alternative): the claim does not hold and the alternative
    "isotropic" is not ruled out; nearly rank-2 scores: the claim holds and it is."""
    rng = np.random.default_rng(4)
    long = model_diagnostics(*rng.standard_normal((2, 6, 2, 3, 40, 8)))
    reference = isotropic_diagnostics(40, 8, 10)
    evidence = dominance_evidence(long, reference, top_k=2, passage_tokens=40)
    assert evidence.samples["values"].shape == (6,)
    np.testing.assert_allclose(
        evidence.samples["values"],
        np.median(long["energy"][..., 1].reshape(6, -1), axis=1),
    )
    assert evidence.target == 0.5
    isotropic = np.median(reference["energy"][..., 1])
    assert evidence.alternatives["isotropic"].target == pytest.approx(isotropic)
    row = judge_row(TESTS["C.6/minilm"], evidence, stability_resamples=QUICK)
    assert row["claim_verdict"] != Verdict.HOLDS and row["ruled_out"] == "0 of 1"
    queries, keys = rng.standard_normal((2, 6, 2, 3, 40, 8))
    keys[..., 2:] *= 0.05  # scores of nearly rank 2: E_2 close to 1
    dominated = dominance_evidence(
        model_diagnostics(queries, keys), reference, top_k=2, passage_tokens=40
    )
    row = judge_row(TESTS["C.6/minilm"], dominated, stability_resamples=QUICK)
    assert row["verdict"] == Verdict.HOLDS and row["ruled_out"] == "1 of 1"
