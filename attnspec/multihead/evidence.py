"""The evidence of paper D's registry rows (:mod:`attnspec.registry`), from simulated spectra;
:mod:`attnspec.verdicts` judges it.

- ``D.1/<model>`` (table D-T1, figure D1): per draw the relative W1 between all n eigenvalues of
  MHA_perp MHA_perp^T and of n^{-1} MHA^G MHA^G^T from the same weights, divided by the common
  limiting mean (appendix D.1), at the table D.2 configuration ``<model>``; target 0, margin in
  the statistic's own units (margin_scale 1).
- ``D.2/<scheme>`` (figure D3), scheme mqa or gqa: per draw the Kolmogorov distance of the
  scheme's softmax spectrum to the limit law of independent heads, at the largest n of
  paperD.sharing, against the same distance of independent heads (the finite-size floor);
  margin unit: KS(independent-head law, tied law) at the same ratios, from the library's laws;
  trend: the scheme's distance per (draw, n) against the mean independent-head distance at n.
- ``D.3/tied``: per draw Delta = KS(tied softmax spectrum, independent-head law) - KS(tied
  softmax spectrum, tied law) at the largest n; margin unit as for D.2.
"""

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import numpy as np

from attnspec.evidence import Evidence
from attnspec.multihead.draws import SCHEME_LABELS, sharing_shape
from attnspec.multihead.limit import limit_law, limit_mean
from attnspec.multihead.metrics import (
    kolmogorov_between_laws,
    kolmogorov_to_law,
    per_draw_comparison,
    student_t_interval,
)
from attnspec.multihead.public_models import public_model
from attnspec.registry import PUBLIC_MODELS, SHARING_SCHEMES

SHARED_SCHEMES = tuple(scheme for scheme, _ in SHARING_SCHEMES)
"""The across-head sharing schemes rows D.2 judge (mqa, gqa)."""
JUDGED_SCHEMES = ("independent", *SHARED_SCHEMES, "tied")
"""Every scheme rows D.2 and D.3 need at each n of paperD.sharing."""
LIBRARY_CHECK = (
    "A library check of table D.2 (other random streams) was run before these rows were "
    "declared (docs/papers.md section 8); these draws are new."
)


def check_judged_points(models: Sequence[str], schemes: Sequence[str]) -> None:
    """ValueError naming the config key unless every judged model and scheme is configured."""
    missing = [m for m in PUBLIC_MODELS if m not in models]
    if missing:
        raise ValueError(
            f"config key paperD.public_models.models lacks {missing}: rows D.1/<model> of the "
            f"claims registry judge {list(PUBLIC_MODELS)}"
        )
    missing = [s for s in JUDGED_SCHEMES if s not in schemes]
    if missing:
        raise ValueError(
            f"config key paperD.sharing.schemes lacks {missing}: rows D.2 and D.3 of the claims "
            f"registry need {list(JUDGED_SCHEMES)}"
        )


def public_model_row(model_id: str) -> str:
    return f"D.1/{model_id}"


def _interval_text(values: np.ndarray, scale: float, digits: int, unit: str = "") -> str:
    """``mean +- half-width unit`` (Student-t 95 %), or the single value of one draw."""
    if values.size < 2:
        return f"{scale * values.mean():.{digits}f}{unit} (one draw: no interval)"
    interval = student_t_interval(values)
    return f"{scale * interval.mean:.{digits}f} +- {scale * interval.half_width:.{digits}f}{unit}"


def public_model_evidence(model_id: str, softmax, gaussian, beta: float) -> Evidence:
    """Row D.1/<model> from the (draws, n) softmax and Gaussian-equivalent spectra (module doc)."""
    model = public_model(model_id)
    shape = model.shape
    mean = limit_mean(shape, beta)
    w1, ks = per_draw_comparison(softmax, gaussian, mean)
    published_w1, published_ks = model.published_w1, model.published_ks
    note = (
        f"relative W1 {_interval_text(w1, 100, 2, ' %')}, KS {_interval_text(ks, 1, 4)} "
        f"(Student-t 95 %, {w1.size} draws); published (table D.2, ten draws): "
        f"{published_w1[0]:.2f} +- {published_w1[1]:.2f} %, KS {published_ks[0]:.4f} +- "
        f"{published_ks[1]:.4f}. {LIBRARY_CHECK}"
    )
    return Evidence(
        row_id=public_model_row(model_id),
        samples={"values": w1},
        target=0.0,
        quantity=(
            f"mean relative W1 of softmax against Gaussian-equivalent spectra, {model.name} "
            f"(n = {shape.n_tokens}, d = d_O = {shape.d_model}, h/h_KV = {shape.heads}/"
            f"{shape.kv_heads}, d_K = d_V = {shape.d_k}, sharing {model.sharing}), beta = "
            f"{beta:g}, limiting mean {mean:.4g}"
        ),
        note=note,
        extra={"limit_mean": mean, "ks_mean": float(ks.mean())},
    )


class SharingLaws(NamedTuple):
    """The two limit laws of figure D3 at the ratios of paperD.sharing (the same at every n),
    their Kolmogorov distance (the margins' unit of rows D.2, D.3) and the dimensions in words."""

    independent: object
    tied: object
    distance: float
    description: str


