"""Figure C7 (paper C): stable rank of a pretrained transformer's attention against the passage
length n, under the model's own (bidirectional) mask and a causal mask on the same scores.

For one passage of n tokens, layer l and head h with queries Q and keys K (n x d, biases
included): S = Q K^T / sqrt(d), A_mask = row-softmax_mask(S) and the stable rank
srank = ||A||_F^2 / ||A||_2^2 (:func:`attnspec.papers.c.pretrained.mask_stable_ranks`). Each
passage is its own model input of n positions (the forward pass is rerun at every n), so the
scores at n are those the model computes on n tokens, not a truncation of a longer passage's.
Paper C's claims C.3 (bounded for bidirectional) and C.4 (growing like log n for causal) are
stated for its models; here they are looked at, not judged, on a real model.
"""

import logging
from collections.abc import Mapping

import numpy as np

from attnspec.models.softmax import MASKS
from attnspec.papers.c.pretrained import mask_stable_ranks
from attnspec.papers.progress import Stopwatch
from attnspec.pretrained.bert import BertConfig, queries_keys

LOG = logging.getLogger(__name__)


def passage_stable_ranks(queries: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Stable ranks of every head of one passage under each mask: array (layers, heads, masks)
    from ``queries``, ``keys`` of shape (layers, heads, n, d)."""
    return np.array(
        [
            [mask_stable_ranks(q, k) for q, k in zip(layer_q, layer_k, strict=True)]
            for layer_q, layer_k in zip(queries, keys, strict=True)
        ]
    )


def model_stable_ranks(
    weights: Mapping[str, np.ndarray], config: BertConfig, passages: np.ndarray
) -> np.ndarray:
    """:func:`passage_stable_ranks` of each passage (rows of ``passages``, token ids, all of
    length n) after its forward pass: array (passages, layers, heads, masks). Deterministic."""
    clock = Stopwatch()
    ranks = []
    for index, token_ids in enumerate(passages):
        qk = queries_keys(weights, config, token_ids)
        ranks.append(passage_stable_ranks(qk.queries, qk.keys))
        LOG.info(
            "passage %d of %d, n = %d: forward pass and %d heads x %d masks, %.2f s",
            index + 1,
            len(passages),
            len(token_ids),
            config.n_layers * config.n_heads,
            len(MASKS),
            clock.lap(),
        )
    LOG.info("%d passages in %.2f s", len(passages), clock.total())
    return np.stack(ranks)
