"""Random weights of a multi-head layer: Q_r = X W_r^Q, K_r = X W_r^K, V_r = X W_r^V, W^O (paper D).

Section 2.2 / appendix D: X in R^{n x d} with X X^T / d = I_n, W_r^Q, W_r^K, W_r^V iid N(0, 1/d)
(fan-in), W^O = G_O / sqrt(h d_V) with G_O iid N(0, 1). Then Q_r, K_r, V_r have iid N(0, 1)
entries, so the fast sampler ("gaussian") draws them directly; "literal" builds X (sqrt(d) times
a Haar-orthonormal n x d frame) and multiplies. Heads of one K/V group share their K (and V)
array; ``tied`` uses K_r as V_r. Each family has its own seeded stream, so the weights do not
depend on what else is drawn (e.g. the Gaussian equivalent's noise, stream "noise").
"""

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from attnspec.models.sampling import haar_orthonormal
from attnspec.multihead.shapes import MultiHeadShape
from attnspec.seeding import rng_for
from attnspec.validation import check_choice, check_count, check_fits_in_memory

SAMPLERS = ("gaussian", "literal")


@dataclass(frozen=True)
class MultiHeadWeights:
    """Projected queries, keys, values and the output weights of one draw (paper D, section 2).

    Attributes
    ----------
    shape : MultiHeadShape
    queries : ndarray, shape (h, n, d_K)
        Q_r = X W_r^Q, one per query head.
    keys : ndarray, shape (h_KV, n, d_K)
        K = X W^K, one per K/V group.
    values : ndarray, shape (h_KV, n, d_V), or None
        V = X W^V per K/V group; ``keys`` itself when tied; None without a value projection.
    output : ndarray, shape (h d_V, d_O), or None
        W^O (variance 1 / (h d_V)); None without an output projection.
    """

    shape: MultiHeadShape
    queries: np.ndarray
    keys: np.ndarray
    values: np.ndarray | None
    output: np.ndarray | None

    def query(self, head: int) -> np.ndarray:
        """Q_r, shape (n, d_K)."""
        return self.queries[head]

    def key(self, head: int) -> np.ndarray:
        """K_r (a view of the array of head r's K/V group), shape (n, d_K)."""
        return self.keys[self.shape.kv_group(head)]

    def value(self, head: int) -> np.ndarray | None:
        """V_r (a view of the array of head r's K/V group; K_r when tied), or None."""
        return None if self.values is None else self.values[self.shape.kv_group(head)]

    def output_rows(self, head: int) -> np.ndarray | None:
        """The d_V rows of W^O that multiply head r's values, or None without W^O."""
        if self.output is None:
            return None
        width = self.shape.d_v
        return self.output[head * width : (head + 1) * width]


def orthonormal_input(rng: np.random.Generator, n_tokens: int, d_model: int) -> np.ndarray:
    """X = sqrt(d) F^T, F the Haar-orthonormal d x n factor of a Gaussian QR: X X^T / d = I_n."""
    n_tokens, d_model = check_count(n_tokens, "n_tokens", 1), check_count(d_model, "d_model", 1)
    check_fits_in_memory(
        16 * n_tokens * d_model, f"n_tokens = {n_tokens}, d_model = {d_model}: X and its draw"
    )
    return np.sqrt(d_model) * haar_orthonormal(rng, d_model, n_tokens).T


def sample_weights(
    shape: MultiHeadShape,
    params: Mapping,
    draw: int,
    *,
    replicate: int = 0,
    sampler: str = "gaussian",
) -> MultiHeadWeights:
    """One draw of the layer's weights, seeded by ``rng_for(params, draw, stream, replicate)``.

    Streams "queries", "keys", "values", "output" (and "input" for X, literal only). Both
    samplers give the same law of (Q_r, K_r, V_r, W^O); their numbers differ.

    Parameters
    ----------
    shape : MultiHeadShape
    params : Mapping
        Parameters identifying the experiment (seed material; see :mod:`attnspec.seeding`).
    draw : int
        Draw index >= 0.
    replicate : int
        Workflow replicate >= 0.
    sampler : {"gaussian", "literal"}
    """
    check_choice(sampler, "sampler", SAMPLERS)
    check_fits_in_memory(_weights_bytes(shape, sampler), f"{shape}: the weights")

    def stream(name):
        return rng_for(params, draw, name, replicate=replicate)

    n, h, h_kv = shape.n_tokens, shape.heads, shape.kv_heads
    x = None
    if sampler == "literal":
        x = orthonormal_input(stream("input"), n, shape.d_model)

    def family(name, count, width):
        rng = stream(name)
        if x is None:
            return rng.standard_normal((count, n, width))
        out = np.empty((count, n, width))
        for k in range(count):
            np.matmul(x, rng.standard_normal((shape.d_model, width)), out=out[k])
        out *= 1.0 / np.sqrt(shape.d_model)
        return out

    queries = family("queries", h, shape.d_k)
    keys = family("keys", h_kv, shape.d_k)
    if shape.d_v is None:
        values = None
    elif shape.tied:
        values = keys
    else:
        values = family("values", h_kv, shape.d_v)
    output = None
    if shape.d_out is not None:
        output = stream("output").standard_normal((h * shape.d_v, shape.d_out))
        output *= 1.0 / np.sqrt(h * shape.d_v)
    return MultiHeadWeights(shape, queries, keys, values, output)


def _weights_bytes(shape: MultiHeadShape, sampler: str) -> int:
    """Bytes of the float64 arrays :func:`sample_weights` holds at once for ``shape``."""
    n, h, h_kv, d_v = shape.n_tokens, shape.heads, shape.kv_heads, shape.d_v or 0
    entries = n * (h * shape.d_k + h_kv * (shape.d_k + (0 if shape.tied else d_v)))
    entries += h * d_v * (shape.d_out or 0)
    if sampler == "literal":
        entries += 2 * n * shape.d_model + shape.d_model * max(shape.d_k, d_v)
    return 8 * entries
