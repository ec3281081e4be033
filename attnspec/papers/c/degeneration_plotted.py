"""Paper C, figures C1-C4: the tidy tables (one row per plotted value, exactly each figure's CSV)
from the canonical-model jobs and the series of :mod:`attnspec.papers.c.degeneration_summary`."""

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from attnspec.models.softmax import MASKS
from attnspec.papers.c.degeneration_summary import StableRankData, iid_bidirectional_bulk_cdf
from attnspec.plotting.tidy import DATA, STATISTIC, THEORY, tidy_table

if TYPE_CHECKING:  # pandas is imported lazily (see the tidy tables below)
    import pandas as pd


# Tidy tables of figures C1-C4 (pandas DataFrames, exactly the figures' CSVs): ``kind`` first
# ("data": simulated values; "theory": derived curves, limits and guides; "statistic": quantities
# the experiment derives from the draws), then ``series`` (what the row is within its kind), the
# identifiers and the values; one row per observation, missing cells where a column does not
# apply (theory curves and pooled values have no draw). pandas is imported inside the functions:
# the simulation jobs import this module without paying for it.


SCORES, ATTENTION, ISOTROPIC_ATTENTION = "S", "A", "isotropic A"


def spectra_plotted_table(spectra: Mapping, *, profiles: Sequence[str]) -> "pd.DataFrame":
    """Figure C1's tidy table: every singular value s_k, k = 1..n (kind "data"), series the
    matrix: S = diag(sigma) (mask "none"), its row softmax A (bidirectional, causal) and the
    isotropic softmax(U Sigma V^T) ("isotropic A", rows of the profile whose sigma it takes;
    C1 draws them in their own panel). Columns: kind, series, profile, mask, rank,
    singular_value."""
    isotropic = str(spectra["isotropic_profile"]) if "isotropic_profile" in spectra else ""
    parts = []
    for profile in profiles:
        series = [(SCORES, "none", spectra[f"{profile}/scores"])]
        series += [(ATTENTION, m, spectra[f"{profile}/{m}/attention"]) for m in MASKS]
        if profile == isotropic:
            series += [(ISOTROPIC_ATTENTION, m, spectra[f"isotropic/{m}/attention"]) for m in MASKS]
        for matrix, mask, values in series:
            values = np.asarray(values, dtype=np.float64)
            rank = np.arange(1, values.size + 1)
            parts.append(
                {
                    "kind": DATA,
                    "series": matrix,
                    "profile": profile,
                    "mask": mask,
                    "rank": rank,
                    "singular_value": values,
                }
            )
    return tidy_table(parts, ("kind", "series", "profile", "mask", "rank", "singular_value"))


BULK_SHARE, BULK_LIMIT, BULK_GUIDE = "bulk share", "limit", "1/n guide"
BULK_STATISTICS = (("median", "median"), ("0.9 quantile", "upper"))
"""The bulk quantiles of figure C2 (series, BulkSeries field)."""
GUIDE_FRACTION = 0.3
"""The 1/n guide of C2 starts at this fraction of the smallest mean bulk median at the least n."""


def bulk_shares(counts, n: int, spikes: int) -> np.ndarray:
    """Share of the bulk values n s_k(A) (the n - r - 1 smallest, over every draw) in each grid
    bin [x_{j-1}, x_j) (the first bin: below x_0), from the exact counts N(x) per draw capped at
    the bulk size; their running sum is the mean over draws of min(N(x) / (n - r - 1), 1)."""
    bulk = n - spikes - 1
    capped = np.minimum(np.asarray(counts), bulk).sum(axis=0)
    return np.diff(capped, prepend=0) / (len(counts) * bulk)


