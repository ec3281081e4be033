"""Figures C5 (eigen-angles), C6 (score spectra) and table C-T2 (paper C): the numbers shown,
from the per-head diagnostics.

Inputs are the dicts of :mod:`attnspec.papers.c.pretrained` (arrays with leading axes
(passages, layers, heads); the isotropic reference has layers = heads = 1): ``full_rank`` at
n <= head width (U, V determined by S up to signs), ``long`` at n > head width. Per-head numbers
are medians over passages; pooled numbers run over passages, heads and both sides U, V.
"""

import numpy as np

from attnspec.models.softmax import MASKS
from attnspec.papers.c.pretrained import (
    ANGLE_ERROR,
    ANGLE_RESOLUTION,
    HAAR,
    NEAREST_IDENTITY,
    SIDES,
)
from attnspec.plotting.tidy import DATA, STATISTIC, numeric

U_SIDE = SIDES.index("U")

REFERENCE_Q95 = "Haar 95 % quantile"
"""Figure C5's statistic: the 95 % quantile of the Haar reference's distances."""


def angle_counts(angles: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Number of pooled eigen-angles in each histogram bin [e_{j-1}, e_j) (the last closed)."""
    return np.histogram(np.ravel(angles), bins=edges)[0]


def angle_steps(angles: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Number of pooled eigen-angles in (t_{j-1}, t_j] at each grid point t_j (at t_0: those
    <= t_0); their running sum over the total is F_n(t) = #{theta <= t} / N."""
    pooled = np.sort(np.ravel(angles))
    return np.diff(np.searchsorted(pooled, grid, side="right"), prepend=0)


def near_bin_edge(angles: np.ndarray, edges: np.ndarray, *, steps: bool = False) -> np.ndarray:
    """Per bin, the pooled eigen-angles within ANGLE_ERROR of one of its edges or of a snapping
    threshold (ANGLE_RESOLUTION from 0 or pi): the most that another CPU's last bits can move
    into or out of the bin, which the drift check allows
    (:data:`attnspec.workflow.drift.EDGE_COUNT_COLUMN`). Bins of :func:`angle_counts` by default,
    of :func:`angle_steps` (``edges`` its grid) with ``steps``."""
    pooled = np.ravel(angles)

    def near(point: float) -> int:
        return int(np.count_nonzero(np.abs(pooled - point) <= ANGLE_ERROR))

    at_edge = np.array([near(e) for e in edges])
    snapped = near(ANGLE_RESOLUTION) + near(np.pi - ANGLE_RESOLUTION)
    if steps:
        return at_edge + np.concatenate([[0], at_edge[:-1]]) + snapped
    return at_edge[:-1] + at_edge[1:] + snapped


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


ANGLE_LAYER_HEADER = ("layer", "median_ks_full_rank", "fraction_above_haar_q95")
"""Columns of the per-layer summary under figure C5's caption."""


def angle_layer_rows(frame) -> list[tuple]:
    """Per-layer key numbers of figure C5 from its tidy table: the median over heads, passages
    and sides of the eigen-angle distances and their share above the Haar 95 % quantile (the
    table's statistic), then the Haar reference's."""
    frame = numeric(frame, "layer", "x")
    full_rank_q95 = float(frame.loc[frame["series"] == REFERENCE_Q95, "x"].iloc[0])
    distances = frame[(frame["kind"] == DATA) & (frame["panel"] == "distances")]
    model = distances[distances["series"] == "model"]
    above = (model["x"] > full_rank_q95).groupby(model["layer"]).mean()
    rows = [
        (int(layer), float(median), float(above[layer]))
        for layer, median in model.groupby("layer")["x"].median().items()
    ]
    reference = distances.loc[distances["series"] == "reference", "x"]
    rows.append(("isotropic", float(reference.median()), float((reference > full_rank_q95).mean())))
    return rows


def spectra_layer_header(top_k: int) -> tuple[str, ...]:
    """Columns of the per-layer summary under figure C6's caption."""
    return (
        "layer",
        f"median_energy_top{top_k}",
        "median_stable_rank_bidirectional",
        "median_stable_rank_causal",
    )


def spectra_layer_rows(frame) -> list[tuple]:
    """Per-layer key numbers of figure C6 from its tidy table (medians over heads of the per-head
    energy and stable ranks), then the isotropic reference."""
    frame = numeric(frame, "layer", "y")
    frame = frame[frame["kind"] == STATISTIC]
    model = frame[frame["series"] == "model"]
    ranks = model[model["panel"] == "stable_rank"]
    columns = [
        model[model["panel"] == "energy"].groupby("layer")["y"].median(),
        *(ranks[ranks["mask"] == m].groupby("layer")["y"].median() for m in MASKS),
    ]
    rows = [
        (int(layer), *(float(column[layer]) for column in columns)) for layer in columns[0].index
    ]
    isotropic = frame[frame["series"] == "isotropic"]
    energy = isotropic.loc[isotropic["panel"] == "energy", "y"]
    ranks = isotropic[isotropic["panel"] == "stable_rank"].set_index("mask")["y"]
    rows.append(("isotropic", float(energy.iloc[0]), *(float(ranks[m]) for m in MASKS)))
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
    ("local", "local-attention control (not judged: outside the scope of C.5)"),
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
