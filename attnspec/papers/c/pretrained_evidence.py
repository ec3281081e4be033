"""Evidence for claims C.5 and C.6 (registry rows C.5/minilm, C.5/control, C.6/minilm) and the
two-sample tests of the eigen-angle diagnostic (figure C5, table C-T2).

Per-head eigen-angle distances D (Kolmogorov distance of the eigen-angles of U, resp. V, to the
uniform law on [0, pi]; :mod:`attnspec.papers.c.pretrained`) at n <= head width, where rank
S = n and U, V are fixed by S up to the sign convention:

- model: every (layer, head, side) of a passage; the resampling unit is the passage;
- Haar reference: Gaussian Q, K of the same shape through the same pipeline (its singular
  vectors are Haar before the sign convention); units are blocks of consecutive draws
  (RESAMPLING_BLOCKS blocks: iid draws grouped, which keeps the bootstrap affordable);
- controls (:mod:`attnspec.papers.c.pretrained_controls`): ``aligned`` (known non-uniform
  eigen-angles, the judged control) and ``local`` (local-attention scores, reported: the
  diagnostic's blind spot, C.5/minilm's declared scope).

Alternatives (the wrong theories the registry declares): C.5/minilm against a declared
structured share, a data mutant (:func:`structured_share`: STRUCTURED_SHARE of each passage's
distances replaced by aligned-control distances, target 0, judged against the same Haar
reference blocks); C.5/control against a blind diagnostic (same data, target 0); C.6/minilm
against isotropic scores (same data, target the isotropic reference's median E_k).

The ks_two_sample statistic reads, per unit, the counts of its distances at or below each point
of a common grid: GRID_POINTS quantiles of the pooled values of the two samples (the last one
their maximum). The Kolmogorov distance on the grid is at most the exact one, and below it by at
most the largest mass either sample puts between two grid points (about 1/GRID_POINTS times the
ratio of pooled to own sample size).
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.claims.evidence import Evidence
from attnspec.papers.c.degeneration_evidence import with_alternatives
from attnspec.papers.c.pretrained import HAAR
from attnspec.seeding import rng_for

GRID_POINTS = 200
RESAMPLING_BLOCKS = 25
LEVEL = 0.05
REFERENCE_QUANTILE = 0.95
CONTAMINATIONS = (0.01, 0.02, 0.05)
"""Fractions of the model's distances replaced by aligned-control distances in the power study."""
POWER_REPETITIONS = 200
BOOTSTRAP_RESAMPLES = 2000
STRUCTURED_SHARE = 0.05
"""C.5/minilm's alternative "5% structured": the share of each passage's distances replaced."""


def full_rank_distances(diagnostics: Mapping) -> np.ndarray:
    """(units, distances per unit): D of U and V of every head, per passage (or draw)."""
    distances = np.asarray(diagnostics["angle_distance"])[..., HAAR]
    return distances.reshape(distances.shape[0], -1)


def blocks(per_draw: np.ndarray, count: int = RESAMPLING_BLOCKS) -> list[np.ndarray]:
    """The draws' distances in ``count`` blocks of consecutive draws (fewer if fewer draws)."""
    return [block.ravel() for block in np.array_split(per_draw, min(count, len(per_draw)))]


def common_grid(first: np.ndarray, second: np.ndarray, points: int = GRID_POINTS) -> np.ndarray:
    """``points`` quantiles of the pooled values (distinct, ascending, the last the maximum)."""
    pooled = np.concatenate([np.ravel(first), np.ravel(second)])
    return np.unique(np.quantile(pooled, np.linspace(0.0, 1.0, points)))


def cumulative_counts(units: Sequence[np.ndarray], grid: np.ndarray) -> np.ndarray:
    """(units, grid points): the number of each unit's values at or below each grid point."""
    return np.stack(
        [np.searchsorted(np.sort(np.ravel(u)), grid, side="right") for u in units]
    ).astype(np.float64)


def ks_samples(values: Sequence[np.ndarray], reference: Sequence[np.ndarray]) -> dict:
    """The ``values``/``reference`` count arrays of the ks_two_sample statistic."""
    grid = common_grid(np.concatenate(values), np.concatenate(reference))
    return {
        "values": cumulative_counts(values, grid),
        "reference": cumulative_counts(reference, grid),
    }


