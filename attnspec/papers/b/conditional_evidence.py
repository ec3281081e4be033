"""The evidence of registry rows B.3/Sigma_f and B.3/Sigma_G (paper B): the relative finite edge
(E_ell(Sigma) - x_+) / x_+ of the conditional covariances against 0, x_+ moved by 1 % and 3 %
as the wrong theories."""

import numpy as np

from attnspec.claims.evidence import Evidence
from attnspec.papers.b.conditional import COVARIANCE_LABELS
from attnspec.papers.b.conditional_summary import ConditionalSeries
from attnspec.papers.b.sticking_evidence import COARSE_DILATIONS, DILATIONS, with_coarse_variant


def _edge_evidence(
    series: ConditionalSeries, name: str, dilation: float = 1.0, **texts
) -> Evidence:
    """Row B.3/<Sigma> for edge x = ``dilation`` x_+: per draw (E_ell(Sigma) - x) / x at the
    largest ell, target 0; finite-size model: the same at every ell, limit 0."""
    edge = dilation * series.x_plus
    relative = (series.edges[name] - edge) / edge  # (L, draws)
    return Evidence(
        row_id=f"B.3/{COVARIANCE_LABELS[name]}",
        samples={"values": relative[-1]},
        target=0.0,
        sizes=series.n_tokens.astype(np.float64),
        by_size=tuple({"values": row} for row in relative),
        limit_target=0.0,
        **texts,
    )


def conditional_evidence(series: ConditionalSeries) -> list[Evidence]:
    """Rows B.3/Sigma_f and B.3/Sigma_G (registry): per draw the relative finite edge
    (E_ell(Sigma) - x_+) / x_+ at the largest ell against 0 (the margin, 0.5 % of x_+, is in
    these units), with the same at every ell for the finite-size model (limit 0), and the
    alternatives x_+ 1 % lower and higher (``DILATIONS``, as for rows B.1): the edges relative
    to 0.99 x_+ and 1.01 x_+, target 0; and the variant at 3 % (``COARSE_DILATIONS``,
    :func:`attnspec.papers.b.sticking_evidence.with_coarse_variant`)."""
    ell = int(series.n_tokens[-1])
    evidence = []
    for name, label in COVARIANCE_LABELS.items():
        relative = series.relative_gaps(name)
        last = relative[-1]
        medians = ", ".join(
            f"{int(n)}: {np.median(row):+.2e}"
            for n, row in zip(series.n_tokens, relative, strict=True)
        )
        quantity = (
            f"mean over {last.size} draws of (E_ell({label}) - x_+)/x_+ at ell = {ell}, "
            f"beta = {series.beta:g}, c = {series.ratio:g}"
        )

        def dilated(dilations: dict, name=name, quantity=quantity) -> dict:
            return {
                alternative: _edge_evidence(
                    series, name, dilation, quantity=f"{quantity}, x_+ times {dilation:g}"
                )
                for alternative, dilation in dilations.items()
            }

        alternatives = dilated(DILATIONS)
        note = (
            f"x_+ = {series.x_plus:.6g}; {int(np.sum(last > 0))} of {last.size} draws above "
            f"x_+; median relative gap per ell: {medians}; |E_ell - x_+| ~ ell^slope with slope "
            f"{series.rates[name].describe()} (OLS, 95 % interval). The kernel form of Sigma_f is "
            "exact given K (Gaussian conditioning; Monte Carlo test in "
            "tests/papers/b/test_conditional.py)"
        )
        claim = _edge_evidence(
            series, name, quantity=quantity, note=note, alternatives=alternatives
        )
        evidence.append(with_coarse_variant(claim, dilated(COARSE_DILATIONS)))
    return evidence
