"""Claim A.3 (paper A): the non-Perron spectrum of softmax attention has the law of Y_lin.

Measured by two-sample Kolmogorov distances between single draws at one (ell, beta): per
attention draw i, D_AL(i) = mean over Y_lin draws j != i of KS(bulk_i, Y_lin_j) (draw j = i
shares Q and K with draw i, so it is left out: the comparison is between independent matrices);
per Y_lin draw j, D_LL(j) = mean over k != j of KS(Y_lin_j, Y_lin_k), two samples of one law at
the same ell (the floor). Gaussian equivalence at this ell means mean D_AL - mean D_LL near 0;
the per-draw excess D_AL(i) - mean D_LL over several ell shows whether a finite-size gap closes.
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.distances import kolmogorov_distance
from attnspec.evidence import Evidence
from attnspec.experiments.bulk_laws import attention_bulk, law_separation


def pair_distances(
    attention: Sequence[np.ndarray], linear: Sequence[np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """(D_AL per attention draw, D_LL per Y_lin draw) (module docstring); draw i of both models
    must be the same seed. The attention spectra lose their structural zero."""
    if len(linear) < 2 or len(attention) < 1:
        raise ValueError("pair distances need at least one attention and two Y_lin draws")
    bulks = [attention_bulk(values) for values in attention]
    d_al = np.array(
        [
            np.mean([kolmogorov_distance(bulk, y) for j, y in enumerate(linear) if j != i])
            for i, bulk in enumerate(bulks)
        ]
    )
    pairs = np.zeros((len(linear), len(linear)))
    for j in range(len(linear)):
        for k in range(j + 1, len(linear)):
            pairs[j, k] = pairs[k, j] = kolmogorov_distance(linear[j], linear[k])
    d_ll = pairs.sum(axis=1) / (len(linear) - 1)
    return d_al, d_ll


def pair_distance_table(
    spectra: Mapping[int, tuple[Sequence[np.ndarray], Sequence[np.ndarray]]],
) -> dict[str, np.ndarray]:
    """:func:`pair_distances` at every ell of ``spectra`` (ell -> (attention, linear)):
    ``n_tokens`` (ascending), ``d_al`` and ``d_ll`` (ell x draws)."""
    sizes = sorted(spectra)
    results = [pair_distances(*spectra[ell]) for ell in sizes]
    return {
        "n_tokens": np.array(sizes, dtype=np.int64),
        "d_al": np.stack([d_al for d_al, _ in results]),
        "d_ll": np.stack([d_ll for _, d_ll in results]),
    }


def equivalence_evidence(table: Mapping[str, np.ndarray], *, beta: float) -> Evidence:
    """Registry row A.3/beta=<beta> from :func:`pair_distance_table`: ``values`` = D_AL and
    ``reference`` = D_LL at the largest ell; margin unit KS(nu_inf, MP) at beta; trend: per
    attention draw D_AL(i) - mean D_LL at every ell, against 0."""
    sizes = table["n_tokens"]
    d_al, d_ll = table["d_al"], table["d_ll"]
    excess = d_al - d_ll.mean(axis=1, keepdims=True)  # (ell, draws)
    by_size = ", ".join(
        f"ell={int(n)}: {e:+.4f}" for n, e in zip(sizes, excess.mean(axis=1), strict=True)
    )
    return Evidence(
        row_id=f"A.3/beta={beta:g}",
        samples={"values": d_al[-1], "reference": d_ll[-1]},
        target=0.0,
        margin_scale=law_separation(beta),
        trend_sizes=sizes.astype(np.float64),
        trend_values=excess.T,
        trend_targets=np.zeros(sizes.size),
        quantity=(
            "mean two-sample Kolmogorov distance of sqrt(ell) A_perp to Y_lin draws of other "
            f"seeds minus that between Y_lin draws, ell = {int(sizes[-1])}, beta = {beta:g}, c = 1"
        ),
        note=(
            f"at ell = {int(sizes[-1])}: D_AL {d_al[-1].mean():.4f}, D_LL {d_ll[-1].mean():.4f}; "
            f"mean excess by ell: {by_size}"
        ),
    )


TREND_HEADER = ("ell", "mean_D_AL", "mean_D_LL", "excess")


def trend_rows(table: Mapping[str, np.ndarray]) -> list[tuple]:
    """One row per ell (:data:`TREND_HEADER`): means over draws of D_AL, D_LL and their
    difference."""
    return [
        (int(n), float(al.mean()), float(ll.mean()), float(al.mean() - ll.mean()))
        for n, al, ll in zip(table["n_tokens"], table["d_al"], table["d_ll"], strict=True)
    ]
