"""Paper C, figures C1-C4: spectra of the row softmax of the canonical score model, one job each.

Canonical model (:mod:`attnspec.models.canonical`): A = row-softmax(diag(sigma)) with r spikes
sigma_p = kappa log n and a bulk profile, bidirectional and causal. Quantities (papers.md
section 5): singular values s_k(A); the stable rank ||A||_F^2 / ||A||^2 (||A||_F^2 exact,
||A|| by Lanczos with O(n) products); the distribution function of n s_k(A) by exact inertia
counts; the spike-tied singular values. References: the Cesaro matrix (zero bulk, no spike,
causal: ||.||_F^2 = H_n, ||.|| -> 2), the Gaussian model of papers A/B
(A = row-softmax(beta Q K^T / sqrt(d_qk)), c = 1, bidirectional stable rank -> e^{beta^2}) and
the isotropic model softmax(U Sigma V^T) the canonical one stands for.

Seeding: the bulk of draw i at n tokens comes from the stream ``bulk`` of
:func:`bulk_parameters` (no kappa), so every figure and every kappa of C4 sees the same bulk;
the Haar factors of the isotropic model from the stream ``haar``; the Gaussian model's Q, K from
paper A's stream ``queries_keys``. Every job takes ``replicate`` (the workflow replicate, 0 =
the default streams) and passes it to :func:`attnspec.seeding.rng_for`. The ``zeros`` profile
is deterministic: one draw.

Spike-tied singular values: among the top r + EXTRA_TOP singular pairs of A, those whose right
singular vector has weight >= SPIKE_WEIGHT on the spike directions of S (the columns V e_p of
S = U Sigma V^T; the spike rows e_p in the canonical model, V = I); a spike not found counts as
a singular value 0 (a lost mode).
"""

import logging
from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.models.canonical import (
    canonical_scores,
    diagonal_softmax,
    isotropic_scores,
    spike_positions,
)
from attnspec.models.sampling import sample_queries_keys
from attnspec.models.softmax import MASKS, row_softmax
from attnspec.papers.progress import Stopwatch
from attnspec.papers.spectra import draw_parameters
from attnspec.seeding import rng_for
from attnspec.spectra.lanczos import top_squared_singular_values

LOG = logging.getLogger(__name__)

SPIKE_WEIGHT = 0.5
"""A top singular pair is spike-tied when its right vector has at least this weight
sum_p v_p^2 on the spike rows p (robust to mixing among nearly degenerate spikes)."""
EXTRA_TOP = 6
"""Top singular values computed beyond the r spikes: the causal (Cesaro-like) part has a few
singular values of order 1 (four above 1 at n = 2^18) that the spike-tied ones sit among."""


def bulk_parameters(n: int, model: Mapping, profile: str) -> dict:
    """The parameters that key a canonical bulk's random stream (kappa excluded)."""
    params = {
        "model": "canonical",
        "n_tokens": int(n),
        "spikes": int(model["spikes"]),
        "spike_placement": model["spike_placement"],
        "profile": profile,
        "bulk_scale": float(model["bulk_scale"]),
    }
    if profile == "gaussian":
        params["gaussian_ratio"] = float(model["gaussian_ratio"])
    return params


def draws_of(profile: str, draws: int) -> int:
    """Draws actually taken: 1 for the deterministic ``zeros`` profile."""
    return 1 if profile == "zeros" else int(draws)


def canonical_sigma(
    n: int,
    model: Mapping,
    profile: str,
    draw: int,
    kappa: float | None = None,
    *,
    replicate: int = 0,
) -> np.ndarray:
    """sigma of draw ``draw`` (spikes kappa log n; kappa defaults to the model's)."""
    return canonical_scores(
        n,
        spikes=model["spikes"],
        kappa=model["kappa"] if kappa is None else kappa,
        placement=model["spike_placement"],
        profile=profile,
        bulk_scale=model["bulk_scale"],
        gaussian_ratio=model["gaussian_ratio"],
        rng=rng_for(bulk_parameters(n, model, profile), draw, "bulk", replicate=replicate),
    )


def spike_tied_values(values: np.ndarray, weights: np.ndarray, spikes: int) -> np.ndarray:
    """The singular values (not squared) among the top ones whose right singular vector has
    weight ``weights`` >= SPIKE_WEIGHT on the spike directions, descending, padded with 0 (a
    lost spike) to ``spikes`` entries."""
    tied = np.sort(np.sqrt(values[np.asarray(weights) >= SPIKE_WEIGHT]))[::-1][:spikes]
    return np.concatenate([tied, np.zeros(spikes - tied.size)])


