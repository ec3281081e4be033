"""The evidence of registry rows A.4/beta=<beta> (paper A): per draw the share of the bulk above
the MP edge 4 theta1 against nu_inf's mass there, with the wrong betas as alternatives; and the
finite-size series evidence and margin units that the Kolmogorov rows A.1 and A.3 share.

The rows A.4/beta=<beta> are judged on the square spectra (c = 1, d_qk = ell) of every ell of
paperA.linearisation (:func:`not_marchenko_pastur_evidence`): per draw, the share of the bulk
above the MP edge 4 theta1, against nu_inf's mass there, 1 - F_nu(4 theta1) (MP puts none there;
the same at every ell since c = 1), judged at the largest ell with a finite-size model over all
of them; the same share above 4 theta1(beta') against nu_inf(beta')'s mass judges the wrong betas
beta' = beta (1 -+ 1 %), and at the coarser resolution reported beside it (:data:`BETA_VARIANT`)
beta (1 -+ 3 %). Its margin unit is the change of that mass that the nearest wrong beta makes
(:func:`edge_mass_unit`).

The wrong laws of the Kolmogorov rows of paper A (A.1, A.3)
(:func:`attnspec.papers.a.bulk_laws_summary.alternative_laws`) have as margin unit the distance
from nu_inf to the nearest wrong beta (:func:`nearest_law_unit`). Both units follow one rule for
every paper (:data:`attnspec.papers.declared_texts.RESOLUTION_PRINCIPLE`).
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.claims.evidence import Evidence
from attnspec.claims.finite_size import MIN_SIZES
from attnspec.distances import law_kolmogorov_distance
from attnspec.papers.a.bulk_laws_summary import (
    BETA_MUTANTS,
    COARSE_BETA_MUTANTS,
    edge_shares,
    mass_above_mp_edge,
    share_above,
)
from attnspec.theory.marchenko_pastur import mp_edge
from attnspec.theory.nu_infinity import NuInfinity

# The betas of the registry rows A.4/beta=<beta>.
JUDGED_BETAS = (0.5, 1.0)

# The same rows judged at +- 3 % too (an Evidence variant, reported in other_resolutions).
BETA_VARIANT = "beta +-3 %"

# The names of the wrong laws of the registry alternatives of A.1, A.3, and of the variant's.
ALTERNATIVE_LAWS = ("MP", *BETA_MUTANTS)
VARIANT_LAWS = ("MP", *COARSE_BETA_MUTANTS)


def nearest_law_unit(beta: float, ratio: float = 1.0, mutants: Mapping = BETA_MUTANTS) -> float:
    """min over the wrong betas beta' of ``mutants`` (default beta (1 -+ 1 %)) of
    KS(nu_inf(beta), nu_inf(beta')) (:func:`attnspec.distances.law_kolmogorov_distance`): the
    unit of the Kolmogorov margins of the rows A.1 and A.3, the distance to the nearest wrong
    law declared, from theory alone."""
    law = NuInfinity(beta, ratio)
    return min(
        law_kolmogorov_distance(law, NuInfinity(factor * beta, ratio))
        for factor in mutants.values()
    )


def edge_mass_unit(beta: float, ratio: float = 1.0, mutants: Mapping = BETA_MUTANTS) -> float:
    """min over the wrong betas beta' of ``mutants`` (default beta (1 -+ 1 %)) of
    |mass of nu_inf(beta') above 4 theta1(beta) - mass of nu_inf(beta) there|: how far the
    statistic of row A.4/beta=<beta> (the share above 4 theta1(beta)) moves when the bulk
    follows the nearest wrong law, the unit of its margin, from theory alone."""
    threshold = mp_edge(beta)
    own = NuInfinity(beta, ratio).cdf(threshold)
    return min(
        abs(float(NuInfinity(factor * beta, ratio).cdf(threshold) - own))
        for factor in mutants.values()
    )


def series_evidence(
    row_id: str, sizes: Sequence[int], per_size: Sequence[Mapping[str, np.ndarray]], **fields
) -> Evidence:
    """Evidence judged at the largest size with the finite-size data of every size:
    ``per_size`` holds each size's samples (draws first), ``sizes`` ascending; the limit's
    target is the judged size's (the targets of paper A's rows judged by a finite-size model do
    not depend on ell: distances that vanish, nu_inf's mass above 4 theta1 at c = 1).
    ValueError naming the config key with fewer than :data:`MIN_SIZES` sizes."""
    if len(sizes) < MIN_SIZES:
        raise ValueError(
            f"{row_id}: paperA.linearisation.n_tokens needs at least {MIN_SIZES} sizes for the "
            f"row's finite-size model, got {[int(n) for n in sizes]}"
        )
    return Evidence(
        row_id=row_id,
        samples=dict(per_size[-1]),
        sizes=np.asarray(sizes, dtype=np.float64),
        by_size=tuple(dict(own) for own in per_size),
        **fields,
    )


def _by_ell(sizes: Sequence[int], values: Sequence[np.ndarray]) -> str:
    """``ell=<n>: <mean>`` for each size, means over draws."""
    return ", ".join(f"ell={int(n)}: {np.mean(v):.4f}" for n, v in zip(sizes, values, strict=True))


def not_marchenko_pastur_evidence(
    sizes: Sequence[int],
    attention: Sequence[Sequence[np.ndarray]],
    linear: Sequence[Sequence[np.ndarray]],
    *,
    beta: float,
) -> Evidence:
    """Registry row A.4/beta=<beta> from square spectra (c = 1, d_qk = ell) at each ell of
    ``sizes`` (ascending; ``attention`` and ``linear`` the draws of sqrt(ell) A_perp and of Y_lin
    at each): ``values`` = per draw the share of the bulk above 4 theta1 (:func:`edge_shares`),
    judged at the largest ell with every ell for the row's finite-size model; target and limit
    target nu_inf's mass there (:func:`mass_above_mp_edge`, the same at every ell since c = 1);
    margin unit :func:`edge_mass_unit`. Alternatives on the same draws at every ell: ``MP`` (the
    same shares, target 0) and each wrong beta' of :data:`BETA_MUTANTS` (the shares above
    4 theta1(beta') against nu_inf(beta')'s mass there); the variant :data:`BETA_VARIANT` the
    same with :data:`COARSE_BETA_MUTANTS` and its own margin unit. Y_lin's shares (its limit is
    exactly nu_inf) are reported in the note."""
    row_id, n_max = f"A.4/beta={beta:g}", int(sizes[-1])
    shares = [edge_shares(draws, beta) for draws in attention]
    where = f"ell = {n_max}, c = 1, beta = {beta:g}"
    mass = mass_above_mp_edge(beta)

    def series(key: str, target: float, **fields) -> Evidence:
        per_size = [{"values": own[key]} for own in shares]
        return series_evidence(row_id, sizes, per_size, target=target, **fields)

    def wrong_theories(mutants: Mapping) -> dict:
        found = {
            "MP": series(
                "beta",
                0.0,
                quantity=f"share of the bulk above 4 theta1 = {mp_edge(beta):.4g}, {where} (and "
                "every ell of the series)",
                note="the MP surrogate has no mass above its edge 4 theta1",
            )
        }
        for name, factor in mutants.items():
            wrong = factor * beta
            found[name] = series(
                name,
                mass_above_mp_edge(wrong),
                quantity=f"share of the bulk above 4 theta1({wrong:g}) = {mp_edge(wrong):.4g}, "
                f"{where} (and every ell of the series)",
                note=f"target: nu_inf({wrong:g})'s mass above 4 theta1({wrong:g})",
            )
        return found

    def described(mutants: Mapping) -> str:
        return "; ".join(
            f"{name}: share {np.mean(shares[-1][name]):.4f} against "
            f"{mass_above_mp_edge(factor * beta):.4f}"
            for name, factor in mutants.items()
        )

    quantity = (
        "share of the bulk of sqrt(ell) A_perp above the MP edge 4 theta1 = "
        f"{mp_edge(beta):.4g} per draw, mean over draws, {where}"
    )
    unit, coarse = edge_mass_unit(beta), edge_mass_unit(beta, mutants=COARSE_BETA_MUTANTS)
    variant = series(
        "beta",
        mass,
        margin_scale=coarse,
        quantity=f"{quantity}; wrong betas beta (1 -+ 3 %)",
        note=f"margin unit at beta (1 -+ 3 %) {coarse:.4g}; at ell = {n_max}: "
        f"{described(COARSE_BETA_MUTANTS)}",
        alternatives=wrong_theories(COARSE_BETA_MUTANTS),
    )
    floor = [share_above(draws, mp_edge(beta)) for draws in linear]
    return series(
        "beta",
        mass,
        margin_scale=unit,
        quantity=quantity,
        note=(
            f"nu_inf's mass there {mass:.4f}, MP's 0; mean share by ell: "
            f"{_by_ell(sizes, [own['beta'] for own in shares])}; Y_lin at the same ell: "
            f"{_by_ell(sizes, floor)}; beta off by 1 % at ell = {n_max} "
            f"({described(BETA_MUTANTS)}); margin unit: the nearest wrong beta moves the share "
            f"by {unit:.4g} (by {coarse:.4g} at 3 %)"
        ),
        alternatives=wrong_theories(BETA_MUTANTS),
        variants={BETA_VARIANT: variant},
    )


def not_marchenko_pastur_evidence_rows(
    points: Sequence[Mapping],
    attention: Sequence[Sequence[np.ndarray]],
    linear: Sequence[Sequence[np.ndarray]],
) -> list[Evidence]:
    """The A.4 evidence at each judged beta (:data:`JUDGED_BETAS`) from square spectra at
    ``points`` (keys ``n_tokens`` and ``beta``; ``attention`` and ``linear`` the draws at each,
    in the same order), the ell of each beta its finite-size series; ValueError naming the
    config key if a judged beta was not simulated."""
    by_beta: dict[float, dict[int, tuple]] = {}
    for point, own, floor in zip(points, attention, linear, strict=True):
        by_beta.setdefault(float(point["beta"]), {})[int(point["n_tokens"])] = (own, floor)
    missing = [beta for beta in JUDGED_BETAS if beta not in by_beta]
    if missing:
        raise ValueError(
            f"paperA.linearisation.betas must contain the judged betas {list(JUDGED_BETAS)}; "
            f"missing {missing}"
        )
    rows = []
    for beta in JUDGED_BETAS:
        sizes = sorted(by_beta[beta])
        pairs = [by_beta[beta][n] for n in sizes]
        rows.append(
            not_marchenko_pastur_evidence(
                sizes, [own for own, _ in pairs], [floor for _, floor in pairs], beta=beta
            )
        )
    return rows
