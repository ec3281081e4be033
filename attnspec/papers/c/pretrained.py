"""Paper C, figures C5, C6 and table C-T2: score-geometry diagnostics of a pretrained transformer.

For one head with queries Q and keys K (n x d, biases included) the score matrix is
S = Q K^T / sqrt(d) (n x n, rank r <= d) and A = row-softmax(S) the model's attention.

(i) Eigen-angles (claim C.5). S = U diag(sigma) V^T with U, V in O(n): the eigenvalues of an
orthogonal matrix are e^{+-i theta}; the eigen-angles are theta = |arg lambda| in [0, pi], one
per eigenvalue (a conjugate pair gives its angle twice), compared with the uniform law on
[0, pi] by the Kolmogorov distance D = sup_t |F_n(t) - t/pi|. Conventions, which change the
eigenvalues of U and V though not S:

- order: columns by descending sigma; rows are the tokens in passage order;
- signs: each pair (u_k, v_k) is flipped together (S unchanged) so that the entry of u_k of
  largest modulus (the first such) is positive;
- null space: only the first r columns are determined by S. When r < n the remaining n - r
  columns are an orthonormal basis of the orthogonal complement, completed either ``"haar"``
  (uniformly at random, seeded: U is then distributed as a Haar matrix given its first r
  columns) or ``"nearest_identity"`` (the basis N R, R in O(n - r), closest in Frobenius norm
  to the identity's last n - r columns). Passages with n <= d have r = n (generically) and
  need no completion: claim C.5 is judged on those.

The noise floor of D is the same pipeline applied to isotropic scores: Q, K with iid N(0, 1)
entries of the same shape, whose singular vectors are Haar distributed.

(ii) Score spectra (claim C.6): the normalised singular values sigma_k / sigma_1 and the energy
fraction in the top k directions, E_k = sum_{i <= k} sigma_i^2 / sum_i sigma_i^2. The same for
the row-centred scores S (I - 1 1^T / n) = Q (K - 1 kbar^T)^T / sqrt(d), which drop the row
offsets that softmax ignores (a robustness check: the leading direction is not only the
softmax-invariant part).

(iii) Stable rank ||A||_F^2 / ||A||_2^2 of the model's own attention (bidirectional: one segment,
no padding) and of the causal attention obtained by masking the same scores (j <= i).
"""

import logging
from collections.abc import Sequence

import numpy as np

from attnspec.distances import kolmogorov_distance
from attnspec.models.softmax import MASKS, row_softmax
from attnspec.papers.progress import Stopwatch
from attnspec.seeding import rng_for
from attnspec.spectra.dense import top_squared_singular_values_dense

LOG = logging.getLogger(__name__)

NULL_SPACE_CONVENTIONS = ("haar", "nearest_identity")
HAAR = NULL_SPACE_CONVENTIONS.index("haar")
NEAREST_IDENTITY = NULL_SPACE_CONVENTIONS.index("nearest_identity")
SIDES = ("U", "V")
# The isotropic reference logs its progress once per this many draws: its draws are short
# (timing: docs/benchmark.md).
DRAWS_PER_PROGRESS_RECORD = 50


