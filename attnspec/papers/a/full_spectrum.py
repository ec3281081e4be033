"""Figure A2 (paper A, "Figure 2", reconstructed): the full sorted spectrum of sqrt(ell) A.

The squared singular values ell s_k(A)^2, k = 1..ell, of A = row-softmax(beta Q K^T / sqrt(d_qk)):
the Perron value ell s_1(A)^2 ~ ell + theta1 + ell beta^4/(2 d_qk) (papers.md section 3), then the
bulk, whose law tends to nu_inf with right edge x_+ > 4 theta1 (papers.md section 2). By rank-one
interlacing, s_{k+1}(A_perp) <= s_k(A) <= s_{k-1}(A_perp), the values k >= 2 of A are those of
A_perp = A - u u^T up to one index. Non-Perron values above x_+ come from two finite-size effects
(papers.md section 3): Tracy-Widom fluctuations of the edge, x_+ + gamma_TW ell^{-2/3} TW1, and
the log-normal tails of the entries, whose largest theta = max |(sqrt(ell) A_perp)_ij| acts as a
rank-one spike with an outlier at K(1/theta)^2 when theta > 1/G*. A spike's singular vectors
are localised; a delocalised (uniform random) unit vector has E IPR = 3/(ell + 2) ~ 3/ell.
"""

import logging
from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.models.sampling import attention_matrix, sample_queries_keys
from attnspec.papers.a.perron import perron_squared_prediction
from attnspec.papers.progress import Stopwatch
from attnspec.papers.spectra import draw_parameters
from attnspec.seeding import rng_for
from attnspec.spectra.dense import squared_singular_values
from attnspec.spectra.localisation import inverse_participation_ratio
from attnspec.theory.edge import bulk_edge
from attnspec.theory.marchenko_pastur import mp_edge
from attnspec.theory.nu_infinity import NuInfinity

# TRACY_WIDOM_1_Q99: in 99 % of draws the largest bulk value of the Gaussian model stays below
# x_+ + 2.0234 gamma_TW ell^{-2/3}.
from attnspec.theory.r_transform import TRACY_WIDOM_1_Q99, SymmetrisedLinearModel

LOG = logging.getLogger(__name__)

# Leading non-Perron singular pairs computed first; doubled until one value is below x_+.
TOP_PAIRS = 8
BINS_PER_DECADE = 8


def top_pairs_above(A: np.ndarray, threshold: float, first: int = TOP_PAIRS):
    """Leading squared singular values of sqrt(ell) A_perp with unit singular vectors.

    Block Lanczos for the ``first`` largest, doubling the number until the smallest returned
    value is <= ``threshold`` (or all ell - 1 non-Perron values are returned), so every value
    above the threshold is among them.

    Returns
    -------
    values : ndarray, shape (k,), descending
    left, right : ndarray, shape (ell, k)
    """
    # Lazy: block Lanczos needs scipy.sparse.linalg, which the figure job never uses.
    from attnspec.spectra.lanczos import top_nonperron_squared_singular_values

    k = min(first, A.shape[0] - 1)
    while True:
        values, left, right = top_nonperron_squared_singular_values(A, k, return_vectors=True)
        if values[-1] <= threshold or k == A.shape[0] - 1:
            return values, left, right
        k = min(2 * k, A.shape[0] - 1)


def full_spectrum_draw(
    draw: int, *, n_tokens: int, d_qk: int, beta: float, replicate: int = 0
) -> dict:
    """One draw of figure A2 (Gaussian sampler; the attention draw of
    :func:`attnspec.papers.spectra.model_spectrum` at the same parameters and replicate).

    Returns
    -------
    dict of arrays: ``squared_singular_values`` (ell s_k(A)^2, all k, descending),
    ``top_values`` / ``ipr_left`` / ``ipr_right`` (leading squared singular values of
    sqrt(ell) A_perp down to the first one <= x_+, and the IPR of their left and right singular
    vectors), ``largest_entry`` (theta = max |(sqrt(ell) A_perp)_ij|).
    """
    clock = Stopwatch()
    params = draw_parameters(n_tokens, d_qk, beta, "gaussian", None)
    rng = rng_for(params, draw, "queries_keys", replicate=replicate)
    Q, K = sample_queries_keys(rng, n_tokens, d_qk)
    A = attention_matrix(Q, K, beta)
    LOG.info("attention matrix %d x %d built in %.2f s", n_tokens, n_tokens, clock.lap())
    mean = 1.0 / n_tokens
    x_plus = bulk_edge(beta, n_tokens / d_qk)
    values, left, right = top_pairs_above(A, x_plus)
    LOG.info(
        "%d leading non-Perron pairs (down to x_+ = %.6g) by block Lanczos in %.2f s",
        values.size,
        x_plus,
        clock.lap(),
    )
    spectrum = n_tokens * squared_singular_values(A)
    LOG.info("all %d squared singular values in %.2f s", spectrum.size, clock.lap())
    return {
        "squared_singular_values": spectrum,
        "top_values": values,
        "ipr_left": inverse_participation_ratio(left),
        "ipr_right": inverse_participation_ratio(right),
        "largest_entry": np.float64(np.sqrt(n_tokens) * max(A.max() - mean, mean - A.min())),
    }


