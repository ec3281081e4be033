"""The evidence of registry rows A.2/beta=<beta> (paper A): the OLS slope of log(s_1(A) - 1) on
log ell, target -1, against the wrong theories' slopes -1/2 and -2/3."""

from collections.abc import Sequence

import numpy as np

from attnspec.claims.evidence import Evidence
from attnspec.papers.a.perron_summary import PerronSeries, local_slopes

TARGET_SLOPE = -1.0
# The betas of the registry rows A.2/beta=<beta> (attnspec.papers.a.declared_tests).
JUDGED_BETAS = (0.5, 1.0)

# Row A.2's alternatives: the slope of log(s_1 - 1) on log ell under each wrong theory.
SLOPE_ALTERNATIVES = {"slope -0.5": -0.5, "slope -0.67": -2.0 / 3.0}


def perron_evidence(series: PerronSeries) -> Evidence:
    """The evidence of registry row A.2/beta=<beta>: samples ``values`` = s_1(A) - 1 per
    (draw, ell), ``sizes`` = ell, for the OLS slope of log(s_1 - 1) on log ell (target -1);
    alternatives (:data:`SLOPE_ALTERNATIVES`): the same samples against the slopes -1/2 and
    -2/3."""
    samples = {"values": series.deviation.T, "sizes": series.n_tokens.astype(np.float64)}
    row_id = f"A.2/beta={series.beta:g}"
    quantity = (
        f"OLS slope of log(s_1(A) - 1) on log ell over every (draw, ell), c = 1, beta = "
        f"{series.beta:g}, ell = {', '.join(str(int(n)) for n in series.n_tokens)}"
    )
    alternatives = {
        name: Evidence(
            row_id,
            samples,
            target=slope,
            quantity=quantity,
            note=f"s_1(A) - 1 ~ ell^({slope:.3g})",
        )
        for name, slope in SLOPE_ALTERNATIVES.items()
    }
    sizes, slopes = local_slopes(series)
    local = ", ".join(
        f"ell~{size:.0f}: {slope:+.3f}"
        for size, slope in zip(sizes, slopes.mean(axis=0), strict=True)
    )
    mean, predicted = series.deviation[-1].mean(), series.predicted_deviation[-1]
    last = int(series.n_tokens[-1])
    return Evidence(
        row_id=row_id,
        samples=samples,
        target=TARGET_SLOPE,
        quantity=quantity,
        note=(
            f"mean s_1 - 1 at ell = {last}: {mean:.4g} against the finite-ell prediction "
            f"{predicted:.4g} (ratio {mean / predicted:.3f}); mean local slope between "
            f"consecutive ell: {local}; mean stable rank at ell = {last} "
            f"{series.stable_rank[-1].mean():.4g} against its limit e^(beta^2) = "
            f"{series.limit_stable_rank:.4g}"
        ),
        alternatives=alternatives,
    )


def perron_evidence_rows(series: Sequence[PerronSeries]) -> list[Evidence]:
    """The A.2 evidence at each judged beta (:data:`JUDGED_BETAS`), from the series of every
    simulated beta; ValueError naming the config key if a judged beta was not simulated."""
    by_beta = {float(s.beta): s for s in series}
    missing = [beta for beta in JUDGED_BETAS if beta not in by_beta]
    if missing:
        raise ValueError(
            f"paperA.perron.betas must contain the judged betas {list(JUDGED_BETAS)}; "
            f"missing {missing}"
        )
    return [perron_evidence(by_beta[beta]) for beta in JUDGED_BETAS]
