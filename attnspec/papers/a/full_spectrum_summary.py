"""Figure A2's statistics (paper A): per draw the Perron value, the non-Perron values above x_+
and above the Tracy-Widom window with their IPR and spike predictions, nu_inf's quantiles and
expected counts, and the rows of table A2 (the draws: :mod:`attnspec.papers.a.full_spectrum`)."""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.papers.a.perron import perron_squared_prediction
from attnspec.theory.marchenko_pastur import mp_edge
from attnspec.theory.nu_infinity import NuInfinity

# TRACY_WIDOM_1_Q99: in 99 % of draws the largest bulk value of the Gaussian model stays below
# x_+ + 2.0234 gamma_TW ell^{-2/3}.
from attnspec.theory.r_transform import TRACY_WIDOM_1_Q99, SymmetrisedLinearModel

BINS_PER_DECADE = 8


def log_bins(values: np.ndarray) -> np.ndarray:
    """Edges 10^(j / BINS_PER_DECADE) covering the positive values (whole decades at the ends)."""
    positive = values[values > 0]
    low = np.floor(np.log10(positive.min()))
    high = np.ceil(np.log10(positive.max()))
    return 10.0 ** np.linspace(low, high, int(high - low) * BINS_PER_DECADE + 1)


def summarise_full_spectrum(
    draws: Sequence[Mapping[str, np.ndarray]], *, n_tokens: int, d_qk: int, beta: float
) -> dict:
    """The numbers of figure A2 from the outputs of :func:`full_spectrum_draw` (draw order).

    Returns a dict of arrays: ``values`` (draws x ell, descending); ``theory_ranks`` k = 2..ell
    and ``theory_sorted`` = nu_inf quantile at 1 - (k - 3/2)/ell (the bulk below the Perron
    value); ``edges``, ``counts`` (histogram of all draws' values, log bins) and
    ``theory_counts`` = draws (ell - 1) nu_inf(bin); scalars ``x_plus``, ``mp_edge`` (4 theta1),
    ``perron_prediction`` (ell s_1^2 predicted), ``tw_scale`` (gamma_TW ell^{-2/3}),
    ``outlier_threshold`` (x_+ + TRACY_WIDOM_1_Q99 gamma_TW ell^{-2/3}), ``ipr_reference``
    (ell E IPR = 3 ell/(ell + 2)); per draw ``perron``, ``n_above_edge``, ``n_outliers``,
    ``top_nonperron``, ``largest_entry``, ``spike_prediction`` (K(1/theta)^2, nan if
    subcritical); and flattened over draws ``pair_draw``, ``pair_value``, ``pair_ipr_left``,
    ``pair_ipr_right`` (the leading non-Perron pairs, IPR times ell).
    """
    ratio = n_tokens / d_qk
    law = NuInfinity(beta, ratio)
    linear_model = SymmetrisedLinearModel(beta, ratio)
    values = np.stack([np.asarray(d["squared_singular_values"]) for d in draws])
    theory_ranks = np.arange(2, n_tokens + 1)
    edges = log_bins(values)
    tw_scale = linear_model.tracy_widom_scale * n_tokens ** (-2 / 3)
    outlier_threshold = law.edge + TRACY_WIDOM_1_Q99 * tw_scale
    largest_entry = np.array([float(d["largest_entry"]) for d in draws])
    pair_values = [np.asarray(d["top_values"]) for d in draws]
    return {
        "values": values,
        "theory_ranks": theory_ranks,
        "theory_sorted": law.quantile(1.0 - (theory_ranks - 1.5) / n_tokens),
        "edges": edges,
        "counts": np.histogram(values, bins=edges)[0],
        "theory_counts": len(draws) * (n_tokens - 1) * np.diff(law.cdf(edges)),
        "x_plus": np.float64(law.edge),
        "mp_edge": np.float64(mp_edge(beta)),
        "perron_prediction": np.float64(n_tokens * perron_squared_prediction(n_tokens, d_qk, beta)),
        "tw_scale": np.float64(tw_scale),
        "outlier_threshold": np.float64(outlier_threshold),
        "ipr_reference": np.float64(3 * n_tokens / (n_tokens + 2)),
        "perron": values[:, 0],
        "n_above_edge": np.array([np.sum(v > law.edge) for v in pair_values]),
        "n_outliers": np.array([np.sum(v > outlier_threshold) for v in pair_values]),
        "top_nonperron": np.array([v[0] for v in pair_values]),
        "largest_entry": largest_entry,
        "spike_prediction": linear_model.spike_outlier(largest_entry),
        "pair_draw": np.concatenate([np.full(v.size, i) for i, v in enumerate(pair_values)]),
        "pair_value": np.concatenate(pair_values),
        "pair_ipr_left": n_tokens * np.concatenate([np.asarray(d["ipr_left"]) for d in draws]),
        "pair_ipr_right": n_tokens * np.concatenate([np.asarray(d["ipr_right"]) for d in draws]),
    }


FULL_SPECTRUM_TABLE_HEADER = (
    "draw",
    "ell_s1_squared_minus_ell",
    "n_above_x_plus",
    "n_above_tw_window",
    "top_nonperron",
    "spike_prediction",
    "ell_ipr_left_top",
    "ell_ipr_right_top",
    "max_ell_ipr_above_x_plus",
)


def full_spectrum_table_rows(summary: Mapping[str, np.ndarray]) -> list[tuple]:
    """One row per draw: ell s_1(A)^2 - ell; the number of non-Perron values above x_+ and above the
    Tracy-Widom window; the top non-Perron value and its spike prediction K(1/theta)^2; ell IPR
    of its left and right singular vectors, and the largest ell IPR over the pairs above x_+."""
    rows = []
    for i, perron in enumerate(summary["perron"]):
        mine = summary["pair_draw"] == i
        above = mine & (summary["pair_value"] > summary["x_plus"])
        first = np.flatnonzero(mine)[0]
        iprs = np.concatenate([summary["pair_ipr_left"][above], summary["pair_ipr_right"][above]])
        rows.append(
            (
                i,
                float(perron) - summary["values"].shape[1],
                int(summary["n_above_edge"][i]),
                int(summary["n_outliers"][i]),
                float(summary["top_nonperron"][i]),
                float(summary["spike_prediction"][i]),
                float(summary["pair_ipr_left"][first]),
                float(summary["pair_ipr_right"][first]),
                float(iprs.max()) if iprs.size else float("nan"),
            )
        )
    return rows


REFERENCE_TABLE_HEADER = ("quantity", "formula", "value")


def full_spectrum_reference_rows(summary: Mapping[str, np.ndarray]) -> list[tuple]:
    """The theory values the per-draw columns are compared with."""
    return [
        (
            "Perron value minus ell",
            "theta1 + ell beta^4 / (2 d_qk)",
            float(summary["perron_prediction"]) - summary["values"].shape[1],
        ),
        ("bulk edge", "x_+ (nu_inf)", float(summary["x_plus"])),
        ("MP surrogate edge", "4 theta1", float(summary["mp_edge"])),
        ("Tracy-Widom scale", "gamma_TW ell^(-2/3)", float(summary["tw_scale"])),
        (
            "Tracy-Widom window",
            f"x_+ + {TRACY_WIDOM_1_Q99} gamma_TW ell^(-2/3) (TW1 99th percentile)",
            float(summary["outlier_threshold"]),
        ),
        ("delocalised IPR", "ell E IPR = 3 ell / (ell + 2)", float(summary["ipr_reference"])),
    ]