def sharing_laws(settings: Mapping) -> SharingLaws:
    """:class:`SharingLaws` of the section paperD.sharing (heads, kv_groups, gamma_k, gamma_o,
    beta)."""
    beta = float(settings["beta"])
    n = max(settings["n_tokens"])
    args = (n, settings["heads"], settings["kv_groups"], settings["gamma_k"], settings["gamma_o"])
    independent = limit_law(sharing_shape("independent", *args), beta)
    tied = limit_law(sharing_shape("tied", *args), beta)
    description = (
        f"h = {settings['heads']} heads (GQA: {settings['kv_groups']} K/V groups), gamma_K = "
        f"gamma_V = {settings['gamma_k']:g}, gamma_O = {settings['gamma_o']:g}, beta = {beta:g}"
    )
    return SharingLaws(independent, tied, kolmogorov_between_laws(independent, tied), description)


def law_distances(spectra, law) -> np.ndarray:
    """KS of each draw's eigenvalues (rows of ``spectra``) to ``law``."""
    return np.array([kolmogorov_to_law(row, law) for row in np.atleast_2d(spectra)])


def _draw_table(spectra: Mapping[int, np.ndarray], law, sizes: Sequence[int]) -> np.ndarray:
    """(draws, S) distances to ``law`` at each n of ``sizes`` (all with the same draws)."""
    counts = {np.atleast_2d(spectra[n]).shape[0] for n in sizes}
    if len(counts) != 1:
        raise ValueError(f"paperD.sharing: every n needs the same draws, got {sorted(counts)}")
    return np.stack([law_distances(spectra[n], law) for n in sizes], axis=1)


def sharing_evidence(
    spectra: Mapping[str, Mapping[int, np.ndarray]], laws: SharingLaws
) -> list[Evidence]:
    """Rows D.2/<scheme> and D.3/tied (module docstring) from the softmax eigenvalues
    ``spectra[scheme][n]`` (draws, n) at every scheme of :data:`JUDGED_SCHEMES` and the same
    sizes n, against the laws of :func:`sharing_laws`."""
    independent_law, tied_law = laws.independent, laws.tied
    law_distance, description = laws.distance, laws.description
    missing = [s for s in JUDGED_SCHEMES if s not in spectra]
    if missing:
        raise ValueError(f"paperD.sharing: no spectra for schemes {missing}")
    sizes = sorted(spectra["independent"])
    for scheme in JUDGED_SCHEMES:
        if sorted(spectra[scheme]) != sizes:
            raise ValueError(
                f"paperD.sharing: scheme {scheme} has sizes {sorted(spectra[scheme])}, "
                f"independent heads {sizes}"
            )
    largest = sizes[-1]
    floor = _draw_table(spectra["independent"], independent_law, sizes)
    floor_means = floor.mean(axis=0)
    floor_text = ", ".join(f"{n}: {m:.4f}" for n, m in zip(sizes, floor_means, strict=True))
    items = []
    for scheme in SHARED_SCHEMES:
        distances = _draw_table(spectra[scheme], independent_law, sizes)
        means = ", ".join(
            f"{n}: {m:.4f}" for n, m in zip(sizes, distances.mean(axis=0), strict=True)
        )
        items.append(
            Evidence(
                row_id=f"D.2/{scheme}",
                samples={"values": distances[:, -1], "reference": floor[:, -1]},
                target=0.0,
                margin_scale=law_distance,
                trend_sizes=np.asarray(sizes, dtype=np.float64),
                trend_values=distances,
                trend_targets=floor_means,
                quantity=(
                    f"mean KS of the {SCHEME_LABELS[scheme]} softmax spectrum to the "
                    f"independent-head law minus that of independent heads, n = {largest}, "
                    f"{description}"
                ),
                note=(
                    f"mean KS to the independent-head law by n, {SCHEME_LABELS[scheme]}: "
                    f"{means}; independent heads: {floor_text}; margin unit "
                    f"KS(independent-head law, tied law) = {law_distance:.4f}"
                ),
                extra={"law_distance": law_distance},
            )
        )
    untied = _draw_table(spectra["tied"], independent_law, sizes)
    own = _draw_table(spectra["tied"], tied_law, sizes)
    by_n = ", ".join(
        f"{n}: {a:.4f} vs {b:.4f}"
        for n, a, b in zip(sizes, untied.mean(axis=0), own.mean(axis=0), strict=True)
    )
    items.append(
        Evidence(
            row_id="D.3/tied",
            samples={"values": untied[:, -1] - own[:, -1]},
            target=0.0,
            margin_scale=law_distance,
            quantity=(
                f"mean Delta = KS(K = V softmax spectrum, independent-head law) - KS(K = V "
                f"softmax spectrum, tied law), n = {largest}, {description}"
            ),
            note=(
                f"mean KS of the K = V softmax spectrum to the independent-head law vs to the "
                f"tied law, by n: {by_n}; KS(independent-head law, tied law) = "
                f"{law_distance:.4f}"
            ),
            extra={"law_distance": law_distance},
        )
    )
    return items
