"""Paper B's declared tests (Jerschow: bulk-edge sticking, the conditional covariance and the
scalar edge formula): one row per verdict of claims B.1-B.4, declared apart from
the data, changes after results listed in each row (:mod:`attnspec.claims.declared`)."""

from attnspec.claims.declared import Alternative, DeclaredTest, FiniteSize
from attnspec.papers.declared_texts import (
    APPROACH_RATES,
    APPROACH_RATES_REASON,
    APPROACH_RATES_TEXT,
    ATTENTION,
    BETA_JUDGED,
    CAVEAT_DISTANCE,
    CAVEAT_REASON,
    RESOLUTION_PRINCIPLE,
    THIS_STOP,
)

# --- what the data are ------------------------------------------------------------------------

GAUSSIAN_MODEL = (
    "draws of the Gaussian model Y_lin, not of attention: the edge formula checked on the model "
    "it is a formula for"
)
THEORY = "theory only (two exact computations)"

# --- parameter points -------------------------------------------------------------------------

SCHEDULES = (("log", "log ell"), ("cube_root", "ell^(1/3)"), ("square_root", "ell^(1/2)"))
COVARIANCES = (
    ("Sigma_f", "Sigma_f (the softmax kernel)"),
    ("Sigma_G", "Sigma_G (its linearisation)"),
)

# --- texts of several rows --------------------------------------------------------------------

EDGE_MARGIN_REASON = (
    "half the smallest error in x_+ declared as an alternative (1 %): a value within 0.5 % of "
    "the prediction, with an interval narrower than the remaining 0.5 %, rules x_+ (1 +- 1 %) out; "
    "fixed in units of x_+, so a smaller or noisier simulation only widens the interval; "
    + RESOLUTION_PRINCIPLE
)
X_PLUS_MUTANTS = (
    Alternative(
        "x+ -1%",
        "x_+ 1 % lower (every location and target recomputed with 0.99 x_+)",
        "the nearest wrong edge: a 1 % error in the scalar formula or its constants",
    ),
    Alternative(
        "x+ +1%",
        "x_+ 1 % higher",
        "the nearest wrong edge, upwards",
    ),
)
OUTLIER_RATES = {
    "exponents": (0.5, 1.0),
    "exponents_text": "[1/2, 1]",
    "exponents_reason": "an outlier's Gaussian fluctuations ell^(-1/2) and its bias of order "
    "1/ell (Benaych-Georges-Nadakuditi), not the Tracy-Widom rate of a stuck edge",
}
OUTLIER = Alternative(
    "outlier +2%",
    "a persistent outlier 2 % above x_+: ell s_2(A)^2 -> 1.02 x_+ (target and limit 0.02)",
    "what a BBP spike that never dissolves would give (papers.md section 3): the failure "
    "sticking excludes",
    **OUTLIER_RATES,
)
TW_EDGE = FiniteSize(
    exponents=APPROACH_RATES,
    exponents_text=APPROACH_RATES_TEXT,
    reason="the claim's rate is 2/3 (an edge eigenvalue's Tracy-Widom shift and spread, "
    "papers.md section 3); " + APPROACH_RATES_REASON,
    limit="0 (ell s_k^2 -> x_+)",
    caveat_distance=CAVEAT_DISTANCE,
    caveat_reason=CAVEAT_REASON,
)
LIMIT_RANGE = (
    "2026-12-05 (issue 33, after the committed verdicts were seen): the finite-size model's "
    "exponent, one declared value (2/3 here, 1 for B.3), became the range [1/3, 2] with the "
    "limit's interval the union over it, a chi-square test of the fit, a caveat only within "
    "one margin of the pass region, and the outlier judged at its own rates [1/2, 1]: with one "
    "p a synthetic edge that never sticks read holds or caveat whenever its true rate differed "
    "from the declared one"
)
B_SIZES = (
    "ee121eb (2026-12-01): judged at ell = 4096 over 20 draws, was 8192 over 10, chosen on cost "
    "before any result at 4096 was judged; at 4096 two rows passed only because their "
    "Tracy-Widom margins were 1.59x wider"
)
B_SIZES_BACK = (
    "c4ae8fb (2026-12-03): judged at ell = 8192 over 10 draws again (was 4096 over 20 since "
    "ee121eb), chosen on cost before any verdict at 8192 was judged by the tests of 7cd3665"
)
B1_TREND = (
    "9318986 (2026-12-01): the old trend rule judged against the limit 0, not the finite-ell "
    "Tracy-Widom expectation, after a synthetic test showed a constant outlier passing it"
)
B4_DRAWS = (
    "ec63a22 (2026-12-01): 20 draws at every ratio-scan point (was 10) after rows B.4/c=<c> "
    "read fragile at 10 (stability 0.41 and 0.63): more draws were added because the rows were "
    "fragile, a change made with their results seen"
)
ONE_RULE = (
    "2026-12-05 (issue 33, after the committed verdicts were seen): the margin's reason cites "
    "the one rule for every paper's resolution (the margin itself unchanged: 0.5 % of x_+, half "
    "the 1 % to x_+ (1 +- 1 %)), and the row reports its verdict at x_+ +- 3 % beside it "
    "(other_resolutions: the wrong edges at 3 %, the margin 1.5 % of x_+); the row's verdict is "
    "the declared 1 %'s"
)
TW_MARGIN_OLD = (
    f"{THIS_STOP}: margin fixed at 0.5 % of x_+ (was 2 Tracy-Widom sds at the judged ell, which "
    "widen as the simulation shrinks); the trend rescue replaced by the finite-size model "
    "g + a ell^(-2/3); alternatives x_+ (1 +- 1 %) and a persistent outlier declared"
)