def fix_signs(left: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Flip each pair (u_k, v_k) so that u_k's entry of largest modulus (first such) is > 0."""
    pivots = np.argmax(np.abs(left), axis=0)
    signs = np.where(left[pivots, np.arange(left.shape[1])] < 0, -1.0, 1.0)
    return left * signs, right * signs


def score_svd(queries: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Thin SVD of S = Q K^T / sqrt(d) from its factors, signs fixed (:func:`fix_signs`).

    Q = Q_1 R_Q and K = K_1 R_K (reduced QR); the core R_Q R_K^T / sqrt(d) = a diag(sigma) b^T
    gives U_r = Q_1 a, V_r = K_1 b. Only the numerically non-zero values are kept:
    sigma_k > max(n, d) eps sigma_1 (numpy's matrix_rank rule), so r <= min(n, d).

    Returns
    -------
    left : ndarray, shape (n, r)
    values : ndarray, shape (r,), descending
    right : ndarray, shape (n, r)
    """
    n, width = queries.shape
    q_basis, q_upper = np.linalg.qr(queries)
    k_basis, k_upper = np.linalg.qr(keys)
    a, values, b_t = np.linalg.svd(q_upper @ k_upper.T / np.sqrt(width))
    rank = int(np.sum(values > max(n, width) * np.finfo(np.float64).eps * values[0]))
    left, right = fix_signs(q_basis @ a[:, :rank], k_basis @ b_t[:rank].T)
    return left, values[:rank], right


def complete_orthogonal(
    columns: np.ndarray, convention: str, rng: np.random.Generator
) -> np.ndarray:
    """An n x n orthogonal matrix whose first r columns are ``columns`` (orthonormal, n x r).

    ``"haar"``: the complement basis is QR of (I - C C^T) G, G iid N(0, 1) n x (n - r), with the
    sign fix diag(R) > 0 (uniform on the complement's orthonormal bases). ``"nearest_identity"``:
    N R with N any orthonormal basis of the complement and R = a b^T from the SVD
    N^T E = a s b^T, E the last n - r columns of I (orthogonal Procrustes: argmin ||N R - E||_F).
    ``rng`` is used only by ``"haar"`` with r < n.
    """
    n, r = columns.shape
    if convention not in NULL_SPACE_CONVENTIONS:
        raise ValueError(f"convention must be one of {NULL_SPACE_CONVENTIONS}, got {convention!r}")
    if r == n:
        return columns.copy()
    if convention == "haar":
        gaussian = rng.standard_normal((n, n - r))
        for _ in range(2):  # projected twice: orthogonal to the columns to rounding
            gaussian -= columns @ (columns.T @ gaussian)
        basis, upper = np.linalg.qr(gaussian)
        basis *= np.where(np.diagonal(upper) < 0, -1.0, 1.0)
    else:
        complement = np.linalg.qr(columns, mode="complete")[0][:, r:]
        a, _, b_t = np.linalg.svd(complement[r:, :].T)
        basis = complement @ (a @ b_t)
    return np.hstack([columns, basis])


# The error of an eigen-angle near 0 or pi: eigvalsh's cosines carry about n eps (n <= 1024 here),
# so arccos's angles sqrt(2 n eps) ~ 7e-7 there (what two CPUs gave: docs/benchmark.md). Angles
# closer than ANGLE_RESOLUTION (14x that error) to 0 or pi are exactly 0 or pi; ANGLE_ERROR
# bounds how far any angle moves between CPUs.
ANGLE_ERROR = 1e-6
ANGLE_RESOLUTION = 1e-5


def eigen_angles(orthogonal: np.ndarray) -> np.ndarray:
    """Sorted theta = |arg lambda| in [0, pi] over the n eigenvalues lambda of an orthogonal U.

    U is normal with U^T = U^{-1}, so (U + U^T) / 2 has the eigenvalues Re lambda = cos theta
    with the same multiplicities: theta = arccos(eigvalsh((U + U^T) / 2)), a symmetric
    eigenproblem (faster than the general one: docs/benchmark.md). Absolute error about
    n eps / sin theta, at most about sqrt(2 n eps) (:data:`ANGLE_ERROR`) at theta = 0 or pi, so
    angles within :data:`ANGLE_RESOLUTION` of 0 or pi are returned as exactly 0 or pi (an
    eigenvalue +-1, e.g. of a det -1 completion, would otherwise be 0 or 1e-7 by the CPU's last
    bits).
    """
    cosines = np.linalg.eigvalsh(0.5 * (orthogonal + orthogonal.T))
    angles = np.arccos(np.clip(cosines, -1.0, 1.0))
    angles[angles <= ANGLE_RESOLUTION] = 0.0
    angles[angles >= np.pi - ANGLE_RESOLUTION] = np.pi
    return np.sort(angles)


def uniform_angle_distance(angles: np.ndarray) -> float:
    """Kolmogorov distance sup_t |F_n(t) - t / pi| of eigen-angles to the uniform law on [0, pi]."""
    return kolmogorov_distance(angles, lambda t: np.clip(t / np.pi, 0.0, 1.0))


def energy_fractions(values: np.ndarray, width: int) -> np.ndarray:
    """E_k = sum_{i<=k} sigma_i^2 / sum_i sigma_i^2 for k = 1..width (1 beyond the rank)."""
    energy = np.ones(width)
    cumulative = np.cumsum(values**2)
    energy[: values.size] = cumulative / cumulative[-1]
    return energy


def stable_rank(attention: np.ndarray) -> float:
    """||A||_F^2 / ||A||_2^2 (||A||_2^2 the largest eigenvalue of A A^T, LAPACK subset)."""
    return float(np.sum(attention**2) / top_squared_singular_values_dense(attention, 1)[0])


def mask_stable_ranks(queries: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Stable rank of A = row-softmax(Q K^T / sqrt(d)) under each mask of
    :data:`attnspec.models.softmax.MASKS` (in that order), all from the same scores."""
    scores = queries @ keys.T
    scale = 1.0 / np.sqrt(queries.shape[-1])
    return np.array([stable_rank(row_softmax(scores, mask=mask, scale=scale)) for mask in MASKS])


def head_diagnostics(
    queries: np.ndarray, keys: np.ndarray, rng: np.random.Generator
) -> dict[str, np.ndarray]:
    """Every diagnostic of one head (n x d queries and keys).

    Returns a dict: ``normalised_singular_values`` (d,; sigma_k / sigma_1, 0 beyond the rank),
    ``energy`` and ``centred_energy`` (d,; E_k of S and of the row-centred S), ``rank``,
    ``angles`` (sides U, V x conventions x n: sorted eigen-angles), ``angle_distance`` (sides x
    conventions: D to uniform), ``stable_rank`` (masks, in the order of
    :data:`attnspec.models.softmax.MASKS`).
    """
    n, width = queries.shape
    left, values, right = score_svd(queries, keys)
    centred = score_svd(queries, keys - keys.mean(axis=0))[1]
    normalised = np.zeros(width)
    normalised[: values.size] = values / values[0]
    angles = np.empty((len(SIDES), len(NULL_SPACE_CONVENTIONS), n))
    for s, vectors in enumerate((left, right)):
        for c, convention in enumerate(NULL_SPACE_CONVENTIONS):
            if vectors.shape[1] == n and c > 0:  # full rank: no completion, conventions agree
                angles[s, c] = angles[s, 0]
            else:
                angles[s, c] = eigen_angles(complete_orthogonal(vectors, convention, rng))
    return {
        "normalised_singular_values": normalised,
        "energy": energy_fractions(values, width),
        "centred_energy": energy_fractions(centred, width),
        "rank": np.int64(values.size),
        "angles": angles,
        "angle_distance": np.apply_along_axis(uniform_angle_distance, -1, angles),
        "stable_rank": mask_stable_ranks(queries, keys),
    }


def passage_diagnostics(
    queries: np.ndarray, keys: np.ndarray, rng: np.random.Generator
) -> dict[str, np.ndarray]:
    """:func:`head_diagnostics` of every head of one passage, stacked over (layers, heads).

    ``queries`` and ``keys`` have shape (layers, heads, n, d); heads are processed in order
    (layer-major), drawing their null-space completions from ``rng`` in that order.
    """
    layers, heads = queries.shape[:2]
    per_head = [
        head_diagnostics(queries[layer, head], keys[layer, head], rng)
        for layer in range(layers)
        for head in range(heads)
    ]
    return {
        key: np.stack([d[key] for d in per_head]).reshape(layers, heads, *np.shape(value))
        for key, value in per_head[0].items()
    }


def stream_parameters(source: str, passage_tokens: int, head_width: int) -> dict:
    """The parameters that key the random streams of one set of diagnostics (rng_for)."""
    return {
        "experiment": "paperC/pretrained",
        "source": source,
        "passage_tokens": int(passage_tokens),
        "head_width": int(head_width),
    }


def model_diagnostics(
    queries: np.ndarray, keys: np.ndarray, *, replicate: int = 0
) -> dict[str, np.ndarray]:
    """Diagnostics of every passage of a model, arrays (passages, layers, heads, ...).

    ``queries``, ``keys``: (passages, layers, heads, n, d). Passage p draws its null-space
    completions from rng_for(stream_parameters("minilm", n, d), p, "null_space", replicate)
    (used only when rank S < n).
    """
    passages, layers, heads, n, width = queries.shape
    params = stream_parameters("minilm", n, width)
    clock = Stopwatch()
    results = []
    for p in range(passages):
        rng = rng_for(params, p, "null_space", replicate=replicate)
        results.append(passage_diagnostics(queries[p], keys[p], rng))
        LOG.info(
            "passage %d of %d, n = %d: %d layers x %d heads, %.2f s",
            p + 1,
            passages,
            n,
            layers,
            heads,
            clock.lap(),
        )
    LOG.info("%d passages in %.2f s", passages, clock.total())
    return stack_passages(results)


def isotropic_diagnostics(
    passage_tokens: int, head_width: int, draws: int, *, replicate: int = 0
) -> dict[str, np.ndarray]:
    """The same diagnostics for isotropic scores, arrays (draws, 1, 1, ...).

    Draw i: Q, K in R^{n x d} with iid N(0, 1) entries from rng_for(params, i, "queries_keys")
    (left and right singular vectors of Q K^T are Haar distributed), completions from the
    stream "null_space"; params = stream_parameters("isotropic", n, d); both re-keyed by
    ``replicate``.
    """
    params = stream_parameters("isotropic", passage_tokens, head_width)
    clock = Stopwatch()
    results = []
    for draw in range(draws):
        gaussian = rng_for(params, draw, "queries_keys", replicate=replicate).standard_normal(
            (2, 1, 1, passage_tokens, head_width)
        )
        null_space = rng_for(params, draw, "null_space", replicate=replicate)
        results.append(passage_diagnostics(*gaussian, null_space))
        if (draw + 1) % DRAWS_PER_PROGRESS_RECORD == 0 or draw + 1 == draws:
            LOG.info(
                "draw %d of %d, n = %d, d = %d: %d draws since the previous record, %.2f s",
                draw + 1,
                draws,
                passage_tokens,
                head_width,
                draw % DRAWS_PER_PROGRESS_RECORD + 1,
                clock.lap(),
            )
    LOG.info("%d draws in %.2f s", draws, clock.total())
    return stack_passages(results)


def stack_passages(diagnostics: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Diagnostics of several passages as arrays with a leading passage axis."""
    return {key: np.stack([d[key] for d in diagnostics]) for key in diagnostics[0]}