def canonical_spectrum_summary(sigma: np.ndarray, mask: str, positions, spikes: int) -> dict:
    """||A||_F^2, the top r + EXTRA_TOP squared singular values, the spike-tied singular values
    and the spike diagonal entries A_pp."""
    softmax = diagonal_softmax(sigma, mask)
    values, vectors = softmax.top_squared_singular_values(spikes + EXTRA_TOP, return_vectors=True)
    weights = np.sum(vectors[np.asarray(positions)] ** 2, axis=0)
    return {
        "frobenius_squared": softmax.frobenius_squared(),
        "top": values,
        "spike_values": spike_tied_values(values, weights, spikes),
        "spike_diagonal": softmax.diagonal[np.asarray(positions)],
    }


def stable_rank_job(
    n: int, model: Mapping, profiles: Sequence[str], draws: int, *, replicate: int = 0
) -> dict:
    """Figure C3 at one n: every profile, mask and draw of the canonical model, and the Cesaro
    matrix (sigma = 0, no spike, causal).

    Keys ``<profile>/<mask>/frobenius_squared`` (draws,), ``.../top`` (draws, r + EXTRA_TOP) squared
    singular values, ``.../spike_values`` (draws, r); ``cesaro/norm`` = ||C_n||,
    ``cesaro/frobenius_squared`` = ||C_n||_F^2 (= H_n).
    """
    positions = spike_positions(n, model["spikes"], model["spike_placement"])
    units = len(MASKS) * sum(draws_of(profile, draws) for profile in profiles)
    clock = Stopwatch()
    out = {}
    done = 0
    for profile in profiles:
        for mask in MASKS:
            rows = []
            for draw in range(draws_of(profile, draws)):
                sigma = canonical_sigma(n, model, profile, draw, replicate=replicate)
                rows.append(canonical_spectrum_summary(sigma, mask, positions, model["spikes"]))
                done += 1
                LOG.info(
                    "matrix %d of %d, n = %d, %s, %s, draw %d: stable rank %.4g, %.2f s",
                    done,
                    units,
                    n,
                    profile,
                    mask,
                    draw,
                    rows[-1]["frobenius_squared"] / rows[-1]["top"][0],
                    clock.lap(),
                )
            for key in ("frobenius_squared", "top", "spike_values"):
                out[f"{profile}/{mask}/{key}"] = np.array([row[key] for row in rows])
    cesaro = diagonal_softmax(np.zeros(n), "causal")
    out["cesaro/norm"] = np.sqrt(cesaro.top_squared_singular_values(1))
    out["cesaro/frobenius_squared"] = np.float64(cesaro.frobenius_squared())
    LOG.info("Cesaro matrix, n = %d: norm %.6f, %.2f s", n, out["cesaro/norm"][0], clock.lap())
    LOG.info("%d matrices and the Cesaro matrix in %.2f s", units, clock.total())
    return out


def bulk_grid(grid_points: int) -> np.ndarray:
    """The n s grid of figure C2: 10^-3 .. 10^3, log-spaced."""
    return np.geomspace(1e-3, 1e3, grid_points)


def bulk_count_job(
    n_tokens: Sequence[int],
    model: Mapping,
    profiles: Sequence[str],
    draws: int,
    grid,
    *,
    replicate: int = 0,
) -> dict:
    """Figure C2: N(x) = #{k : n s_k(A) < x} on the grid, per n, profile, mask and draw.

    Exact (Sylvester inertia counts, :meth:`DiagonalSoftmax.squared_singular_value_counts`),
    O(n) per grid point, so one job covers every n. Keys ``grid`` and
    ``n<n>/<profile>/<mask>/counts``, shape (draws, grid points).
    """
    grid = np.asarray(grid, dtype=np.float64)
    clock = Stopwatch()
    out = {"grid": grid}
    for i, n in enumerate(n_tokens):
        for profile in profiles:
            for mask in MASKS:
                counts = []
                for draw in range(draws_of(profile, draws)):
                    sigma = canonical_sigma(n, model, profile, draw, replicate=replicate)
                    softmax = diagonal_softmax(sigma, mask)
                    counts.append(softmax.squared_singular_value_counts((grid / n) ** 2))
                out[f"n{n}/{profile}/{mask}/counts"] = np.array(counts)
        LOG.info(
            "size %d of %d, n = %d: %d matrices (profiles x masks x draws), %.2f s",
            i + 1,
            len(n_tokens),
            n,
            len(MASKS) * sum(draws_of(profile, draws) for profile in profiles),
            clock.lap(),
        )
    LOG.info("%d sizes in %.2f s", len(n_tokens), clock.total())
    return out


