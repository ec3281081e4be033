"""Paper A's declared tests (Hayase, Collins, Karakida: Gaussian equivalence of softmax
attention's bulk spectrum): one row per verdict of claims A.1-A.5, declared before the data
(:mod:`attnspec.claims.declared`)."""

from attnspec.claims.declared import Alternative, DeclaredTest
from attnspec.papers.declared_texts import ATTENTION, BETA_JUDGED, THIS_STOP

# --- texts of several rows --------------------------------------------------------------------

BETA_MUTANTS = (
    Alternative(
        "beta-3%",
        "nu_inf at 0.97 beta (every theory quantity at the lower beta)",
        "the nearest wrong parameter: 3 % in beta moves theta_1 by 6-10 %",
    ),
    Alternative(
        "beta+3%",
        "nu_inf at 1.03 beta",
        "the nearest wrong parameter, upwards",
    ),
)
MP_MUTANT = Alternative(
    "MP",
    "the Marchenko-Pastur surrogate with the same mean theta_1 (iid scores)",
    "the law paper A refutes (Nait Saada, Naderi, Tanner 2025; papers.md section 2)",
)
NEAREST_LAW_UNIT = (
    "the smaller of KS(nu_inf(beta), nu_inf(0.97 beta)) and KS(nu_inf(beta), nu_inf(1.03 beta)) "
    "(theory only, at the row's beta)"
)
NEAREST_LAW_REASON = (
    "half the Kolmogorov distance from nu_inf to the nearest wrong law declared (beta off by "
    "3 %): a bulk within it of nu_inf, beyond the finite-size floor, is closer to nu_inf than to "
    "that law, and the engine checks on the same draws that the wrong laws land outside"
)

# --- the tests --------------------------------------------------------------------------------

