"""The claims of the three abstracts that the workflow checks (papers.md, section 7).

Each claim gets exactly one verdict row (:class:`attnspec.verdicts.ClaimCheck`) in its paper's
``claims.csv``; :func:`collect_claims` checks that the rows cover a paper's claims once each.
"""

from collections.abc import Iterable

CLAIMS = {
    "A.1": "The squared singular-value law of sqrt(ell) A_perp converges to a deterministic law "
    "nu_inf at beta = O(1) in the proportional regime.",
    "A.2": "s_1(A) -> 1 (one Perron mode).",
    "A.3": "nu_inf is the law of the linear model Y_lin (Gaussian equivalence).",
    "A.4": "nu_inf is not Marchenko-Pastur: its right edge exceeds 4(e^{beta^2} - 1).",
    "A.5": "Linearisation has a threshold (beta of order sqrt(log ell)).",
    "B.1": "ell s_k(A)^2 -> x_+ for every fixed k >= 2: no outlier beyond the Perron mode.",
    "B.2": "The convergence is uniform over any deterministic sublinear number of leading "
    "non-Perron indices.",
    "B.3": "The conditional covariance is a diagonally conjugated inner-product kernel; its "
    "finite deformed-MP edge converges to x_+.",
    "B.4": "A scalar edge formula holds throughout the proportional regime and recovers paper A's "
    "square-model formula, physical branch included.",
    "C.1": "Row softmax preserves the dominant (spike) modes of the canonical score model.",
    "C.2": "The bulk spectral distribution of the attention matrix concentrates at zero.",
    "C.3": "Stable rank stays bounded for bidirectional attention.",
    "C.4": "Stable rank grows logarithmically for causal attention.",
    "C.5": "In pretrained transformers the token-space singular matrices have nearly uniform "
    "eigen-angle distributions.",
    "C.6": "In pretrained transformers score spectra are dominated by a small number of "
    "directions.",
}


def claims_of(paper: str) -> list[str]:
    """Claim ids of one paper ("A", "B" or "C"), in order."""
    return [claim_id for claim_id in CLAIMS if claim_id.startswith(f"{paper}.")]


def collect_claims(rows: Iterable[dict], paper: str) -> list[dict]:
    """Rows sorted by claim id; ValueError unless each claim of ``paper`` appears exactly once."""
    rows = list(rows)
    ids = [row["claim_id"] for row in rows]
    expected = claims_of(paper)
    missing = [c for c in expected if c not in ids]
    duplicated = sorted({c for c in ids if ids.count(c) > 1})
    unknown = sorted(set(ids) - set(expected))
    if missing or duplicated or unknown:
        raise ValueError(
            f"paper {paper} claims: missing {missing}, duplicated {duplicated}, unknown {unknown}"
        )
    return sorted(rows, key=lambda row: expected.index(row["claim_id"]))