def full_spectrum_draws(
    draws: int, *, n_tokens: int, d_qk: int, beta: float, replicate: int = 0
) -> list[dict]:
    """Draws 0..draws-1 of :func:`full_spectrum_draw` (one job per parameter point); each is
    bit-identical to the draw computed alone."""
    if isinstance(draws, bool) or not isinstance(draws, int | np.integer) or draws < 1:
        raise ValueError(f"draws must be a positive integer, got {draws!r}")
    clock = Stopwatch()
    results = []
    for draw in range(draws):
        results.append(
            full_spectrum_draw(draw, n_tokens=n_tokens, d_qk=d_qk, beta=beta, replicate=replicate)
        )
        LOG.info(
            "draw %d of %d, ell = %d, beta = %s: Perron value %.6g, top non-Perron %.6g, %.2f s",
            draw + 1,
            draws,
            n_tokens,
            beta,
            results[-1]["squared_singular_values"][0],
            results[-1]["top_values"][0],
            clock.lap(),
        )
    LOG.info("%d draws in %.2f s", draws, clock.total())
    return results


def pack_draws(results: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """One flat dict ``"<draw>/<key>"`` of the per-draw dicts (arrays of varying length)."""
    return {f"{i}/{key}": value for i, draw in enumerate(results) for key, value in draw.items()}


def unpack_draws(packed: Mapping[str, np.ndarray]) -> list[dict]:
    """Inverse of :func:`pack_draws`: the per-draw dicts in draw order."""
    draws: dict[int, dict] = {}
    for name, value in packed.items():
        index, key = name.split("/", 1)
        draws.setdefault(int(index), {})[key] = value
    return [draws[i] for i in sorted(draws)]


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


FULL_SPECTRUM_LEVELS = (
    "perron_prediction",
    "x_plus",
    "mp_edge",
    "outlier_threshold",
    "ipr_reference",
)
"""The theory levels of figure A2, one row each in its table (kind ``theory``)."""


def full_spectrum_plotted_table(summary: Mapping[str, np.ndarray]):
    """Figure A2's tidy table from :func:`summarise_full_spectrum`: a pandas DataFrame with
    columns kind, series, draw, k, x, value, one row per number drawn, empty cells where a
    column does not apply:

    - kind ``data``: ``spectrum``, every ell s_k(A)^2 of every draw (``draw``, ``k``,
      ``value``), panels (a) (draw 0) and (b) (all, on log bins of BINS_PER_DECADE per decade);
      ``nonperron``, the leading squared singular values of sqrt(ell) A_perp per draw (``draw``,
      ``k``, ``value``), and ``ell_ipr_left`` / ``ell_ipr_right``, ell IPR (``value``) of their
      singular vectors at ``x`` = the squared singular value;
    - kind ``theory``: ``nu_inf_quantile`` (``k``, ``value``); ``nu_inf_expected_count``, per
      log bin of panel (b) its geometric centre ``x`` and draws (ell - 1) nu_inf(bin)
      (``value``); ``spike_prediction`` K(1/theta)^2 per draw (``draw``, k = 1, ``value``); the
      levels :data:`FULL_SPECTRUM_LEVELS` (``value``).
    """
    import pandas as pd  # lazily: the simulation jobs never build tables

    values = summary["values"]
    draws, ranks = np.indices(values.shape)
    edges = summary["edges"]
    pairs = pd.DataFrame({"draw": summary["pair_draw"]})
    pairs["k"] = pairs.groupby("draw").cumcount() + 1  # the rank within the draw
    top = summary["pair_value"]
    pieces = [
        pd.DataFrame(
            {
                "kind": "data",
                "series": "spectrum",
                "draw": draws.ravel(),
                "k": ranks.ravel() + 1,
                "value": values.ravel(),
            }
        ),
        pairs.assign(kind="data", series="nonperron", value=top),
        pairs.assign(kind="data", series="ell_ipr_left", x=top, value=summary["pair_ipr_left"]),
        pairs.assign(kind="data", series="ell_ipr_right", x=top, value=summary["pair_ipr_right"]),
        pd.DataFrame(
            {
                "kind": "theory",
                "series": "nu_inf_quantile",
                "k": summary["theory_ranks"],
                "value": summary["theory_sorted"],
            }
        ),
        pd.DataFrame(
            {
                "kind": "theory",
                "series": "nu_inf_expected_count",
                "x": np.sqrt(edges[1:] * edges[:-1]),
                "value": summary["theory_counts"],
            }
        ),
        pd.DataFrame(
            {
                "kind": "theory",
                "series": "spike_prediction",
                "draw": np.arange(len(summary["spike_prediction"])),
                "k": 1,
                "value": summary["spike_prediction"],
            }
        ),
        pd.DataFrame(
            {
                "kind": "theory",
                "series": list(FULL_SPECTRUM_LEVELS),
                "value": [float(summary[name]) for name in FULL_SPECTRUM_LEVELS],
            }
        ),
    ]
    table = pd.concat(pieces, ignore_index=True).astype({"draw": "Int64", "k": "Int64"})
    return table[["kind", "series", "draw", "k", "x", "value"]]