def two_sample_tests(first: np.ndarray, second: np.ndarray) -> dict[str, float]:
    """Kolmogorov-Smirnov and Mann-Whitney two-sample tests of pooled values (both treat the
    values as independent draws): statistics and two-sided p-values, and the common-language
    effect size P(first > second) + P(tie)/2 = U / (m n)."""
    from scipy import stats  # lazy: jobs that never call it skip the import

    first, second = np.ravel(first), np.ravel(second)
    ks = stats.ks_2samp(first, second)
    mw = stats.mannwhitneyu(first, second, alternative="two-sided")
    return {
        "ks": float(ks.statistic),
        "ks_p": float(ks.pvalue),
        "mw_u": float(mw.statistic),
        "mw_p": float(mw.pvalue),
        "mw_effect": float(mw.statistic / (first.size * second.size)),
    }


def contamination_power(
    reference: np.ndarray, control: np.ndarray, size: int, fraction: float, rng
) -> dict[str, float]:
    """Rejection rates at LEVEL of both tests when ``size`` model distances are drawn from the
    reference with a share ``fraction`` from the control (with replacement), against
    reference.size distances drawn from the reference: the power to detect that share of
    aligned heads at the model's sample size, the values taken as independent."""
    reference, control = np.ravel(reference), np.ravel(control)
    rejected = np.zeros(2)
    for _ in range(POWER_REPETITIONS):
        from_control = rng.random(size) < fraction
        sample = np.where(
            from_control,
            control[rng.integers(0, control.size, size)],
            reference[rng.integers(0, reference.size, size)],
        )
        null = reference[rng.integers(0, reference.size, reference.size)]
        tests = two_sample_tests(sample, null)
        rejected += [tests["ks_p"] < LEVEL, tests["mw_p"] < LEVEL]
    return {"ks": rejected[0] / POWER_REPETITIONS, "mw": rejected[1] / POWER_REPETITIONS}


def share_above(model_units: np.ndarray, threshold: float, rng) -> tuple[float, float, float]:
    """Share of the model's distances above ``threshold``, with its 95 % percentile-bootstrap
    interval over the units (passages)."""
    above = (np.asarray(model_units) > threshold).mean(axis=1)
    index = rng.integers(0, above.size, (BOOTSTRAP_RESAMPLES, above.size))
    low, high = np.percentile(above[index].mean(axis=1), [2.5, 97.5])
    return float(above.mean()), float(low), float(high)


def eigen_angle_tests(
    model: Mapping, reference: Mapping, aligned: Mapping, local: Mapping, *, replicate: int = 0
) -> dict[str, np.ndarray]:
    """Every number of the C.5 diagnostic's tests: for each comparison (model, aligned control,
    local control, and one half of the reference against the other: the null) against the
    reference, the two-sample tests; the power of both tests to detect a share of aligned heads
    among the model's distances (CONTAMINATIONS); the reference's 95 % quantile (from every
    reference distance) and the share of model distances above it with its interval."""
    model_d, reference_d = full_rank_distances(model), full_rank_distances(reference)
    rng = rng_for(
        {"experiment": "paperC/eigen-angle-tests", "shape": list(model_d.shape)},
        0,
        "power",
        replicate=replicate,
    )
    half = reference_d.shape[0] // 2
    samples = {
        "model": model_d,
        "aligned": full_rank_distances(aligned),
        "local": full_rank_distances(local),
    }
    out = {"reference_count": np.int64(reference_d.size), "model_count": np.int64(model_d.size)}
    for name, values in samples.items():
        for key, value in two_sample_tests(values, reference_d).items():
            out[f"{name}/{key}"] = np.float64(value)
    for key, value in two_sample_tests(reference_d[:half], reference_d[half:]).items():
        out[f"null/{key}"] = np.float64(value)
    out["contaminations"] = np.asarray(CONTAMINATIONS)
    power = [
        contamination_power(reference_d, samples["aligned"], model_d.size, f, rng)
        for f in CONTAMINATIONS
    ]
    out["power/ks"] = np.array([p["ks"] for p in power])
    out["power/mw"] = np.array([p["mw"] for p in power])
    quantile = float(np.quantile(reference_d, REFERENCE_QUANTILE))
    out["reference_q95"] = np.float64(quantile)
    out["share_above_q95"] = np.array(share_above(model_d, quantile, rng))
    out["median/model"] = np.float64(np.median(model_d))
    out["median/reference"] = np.float64(np.median(reference_d))
    out["median/aligned"] = np.float64(np.median(samples["aligned"]))
    out["median/local"] = np.float64(np.median(samples["local"]))
    return out