def bulk_plotted_table(jobs, series, *, n_tokens, profiles, spikes, bulk_scale) -> "pd.DataFrame":
    """Figure C2's tidy table (columns kind, series, profile, mask, n, draw, x, y):

    - data ``bulk share``: per n, profile, mask and grid point x, the share y of the bulk values
      n s_k(A) over every draw in the bin ending at x (for a weighted distribution function);
    - theory ``limit``: the iid bidirectional limit law y = F(x);
    - statistic ``median``, ``0.9 quantile``: each draw's bulk quantile y of s = (n s) / n
      (NaN when the bulk is exactly 0);
    - theory ``1/n guide``: y proportional to 1/n through GUIDE_FRACTION of the smallest mean
      median at the least n, per profile.
    """
    parts = []
    for job, n in zip(jobs, n_tokens, strict=True):
        for profile in profiles:
            for mask in MASKS:
                shares = bulk_shares(job[f"{profile}/{mask}/counts"], n, spikes)
                parts.append(
                    {
                        "kind": DATA,
                        "series": BULK_SHARE,
                        "profile": profile,
                        "mask": mask,
                        "n": int(n),
                        "x": np.asarray(job["grid"], dtype=np.float64),
                        "y": shares,
                    }
                )
    if "iid" in profiles:
        grid = np.asarray(jobs[0]["grid"], dtype=np.float64)
        parts.append(
            {
                "kind": THEORY,
                "series": BULK_LIMIT,
                "profile": "iid",
                "mask": "bidirectional",
                "x": grid,
                "y": iid_bidirectional_bulk_cdf(grid, bulk_scale),
            }
        )
    for s in series:
        for label, field in BULK_STATISTICS:
            for n, row in zip(s.n_tokens, getattr(s, field), strict=True):
                parts.append(
                    {
                        "kind": STATISTIC,
                        "series": label,
                        "profile": s.profile,
                        "mask": s.mask,
                        "n": int(n),
                        "draw": np.arange(len(row)),
                        "y": np.asarray(row, dtype=np.float64) / n,
                    }
                )
    sizes = np.sort(np.asarray(n_tokens, dtype=np.float64))
    for profile in profiles:
        resolved = [s for s in series if s.profile == profile and np.all(np.isfinite(s.median))]
        if resolved:
            start = min(float(np.mean(s.median[0])) / s.n_tokens[0] for s in resolved)
            parts.append(
                {
                    "kind": THEORY,
                    "series": BULK_GUIDE,
                    "profile": profile,
                    "n": sizes.astype(int),
                    "y": GUIDE_FRACTION * start * sizes[0] / sizes,
                }
            )
    columns = ("kind", "series", "profile", "mask", "n", "draw", "x", "y")
    return tidy_table(parts, columns, integers=("n", "draw"))


STABLE_RANK, NORM, FROBENIUS_SQUARED = "stable rank", "norm", "squared Frobenius norm"
HARMONIC, APPROACH, REFERENCE = "harmonic number", "finite-n approach", "finite-n reference"
LIMIT, NORM_LIMIT = "limit", "norm limit"
APPROACH_POINTS = 200
"""Points of the derived canonical approach (r + 1) / (1 + sqrt(r / n)) drawn in C3."""


def canonical_approach(n, spikes: int) -> np.ndarray:
    """Derived finite-n stable rank of the canonical bidirectional model, (r + 1)/(1 + sqrt(r/n))
    (papers.md section 5)."""
    return (spikes + 1) / (1 + np.sqrt(spikes / np.asarray(n, dtype=np.float64)))


