"""The claims of the three abstracts that the workflow checks (papers.md, section 7).

Each claim gets exactly one verdict row (a ClaimCheck) in its paper's
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
    "D.1": "The squared singular values of the centred multi-head attention output and of its "
    "Gaussian equivalent built from the same weights have the same limit law (Theorem 3.1); at "
    "the dimensions of public models the two spectra are apart by the finite-size distance paper "
    "D reports (table D.2: mean relative W1 0.24 % to 2.82 % over seven configurations).",
    "D.2": "Sharing keys and values across query heads (multi-query, grouped-query attention) "
    "preserves the limiting law at fixed head count and widths.",
    "D.3": "Tying keys to values within each head changes the limiting law.",
}

# The figures and tables a reader should look at for each claim (papers.md, section 6). The
# verdict row's ``figure`` column (where its number is read) is always among them.
EVIDENCE = {
    "A.1": ("A5-linearisation", "A3-bulk-laws", "A7-ratios"),
    "A.2": ("A6-perron", "A2-spectrum"),
    "A.3": ("A1-stepwise", "A-T2-stepwise"),
    "A.4": ("A3-bulk-laws", "A4-edge", "A-T1-edges"),
    "A.5": ("A5-linearisation",),
    "B.1": ("B1-sticking", "B2-gap", "B-T1-sticking", "B7-visibility"),
    "B.2": ("B3-uniform",),
    "B.3": ("B5-conditional-edges", "B6-population"),
    "B.4": ("B4-edge-formula", "B-T2-edge-formulas"),
    "C.1": ("C1-spectra", "C4-spike-survival", "C-T1-stable-rank"),
    "C.2": ("C2-bulk", "C1-spectra", "C-T1-stable-rank"),
    "C.3": ("C3-stable-rank", "C-T1-stable-rank"),
    "C.4": ("C3-stable-rank", "C-T1-stable-rank"),
    "C.5": ("C5-eigen-angles", "C-T2-pretrained"),
    "C.6": ("C6-score-spectra", "C-T2-pretrained"),
    "D.1": ("D1-public-models", "D-T1-public-models", "D2-heads"),
    "D.2": ("D3-sharing", "D-T2-moments"),
    "D.3": ("D3-sharing", "D-T2-moments"),
}

# What slows each claim's limit at affordable sizes (papers.md sections 3-5): quoted in the
# dashboard only for rows that are not "holds", next to the measured numbers.
FINITE_SIZE_MECHANISMS = {
    "A.1": "the log-normal tails of the softmax weights slow the bulk's convergence to nu_inf "
    "(papers.md section 3)",
    "A.2": "s_1(A)^2 - 1 carries (e^{beta^2} - 1)/ell + beta^4/(2 d_qk) corrections "
    "(papers.md section 3)",
    "A.3": "the equivalence gap sits at the non-Gaussian rows (Y_f -> Y_Q step of A1), whose "
    "log-normal tails fade slowly with ell (papers.md section 3)",
    "A.4": "the share of the bulk above MP's edge is a few per cent of the mass, so its limit must "
    "be pinned to a few parts in a thousand, while the log-normal tails of the softmax weights add "
    "mass there that fades slowly with ell (as for A.1; papers.md section 3)",
    "A.5": "the threshold moves like sqrt(log ell), so a few ell values resolve it only coarsely "
    "(papers.md section 3)",
    "B.1": "the largest entry theta of sqrt(ell) A_perp acts as a rank-one spike with outlier "
    "K(1/theta)^2 until theta < 1/G* (ell near 1e4 at beta = 1; papers.md section 3)",
    "B.2": "the same log-normal spikes as B.1 lift the leading indices above x_+ at small ell "
    "(papers.md section 3)",
    "B.3": "E_ell(Sigma_f) has a bias of order 1/ell, larger than its spread over draws "
    "(papers.md section 4)",
    "B.4": "rows c=*: the largest eigenvalue of Y_lin falls below its edge x_+ by a Tracy-Widom "
    "shift of order ell^(-2/3) (larger at c = 2, where d_qk = ell / 2), against a margin of "
    "0.5 % (papers.md section 4); the theory-only rows have none (a failure there is a bug)",
    "C.1": "spikes sigma = kappa log n separate from the bulk only logarithmically in n "
    "(papers.md section 5)",
    "C.2": "the bulk scale decays like a power of n, so a decade of n moves it little "
    "(papers.md section 5)",
    "C.3": "the bound r + 1 is reached only as the spikes' rows concentrate (papers.md section 5)",
    "C.4": "the Cesaro norm approaches 2 only like 2 - O(1/log^2 n), so the causal slope "
    "approaches 1/4 slowly (papers.md section 5)",
    "C.5": "one pretrained model and short passages: the statistics are over heads and passages "
    "(papers.md section 5)",
    "C.6": "one pretrained model and short passages: the statistics are over heads and passages "
    "(papers.md section 5)",
    "D.1": "table D.2's means are known only to their ten-draw half-widths, which set the margin, "
    "so a Gaussian equivalent with beta 1 % off can stay within it (papers.md section 8)",
    "D.2": "sharing adds dependence between heads that averages out only as the widths grow "
    "(papers.md section 8)",
    "D.3": "none expected: tying shifts the law by O(1) at any size (papers.md section 8)",
}

# Rows beyond the paper (a stronger statement of ours), per claim: what keeps such a row from
# holding at affordable sizes, when it is not the claim's own finite-size mechanism.
BEYOND_PAPER_MECHANISMS = {
    "D.1": "beyond the paper: softmax's log-normal weights converge more slowly than the Gaussian "
    "equivalent, so at these sizes softmax stays farther from it than a second equivalent does "
    "(papers.md section 8)",
}

# Rows whose known cause is not their claim's finite-size mechanism: a scope row asks whether a
# claim extends beyond the model it is stated for.
ROW_CAUSES = {
    "C.1/isotropic": "scope, not finite size: this row asks whether C.1 extends from the canonical "
    "diagonal model to the isotropic softmax(U Sigma V^T) it stands for; there the spike-tied "
    "values are lost at the sizes run (papers.md section 5)",
}


def claims_of(paper: str) -> list[str]:
    """Claim ids of one paper ("A", "B", "C" or "D"), in order."""
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
