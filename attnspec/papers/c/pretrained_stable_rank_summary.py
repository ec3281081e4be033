"""Figure C7 (paper C): the numbers drawn, from the per-passage stable ranks of every n.

Per head (layer l, head h), mask and n: srank_lh(n), the mean over the passages of n tokens.
Slope: the OLS slope on log n of the median over heads of srank_lh(n) (the drawn curve), with a
95 % percentile bootstrap interval over heads (heads resampled with replacement, the same
resample at every n; a descriptive interval: heads of one model are not independent draws),
over every length and over the lengths the model was fine-tuned on
(:data:`attnspec.pretrained.loader.FINE_TUNED_TOKENS`).

References at the same n, from the library (kind ``theory``):
- ``constant_scores``: row-softmax of constant scores, the canonical model with zero bulk and no
  spike (:func:`attnspec.models.canonical.diagonal_softmax` of sigma = 0): causal, the Cesaro
  matrix C_n (||C_n||_F^2 = H_n, ||C_n|| -> 2, srank ~ log n / 4); bidirectional, the uniform
  matrix 1 1^T / n (srank 1). It is also the Gaussian model's beta -> 0 limit.
- ``isotropic``: the derived finite-n reference of the Gaussian model (scores beta q_i.k_j /
  sqrt(d), Q, K iid N(0, 1)) at beta = 1 and d = the head width, E ||A||_F^2 / lambda_max(E A A^T)
  (:mod:`attnspec.papers.c.gaussian_stable_rank_summary`): the isotropic scores of the heads'
  shape that figure C6 draws beside the model.
"""

import numpy as np

from attnspec.models.canonical import diagonal_softmax
from attnspec.models.softmax import MASKS
from attnspec.papers.c.gaussian_stable_rank_summary import (
    bidirectional_reference,
    causal_reference,
)
from attnspec.plotting.tidy import numeric
from attnspec.pretrained.loader import FINE_TUNED_TOKENS
from attnspec.tables import Residual

ISOTROPIC_BETA = 1.0
"""beta of the isotropic reference: Q, K with iid N(0, 1) entries and the model's 1 / sqrt(d)."""
STABLE_RANK, HEAD_MEAN, PASSAGES, SLOPE, INTERCEPT = (
    "stable_rank",
    "head_mean",
    "passages",
    "slope",
    "intercept",
)
CONSTANT_SCORES, ISOTROPIC = "constant_scores", "isotropic"
FITS = ("all n", f"n <= {FINE_TUNED_TOKENS}")
"""The length ranges of the slope fits: every length, and those the model was fine-tuned on."""
_ISOTROPIC_REFERENCES = {"bidirectional": bidirectional_reference, "causal": causal_reference}


def log_slopes(n_tokens, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """OLS slope and intercept of ``values`` (axis 0 over the lengths) on log n, one per
    trailing index: y = a + b log n."""
    x = np.log(np.asarray(n_tokens, dtype=np.float64))
    if x.size < 2 or np.ptp(x) == 0:
        raise ValueError(f"n_tokens must hold at least two distinct lengths, got {list(n_tokens)}")
    values = np.asarray(values, dtype=np.float64)
    if values.shape[0] != x.size:
        raise ValueError(f"values must have {x.size} rows (one per n), got shape {values.shape}")
    centred = (x - x.mean()).reshape(-1, *[1] * (values.ndim - 1))
    slopes = np.sum(centred * (values - values.mean(axis=0)), axis=0) / np.sum(centred**2)
    return slopes, values.mean(axis=0) - slopes * x.mean()


def median_slope(
    n_tokens, head_values: np.ndarray, resamples: int, rng: np.random.Generator
) -> tuple[float, float, float, float]:
    """OLS fit on log n of the median over heads of ``head_values`` (lengths x heads): slope,
    intercept, and the 2.5 % and 97.5 % quantiles of the slope over ``resamples`` bootstrap
    resamples of the heads (with replacement, one resample for every n)."""
    head_values = np.asarray(head_values, dtype=np.float64)
    if head_values.ndim != 2 or head_values.shape[1] < 2:
        raise ValueError(f"head_values must be (lengths, heads >= 2), got {head_values.shape}")
    slope, intercept = log_slopes(n_tokens, np.median(head_values, axis=1))
    picks = rng.integers(0, head_values.shape[1], size=(resamples, head_values.shape[1]))
    resampled = np.median(head_values[:, picks], axis=2)  # (lengths, resamples)
    low, high = np.quantile(log_slopes(n_tokens, resampled)[0], [0.025, 0.975])
    return float(slope), float(intercept), float(low), float(high)


def bootstrap_parameters(n_tokens, mask: str, fit: str) -> dict:
    """The parameters that key a slope's bootstrap stream (rng_for)."""
    return {
        "experiment": "paperC/C7",
        "statistic": "median slope",
        "mask": mask,
        "fit": fit,
        "n_tokens": [int(n) for n in n_tokens],
    }


def constant_score_stable_rank(n: int, mask: str) -> float:
    """||A||_F^2 / ||A||^2 of the row softmax of constant scores (sigma = 0) under ``mask``:
    the Cesaro matrix (causal), 1 1^T / n (bidirectional)."""
    softmax = diagonal_softmax(np.zeros(n), mask)
    return float(softmax.frobenius_squared() / softmax.top_squared_singular_values(1)[0])


def reference_curves(n_tokens, head_width: int) -> dict[tuple[str, str], np.ndarray]:
    """``{(reference, mask): srank at each n}`` for reference in (constant_scores, isotropic)."""
    curves = {}
    for mask in MASKS:
        curves[CONSTANT_SCORES, mask] = np.array(
            [constant_score_stable_rank(int(n), mask) for n in n_tokens]
        )
        curves[ISOTROPIC, mask] = np.array(
            [
                _ISOTROPIC_REFERENCES[mask](int(n), ISOTROPIC_BETA, head_width)["stable_rank"]
                for n in n_tokens
            ]
        )
    return curves


SLOPE_HEADER = (
    "mask",
    "fit",
    "slope of the heads' median on log n",
    "95 % bootstrap interval (heads)",
    "heads",
    "constant scores",
    "isotropic (beta = 1)",
)


def slope_rows(frame) -> list[tuple]:
    """Per mask and fit: the slope of the heads' median, its interval and head count, and the
    two references' slopes over the same lengths (figure C7's caption table), from the tidy
    table."""
    frame = numeric(frame, "value", "low", "high", "heads")
    rows = []
    for mask in MASKS:
        for fit in FITS:
            values = frame[(frame["mask"] == mask) & (frame["fit"] == fit)].set_index("series")
            if SLOPE not in values.index:
                continue
            slope = values.loc[SLOPE]
            rows.append(
                (
                    mask,
                    fit,
                    float(slope["value"]),
                    f"[{slope['low']:.3f}, {slope['high']:.3f}]",
                    int(slope["heads"]),
                    # 0 in exact arithmetic for the bidirectional 1 1^T / n (stable rank 1)
                    Residual(values.loc[f"{CONSTANT_SCORES}_slope", "value"]),
                    float(values.loc[f"{ISOTROPIC}_slope", "value"]),
                )
            )
    return rows