def stable_rank_plotted_table(
    data: StableRankData, reference: Mapping, *, spikes: int, beta: float
) -> "pd.DataFrame":
    """Figure C3's tidy table (columns kind, series, model, profile, mask, n, draw, value):

    - data ``stable rank``: every draw's stable rank (models canonical, isotropic, gaussian);
      the Cesaro matrix (model ``cesaro``: the causal softmax of zero scores, no draw): its
      ``stable rank``, ``norm`` and ``squared Frobenius norm``;
    - theory: the Cesaro matrix's ``harmonic number`` H_n; the canonical bidirectional
      ``finite-n approach`` (r + 1) / (1 + sqrt(r / n)) on APPROACH_POINTS sizes; the Gaussian
      model's derived ``finite-n reference`` per mask; the bidirectional ``limit`` r + 1
      (canonical) and e^(beta^2) (Gaussian) and the Cesaro ``norm limit`` 2 (no n).

    ``n`` is an integer but for the approach's sizes (object column: the CSV writes 256, not
    256.0)."""
    import pandas as pd

    def sizes_of(values):
        return pd.Series(list(values), dtype=object)

    parts = []
    for s in (*data.canonical, *data.isotropic, *data.gaussian):
        for n, row in zip(s.n_tokens, s.stable_rank, strict=True):
            parts.append(
                {
                    "kind": DATA,
                    "series": STABLE_RANK,
                    "model": s.model,
                    "profile": s.profile,
                    "mask": s.mask,
                    "n": sizes_of([int(n)] * len(row)),
                    "draw": np.arange(len(row)),
                    "value": np.asarray(row, dtype=np.float64),
                }
            )
    cesaro = data.cesaro
    for kind, name, values in (
        (DATA, STABLE_RANK, cesaro.stable_rank),
        (DATA, NORM, cesaro.norm),
        (DATA, FROBENIUS_SQUARED, cesaro.frobenius_squared),
        (THEORY, HARMONIC, cesaro.harmonic),
    ):
        parts.append(
            {
                "kind": kind,
                "series": name,
                "model": "cesaro",
                "profile": "zeros",
                "mask": "causal",
                "n": sizes_of(int(n) for n in cesaro.n_tokens),
                "value": np.asarray(values, dtype=float),
            }
        )
    sizes = np.geomspace(cesaro.n_tokens[0], cesaro.n_tokens[-1], APPROACH_POINTS)
    parts.append(
        {
            "kind": THEORY,
            "series": APPROACH,
            "model": "canonical",
            "mask": "bidirectional",
            "n": sizes_of(float(n) for n in sizes),
            "value": canonical_approach(sizes, spikes),
        }
    )
    for mask in MASKS:
        parts.append(
            {
                "kind": THEORY,
                "series": REFERENCE,
                "model": "gaussian",
                "mask": mask,
                "n": sizes_of(int(n) for n in reference["n_tokens"]),
                "value": np.asarray(reference[f"{mask}/stable_rank"], dtype=np.float64),
            }
        )
    parts.append(
        {
            "kind": THEORY,
            "series": [LIMIT, LIMIT, NORM_LIMIT],
            "model": ["canonical", "gaussian", "cesaro"],
            "mask": ["bidirectional", "bidirectional", "causal"],
            "value": [float(spikes + 1), float(np.exp(beta**2)), 2.0],
        }
    )
    columns = ("kind", "series", "model", "profile", "mask", "n", "draw", "value")
    return tidy_table(parts, columns, integers=("draw",))


SPIKE_TIED, SPIKE_DIAGONAL, TRANSITION = "spike-tied s(A)", "A_pp", "transition"
TRANSITION_KAPPA = 1.0
"""The spikes sigma = kappa log n survive in A for kappa above this (papers.md, figure C4)."""


def survival_plotted_table(jobs: Sequence[Mapping], *, n_tokens: Sequence[int]) -> "pd.DataFrame":
    """Figure C4's tidy table (columns kind, series, mask, n, kappa, draw, spike, value): data
    per mask, n, kappa, draw and spike p: the ``spike-tied s(A)`` (0 for a spike lost from the
    top values, as in :func:`attnspec.papers.c.degeneration_summary.mean_spike_value`) and the
    explicit diagonal entry ``A_pp``; theory ``transition``: the kappa where the spikes start to
    survive."""
    parts = []
    for job, n in zip(jobs, n_tokens, strict=True):
        kappas = np.asarray(job["kappas"], dtype=np.float64)
        for mask in MASKS:
            for name, values in (
                (SPIKE_TIED, np.nan_to_num(job[f"{mask}/spike_values"], nan=0.0)),
                (SPIKE_DIAGONAL, job[f"{mask}/spike_diagonal"]),
            ):
                values = np.asarray(values, dtype=np.float64)
                k, draw, spike = (index.ravel() for index in np.indices(values.shape))
                parts.append(
                    {
                        "kind": DATA,
                        "series": name,
                        "mask": mask,
                        "n": int(n),
                        "kappa": kappas[k],
                        "draw": draw,
                        "spike": spike,
                        "value": values.ravel(),
                    }
                )
    parts.append({"kind": [THEORY], "series": [TRANSITION], "kappa": [TRANSITION_KAPPA]})
    columns = ("kind", "series", "mask", "n", "kappa", "draw", "spike", "value")
    return tidy_table(parts, columns, integers=("n", "draw", "spike"))
