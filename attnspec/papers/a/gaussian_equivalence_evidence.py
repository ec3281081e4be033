"""The evidence of registry row A.3/beta=<beta> (paper A): D_AL - D_LL against 0, and D_AL^L - D_LL
for each wrong law L (KS is unchanged when both samples go through one increasing map, so D_LL
is L's floor too); :mod:`attnspec.papers.a.gaussian_equivalence_summary` defines them.

The wrong theories of row A.3 are Gaussian equivalents with another limit law L
(:func:`attnspec.papers.a.bulk_laws_summary.alternative_laws`: MP and nu_inf at
beta (1 -+ 1 %), and at beta (1 -+ 3 %) for the variant reported beside them): their draws are
the Y_lin draws carried to L by the quantile map T(x) = F_L^{-1}(F_nu_inf(x))
(:func:`attnspec.papers.a.gaussian_equivalence_summary.carried_to`), and
D_AL^L(i) = mean over j != i of KS(bulk_i, T(Y_lin_j)). Their floor is D_LL itself: the
Kolmogorov distance between two samples depends only on the order of their pooled values, which
a strictly increasing map keeps, so KS(T(Y_j), T(Y_k)) = KS(Y_j, Y_k). T is strictly increasing
on the support [0, x_+] of nu_inf (c = 1); the few Y_lin values beyond x_+ (its Tracy-Widom
fluctuation) all go to L's right edge, which can only merge ties and lower that distance.
"""

from collections.abc import Mapping

import numpy as np

from attnspec.claims.evidence import Evidence
from attnspec.papers.a.bulk_laws_evidence import (
    ALTERNATIVE_LAWS,
    BETA_VARIANT,
    VARIANT_LAWS,
    nearest_law_unit,
    series_evidence,
)
from attnspec.papers.a.bulk_laws_summary import COARSE_BETA_MUTANTS, WRONG_LAWS


def equivalence_evidence(table: Mapping[str, np.ndarray], *, beta: float) -> Evidence:
    """Registry row A.3/beta=<beta> from
    :func:`attnspec.papers.a.gaussian_equivalence_summary.pair_distance_table`: ``values`` = D_AL
    and ``reference`` = D_LL at the largest ell, with the same at every ell of the table for the
    row's finite-size model (limit 0); margin unit the distance from nu_inf to the nearest wrong
    beta (:func:`attnspec.papers.a.bulk_laws_evidence.nearest_law_unit`); each wrong law L
    judged by ``values`` = D_AL^L against the same D_LL (module docstring), target 0, at every
    ell; the variant :data:`attnspec.papers.a.bulk_laws_evidence.BETA_VARIANT` the same with the
    wrong betas at 3 % and their margin unit."""
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
