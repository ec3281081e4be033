"""Paper D's simulated draws as the workflow runs them: one parameter point per job, every draw
seeded on its own (so a batch equals its draws computed one by one, and one draw can be
regenerated alone), and the memory a draw needs.

Three families of points, each draw giving all n eigenvalues of MHA_perp MHA_perp^T and of
n^{-1} MHA^G MHA^G^T (:func:`attnspec.multihead.spectra.draw_comparison_spectra`):
- figure D1 / table D-T1 / rows D.1: a table D.2 configuration
  (:mod:`attnspec.papers.d.public_models`), each draw also with the finite-size floor (a second
  Gaussian equivalent with independent noise) and the wrong Gaussian equivalents the rows must
  rule out (:func:`mutant_coefficients`; :func:`attnspec.multihead.spectra.draw_floor_comparison`);
- figure D2: h heads of fixed width d_K = d_V at n tokens, either the attention stage alone
  (sqrt(n / h) [A_1_perp, ..., A_h_perp], law (C.10)) or the whole layer with W^O (C.15);
- figure D3: one sharing scheme (:data:`SCHEMES`) at n tokens with fixed ratios h, gamma_K =
  gamma_V, gamma_O (d_K = gamma_K n / h, d_O = gamma_O n).
The input width d enters neither the fast sampler nor the laws; D2 uses d = n, D3 d = d_O >= n.
"""

import math
from collections.abc import Callable, Mapping
from fractions import Fraction

import numpy as np

from attnspec.multihead.shapes import MultiHeadShape
from attnspec.multihead.spectra import (
    Coefficients,
    draw_comparison_spectra,
    draw_floor_comparison,
    paper_coefficients,
)
from attnspec.papers.d.public_models import public_model
from attnspec.papers.draw_batches import stack_draws

SCHEMES = ("independent", "mqa", "gqa", "tied")
"""K/V sharing of figure D3: independent heads, one K/V pair for all heads (multi-query), one per
group of heads (grouped-query), values tied to keys within each head (K = V)."""
SCHEME_LABELS = {"independent": "independent", "mqa": "MQA", "gqa": "GQA", "tied": "K = V"}
STAGES = ("attention", "output")
"""Figure D2's two layers: the attention stage alone, and the whole layer with V and W^O."""

# Peak memory of a draw besides its arrays (interpreter, numpy, scipy), MB; and the allowance
# on the arrays model (checked against measured peaks: docs/benchmark.md).
_BASE_MB = 150
_ARRAYS_ALLOWANCE = 1.2


def _record(softmax: np.ndarray, gaussian: np.ndarray, prefix: str = "") -> dict:
    return {f"{prefix}softmax": softmax, f"{prefix}gaussian": gaussian}


Progress = Callable[[int], None] | None


def _batch(draw: Callable[[int], dict], draws: int, progress: Progress) -> dict:
    """draw(0), ..., draw(draws - 1) stacked on a leading axis; ``progress(d)`` after each."""
    records = []
    for d in range(int(draws)):
        records.append(draw(d))
        if progress is not None:
            progress(d)
    return stack_draws(records)


def public_model_params(model_id: str, beta: float) -> dict:
    """Seed material of the table D.2 configuration ``model_id`` (figure D1)."""
    return {"paper": "D", "figure": "D1", "model": model_id, "beta": float(beta)}


MUTANT_PREFIX = "mutant/"
"""Record key of a wrong Gaussian equivalent: the prefix and the registry's alternative name."""


def mutant_coefficients(beta: float) -> dict[str, Coefficients]:
    """The wrong Gaussian equivalents rows D.1 must rule out (the registry's alternatives, by
    name), as the variances (score, noise) of Y_r's two terms (the paper's: theta2 and
    theta1 - theta2 at beta): "beta-1%" / "beta+1%" the paper's at 0.99 / 1.01 beta;
    "theta_2 x 0.5" score theta2 / 2 with theta1 kept (noise theta1 - theta2 / 2); "no score
    term" score 0, noise theta1."""
    paper = paper_coefficients(beta)
    theta1 = paper.score + paper.noise
    return {
        "beta-1%": paper_coefficients(0.99 * beta),
        "beta+1%": paper_coefficients(1.01 * beta),
        "theta_2 x 0.5": Coefficients(0.5 * paper.score, theta1 - 0.5 * paper.score),
        "no score term": Coefficients(0.0, theta1),
    }