def spectra_job(n: int, model: Mapping, profiles: Sequence[str], *, replicate: int = 0) -> dict:
    """Figure C1 at one n, draw 0: every singular value of S = diag(sigma) (|sigma| sorted)
    and of A (dense SVD without vectors: the Gram route would lose values below
    sqrt(eps) s_1), per profile and mask; the isotropic model softmax(U Sigma V^T) of the
    first random profile; the largest entrywise difference between the explicit softmax and
    the generic one (:func:`attnspec.models.softmax.row_softmax` of diag(sigma))."""
    random_profiles = [p for p in profiles if p != "zeros"]
    units = len(MASKS) * (len(profiles) + bool(random_profiles))
    clock = Stopwatch()
    out = {}
    done = 0
    for profile in profiles:
        sigma = canonical_sigma(n, model, profile, 0, replicate=replicate)
        out[f"{profile}/scores"] = np.sort(np.abs(sigma))[::-1]
        for mask in MASKS:
            explicit = diagonal_softmax(sigma, mask).dense()
            generic = row_softmax(np.diag(sigma), mask=mask)
            out[f"{profile}/{mask}/softmax_difference"] = np.float64(
                np.max(np.abs(explicit - generic))
            )
            out[f"{profile}/{mask}/attention"] = np.linalg.svd(explicit, compute_uv=False)
            done += 1
            LOG.info(
                "spectrum %d of %d, n = %d, %s, %s: dense singular values, %.2f s",
                done,
                units,
                n,
                profile,
                mask,
                clock.lap(),
            )
    if random_profiles:
        profile = random_profiles[0]
        sigma = canonical_sigma(n, model, profile, 0, replicate=replicate)
        haar = rng_for(bulk_parameters(n, model, profile), 0, "haar", replicate=replicate)
        scores = isotropic_scores(sigma, haar)[0]
        out["isotropic_profile"] = np.array(profile)
        for mask in MASKS:
            isotropic = row_softmax(scores, mask=mask)
            out[f"isotropic/{mask}/attention"] = np.linalg.svd(isotropic, compute_uv=False)
            done += 1
            LOG.info(
                "spectrum %d of %d, n = %d, isotropic %s, %s: dense singular values, %.2f s",
                done,
                units,
                n,
                profile,
                mask,
                clock.lap(),
            )
    LOG.info("%d spectra in %.2f s", units, clock.total())
    return out


ISOTROPIC_KEYS = ("frobenius_squared", "top", "spike_values")


def isotropic_draw(n: int, model: Mapping, profile: str, draw: int, *, replicate: int = 0):
    """One draw of :func:`isotropic_job`: ``{(model, mask): (||A||_F^2, top squared singular
    values, spike-tied singular values)}`` for model in {isotropic, canonical}."""
    spikes = model["spikes"]
    positions = spike_positions(n, spikes, model["spike_placement"])
    sigma = canonical_sigma(n, model, profile, draw, replicate=replicate)
    haar = rng_for(bulk_parameters(n, model, profile), draw, "haar", replicate=replicate)
    scores, _, right = isotropic_scores(sigma, haar)
    directions = right[:, positions]
    out = {}
    for mask in MASKS:
        A = row_softmax(scores, mask=mask)
        top, _, vectors = top_squared_singular_values(A, spikes + EXTRA_TOP, return_vectors=True)
        weights = np.sum((directions.T @ vectors) ** 2, axis=0)
        out["isotropic", mask] = (np.vdot(A, A), top, spike_tied_values(top, weights, spikes))
        summary = canonical_spectrum_summary(sigma, mask, positions, spikes)
        out["canonical", mask] = tuple(summary[key] for key in ISOTROPIC_KEYS)
    return out


