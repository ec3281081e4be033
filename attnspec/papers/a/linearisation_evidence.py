"""The evidence of registry rows A.1/beta=<beta>, A.5/breakdown and A.5/location (paper A, figure
A5): per draw KS(attention bulk, nu_inf) - KS(Y_lin, nu_inf), against the wrong laws L with the
same floor; the excess at the largest beta; the slope of log beta*(ell) on log log ell (1/2).

Evidence (rows of :mod:`attnspec.papers.a.declared_tests`): A.1/beta=<beta> is, per draw at the
largest ell, the attention distance to nu_inf minus the distance of the Y_lin draw from the same
Q, K (a paired excess over the floor), with the same at every ell for its finite-size model; its
alternatives replace nu_inf in the attention distance by a wrong law L
(:func:`attnspec.papers.a.bulk_laws_summary.alternative_laws`: MP and nu_inf at beta (1 -+ 1 %), and
beta (1 -+ 3 %) for the variant reported beside it; the floor stays the nu_inf one: subtracting
KS(Y_lin, L) instead would cancel whatever L is). A.5/breakdown compares
the two distances at the largest beta; A.5/location the threshold beta*(ell)
(:func:`attnspec.claims.evidence.threshold_crossings`) against sqrt(log ell), attention and Y_lin
draws resampled together.
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
from attnspec.papers.a.linearisation_summary import (
    EXCESS_THRESHOLD,
    JUDGED_BETAS,
    MODELS,
    threshold_betas,
)


def _beta_index(summary: Mapping, beta: float, key: str) -> int:
    matches = np.flatnonzero(summary["beta"] == beta)
    if matches.size != 1:
        raise ValueError(f"{key} must contain the judged beta {beta:g}")
    return int(matches[0])


def _sizes_text(summary: Mapping) -> str:
    return ", ".join(str(int(n)) for n in summary["n_tokens"])


def _by_size_text(summary: Mapping, values: np.ndarray) -> str:
    return ", ".join(
        f"ell={int(n)}: {v:+.4f}" for n, v in zip(summary["n_tokens"], values, strict=True)
    )


def convergence_evidence(summary: Mapping, beta: float) -> Evidence:
    """Registry row A.1/beta=<beta>: ``values`` = per draw, KS(attention bulk, nu_inf) -
    KS(Y_lin, nu_inf), the Y_lin draw built from the same Q, K (a paired excess over the
    finite-size floor), judged at the largest ell with the same at every ell of the table for
    the row's finite-size model (limit 0); margin unit the distance from nu_inf to the nearest
    wrong beta (:func:`attnspec.papers.a.bulk_laws_evidence.nearest_law_unit`). Each alternative
    law L (:data:`attnspec.papers.a.bulk_laws_evidence.ALTERNATIVE_LAWS`) gives
    KS(attention bulk, L) -
    KS(Y_lin, nu_inf) at every ell, target 0: the floor stays nu_inf's, since KS(attention, L)
    - KS(Y_lin, L) would cancel any L. The variant :data:`BETA_VARIANT` is the same row with
    the wrong betas at 3 % and their margin unit."""
    j = _beta_index(summary, beta, "paperA.linearisation.betas")
    attention = summary["kolmogorov/attention/draws"][:, j, :]  # (ell, draws)
    linear = summary["kolmogorov/linear/draws"][:, j, :]
    sizes = summary["n_tokens"]
    row_id, n_max = f"A.1/beta={beta:g}", int(sizes[-1])
    where = f"ell = {n_max}, beta = {beta:g}, c = 1"
    distances = {}
    for name in WRONG_LAWS:
        key = f"kolmogorov/{name}/attention/draws"
        found = summary[key][:, j] if key in summary else np.full(linear.shape, np.nan)
        if not np.isfinite(found).all():
            raise ValueError(
                f"the A5 distance table lacks the Kolmogorov distances of the attention bulk to "
                f"the wrong law {name!r} at every ell, beta = {beta:g}: rerun the rule "
                "paperA_A5_distances"
            )
        distances[name] = found  # (ell, draws)

    def wrong_laws(names) -> dict:
        return {
            name: series_evidence(
                row_id,
                sizes,
                [{"values": d - floor} for d, floor in zip(distances[name], linear, strict=True)],
                target=0.0,
                quantity=f"KS(attention bulk, {name}) - KS(Y_lin, nu_inf) per draw, mean, "
                f"{where} (and every ell of the table)",
                note=f"KS(attention bulk, {name}) {distances[name][-1].mean():.4f}",
            )
            for name in names
        }

    def described(names) -> str:
        return ", ".join(f"{name} {distances[name][-1].mean():.4f}" for name in names)

    excess = [{"values": a - floor} for a, floor in zip(attention, linear, strict=True)]
    quantity = (
        "per draw, Kolmogorov distance of the bulk of sqrt(ell) A_perp to nu_inf minus that of "
        f"the Y_lin draw from the same scores, mean over draws, {where}"
    )
    unit = nearest_law_unit(beta)
    coarse = nearest_law_unit(beta, mutants=COARSE_BETA_MUTANTS)
    variant = series_evidence(
        row_id,
        sizes,
        excess,
        target=0.0,
        margin_scale=coarse,
        quantity=f"{quantity}; wrong betas beta (1 -+ 3 %)",
        note=f"margin unit min KS(nu_inf(beta), nu_inf(beta (1 -+ 3 %))) = {coarse:.4f}; KS "
        f"of the attention bulk to the wrong laws: {described(VARIANT_LAWS)}",
        alternatives=wrong_laws(VARIANT_LAWS),
    )
    return series_evidence(
        row_id,
        sizes,
        excess,
        target=0.0,
        margin_scale=unit,
        quantity=quantity,
        note=(
            f"at ell = {n_max}: attention {attention[-1].mean():.4f}, Y_lin "
            f"{linear[-1].mean():.4f}; KS of the attention bulk to the wrong laws: "
            f"{described(ALTERNATIVE_LAWS)} (at 3 %: {described(COARSE_BETA_MUTANTS)}); mean "
            f"paired excess by ell: {_by_size_text(summary, (attention - linear).mean(axis=1))}; "
            f"margin unit min KS(nu_inf(beta), nu_inf(beta (1 -+ 1 %))) = {unit:.4f} at beta = "
            f"{beta:g} ({coarse:.4f} at 3 %)"
        ),
        alternatives=wrong_laws(ALTERNATIVE_LAWS),
        variants={BETA_VARIANT: variant},
    )


def breakdown_evidence(summary: Mapping) -> Evidence:
    """Registry row A.5/breakdown: the attention (``values``) and Y_lin (``reference``)
    distances per draw at the largest beta and the largest ell; the alternative ``no
    threshold`` (linearisation at every beta) predicts a difference of 0."""
    attention = summary["kolmogorov/attention/draws"][-1, -1]
    linear = summary["kolmogorov/linear/draws"][-1, -1]
    beta, n_max = float(summary["beta"][-1]), int(summary["n_tokens"][-1])
    samples = {"values": attention, "reference": linear}
    quantity = (
        "Kolmogorov distance of the bulk of sqrt(ell) A_perp to nu_inf minus that of Y_lin, "
        f"means over draws, ell = {n_max}, beta = {beta:g} "
        f"(x = beta / sqrt(log ell) = {float(summary['rescaled'][-1, -1]):.2f})"
    )
    return Evidence(
        row_id="A.5/breakdown",
        samples=samples,
        target=0.0,
        quantity=quantity,
        note=(
            f"attention {attention.mean():.4f}, Y_lin {linear.mean():.4f}: the bulk of the "
            "attention matrix is far from nu_inf while Y_lin at the same size is at nu_inf"
        ),
        alternatives={
            "no threshold": Evidence(
                "A.5/breakdown",
                samples,
                target=0.0,
                quantity=quantity,
                note="linearisation at every beta: the attention bulk as close to nu_inf as Y_lin",
            )
        },
    )


# A.5/location: the exponent of beta* ~ (log ell)^exponent under each declared theory.
LOCATION_TARGET = 0.5
LOCATION_ALTERNATIVES = {"fixed": 0.0, "log ell": 1.0}


def location_samples(summary: Mapping) -> dict[str, np.ndarray]:
    """The samples of the threshold_slope statistic (:mod:`attnspec.claims.evidence`): ``values``
    (draws, 2, ell, beta), the attention (0) and Y_lin (1) Kolmogorov distances of each draw,
    ``betas``, ``log_sizes`` = log ell and ``threshold`` = :data:`EXCESS_THRESHOLD`."""
    distances = np.stack(
        [summary[f"kolmogorov/{model}/draws"] for model in MODELS], axis=0
    )  # (2, ell, beta, draws)
    return {
        "values": np.moveaxis(distances, 3, 0),
        "betas": summary["beta"],
        "log_sizes": np.log(summary["n_tokens"].astype(np.float64)),
        "threshold": np.float64(EXCESS_THRESHOLD),
    }


def location_evidence(summary: Mapping) -> Evidence:
    """Registry row A.5/location: the OLS slope of log beta* on log log ell
    (:func:`location_samples`; 1/2 for beta* proportional to sqrt(log ell)); alternatives: a
    fixed threshold (slope 0) and beta* proportional to log ell (slope 1), the same samples."""
    crossings = threshold_betas(summary)
    sizes = summary["n_tokens"]
    samples = location_samples(summary)
    medians = [
        f"ell={int(n)}: {np.nanmedian(c):.3f}" if np.isfinite(c).any() else f"ell={int(n)}: none"
        for n, c in zip(sizes, crossings.T, strict=True)
    ]
    change = np.sqrt(np.log(sizes.max()) / np.log(sizes.min())) - 1.0
    missing = int(np.sum(~np.isfinite(crossings)))
    quantity = (
        f"OLS slope of log beta* on log log ell, beta* where the excess Kolmogorov distance "
        f"over the Y_lin floor first reaches {EXCESS_THRESHOLD:g} (per draw, interpolated "
        f"linearly in log beta over beta = {', '.join(f'{b:g}' for b in summary['beta'])}), "
        f"ell = {_sizes_text(summary)}, c = 1"
    )
    alternatives = {
        name: Evidence(
            "A.5/location",
            samples,
            target=target,
            quantity=quantity,
            note=f"beta* proportional to (log ell)^{target:g}",
        )
        for name, target in LOCATION_ALTERNATIVES.items()
    }
    return Evidence(
        row_id="A.5/location",
        samples=samples,
        target=LOCATION_TARGET,
        quantity=quantity,
        note=(
            f"median beta* by ell: {', '.join(medians)}"
            + (f"; {missing} (draw, ell) crossings not bracketed by the betas" if missing else "")
            + f". Over ell = {int(sizes.min())}..{int(sizes.max())}, sqrt(log ell) grows by "
            f"only {change:.0%}: the exponent is measured over a short range of log log ell, "
            "where a finite-size drift of beta* at fixed ell weighs as much as the scaling"
        ),
        alternatives=alternatives,
    )


def linearisation_evidence(summary: Mapping) -> list[Evidence]:
    """The evidence of rows A.1/beta=<beta> (:data:`JUDGED_BETAS`), A.5/breakdown and
    A.5/location from :func:`attnspec.papers.a.linearisation_summary.summarise_distances`."""
    return [convergence_evidence(summary, beta) for beta in JUDGED_BETAS] + [
        breakdown_evidence(summary),
        location_evidence(summary),
    ]
