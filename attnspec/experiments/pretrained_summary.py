"""Figure C5 and table C-T2 (paper C): the numbers shown, from the per-head diagnostics.

Inputs are the dicts of :mod:`attnspec.experiments.pretrained` (arrays with leading axes
(passages, layers, heads); the isotropic reference has layers = heads = 1): ``full_rank`` at
n <= head width (U, V determined by S up to signs), ``long`` at n > head width. Per-head numbers
are medians over passages; pooled numbers run over passages, heads and both sides U, V.
"""

import numpy as np

from attnspec.experiments.pretrained import (
    HAAR,
    NEAREST_IDENTITY,
    NULL_SPACE_CONVENTIONS,
    SIDES,
)
from attnspec.models.softmax import MASKS

U_SIDE = SIDES.index("U")
CDF_POINTS = 181


def angle_density(angles: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Histogram density of pooled eigen-angles on ``edges`` (integrates to 1)."""
    return np.histogram(np.ravel(angles), bins=edges, density=True)[0]


def angle_cdf(angles: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Empirical distribution function F_n(t) = #{theta <= t} / N of pooled eigen-angles."""
    pooled = np.sort(np.ravel(angles))
    return np.searchsorted(pooled, grid, side="right") / pooled.size


def figure_summary(
    full_rank: dict,
    long: dict,
    iso_full_rank: dict,
    iso_long: dict,
    *,
    top_k: int,
    bins: int,
    controls: dict | None = None,
) -> dict[str, np.ndarray]:
    """Every number of figure C5.

    Returns arrays: ``edges``, ``density_model``, ``density_isotropic`` (panel a: eigen-angles of
    U and V pooled, full-rank passages); ``distance_by_layer`` (layers x passages*heads*sides)
    and ``distance_isotropic`` (D to uniform, full rank); ``distance/<source>`` (panel b: the
    sorted distances of the model, the Haar reference and each of ``controls``); ``cdf_grid`` and
    ``cdf/<source>/<convention>`` (panel c: eigen-angles of U at n > head width under both
    null-space completions); ``normalised_median``, ``normalised_lower``, ``normalised_upper``
    (layers x d; quartiles over passages and heads) and ``normalised_isotropic`` (panel d);
    ``energy_top_k`` (layers x heads, median over passages) and ``energy_isotropic`` (panel e);
    ``stable_rank`` (layers x heads x masks, median over passages) and
    ``stable_rank_isotropic`` (masks) (panel f).
    """
    edges = np.linspace(0.0, np.pi, bins + 1)
    layers = full_rank["angle_distance"].shape[1]
    distance = full_rank["angle_distance"][..., HAAR]  # full rank: conventions agree
    grid = np.linspace(0.0, np.pi, CDF_POINTS)
    summary = {
        "edges": edges,
        "density_model": angle_density(full_rank["angles"][..., HAAR, :], edges),
        "density_isotropic": angle_density(iso_full_rank["angles"][..., HAAR, :], edges),
        "distance_by_layer": np.moveaxis(distance, 1, 0).reshape(layers, -1),
        "distance_isotropic": iso_full_rank["angle_distance"][..., HAAR].ravel(),
        "cdf_grid": grid,
        "distance/model": np.sort(distance.ravel()),
        "distance/reference": np.sort(iso_full_rank["angle_distance"][..., HAAR].ravel()),
    }
    for name, data in (controls or {}).items():
        summary[f"distance/{name}"] = np.sort(data["angle_distance"][..., HAAR].ravel())
    for source, data in (("model", long), ("isotropic", iso_long)):
        for c, convention in enumerate(NULL_SPACE_CONVENTIONS):
            summary[f"cdf/{source}/{convention}"] = angle_cdf(
                data["angles"][..., U_SIDE, c, :], grid
            )
    normalised = np.moveaxis(long["normalised_singular_values"], 1, 0)
    normalised = normalised.reshape(layers, -1, normalised.shape[-1])
    summary["normalised_lower"], summary["normalised_median"], summary["normalised_upper"] = (
        np.quantile(normalised, [0.25, 0.5, 0.75], axis=1)
    )
    summary["normalised_isotropic"] = np.median(
        iso_long["normalised_singular_values"].reshape(-1, normalised.shape[-1]), axis=0
    )
    summary["energy_top_k"] = np.median(long["energy"][..., top_k - 1], axis=0)
    summary["energy_isotropic"] = np.float64(np.median(iso_long["energy"][..., top_k - 1]))
    summary["stable_rank"] = np.median(long["stable_rank"], axis=0)
    summary["stable_rank_isotropic"] = np.median(
        iso_long["stable_rank"].reshape(-1, len(MASKS)), axis=0
    )
    return summary


def table_header(top_k: int) -> tuple[str, ...]:
    """Columns of table C-T2 (one row per layer and head, then the isotropic reference)."""
    return (
        "layer",
        "head",
        "ks_U_full_rank",
        "ks_V_full_rank",
        "ks_U_long_haar",
        "ks_U_long_nearest_identity",
        "sigma2_over_sigma1",
        "energy_top1",
        f"energy_top{top_k}",
        f"centred_energy_top{top_k}",
        "stable_rank_bidirectional",
        "stable_rank_causal",
    )


def _head_row(full_rank: dict, long: dict, layer: int, head: int, top_k: int) -> list[float]:
    """Medians over passages of one head's diagnostics, in the order of :func:`table_header`."""

    def median(data, key, *index):
        return float(np.median(data[key][:, layer, head][(slice(None), *index)]))

    return [
        median(full_rank, "angle_distance", SIDES.index("U"), HAAR),
        median(full_rank, "angle_distance", SIDES.index("V"), HAAR),
        median(long, "angle_distance", U_SIDE, HAAR),
        median(long, "angle_distance", U_SIDE, NEAREST_IDENTITY),
        median(long, "normalised_singular_values", 1),
        median(long, "energy", 0),
        median(long, "energy", top_k - 1),
        median(long, "centred_energy", top_k - 1),
        median(long, "stable_rank", MASKS.index("bidirectional")),
        median(long, "stable_rank", MASKS.index("causal")),
    ]


def table_rows(
    full_rank: dict, long: dict, iso_full_rank: dict, iso_long: dict, *, top_k: int
) -> list[tuple]:
    """Rows of table C-T2: every (layer, head) of the model, then ("isotropic", "-")."""
    layers, heads = full_rank["angle_distance"].shape[1:3]
    rows = [
        (layer, head, *_head_row(full_rank, long, layer, head, top_k))
        for layer in range(layers)
        for head in range(heads)
    ]
    rows.append(("isotropic", "-", *_head_row(iso_full_rank, iso_long, 0, 0, top_k)))
    return rows


def layer_header(top_k: int) -> tuple[str, ...]:
    """Columns of the per-layer summary under figure C5's caption."""
    return (
        "layer",
        "median_ks_full_rank",
        "fraction_above_haar_q95",
        f"median_energy_top{top_k}",
        "median_stable_rank_bidirectional",
        "median_stable_rank_causal",
    )


def layer_rows(summary: dict, full_rank_q95: float) -> list[tuple]:
    """Per-layer key numbers of figure C5, then the isotropic reference."""
    rows = []
    for layer, distances in enumerate(summary["distance_by_layer"]):
        rows.append(
            (
                layer,
                float(np.median(distances)),
                float(np.mean(distances > full_rank_q95)),
                float(np.median(summary["energy_top_k"][layer])),
                float(np.median(summary["stable_rank"][layer, :, MASKS.index("bidirectional")])),
                float(np.median(summary["stable_rank"][layer, :, MASKS.index("causal")])),
            )
        )
    iso_ranks = summary["stable_rank_isotropic"]
    rows.append(
        (
            "isotropic",
            float(np.median(summary["distance_isotropic"])),
            float(np.mean(summary["distance_isotropic"] > full_rank_q95)),
            float(summary["energy_isotropic"]),
            float(iso_ranks[MASKS.index("bidirectional")]),
            float(iso_ranks[MASKS.index("causal")]),
        )
    )
    return rows


TESTS_HEADER = (
    "sample",
    "distances",
    "median D",
    "KS vs Haar",
    "KS p",
    "Mann-Whitney p",
    "P(D > D_Haar)",
)
TEST_SAMPLES = (
    ("model", "all-MiniLM-L6-v2 heads (U, V)"),
    ("aligned", "aligned control (known eigen-angles)"),
    ("local", "local-attention control (not judged)"),
    ("null", "Haar reference, one half vs the other"),
)


def tests_rows(tests: dict, sizes: dict) -> list[tuple]:
    """Rows of the two-sample tests table (figure C5, table C-T2): each sample against the
    Haar reference; ``sizes`` maps a sample to its number of distances."""
    rows = []
    for name, label in TEST_SAMPLES:
        median = tests[f"median/{'reference' if name == 'null' else name}"]
        rows.append(
            (
                label,
                int(sizes[name]),
                float(median),
                float(tests[f"{name}/ks"]),
                float(tests[f"{name}/ks_p"]),
                float(tests[f"{name}/mw_p"]),
                float(tests[f"{name}/mw_effect"]),
            )
        )
    return rows


POWER_HEADER = ("share of aligned heads", "KS power", "Mann-Whitney power")


def power_rows(tests: dict) -> list[tuple]:
    """Power of both tests (level 0.05) against a share of aligned-control heads."""
    return [
        (f"{float(f):.0%}", float(ks), float(mw))
        for f, ks, mw in zip(
            tests["contaminations"], tests["power/ks"], tests["power/mw"], strict=True
        )
    ]


def tests_text(tests: dict) -> str:
    """One line: the Haar 95 % quantile and the share of the model's distances above it."""
    share, low, high = (float(v) for v in tests["share_above_q95"])
    return (
        f"Haar 95 % quantile of D: {float(tests['reference_q95']):.4f} (from "
        f"{int(tests['reference_count'])} reference distances); share of the model's "
        f"{int(tests['model_count'])} distances above it: {share:.1%} (95 % bootstrap interval "
        f"over passages [{low:.1%}, {high:.1%}]; 5 % for Haar). p-values and power treat the "
        "distances as independent draws."
    )