def isotropic_job(n: int, model: Mapping, profile: str, draws: int, *, replicate: int = 0):
    """softmax(U Sigma V^T) against softmax(Sigma) at one n, same sigma, U, V Haar: every
    draw of :func:`isotropic_draw`, each seeded on its own.

    Per mask and draw: ``<model>/<mask>/frobenius_squared``, ``.../top`` (r + EXTRA_TOP
    squared singular values) and ``.../spike_values`` (r spike-tied singular values, the
    spike directions being V e_p for the isotropic model, e_p for the canonical one), model in
    {isotropic, canonical}; isotropic values by block Lanczos on the dense matrix, canonical
    ones by Lanczos with O(n) products.
    """
    taken = draws_of(profile, draws)
    clock = Stopwatch()
    rows = []
    for draw in range(taken):
        rows.append(isotropic_draw(n, model, profile, draw, replicate=replicate))
        LOG.info(
            "draw %d of %d, n = %d, %s: isotropic and canonical, both masks, %.2f s",
            draw + 1,
            taken,
            n,
            profile,
            clock.lap(),
        )
    LOG.info("%d draws in %.2f s", taken, clock.total())
    return {
        f"{kind}/{mask}/{key}": np.array([row[kind, mask][index] for row in rows])
        for kind in ("isotropic", "canonical")
        for mask in MASKS
        for index, key in enumerate(ISOTROPIC_KEYS)
    }


def gaussian_model_draw(n: int, beta: float, draw: int, *, replicate: int = 0) -> dict:
    """One draw of :func:`gaussian_model_job`: ``{<mask>/frobenius_squared,
    <mask>/norm_squared}`` of A = row-softmax(beta Q K^T / sqrt(n)), Q, K from paper A's stream
    ``queries_keys`` of the draw (both masks share the scores)."""
    params = draw_parameters(n, n, beta, "gaussian", None)
    Q, K = sample_queries_keys(rng_for(params, draw, "queries_keys", replicate=replicate), n, n)
    product = Q @ K.T  # the product attention_matrix forms, once for both masks
    out = {}
    for mask in MASKS:
        A = row_softmax(product, mask=mask, scale=beta / np.sqrt(n))
        out[f"{mask}/frobenius_squared"] = np.vdot(A, A)
        out[f"{mask}/norm_squared"] = top_squared_singular_values(A, 1)[0]
    return out


def gaussian_model_job(n: int, beta: float, draws: int, *, replicate: int = 0) -> dict:
    """Stable rank of the Gaussian model A = row-softmax(beta Q K^T / sqrt(d_qk)), d_qk = n:
    every draw of :func:`gaussian_model_draw`, each seeded on its own.

    Draw i is paper A's draw i at the same (ell, d_qk, beta) (stream ``queries_keys`` of
    :func:`attnspec.papers.spectra.draw_parameters`, re-keyed by ``replicate``).
    Keys ``<mask>/frobenius_squared`` and ``<mask>/norm_squared``, shape (draws,).
    """
    clock = Stopwatch()
    rows = []
    for draw in range(draws):
        rows.append(gaussian_model_draw(n, beta, draw, replicate=replicate))
        LOG.info(
            "draw %d of %d, Gaussian model, ell = %d, beta = %s: both masks, %.2f s",
            draw + 1,
            draws,
            n,
            beta,
            clock.lap(),
        )
    LOG.info("%d draws in %.2f s", draws, clock.total())
    return {key: np.array([row[key] for row in rows], dtype=np.float64) for key in rows[0]}


def survival_job(
    n: int,
    model: Mapping,
    profile: str,
    kappas: Sequence[float],
    draws: int,
    *,
    replicate: int = 0,
):
    """Figure C4 at one n: spike-tied singular values and spike diagonals A_pp against kappa.

    Keys ``<mask>/spike_values`` and ``<mask>/spike_diagonal``, shape (kappas, draws, r);
    ``<mask>/top`` (kappas, draws, r + EXTRA_TOP) squared singular values; ``kappas``.
    Every kappa of a draw has the same bulk.
    """
    spikes = model["spikes"]
    positions = spike_positions(n, spikes, model["spike_placement"])
    out = {"kappas": np.asarray(kappas, dtype=np.float64)}
    clock = Stopwatch()
    for i, mask in enumerate(MASKS):
        grid = [
            [
                canonical_spectrum_summary(
                    canonical_sigma(n, model, profile, draw, kappa, replicate=replicate),
                    mask,
                    positions,
                    spikes,
                )
                for draw in range(draws_of(profile, draws))
            ]
            for kappa in kappas
        ]
        LOG.info(
            "mask %d of %d, n = %d, %s: %d kappas x %d draws, %.2f s",
            i + 1,
            len(MASKS),
            n,
            mask,
            len(kappas),
            draws_of(profile, draws),
            clock.lap(),
        )
        for key in ("spike_values", "spike_diagonal", "top"):
            out[f"{mask}/{key}"] = np.array([[row[key] for row in rows] for rows in grid])
    LOG.info("%d masks in %.2f s", len(MASKS), clock.total())
    return out
