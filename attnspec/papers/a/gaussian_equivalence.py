"""Claim A.3 (paper A): the non-Perron spectrum of softmax attention has the law of Y_lin.

Measured by two-sample Kolmogorov distances between single draws at one (ell, beta): per
attention draw i, D_AL(i) = mean over Y_lin draws j != i of KS(bulk_i, Y_lin_j) (draw j = i
shares Q and K with draw i, so it is left out: the comparison is between independent matrices);
per Y_lin draw j, D_LL(j) = mean over k != j of KS(Y_lin_j, Y_lin_k), two samples of one law at
the same ell (the floor). Gaussian equivalence at this ell means mean D_AL - mean D_LL near 0.

The wrong theories of row A.3 are Gaussian equivalents with another limit law L
(:func:`attnspec.papers.a.bulk_laws_summary.alternative_laws`: MP and nu_inf at beta (1 -+ 1 %),
and at beta (1 -+ 3 %) for the variant reported beside them): their draws are the Y_lin draws
carried to L by the quantile map T(x) = F_L^{-1}(F_nu_inf(x)) (:func:`carried_to`), and
D_AL^L(i) = mean over j != i of KS(bulk_i, T(Y_lin_j)). Their floor is D_LL itself: the
Kolmogorov distance between two samples depends only on the order of their pooled values, which
a strictly increasing map keeps, so KS(T(Y_j), T(Y_k)) = KS(Y_j, Y_k). T is strictly increasing
on the support [0, x_+] of nu_inf (c = 1); the few Y_lin values beyond x_+ (its Tracy-Widom
fluctuation) all go to L's right edge, which can only merge ties and lower that distance.
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.claims.evidence import Evidence
from attnspec.distances import kolmogorov_distance
from attnspec.papers.a.bulk_laws_evidence import (
    ALTERNATIVE_LAWS,
    BETA_VARIANT,
    VARIANT_LAWS,
    nearest_law_unit,
)
from attnspec.papers.a.bulk_laws_summary import (
    COARSE_BETA_MUTANTS,
    WRONG_LAWS,
    alternative_laws,
    attention_bulk,
)
from attnspec.papers.a.linearisation import series_evidence
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


def equivalence_evidence(table: Mapping[str, np.ndarray], *, beta: float) -> Evidence:
    """Registry row A.3/beta=<beta> from :func:`pair_distance_table`: ``values`` = D_AL and
    ``reference`` = D_LL at the largest ell, with the same at every ell of the table for the
    row's finite-size model (limit 0); margin unit the distance from nu_inf to the nearest wrong
    beta (:func:`attnspec.papers.a.bulk_laws_evidence.nearest_law_unit`); each wrong law L judged
    by ``values`` = D_AL^L against the same D_LL (module docstring), target 0, at every ell; the
    variant :data:`attnspec.papers.a.bulk_laws_evidence.BETA_VARIANT` the same with the wrong
    betas at 3 % and their margin unit."""
    sizes = table["n_tokens"]
    d_al, d_ll = table["d_al"], table["d_ll"]
    row_id, n_max = f"A.3/beta={beta:g}", int(sizes[-1])
    missing = [name for name in WRONG_LAWS if f"d_al/{name}" not in table]
    if missing:
        raise ValueError(
            f"the A-T2 pair distances lack the wrong laws {missing}: rerun the rule "
            "paperA_AT2_pairs"
        )

    def per_size(values: np.ndarray) -> list[dict]:
        return [{"values": al, "reference": ll} for al, ll in zip(values, d_ll, strict=True)]

    def wrong_laws(names) -> dict:
        return {
            name: series_evidence(
                row_id,
                sizes,
                per_size(table[f"d_al/{name}"]),
                target=0.0,
                quantity=(
                    f"mean KS of sqrt(ell) A_perp to Y_lin draws of other seeds carried to {name} "
                    f"by the quantile map, minus D_LL, ell = {n_max}, beta = {beta:g}, c = 1 (and "
                    "every ell of the table)"
                ),
                note=f"D_AL to the carried draws {table[f'd_al/{name}'][-1].mean():.4f}",
            )
            for name in names
        }

    def described(names) -> str:
        return ", ".join(f"{name} {table[f'd_al/{name}'][-1].mean():.4f}" for name in names)

    by_size = ", ".join(
        f"ell={int(n)}: {al.mean() - ll.mean():+.4f}"
        for n, al, ll in zip(sizes, d_al, d_ll, strict=True)
    )
    quantity = (
        "mean two-sample Kolmogorov distance of sqrt(ell) A_perp to Y_lin draws of other "
        f"seeds minus that between Y_lin draws, ell = {n_max}, beta = {beta:g}, c = 1"
    )
    unit = nearest_law_unit(beta)
    coarse = nearest_law_unit(beta, mutants=COARSE_BETA_MUTANTS)
    variant = series_evidence(
        row_id,
        sizes,
        per_size(d_al),
        target=0.0,
        margin_scale=coarse,
        quantity=f"{quantity}; wrong betas beta (1 -+ 3 %)",
        note=f"margin unit min KS(nu_inf(beta), nu_inf(beta (1 -+ 3 %))) = {coarse:.4f}; D_AL "
        f"to Y_lin carried to the wrong laws: {described(VARIANT_LAWS)}",
        alternatives=wrong_laws(VARIANT_LAWS),
    )
    return series_evidence(
        row_id,
        sizes,
        per_size(d_al),
        target=0.0,
        margin_scale=unit,
        quantity=quantity,
        note=(
            f"at ell = {n_max}: D_AL {d_al[-1].mean():.4f}, D_LL {d_ll[-1].mean():.4f}; D_AL to "
            f"Y_lin carried to the wrong laws: {described(ALTERNATIVE_LAWS)} (at 3 %: "
            f"{described(COARSE_BETA_MUTANTS)}); mean excess by ell: {by_size}; margin unit "
            f"min KS(nu_inf(beta), nu_inf(beta (1 -+ 1 %))) = {unit:.4f} ({coarse:.4f} at 3 %)"
        ),
        alternatives=wrong_laws(ALTERNATIVE_LAWS),
        variants={BETA_VARIANT: variant},
    )


BY_SIZE_HEADER = ("ell", "mean_D_AL", "mean_D_LL", "excess")


def by_size_rows(table: Mapping[str, np.ndarray]) -> list[tuple]:
    """One row per ell (:data:`BY_SIZE_HEADER`): means over draws of D_AL, D_LL and their
    difference (descriptive; the row A.3 judges the largest ell)."""
    return [
        (int(n), float(al.mean()), float(ll.mean()), float(al.mean() - ll.mean()))
        for n, al, ll in zip(table["n_tokens"], table["d_al"], table["d_ll"], strict=True)
    ]