TESTS: tuple[DeclaredTest, ...] = (
    *(
        DeclaredTest(
            row_id=f"A.1/beta={beta}",
            kind="empirical",
            subject=ATTENTION,
            figure="A5-linearisation",
            statistic="mean",
            describes="per draw, the Kolmogorov distance of the bulk of sqrt(ell) A_perp to "
            "nu_inf minus that of Y_lin from the same scores (the finite-size floor of the "
            "comparison: Y_lin's law is exactly nu_inf); mean over draws",
            points=f"largest ell of paperA.linearisation, c = 1, beta = {beta}",
            target="0 (the bulk as close to nu_inf as the Gaussian reference)",
            comparison="equivalence",
            margin=0.5,
            margin_unit=NEAREST_LAW_UNIT,
            margin_reason=NEAREST_LAW_REASON,
            interval="bootstrap",
            alternatives=(MP_MUTANT, *BETA_MUTANTS),
            changed_after_results=(
                f"{THIS_STOP}: the statistic compares the bulk with nu_inf itself (was "
                "KS(attention, L) - KS(Y_lin, L), which cancels whatever law L is: MP passed "
                "it); margin half the distance to nu_inf at beta (1 +- 3 %) (was a quarter of "
                "KS(nu_inf, MP)); no trend rescue",
            ),
        )
        for beta in ("0.5", "1")
    ),
    *(
        DeclaredTest(
            row_id=f"A.2/beta={beta}",
            kind="empirical",
            subject=ATTENTION,
            figure="A6-perron",
            statistic="loglog_slope",
            describes="OLS slope of log(s_1(A) - 1) on log ell over every (draw, ell)",
            points=f"every ell of paperA.perron, c = 1, beta = {beta}",
            target="-1 (s_1^2 - 1 = theta_1/ell + beta^4/(2 d_qk) at d_qk = ell, papers.md "
            "section 3)",
            comparison="equivalence",
            margin=0.1,
            margin_unit="",
            margin_reason="the neglected O(1/ell^2) terms move the local slope by less than "
            "0.05 at ell >= 128, beta <= 1; a slope within 0.1 of -1 excludes the ell^(-1/2) "
            "of a fluctuating top value and the ell^(-2/3) of an edge eigenvalue",
            interval="bootstrap",
            alternatives=(
                Alternative(
                    "slope -0.5",
                    "s_1(A) - 1 ~ ell^(-1/2) (slope -1/2)",
                    "a top singular value that fluctuates like a sum of ell entries",
                ),
                Alternative(
                    "slope -0.67",
                    "s_1(A) - 1 ~ ell^(-2/3) (slope -2/3)",
                    "the Perron value behaving like an edge eigenvalue (Tracy-Widom scale)",
                ),
            ),
            changed_after_results=(f"{THIS_STOP}: trend rescue removed, alternatives declared",),
        )
        for beta in ("0.5", "1")
    ),
    DeclaredTest(
        row_id="A.3/beta=1",
        kind="empirical",
        subject=ATTENTION,
        figure="A-T2-stepwise",
        statistic="mean_difference",
        describes="per attention draw, the mean two-sample Kolmogorov distance of sqrt(ell) "
        "A_perp to the Y_lin draws of other seeds, minus per Y_lin draw the mean distance "
        "to the other Y_lin draws (two samples of one law: the floor); means over draws",
        points="largest ell of paperA.linearisation, c = 1, beta = 1",
        target="0 (attention as close to Y_lin as Y_lin to itself)",
        comparison="equivalence",
        margin=0.5,
        margin_unit=NEAREST_LAW_UNIT,
        margin_reason=NEAREST_LAW_REASON,
        interval="bootstrap",
        alternatives=(
            Alternative(
                "MP",
                "the Gaussian equivalent with iid scores: Y_lin's eigenvalues carried to the "
                "MP surrogate by the quantile map F_MP^-1(F_nu_inf(x))",
                MP_MUTANT.reason,
            ),
            Alternative(
                "beta-3%",
                "the Gaussian equivalent at 0.97 beta: Y_lin's eigenvalues carried to "
                "nu_inf(0.97 beta) by the quantile map",
                BETA_MUTANTS[0].reason,
            ),
            Alternative(
                "beta+3%",
                "the Gaussian equivalent at 1.03 beta (quantile map)",
                BETA_MUTANTS[1].reason,
            ),
        ),
        changed_after_results=(
            f"{THIS_STOP}: margin half the distance to nu_inf at beta (1 +- 3 %) (was a "
            "quarter of KS(nu_inf, MP)); trend rescue removed; alternatives declared",
        ),
    ),
    *(
        DeclaredTest(
            row_id=f"A.4/beta={beta}",
            kind="empirical",
            subject=ATTENTION,
            figure="A3-bulk-laws",
            statistic="mean",
            describes="per draw, the share of the bulk of sqrt(ell) A_perp above the MP edge "
            "4 theta_1 = 4(e^{beta^2} - 1); mean over draws",
            points=f"paperA.bulk_laws, beta = {beta} ({BETA_JUDGED})",
            target="nu_inf's mass above 4 theta_1 (theory; MP puts none there)",
            comparison="equivalence",
            margin=0.005,
            margin_unit="",
            margin_reason="half the change that 3 % in beta makes to this mass (1.0-1.5 % of "
            "the bulk at beta = 0.5, 1), so that a row that holds also rules out nu_inf at "
            "beta (1 +- 3 %); MP's mass there is 0, 3-5 % of the bulk away",
            interval="bootstrap",
            alternatives=(
                Alternative(
                    "MP",
                    "the Marchenko-Pastur surrogate with the same mean: no mass above "
                    "4 theta_1 (target 0)",
                    MP_MUTANT.reason,
                ),
                Alternative(
                    "beta-3%",
                    "nu_inf at 0.97 beta: the share above 4 theta_1(0.97 beta) against that "
                    "law's mass there",
                    BETA_MUTANTS[0].reason,
                ),
                Alternative(
                    "beta+3%",
                    "nu_inf at 1.03 beta (threshold and target at 1.03 beta)",
                    BETA_MUTANTS[1].reason,
                ),
            ),
            changed_after_results=(
                f"{THIS_STOP}: the statistic is the bulk's mass beyond the MP edge against "
                "nu_inf's (was Delta = KS(bulk, MP) - KS(bulk, nu_inf) >= half KS(nu_inf, "
                "MP), which passed nu_inf with beta 10 % off)",
            ),
        )
        for beta in ("0.5", "1")
    ),
    DeclaredTest(
        row_id="A.5/breakdown",
        kind="empirical",
        subject=ATTENTION,
        figure="A5-linearisation",
        statistic="mean_difference",
        describes="Kolmogorov distance of the bulk to nu_inf minus that of Y_lin, means over draws",
        points="largest beta and largest ell of paperA.linearisation",
        target="0",
        comparison="at_least",
        margin=0.1,
        margin_unit="",
        margin_reason="a tenth of the bulk's mass misplaced is a failure of the linear "
        "model; linearisation at that beta would give an excess near 0",
        interval="bootstrap",
        alternatives=(
            Alternative(
                "no threshold",
                "linearisation holds at every beta: the attention bulk at that beta as close "
                "to nu_inf as Y_lin (predicted excess 0)",
                "the reading of paper A without its section 6.1",
            ),
        ),
        changed_after_results=(f"{THIS_STOP}: alternative declared",),
    ),
    DeclaredTest(
        row_id="A.5/location",
        kind="empirical",
        subject=ATTENTION,
        figure="A5-linearisation",
        statistic="threshold_slope",
        describes="per draw and ell, the threshold beta*(ell) where the excess Kolmogorov "
        "distance over the Y_lin floor (the mean Y_lin distance at the same ell and beta, "
        "recomputed in every resample) first reaches 0.1, the excess interpolated linearly "
        "in log beta between the simulated betas (a crossing not bracketed by them is "
        "missing); OLS slope of log beta* on log log ell",
        points="every ell of paperA.linearisation, c = 1",
        target="0.5 (beta* proportional to sqrt(log ell), paper A section 6.1)",
        comparison="equivalence",
        margin=0.25,
        margin_unit="",
        margin_reason="halfway between the claimed exponent 1/2 and a fixed threshold "
        "(exponent 0): a row that holds excludes a threshold that does not move with ell",
        interval="bootstrap",
        interval_scale=2.0,
        interval_scale_reason="over 9 independent replicates of the default preset (library "
        "reruns at 7cd3665, 2026-12-02) the statistic's sd was 0.027 against a mean bootstrap "
        "standard error of 0.017 and a jackknife one of 0.018: the percentile interval of this "
        "slope of interpolated crossings over 10 draws is about 1.6x too narrow, so it is "
        "widened by 2, the next round factor",
        alternatives=(
            Alternative(
                "fixed",
                "a threshold that does not move with ell (exponent 0)",
                "the simplest alternative to a size-dependent threshold",
            ),
            Alternative(
                "log ell",
                "beta* proportional to log ell (exponent 1)",
                "the threshold of a variance e^{beta^2}/ell of order one read as beta^2 ~ "
                "log ell squared",
            ),
        ),
        changed_after_results=(
            f"{THIS_STOP}: the interval resamples attention and Y_lin draws together, the "
            "floor recomputed in each resample (the old interval held the floor fixed), and "
            "is widened 2x about the value after 9 independent replicates showed it 1.6x too "
            "narrow (the referee reported 1.8x); alternatives declared",
        ),
    ),
)
"""Paper A's declared tests, in claim order."""