def structured_share(
    units: np.ndarray, structured: np.ndarray, share: float, rng: np.random.Generator
) -> np.ndarray:
    """A copy of ``units`` (units, distances per unit) in which round(share x distances per unit)
    distances of each unit, at positions drawn without replacement, are replaced by values drawn
    with replacement from the pooled ``structured`` distances; ``share`` in [0, 1]."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share must lie in [0, 1], got {share!r}")
    mutant = np.array(units, dtype=np.float64)
    pool = np.ravel(structured)
    count = int(round(share * mutant.shape[1]))
    for row in mutant:
        row[rng.choice(row.size, count, replace=False)] = pool[rng.integers(0, pool.size, count)]
    return mutant


def structured_share_rng(replicate: int = 0) -> np.random.Generator:
    """The seeded stream of C.5/minilm's data mutant (its own key, per workflow replicate)."""
    key = {"row": "C.5/minilm", "alternative": "5% structured"}
    return rng_for(key, 0, "structured share", replicate=replicate)


def _tests_text(tests: Mapping, name: str) -> str:
    return (
        f"two-sample KS {float(tests[f'{name}/ks']):.3f} (p = {float(tests[f'{name}/ks_p']):.2g}), "
        f"Mann-Whitney p = {float(tests[f'{name}/mw_p']):.2g} (P(D > D_Haar) = "
        f"{float(tests[f'{name}/mw_effect']):.3f})"
    )