def public_model_draw(model_id: str, beta: float, draw: int, *, replicate: int = 0) -> dict:
    """One draw at a table D.2 configuration, n eigenvalues each: ``softmax``, ``gaussian``
    (the same numbers as :func:`draw_comparison_spectra` gives), ``floor`` (a second Gaussian
    equivalent of the same weights with independent noise) and ``mutant/<name>`` for each
    :func:`mutant_coefficients` (the same S_r and noise as ``gaussian``)."""
    shape = public_model(model_id).shape
    params = public_model_params(model_id, beta)
    wanted = {MUTANT_PREFIX + name: pair for name, pair in mutant_coefficients(beta).items()}
    return draw_floor_comparison(shape, beta, params, draw, wanted, replicate=replicate)


def public_model_draws(
    model_id: str, beta: float, draws: int, *, replicate: int = 0, progress: Progress = None
) -> dict:
    """Draws 0..draws-1 of :func:`public_model_draw`, stacked on a leading draw axis
    (``progress(d)`` is called after draw d)."""
    return _batch(
        lambda d: public_model_draw(model_id, beta, d, replicate=replicate), draws, progress
    )


def heads_shape(stage: str, n_tokens: int, heads: int, d_head: int, d_out: int) -> MultiHeadShape:
    """Figure D2's layer: h heads of width d_K = d_V = d_head; W^O of width d_out for "output"."""
    if stage not in STAGES:
        raise ValueError(f"stage must be one of {STAGES}, got {stage!r}")
    if stage == "attention":
        return MultiHeadShape(n_tokens, n_tokens, heads, d_head)
    return MultiHeadShape(n_tokens, n_tokens, heads, d_head, d_head, d_out)


def heads_params(stage, n_tokens, heads, d_head, d_out, beta) -> dict:
    """Seed material of one figure D2 point."""
    return {
        "paper": "D",
        "figure": "D2",
        "stage": stage,
        "n": int(n_tokens),
        "heads": int(heads),
        "d_head": int(d_head),
        "d_out": int(d_out),
        "beta": float(beta),
    }


def heads_draw(n_tokens, heads, d_head, d_out, beta, draw, *, replicate: int = 0) -> dict:
    """One draw of both stages of figure D2 at h heads: ``<stage>/softmax`` and
    ``<stage>/gaussian``."""
    record = {}
    for stage in STAGES:
        shape = heads_shape(stage, n_tokens, heads, d_head, d_out)
        params = heads_params(stage, n_tokens, heads, d_head, d_out, beta)
        spectra = draw_comparison_spectra(shape, beta, params, draw, replicate=replicate)
        record.update(_record(*spectra, prefix=f"{stage}/"))
    return record


def heads_draws(
    n_tokens, heads, d_head, d_out, beta, draws, *, replicate: int = 0, progress: Progress = None
) -> dict:
    """Draws 0..draws-1 of :func:`heads_draw`, stacked on a leading draw axis."""
    return _batch(
        lambda d: heads_draw(n_tokens, heads, d_head, d_out, beta, d, replicate=replicate),
        draws,
        progress,
    )


def sharing_widths(n_tokens: int, heads: int, gamma_k: float, gamma_o: float) -> tuple[int, int]:
    """(d_K = gamma_K n / h, d_O = gamma_O n) as whole numbers >= 1, else ValueError."""
    d_head, d_out = gamma_k * n_tokens / heads, gamma_o * n_tokens
    for name, value in (("gamma_k * n_tokens / heads", d_head), ("gamma_o * n_tokens", d_out)):
        if value < 1 or value != round(value):
            raise ValueError(
                f"{name} must be a whole number >= 1 at every n, got {value:g} at n = {n_tokens}"
            )
    return round(d_head), round(d_out)


def sharing_size_step(heads: int, gamma_k: float, gamma_o: float) -> int:
    """The least s >= 1 such that every multiple n of s has whole widths d_K = gamma_K n / h and
    d_O = gamma_O n (:func:`sharing_widths`): with gamma_K / h = p / q and gamma_O = p' / q' in
    lowest terms, s = lcm(q, q'). The sizes at which a figure D3 point can be asked for."""
    if heads < 1 or heads != int(heads):
        raise ValueError(f"heads must be a whole number >= 1, got {heads!r}")
    denominators = []
    for name, value in (("gamma_k", gamma_k), ("gamma_o", gamma_o)):
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
        denominators.append(Fraction(value).limit_denominator(10**6))
    return math.lcm((denominators[0] / int(heads)).denominator, denominators[1].denominator)