# --- the tests --------------------------------------------------------------------------------

TESTS: tuple[DeclaredTest, ...] = (
    *(
        DeclaredTest(
            row_id=f"B.1/beta={beta}",
            kind="empirical",
            subject=ATTENTION,
            figure="B1-sticking",
            statistic="median",
            describes="relative gap (ell s_2(A)^2 - x_+) / x_+ per draw, median over draws",
            points=f"largest ell of paperB.sticking, c = 1, beta = {beta} ({BETA_JUDGED}: "
            "its largest entry is a supercritical spike up to ell ~ 1e10, papers.md "
            "section 3; shown in B1-B2, not judged)",
            target="the Tracy-Widom expectation of the Gaussian model at that ell, "
            "gamma_TW ell^(-2/3) E[TW1] / x_+",
            comparison="equivalence",
            margin=0.005,
            margin_unit="x_+ (the statistic is relative to x_+)",
            margin_reason=EDGE_MARGIN_REASON,
            interval="bootstrap",
            finite_size=TW_EDGE,
            alternatives=(*X_PLUS_MUTANTS, OUTLIER),
            changed_after_results=(
                B1_TREND,
                B_SIZES,
                B_SIZES_BACK,
                TW_MARGIN_OLD,
                LIMIT_RANGE,
                ONE_RULE,
            ),
        )
        for beta in ("0.5", "1")
    ),
    *(
        DeclaredTest(
            row_id=f"B.2/beta={beta}/{schedule}",
            kind="empirical",
            subject=ATTENTION,
            figure="B3-uniform",
            statistic="max_abs_median",
            describes="for each index 2 <= k <= k_ell, the median over draws of "
            "(ell s_k(A)^2 - gamma_k) / x_+, gamma_k its own location: the Tracy-Widom "
            "expectation for k = 2 (as B.1), the classical location of nu_inf "
            "(mass (k - 3/2)/ell above it) for k >= 3; the largest |median| over k",
            points=f"largest ell of paperB.sticking, c = 1, beta = {beta}, k_ell = "
            f"{k_ell} (rounded up)",
            target="0",
            comparison="at_most",
            margin=0.005,
            margin_unit="x_+ (the statistic is relative to x_+)",
            margin_reason="as B.1: every index within 0.5 % of x_+ of its own location "
            "rules out x_+ (1 +- 1 %) and an outlier at any index; " + RESOLUTION_PRINCIPLE,
            interval="bootstrap",
            finite_size=TW_EDGE,
            alternatives=(
                *X_PLUS_MUTANTS,
                Alternative(
                    "outlier +2%",
                    "a persistent outlier 2 % above x_+ at k = 2 (its location 1.02 x_+)",
                    OUTLIER.reason,
                    **OUTLIER_RATES,
                ),
            ),
            changed_after_results=(
                B_SIZES,
                B_SIZES_BACK,
                f"{THIS_STOP}: every index against its own location (was D - "
                "D_classical, the deepest index's classical distance from the edge "
                "subtracted from the worst deviation, which subtracted the top outlier "
                "away: B.2/beta=1 held while its member B.1/beta=1 did not); margin "
                "0.5 % of x_+ (was 2 Tracy-Widom sds at the judged ell); finite-size "
                "model for the trend rescue; alternatives declared; after a code review "
                "of that change, the limit's region bounded below by the target - the "
                "margin, as for every row with a finite-size model (it was unbounded "
                "below for this at-most row, so an extrapolation below 0 of a distance "
                "could pass)",
                LIMIT_RANGE,
                ONE_RULE,
            ),
        )
        for beta in ("0.5", "1")
        for schedule, k_ell in SCHEDULES
    ),
    *(
        DeclaredTest(
            row_id=f"B.3/{covariance}",
            kind="empirical",
            subject=f"{label} given K of attention draws (papers.md section 4)",
            figure="B5-conditional-edges",
            statistic="mean",
            describes=f"relative finite deformed-MP edge (E_ell({covariance}) - x_+) / x_+ "
            f"of {label} given K, per draw; mean over draws",
            points="largest ell of paperB.conditional",
            target="0",
            comparison="equivalence",
            margin=0.005,
            margin_unit="x_+ (the statistic is relative to x_+)",
            margin_reason=EDGE_MARGIN_REASON,
            interval="bootstrap",
            finite_size=FiniteSize(
                exponents=APPROACH_RATES,
                exponents_text=APPROACH_RATES_TEXT,
                reason="the claim's rate is 1 (the bias of order 1/ell of E_ell, the finite-size "
                "mechanism declared with claim B.3, attnspec.claims.catalogue; papers.md "
                "section 4); " + APPROACH_RATES_REASON,
                limit="0 (E_ell -> x_+)",
                caveat_distance=CAVEAT_DISTANCE,
                caveat_reason=CAVEAT_REASON,
            ),
            alternatives=X_PLUS_MUTANTS,
            changed_after_results=(
                f"{THIS_STOP}: margin fixed at 0.5 % of x_+ (was one Tracy-Widom sd at the "
                "judged ell); the trend rescue replaced by the finite-size model; "
                "alternatives x_+ (1 +- 1 %) declared. The model's exponent was first drafted "
                "as 2/3 and set to 1 after that draft's extrapolation of the committed draws "
                "overshot below x_+: the data halve per doubling of ell, as the mechanism "
                "declared with B.3 before this stop says (a bias of order 1/ell)",
                LIMIT_RANGE,
                ONE_RULE,
            ),
        )
        for covariance, label in COVARIANCES
    ),
    DeclaredTest(
        row_id="B.4/square-model",
        kind="identity",
        subject=THEORY,
        figure="B-T2-edge-formulas",
        statistic="value",
        describes="max over the beta grid of |x_+(scalar formula) - x_+(square-model "
        "cubic)| / x_+ at c = 1, physical branch: the root in (0, 1/3)",
        points="paperB.edges.table_betas, c = 1",
        target="0",
        comparison="at_most",
        margin=1e-10,
        margin_unit="",
        margin_reason="both are root-finding to a few machine epsilon and x(g) is "
        "stationary at the root; 1e-10 leaves five orders of magnitude for conditioning",
        interval="exact",
    ),
    DeclaredTest(
        row_id="B.4/r-transform",
        kind="identity",
        subject=THEORY,
        figure="B-T2-edge-formulas",
        statistic="value",
        describes="max over the (beta, c) grid of |x_+(scalar formula) - K(G*)^2| / x_+, "
        "K the inverse Cauchy transform of the symmetrised law of Y_lin (R-transform "
        "route, papers.md section 2)",
        points="paperB.edges.table_betas x paperB.edges.ratios",
        target="0",
        comparison="at_most",
        margin=1e-10,
        margin_unit="",
        margin_reason="two independent exact routes to the same edge; 1e-10 as for the "
        "square model",
        interval="exact",
    ),
    *(
        DeclaredTest(
            row_id=f"B.4/c={ratio}",
            kind="empirical",
            subject=GAUSSIAN_MODEL,
            figure="B4-edge-formula",
            statistic="median",
            describes="relative top gap (s_1(Y_lin)^2 - E lambda_max) / x_+ of the Gaussian "
            "model, E lambda_max = x_+ + gamma_TW ell^(-2/3) E[TW1] from the scalar formula "
            "and Tracy-Widom; per (beta, draw), median over them",
            points=f"largest ell of paperB.ratio_scan, c = {ratio}, every beta of "
            "paperB.ratio_scan",
            target="0",
            comparison="equivalence",
            margin=0.005,
            margin_unit="x_+ (the statistic is relative to x_+)",
            margin_reason=EDGE_MARGIN_REASON,
            interval="bootstrap",
            alternatives=(
                *X_PLUS_MUTANTS,
                Alternative(
                    "c inverted",
                    "x_+ from the formula with c = d_qk / ell instead of ell / d_qk",
                    "the common mistake of papers.md section 3 (at beta = 1, c = 1/2 the "
                    "edge becomes 10.90 instead of 7.98)",
                ),
            ),
            changed_after_results=(
                B4_DRAWS,
                f"{THIS_STOP}: the gap relative to x_+ with a margin of 0.5 % of x_+ (was "
                "standardised by the Tracy-Widom sd at the judged ell with a margin of one "
                "sd, which widens in x_+ units as ell shrinks); alternatives declared",
                ONE_RULE,
            ),
        )
        for ratio in ("0.5", "2")
    ),
)
"""Paper B's declared tests, in claim order."""
