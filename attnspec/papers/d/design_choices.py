"""Figure D4: paper D's own figure D.1 (appendix D.7), its draws as the workflow runs them.

Three panels, each a few conditions of n tokens at inverse temperature beta; a draw gives, per
condition, all n eigenvalues of MHA_perp MHA_perp^T and of n^{-1} MHA^G MHA^G^T from the same
weights (:func:`attnspec.multihead.spectra.comparison_spectra`, the noise W_r drawn n x n per
head as in the paper's construction):
- "a": the attention stage alone at h heads of width d_K = total width / h (the total width
  h d_K fixed), law (C.9)-(C.10);
- "b": the layer with h heads, d_K = d_V, and each output width d_O, law (C.15);
- "c": independent heads, one K and one V shared by all heads (MQA) and V_r = K_r within heads
  (K = V) at one output width; laws (C.15) and (C.21). The independent and tied conditions are
  one draw: the same Q_r, K_r, W^O and noise W_r (streams of one seed material), the tied one
  using K_r as V_r (:func:`tied_weights`); the shared condition has seed material of its own.
Every draw is seeded by its parameters (:func:`attnspec.seeding.rng_for`), so a batch equals its
draws computed one by one. The input width d enters neither the fast sampler nor the laws:
d = max(n, d_O).
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from attnspec.multihead.sampling import MultiHeadWeights, sample_weights
from attnspec.multihead.shapes import MultiHeadShape
from attnspec.multihead.spectra import comparison_spectra
from attnspec.papers.d.multihead import draw_peak_mb
from attnspec.papers.draw_batches import batched_draws
from attnspec.seeding import rng_for

PANELS = ("a", "b", "c")
SHARING_CONDITIONS = ("independent", "shared", "tied")
"""Panel c's conditions: independent heads, one K/V pair shared by all heads, K = V tied."""
SHARING_LABELS = {"independent": "independent", "shared": "MQA", "tied": "K = V"}
"""Their labels, as figure D3 names the schemes (one K/V pair for all heads is multi-query)."""
COUPLED = ("independent", "tied")
"""The conditions of panel c drawn from one seed material (the same Q_r, K_r, W^O and noise)."""
NOISE = "literal"
"""The Gaussian equivalent's noise: each W_r drawn n x n (paper D's construction), so that the
coupled conditions share W_r itself, not only its law."""


@dataclass(frozen=True)
class Condition:
    """One condition of a panel: its record key, its label in the figure, its layer shape and
    the seed material of its draws (shared by the coupled conditions of panel c)."""

    name: str
    label: str
    shape: MultiHeadShape
    params: dict


def _seed_material(panel: str, shape: MultiHeadShape, beta: float, **extra) -> dict:
    """The parameters that seed a condition's draws (paper, figure, panel, widths, beta)."""
    return {
        "paper": "D",
        "figure": "D4",
        "panel": panel,
        "n": shape.n_tokens,
        "heads": shape.heads,
        "d_head": shape.d_k,
        "d_out": shape.d_out,
        "beta": float(beta),
        **extra,
    }


def head_width(settings: Mapping, heads: int) -> int:
    """Panel a's d_K = total_width / h, a whole number, else ValueError naming the config key."""
    total = int(settings["total_width"])
    if total % int(heads):
        raise ValueError(
            f"config key paperD.figure_d1.total_width ({total}) must be a multiple of every head "
            f"count of head_counts, got {heads}"
        )
    return total // int(heads)


def panel_conditions(panel: str, settings: Mapping) -> list[Condition]:
    """The conditions of ``panel`` at ``settings`` (the config section paperD.figure_d1)."""
    if panel not in PANELS:
        raise ValueError(f"panel must be one of {PANELS}, got {panel!r}")
    n, beta = int(settings["n_tokens"]), float(settings["beta"])
    heads, d_head = int(settings["heads"]), int(settings["d_head"])
    if panel == "a":
        conditions = []
        for h in settings["head_counts"]:
            shape = MultiHeadShape(n, n, int(h), head_width(settings, h))
            params = _seed_material(panel, shape, beta)
            conditions.append(Condition(f"h{int(h)}", f"h = {int(h)}", shape, params))
        return conditions
    if panel == "b":
        conditions = []
        for d_out in settings["output_widths"]:
            d_out = int(d_out)
            shape = MultiHeadShape(n, max(n, d_out), heads, d_head, d_head, d_out)
            params = _seed_material(panel, shape, beta)
            conditions.append(Condition(f"dout{d_out}", f"d_O = {d_out}", shape, params))
        return conditions
    d_out = int(settings["sharing_output_width"])
    independent = MultiHeadShape(n, max(n, d_out), heads, d_head, d_head, d_out)
    coupled = _seed_material(panel, independent, beta, conditions="independent and tied")
    shapes = {
        "independent": independent,
        "shared": replace(independent, kv_heads=1),
        "tied": replace(independent, tied=True),
    }
    seeds = {
        "independent": coupled,
        "shared": _seed_material(panel, independent, beta, conditions="shared", kv_heads=1),
        "tied": coupled,
    }
    return [
        Condition(name, SHARING_LABELS[name], shapes[name], seeds[name])
        for name in SHARING_CONDITIONS
    ]