def sharing_shape(
    scheme: str, n_tokens: int, heads: int, kv_groups: int, gamma_k: float, gamma_o: float
) -> MultiHeadShape:
    """Figure D3's layer for one scheme: d_K = d_V = gamma_K n / h, d_O = gamma_O n, and
    h_KV = h (independent, tied), 1 (mqa) or ``kv_groups`` (gqa)."""
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {SCHEMES}, got {scheme!r}")
    if not 1 < kv_groups < heads or heads % kv_groups:
        raise ValueError(
            f"kv_groups must divide heads = {heads} and lie strictly between 1 and heads (the "
            f"grouped-query scheme), got {kv_groups!r}"
        )
    d_head, d_out = sharing_widths(n_tokens, heads, gamma_k, gamma_o)
    kv_heads = {"independent": heads, "mqa": 1, "gqa": kv_groups, "tied": heads}[scheme]
    return MultiHeadShape(
        n_tokens,
        max(n_tokens, d_out),
        heads,
        d_head,
        d_head,
        d_out,
        kv_heads=kv_heads,
        tied=scheme == "tied",
    )


def configured_sharing_shape(scheme: str, settings: Mapping, n_tokens: int) -> MultiHeadShape:
    """:func:`sharing_shape` at ``n_tokens`` with heads, kv_groups, gamma_k and gamma_o of
    ``settings`` (the config section paperD.sharing)."""
    widths = (settings[key] for key in ("heads", "kv_groups", "gamma_k", "gamma_o"))
    return sharing_shape(scheme, n_tokens, *widths)


def check_sharing_settings(settings: Mapping) -> None:
    """ValueError naming the config key unless every scheme has a layer at every n of
    ``settings`` (the section paperD.sharing: whole widths, 1 < kv_groups < heads dividing it)."""
    for n_tokens in settings["n_tokens"]:
        for scheme in settings["schemes"]:
            try:
                configured_sharing_shape(scheme, settings, n_tokens)
            except ValueError as error:
                raise ValueError(f"config key paperD.sharing: {error}") from None


def sharing_params(scheme: str, shape: MultiHeadShape, beta: float) -> dict:
    """Seed material of one figure D3 point (each scheme has its own streams)."""
    return {
        "paper": "D",
        "figure": "D3",
        "scheme": scheme,
        "n": shape.n_tokens,
        "heads": shape.heads,
        "kv_heads": shape.kv_heads,
        "d_head": shape.d_k,
        "d_out": shape.d_out,
        "beta": float(beta),
    }


def sharing_draw(scheme: str, settings: Mapping, n_tokens: int, draw: int, *, replicate=0) -> dict:
    """One draw of figure D3 at one scheme and n; ``settings`` holds heads, kv_groups, gamma_k,
    gamma_o and beta (the config section paperD.sharing)."""
    shape = configured_sharing_shape(scheme, settings, n_tokens)
    beta = float(settings["beta"])
    params = sharing_params(scheme, shape, beta)
    return _record(*draw_comparison_spectra(shape, beta, params, draw, replicate=replicate))


def sharing_draws(
    scheme: str,
    settings: Mapping,
    n_tokens: int,
    draws: int,
    *,
    replicate: int = 0,
    progress: Progress = None,
) -> dict:
    """Draws 0..draws-1 of :func:`sharing_draw`, stacked on a leading draw axis."""
    return _batch(
        lambda d: sharing_draw(scheme, settings, n_tokens, d, replicate=replicate), draws, progress
    )


def draw_peak_mb(shape: MultiHeadShape, draws: int = 1, *, floor: bool = False) -> int:
    """Peak memory (MB) of a job computing ``draws`` draws of a shape: Q, K, V, W^O, the
    n x (h d_V) concatenation, the n x d_O output, one n x n attention matrix, the Gram matrix
    (float64), the stored spectra, and the interpreter. With ``floor`` (the draws of
    :func:`public_model_draw`) the recombination may peak higher: the weights, the Gaussian
    equivalent's output and the score term's, and four Gram-sized matrices (the Gaussian
    equivalent's, the score term's, the cross product and its transpose); and 1 + 4 more
    spectra are stored per draw (floor and mutants)."""
    n, width = shape.n_tokens, shape.value_width
    out = shape.output_width
    gram = min(n, out) ** 2
    values = 0 if shape.d_v is None or shape.tied else shape.kv_heads * n * width
    weights = (
        shape.heads * n * shape.d_k
        + shape.kv_heads * n * shape.d_k
        + values
        + (0 if shape.d_out is None else shape.heads * width * out)
    )
    floats = weights + n * shape.heads * width + n * out + n * n + gram
    spectra = 2
    if floor:
        floats = max(floats, weights + 2 * n * out + 4 * gram)
        spectra += 1 + len(mutant_coefficients(1.0))
    stored = spectra * draws * n
    return int(_BASE_MB + _ARRAYS_ALLOWANCE * 8 * (floats + stored) / 1e6) + 1