def eigen_angle_evidence(
    model: Mapping,
    reference: Mapping,
    aligned: Mapping,
    tests: Mapping,
    *,
    passage_tokens: int,
    ranks: np.ndarray,
    resampling_blocks: int = RESAMPLING_BLOCKS,
    replicate: int = 0,
) -> list[Evidence]:
    """The C.5/minilm and C.5/control rows with their alternatives (module docstring); the
    reference and the control are resampled in ``resampling_blocks`` blocks of draws each; the
    data mutant of C.5/minilm is drawn from :func:`structured_share_rng` (``replicate``)."""
    model_d, reference_d = full_rank_distances(model), full_rank_distances(reference)
    deficient = int(np.sum(np.asarray(ranks) < passage_tokens))
    if deficient:
        raise ValueError(
            f"C.5 is judged at rank S = n: {deficient} heads have rank S < n = {passage_tokens}"
        )
    reference_units = blocks(reference_d, resampling_blocks)
    power = ", ".join(
        f"{f:.0%}: KS {ks:.2f}, MW {mw:.2f}"
        for f, ks, mw in zip(
            tests["contaminations"], tests["power/ks"], tests["power/mw"], strict=True
        )
    )
    share, low, high = (float(v) for v in tests["share_above_q95"])
    common = (
        f"Haar reference: {reference_d.size} distances ({reference_d.shape[0]} Gaussian Q, K of "
        f"shape {passage_tokens} x head width, U and V), resampled in {len(reference_units)} "
        f"blocks of draws; grid: {GRID_POINTS} quantile points of the pooled distances"
    )
    aligned_d = full_rank_distances(aligned)
    quantity = (
        f"two-sample Kolmogorov distance between the {model_d.size} eigen-angle distances to "
        f"uniform of all-MiniLM-L6-v2 (U and V of every layer and head, {model_d.shape[0]} "
        f"passages of n = {passage_tokens} tokens, rank S = n) and the Haar reference's"
    )
    mutant = structured_share(model_d, aligned_d, STRUCTURED_SHARE, structured_share_rng(replicate))
    replaced = int(round(STRUCTURED_SHARE * model_d.shape[1]))
    minilm = Evidence(
        row_id="C.5/minilm",
        samples=ks_samples(list(model_d), reference_units),
        target=0.0,
        quantity=quantity,
        note=(
            f"{_tests_text(tests, 'model')}; medians {float(tests['median/model']):.4f} (model) "
            f"and {float(tests['median/reference']):.4f} (Haar); {share:.1%} [{low:.1%}, "
            f"{high:.1%}] of the model's distances above the Haar 95 % quantile "
            f"{float(tests['reference_q95']):.4f} (from {reference_d.size} reference values; 5 % "
            f"for Haar). The p-values treat the distances as independent (heads of one passage "
            f"share its tokens). Power of the two tests at level {LEVEL:g} against a share of "
            f"aligned-control heads among the model's: {power}. Null check, one half of the "
            f"reference against the other: {_tests_text(tests, 'null')}. Local-attention "
            f"(Toeplitz) scores, not judged: {_tests_text(tests, 'local')}, i.e. the diagnostic "
            f"does not see that structure (the row's declared scope). {common}."
        ),
        alternatives={
            "5% structured": Evidence(
                row_id="C.5/minilm",
                samples=ks_samples(list(mutant), reference_units),
                target=0.0,
                quantity=quantity,
                note=(
                    f"the model's distances with {replaced} of each passage's "
                    f"{model_d.shape[1]} replaced by aligned-control distances (seeded), against "
                    "the same Haar reference blocks"
                ),
            )
        },
    )
    control = Evidence(
        row_id="C.5/control",
        samples=ks_samples(blocks(aligned_d, resampling_blocks), reference_units),
        target=0.0,
        quantity=(
            f"two-sample Kolmogorov distance between the eigen-angle distances of "
            f"{aligned_d.shape[0]} aligned-control score matrices (U, V rotations by angles "
            f"uniform on [0, pi/3] from the identity; known eigen-angle law, Kolmogorov distance "
            f"2/3 from uniform) of shape {passage_tokens} x head width and the Haar reference's"
        ),
        note=(
            f"{_tests_text(tests, 'aligned')}; median distance "
            f"{float(tests['median/aligned']):.4f} against {float(tests['median/reference']):.4f} "
            f"for Haar; control draws resampled in "
            f"{len(blocks(aligned_d, resampling_blocks))} blocks. {common}."
        ),
    )
    return [minilm, with_alternatives(control, {"blind": 0.0})]


def dominance_evidence(
    long: Mapping, reference: Mapping, *, top_k: int, passage_tokens: int
) -> Evidence:
    """The C.6/minilm row: per passage, the median over its (layer, head) of the energy fraction
    E_k of ||S||_F^2 in the top k singular directions; resampled over passages. Its alternative
    "isotropic": the same data against the median E_k of the isotropic reference."""
    energy = np.asarray(long["energy"])[..., top_k - 1]
    per_passage = np.median(energy.reshape(energy.shape[0], -1), axis=1)
    iso = np.asarray(reference["energy"])[..., top_k - 1].ravel()
    centred = np.asarray(long["centred_energy"])[..., top_k - 1]
    iso_q95 = float(np.quantile(iso, REFERENCE_QUANTILE))
    claim = Evidence(
        row_id="C.6/minilm",
        samples={"values": per_passage},
        target=0.5,
        quantity=(
            f"energy fraction E_{top_k} of ||S||_F^2 in the top {top_k} singular directions: per "
            f"passage the median over its {energy[0].size} (layer, head), median over "
            f"{energy.shape[0]} passages of n = {passage_tokens} tokens"
        ),
        note=(
            f"isotropic reference (Gaussian Q, K of the same shape, {iso.size} draws): median "
            f"E_{top_k} {np.median(iso):.4f}, 95 % quantile {iso_q95:.4f}; "
            f"{float(np.mean(energy > iso_q95)):.1%} of the model's (passage, layer, head) above "
            f"it; row-centred scores (softmax-invariant row offsets removed): median "
            f"E_{top_k} {float(np.median(centred)):.4f}"
        ),
    )
    return with_alternatives(claim, {"isotropic": float(np.median(iso))})
