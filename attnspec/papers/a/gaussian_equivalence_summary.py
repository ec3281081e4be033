"""Table A-T2's pair distances (paper A, claim A.3): D_AL(i) = mean over j != i of KS(bulk_i,
Y_lin_j), D_LL(j) = mean over k != j of KS(Y_lin_j, Y_lin_k) (the floor), and D_AL^L against the
Y_lin draws carried to a wrong law L by T = F_L^{-1} o F_nu_inf; the rows of its by-ell table.

Measured by two-sample Kolmogorov distances between single draws at one (ell, beta): per
attention draw i, D_AL(i) = mean over Y_lin draws j != i of KS(bulk_i, Y_lin_j) (draw j = i
shares Q and K with draw i, so it is left out: the comparison is between independent matrices);
per Y_lin draw j, D_LL(j) = mean over k != j of KS(Y_lin_j, Y_lin_k), two samples of one law at
the same ell (the floor). Gaussian equivalence at this ell means mean D_AL - mean D_LL near 0.
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.distances import kolmogorov_distance
from attnspec.papers.a.bulk_laws_summary import WRONG_LAWS, alternative_laws, attention_bulk
from attnspec.theory.nu_infinity import NuInfinity


def _cross_distances(bulks: Sequence[np.ndarray], linear: Sequence[np.ndarray]) -> np.ndarray:
    """Per attention bulk i, the mean KS to the Y_lin draws j != i."""
    return np.array(
        [
            np.mean([kolmogorov_distance(bulk, y) for j, y in enumerate(linear) if j != i])
            for i, bulk in enumerate(bulks)
        ]
    )


def pair_distances(
    attention: Sequence[np.ndarray], linear: Sequence[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """(D_AL per attention draw, D_LL per Y_lin draw) (module docstring); draw i of both models
    must be the same seed. The attention spectra lose their structural zero."""
    if len(linear) < 2 or len(attention) < 1:
        raise ValueError("pair distances need at least one attention and two Y_lin draws")
    d_al = _cross_distances([attention_bulk(values) for values in attention], linear)
    pairs = np.zeros((len(linear), len(linear)))
    for j in range(len(linear)):
        for k in range(j + 1, len(linear)):
            pairs[j, k] = pairs[k, j] = kolmogorov_distance(linear[j], linear[k])
    d_ll = pairs.sum(axis=1) / (len(linear) - 1)
    return d_al, d_ll


def carried_to(values: np.ndarray, source, target) -> np.ndarray:
    """The quantile map T(x) = F_target^{-1}(F_source(x)): a sample of ``source`` becomes one
    of ``target`` (both laws have ``cdf`` and ``quantile``); non-decreasing, strictly
    increasing where F_source is."""
    return target.quantile(np.clip(source.cdf(values), 0.0, 1.0))


def carried_distances(
    attention: Sequence[np.ndarray], linear: Sequence[np.ndarray], beta: float
) -> dict[str, np.ndarray]:
    """Per wrong law L (:data:`attnspec.papers.a.bulk_laws_summary.WRONG_LAWS`, both resolutions),
    D_AL^L per attention draw: the mean KS of its bulk to the Y_lin draws of other seeds
    carried from nu_inf(beta) to L (:func:`carried_to`)."""
    law = NuInfinity(beta, 1.0)
    bulks = [attention_bulk(values) for values in attention]
    return {
        name: _cross_distances(bulks, [carried_to(y, law, wrong) for y in linear])
        for name, wrong in alternative_laws(beta).items()
    }


def pair_distance_table(
    spectra: Mapping[int, tuple[Sequence[np.ndarray], Sequence[np.ndarray]]], *, beta: float
) -> dict[str, np.ndarray]:
    """:func:`pair_distances` and :func:`carried_distances` at every ell of ``spectra`` (ell ->
    (attention, linear)) at ``beta``: ``n_tokens`` (ascending), ``d_al``, ``d_ll`` and
    ``d_al/<name>`` for each wrong law (ell x draws)."""
    sizes = sorted(spectra)
    results = [pair_distances(*spectra[ell]) for ell in sizes]
    carried = [carried_distances(*spectra[ell], beta) for ell in sizes]
    return {
        "n_tokens": np.array(sizes, dtype=np.int64),
        "d_al": np.stack([d_al for d_al, _ in results]),
        "d_ll": np.stack([d_ll for _, d_ll in results]),
        **{f"d_al/{name}": np.stack([c[name] for c in carried]) for name in WRONG_LAWS},
    }


BY_SIZE_HEADER = ("ell", "mean_D_AL", "mean_D_LL", "excess")


def by_size_rows(table: Mapping[str, np.ndarray]) -> list[tuple]:
    """One row per ell (:data:`BY_SIZE_HEADER`): means over draws of D_AL, D_LL and their
    difference (descriptive; the row A.3 judges the largest ell)."""
    return [
        (int(n), float(al.mean()), float(ll.mean()), float(al.mean() - ll.mean()))
        for n, al, ll in zip(table["n_tokens"], table["d_al"], table["d_ll"], strict=True)
    ]