def check_figure_d1_settings(settings: Mapping) -> None:
    """ValueError naming the config key unless every panel has its layers: whole head widths in
    panel a, and a tied law the library solves in panel c (not d_O = n with h d_K != n, where its
    density fails next to 0; papers.md section D.7)."""
    for panel in PANELS:
        try:
            conditions = panel_conditions(panel, settings)
        except ValueError as error:
            raise ValueError(f"config key paperD.figure_d1: {error}") from None
    tied = conditions[-1].shape
    if tied.gamma_o == 1 and tied.gamma_k != 1:
        raise ValueError(
            "config key paperD.figure_d1.sharing_output_width must differ from n_tokens unless "
            "heads x d_head = n_tokens: the tied law's density is not solved next to 0 there"
        )


def tied_weights(weights: MultiHeadWeights) -> MultiHeadWeights:
    """The same draw with V_r = K_r within every head: the queries, keys and W^O of ``weights``
    (untied, d_V = d_K); the tied sampler with the same seeds gives the same arrays."""
    return replace(weights, shape=replace(weights.shape, tied=True), values=weights.keys)


def panel_draw(panel: str, settings: Mapping, draw: int, *, replicate: int = 0) -> dict:
    """One draw of every condition of ``panel``: ``<condition>/softmax`` and
    ``<condition>/gaussian``, n eigenvalues each (descending). Panel c's tied condition reuses
    the independent condition's weights (:func:`tied_weights`) and seeds."""
    beta = float(settings["beta"])
    conditions = panel_conditions(panel, settings)
    record = {}
    independent = None
    # the coupled conditions first, so that their weights are released before the next draw
    for condition in sorted(conditions, key=lambda c: c.name not in COUPLED):
        if condition.name == "tied":
            weights, independent = tied_weights(independent), None
        else:
            weights = sample_weights(condition.shape, condition.params, draw, replicate=replicate)
        if condition.name == "independent":
            independent = weights
        noise = rng_for(condition.params, draw, "noise", replicate=replicate)
        softmax, gaussian = comparison_spectra(weights, beta, noise, noise=NOISE)
        del weights
        record[f"{condition.name}/softmax"] = softmax
        record[f"{condition.name}/gaussian"] = gaussian
    return {
        key: record[key] for c in conditions for key in (f"{c.name}/softmax", f"{c.name}/gaussian")
    }


def panel_draws(
    panel: str,
    settings: Mapping,
    draws: int,
    *,
    replicate: int = 0,
    progress: Callable[[int], None] | None = None,
) -> dict:
    """Draws 0..draws-1 of :func:`panel_draw`, stacked on a leading draw axis (``progress(d)``
    after draw d)."""

    def one(d):
        record = panel_draw(panel, settings, d, replicate=replicate)
        if progress is not None:
            progress(d)
        return record

    return batched_draws(one, range(int(draws)))


def panel_peak_mb(panel: str, settings: Mapping, draws: int) -> int:
    """Peak memory (MB) of a job computing ``draws`` draws of ``panel``: the largest condition's
    arrays (:func:`attnspec.papers.d.multihead.draw_peak_mb`: one condition's weights are held at a
    time) with every condition's spectra stored, and one head's n x n noise W_r and its product
    W_r V_r (:data:`NOISE`)."""
    conditions = panel_conditions(panel, settings)
    stored = int(draws) * len(conditions)
    n = int(settings["n_tokens"])
    noise_mb = 8 * 2 * n * n / 1e6
    return max(draw_peak_mb(c.shape, stored) for c in conditions) + int(noise_mb) + 1
