"""The BERT encoder forward pass in numpy (float64), giving each layer's per-head Q and K.

For a passage of n ids (one segment, no padding, so the model's own attention mask is all-ones
and attention is bidirectional), with LN the layer norm (biased variance, epsilon from the
config) and GELU the exact erf form:

    X_0 = LN(E_word[ids] + E_pos[0:n] + E_type[0])
    per layer l and head h (width d = hidden / heads):
        Q_h = X W_Q^h + b_Q^h,  K_h = X W_K^h + b_K^h,  V_h = X W_V^h + b_V^h   (n x d)
        P_h = row-softmax(Q_h K_h^T / sqrt(d))                               (n x n)
    H = LN(X + concat_h(P_h V_h) W_O + b_O)
    X_{l+1} = LN(H + GELU(H W_1 + b_1) W_2 + b_2)

(Devlin et al. 2019; the Hugging Face ``BertModel`` with eager attention computes the same.)
Weight names are those of the safetensors file; a Linear weight is stored (out, in).
"""

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from scipy.special import erf

from attnspec.models.softmax import row_softmax

LOG = logging.getLogger(__name__)


@dataclass(frozen=True)
class BertConfig:
    """The shape of a BERT encoder (from its ``config.json``)."""

    n_layers: int
    n_heads: int
    hidden_width: int
    max_positions: int
    layer_norm_eps: float

    @classmethod
    def from_json(cls, config: Mapping) -> "BertConfig":
        return cls(
            n_layers=int(config["num_hidden_layers"]),
            n_heads=int(config["num_attention_heads"]),
            hidden_width=int(config["hidden_size"]),
            max_positions=int(config["max_position_embeddings"]),
            layer_norm_eps=float(config["layer_norm_eps"]),
        )

    @property
    def head_width(self) -> int:
        return self.hidden_width // self.n_heads


@dataclass(frozen=True)
class QueriesKeys:
    """Per-layer, per-head queries and keys of one passage: arrays (layers, heads, n, d)."""

    queries: np.ndarray
    keys: np.ndarray

    @property
    def head_width(self) -> int:
        return self.queries.shape[-1]


def layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    """(x - mean) / sqrt(var + eps) * weight + bias over the last axis (biased variance)."""
    centred = x - x.mean(axis=-1, keepdims=True)
    variance = np.mean(centred**2, axis=-1, keepdims=True)
    return centred / np.sqrt(variance + eps) * weight + bias


def gelu(x: np.ndarray) -> np.ndarray:
    """GELU(x) = x Phi(x) = x (1 + erf(x / sqrt 2)) / 2 (exact form, as BERT's "gelu")."""
    return 0.5 * x * (1.0 + erf(x / np.sqrt(2.0)))


def head_attention(queries: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """P = row-softmax(Q K^T / sqrt(d)) for one head, bidirectional (n x n, rows sum to 1)."""
    return row_softmax(queries @ keys.T, scale=1.0 / np.sqrt(queries.shape[-1]))


def _linear(weights: Mapping[str, np.ndarray], name: str, x: np.ndarray) -> np.ndarray:
    return x @ weights[f"{name}.weight"].T + weights[f"{name}.bias"]


def _heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    """(n, hidden) -> (heads, n, d)."""
    n, hidden = x.shape
    return x.reshape(n, n_heads, hidden // n_heads).transpose(1, 0, 2)


def queries_keys(
    weights: Mapping[str, np.ndarray], config: BertConfig, token_ids: np.ndarray
) -> QueriesKeys:
    """Run the encoder on one passage and return every layer's per-head Q and K.

    Parameters
    ----------
    weights : mapping of str to ndarray
        The model's tensors (float64), named as in its safetensors file.
    config : BertConfig
    token_ids : ndarray of int, shape (n,)
        One passage, [CLS] ... [SEP], n <= config.max_positions.

    Returns
    -------
    QueriesKeys
        queries, keys of shape (layers, heads, n, head_width), the biases included (the scores
        of head h are Q_h K_h^T / sqrt(head_width)).
    """
    token_ids = np.asarray(token_ids)
    n = token_ids.size
    if not 1 <= n <= config.max_positions:
        raise ValueError(
            f"a passage has at most {config.max_positions} tokens (the model's positions), got "
            f"{n}; split longer texts with attnspec.pretrained.passages.split_into_passages"
        )
    eps = config.layer_norm_eps
    x = (
        weights["embeddings.word_embeddings.weight"][token_ids]
        + weights["embeddings.position_embeddings.weight"][:n]
        + weights["embeddings.token_type_embeddings.weight"][0]
    )
    x = layer_norm(
        x, weights["embeddings.LayerNorm.weight"], weights["embeddings.LayerNorm.bias"], eps
    )
    shape = (config.n_layers, config.n_heads, n, config.head_width)
    all_queries, all_keys = np.empty(shape), np.empty(shape)
    for layer in range(config.n_layers):
        prefix = f"encoder.layer.{layer}."
        queries = _heads(_linear(weights, prefix + "attention.self.query", x), config.n_heads)
        keys = _heads(_linear(weights, prefix + "attention.self.key", x), config.n_heads)
        values = _heads(_linear(weights, prefix + "attention.self.value", x), config.n_heads)
        all_queries[layer], all_keys[layer] = queries, keys
        context = np.concatenate(
            [head_attention(q, k) @ v for q, k, v in zip(queries, keys, values, strict=True)],
            axis=1,
        )
        hidden = layer_norm(
            x + _linear(weights, prefix + "attention.output.dense", context),
            weights[prefix + "attention.output.LayerNorm.weight"],
            weights[prefix + "attention.output.LayerNorm.bias"],
            eps,
        )
        inner = gelu(_linear(weights, prefix + "intermediate.dense", hidden))
        x = layer_norm(
            hidden + _linear(weights, prefix + "output.dense", inner),
            weights[prefix + "output.LayerNorm.weight"],
            weights[prefix + "output.LayerNorm.bias"],
            eps,
        )
    return QueriesKeys(queries=all_queries, keys=all_keys)


def attention_probabilities(qk: QueriesKeys) -> np.ndarray:
    """The model's own (bidirectional) attention of every head: array (layers, heads, n, n)."""
    return np.stack(
        [
            np.stack([head_attention(q, k) for q, k in zip(qs, ks, strict=True)])
            for qs, ks in zip(qk.queries, qk.keys, strict=True)
        ]
    )


def passages_queries_keys(
    weights: Mapping[str, np.ndarray], config: BertConfig, passages: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`queries_keys` of each passage (rows of ``passages``, all of length n), stacked.

    Returns queries, keys of shape (passages, layers, heads, n, head_width).
    """
    start = time.perf_counter()
    results = []
    for index, token_ids in enumerate(passages):
        passage_start = time.perf_counter()
        results.append(queries_keys(weights, config, token_ids))
        LOG.info(
            "passage %d of %d, n = %d: forward pass through %d layers, %.2f s",
            index + 1,
            len(passages),
            len(token_ids),
            config.n_layers,
            time.perf_counter() - passage_start,
        )
    LOG.info("%d passages in %.2f s", len(passages), time.perf_counter() - start)
    return np.stack([r.queries for r in results]), np.stack([r.keys for r in results])
