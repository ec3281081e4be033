"""Controls of the eigen-angle diagnostic (claim C.5): score matrices of one head's shape.

Each control goes through the diagnostics pipeline of :mod:`attnspec.papers.c.pretrained`
(factors Q, K with Q K^T / sqrt(d) = S; SVD in descending sigma; sign convention; eigen-angles
of U and V; Kolmogorov distance to uniform), so it is compared with the Haar reference exactly as
the model's heads are. Only shapes with n <= d (rank S = n, no null space) are supported.

- ``aligned`` (known non-uniform eigen-angles): S = U diag(sigma) V^T with U = W R W^T, R the
  block-diagonal rotations by angles phi_k iid uniform on [0, pi/3] (one more angle 0
  when n is odd), W Haar on O(n), V built the same way independently, and sigma the singular
  values of Gaussian scores of the same shape. The eigen-angles of U are the phi_k (each twice):
  uniform on [0, pi/3], Kolmogorov distance 2/3 from uniform on [0, pi]. This is the canonical
  geometry of paper C (U = V = I, scores aligned with the tokens in descending sigma) rotated by
  at most pi/3. With angles <= pi/3 (cos >= 1/2) each column's largest entry is its positive
  diagonal entry, so the sign convention flips no column and the pipeline returns these angles
  (tested; at pi/2 about one draw in five has a flipped column).
- ``local`` (structure the diagnostic does not see): local-attention scores
  S_ij = -|i - j| / w + G_ij, a distance penalty (ALiBi-like) with bandwidth w log-uniform on
  [1, 8] plus Gaussian content scores G of the same shape. The singular vectors are structured
  (cosine-like) but, ordered by descending sigma, not aligned with the token order: their
  eigen-angle law is not known in closed form; it is measured. (The quadratic penalty
  -|i - j|^2 / w alone has rank 3, so U would be mostly null-space completion.)
"""

import logging

import numpy as np

from attnspec.models.canonical import haar_orthogonal
from attnspec.papers.c.pretrained import passage_diagnostics, stack_passages
from attnspec.papers.progress import Stopwatch
from attnspec.seeding import rng_for

LOG = logging.getLogger(__name__)

CONTROLS = ("aligned", "local")
ALIGNED_MAX_ANGLE = np.pi / 3
LOCAL_BANDWIDTHS = (1.0, 8.0)


def rotation_with_angles(angles: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """W R W^T in O(n): R rotates the planes (2k, 2k + 1) by angles[k], W Haar (from ``rng``).
    Its eigen-angles are the given angles, each twice (and 0 once when n is odd)."""
    pairs = n // 2
    angles = np.asarray(angles, dtype=np.float64)
    if angles.shape != (pairs,):
        raise ValueError(f"need n // 2 = {pairs} angles, got shape {angles.shape}")
    rotation = np.eye(n)
    cos, sin = np.cos(angles), np.sin(angles)
    even = 2 * np.arange(pairs)
    rotation[even, even] = cos
    rotation[even + 1, even + 1] = cos
    rotation[even, even + 1] = -sin
    rotation[even + 1, even] = sin
    basis = haar_orthogonal(n, rng)
    return basis @ rotation @ basis.T


def gaussian_singular_values(n: int, width: int, rng: np.random.Generator) -> np.ndarray:
    """Descending singular values of G_1 G_2^T / sqrt(d), G_i in R^{n x d} iid N(0, 1)."""
    left, right = rng.standard_normal((2, n, width))
    return np.linalg.svd(left @ right.T / np.sqrt(width), compute_uv=False)


def aligned_scores(n: int, width: int, rng: np.random.Generator) -> np.ndarray:
    """One ``aligned`` control score matrix (module docstring)."""
    values = gaussian_singular_values(n, width, rng)
    sides = []
    for _ in range(2):
        angles = rng.uniform(0.0, ALIGNED_MAX_ANGLE, n // 2)
        sides.append(rotation_with_angles(angles, n, rng))
    return (sides[0] * values) @ sides[1].T


def local_scores(n: int, width: int, rng: np.random.Generator) -> np.ndarray:
    """One ``local`` control score matrix (module docstring)."""
    low, high = np.log(LOCAL_BANDWIDTHS)
    bandwidth = np.exp(rng.uniform(low, high))
    positions = np.arange(n)
    left, right = rng.standard_normal((2, n, width))
    content = left @ right.T / np.sqrt(width)
    return -np.abs(positions[:, None] - positions[None, :]) / bandwidth + content


def score_factors(scores: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Q, K in R^{n x d} with Q K^T / sqrt(d) = S (n <= d): from S = a diag(s) b^T,
    Q = [a diag(sqrt(s)) d^(1/4), 0], K = [b diag(sqrt(s)) d^(1/4), 0]."""
    n = scores.shape[0]
    if scores.shape != (n, n) or n > width:
        raise ValueError(f"need a square n x n score matrix with n <= d = {width}")
    a, values, b_t = np.linalg.svd(scores)
    scale = np.sqrt(values) * width**0.25
    queries, keys = np.zeros((2, n, width))
    queries[:, :n] = a * scale
    keys[:, :n] = b_t.T * scale
    return queries, keys


SCORES = {"aligned": aligned_scores, "local": local_scores}


def control_diagnostics(
    control: str, passage_tokens: int, head_width: int, draws: int, *, replicate: int = 0
) -> dict[str, np.ndarray]:
    """The diagnostics of :func:`attnspec.papers.c.pretrained.passage_diagnostics` for
    ``draws`` control score matrices, arrays (draws, 1, 1, ...). Draw i comes from
    rng_for({"experiment": "paperC/pretrained", "source": "control-<control>", ...}, i,
    "scores", replicate)."""
    if control not in CONTROLS:
        raise ValueError(f"control must be one of {CONTROLS}, got {control!r}")
    params = {
        "experiment": "paperC/pretrained",
        "source": f"control-{control}",
        "passage_tokens": int(passage_tokens),
        "head_width": int(head_width),
    }
    clock = Stopwatch()
    results = []
    for draw in range(draws):
        rng = rng_for(params, draw, "scores", replicate=replicate)
        queries, keys = score_factors(SCORES[control](passage_tokens, head_width, rng), head_width)
        results.append(passage_diagnostics(queries[None, None], keys[None, None], rng))
    LOG.info(
        "%d %s control draws, n = %d, d = %d, in %.2f s",
        draws,
        control,
        passage_tokens,
        head_width,
        clock.total(),
    )
    return stack_passages(results)
