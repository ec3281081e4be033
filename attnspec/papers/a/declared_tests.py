"""Paper A's declared tests (Hayase, Collins, Karakida: Gaussian equivalence of softmax
attention's bulk spectrum): one row per verdict of claims A.1-A.5, declared apart from
the data, changes after results listed in each row (:mod:`attnspec.claims.declared`)."""

from dataclasses import replace

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

# --- texts of several rows --------------------------------------------------------------------

BETA_MUTANTS = (
    Alternative(
        "beta-1%",
        "nu_inf at 0.99 beta (every theory quantity at the lower beta)",
        "the nearest wrong parameter of the one rule for every paper (1 % in the parameter "
        "that defines the law): 1 % in beta moves theta_1 by 2.3-3.2 % at beta = 0.5-1",
    ),
    Alternative(
        "beta+1%",
        "nu_inf at 1.01 beta",
        "the nearest wrong parameter, upwards",
    ),
)
MP_MUTANT = Alternative(
    "MP",
    "the Marchenko-Pastur surrogate with the same mean theta_1 (iid scores)",
    "the law paper A refutes (Nait Saada, Naderi, Tanner 2025; papers.md section 2)",
)
NEAREST_LAW_UNIT = (
    "the smaller of KS(nu_inf(beta), nu_inf(0.99 beta)) and KS(nu_inf(beta), nu_inf(1.01 beta)) "
    "(theory only, at the row's beta)"
)
NEAREST_LAW_REASON = (
    "half the Kolmogorov distance from nu_inf to the nearest wrong law declared (beta off by "
    "1 %): a bulk within it of nu_inf, beyond the finite-size floor, is closer to nu_inf than to "
    "that law, and the engine checks on the same draws that the wrong laws land outside; "
    + RESOLUTION_PRINCIPLE
)
# The rates at which an empirical spectral law of paper A approaches its limit.
SPECTRAL_RATES = (
    "like ell^(-1) up to logarithms (eigenvalue rigidity), and the linearisation's error, the "
    "row normaliser's relative fluctuation ((e^{beta^2} - 1)/ell)^(1/2), like ell^(-1/2)"
)
SAME_RATES = ", approached at the same rates; " + APPROACH_RATES_REASON
KS_FINITE_SIZE = FiniteSize(
    exponents=APPROACH_RATES,
    exponents_text=APPROACH_RATES_TEXT,
    reason="the claim's rate: an empirical spectral distribution's Kolmogorov distance to its "
    f"limit decays {SPECTRAL_RATES}; each alternative's: a Kolmogorov distance to a wrong law "
    "tends to a positive constant" + SAME_RATES,
    limit="0 (the excess over the floor vanishes)",
    caveat_distance=CAVEAT_DISTANCE,
    caveat_reason=CAVEAT_REASON,
)
EDGE_SHARE_FINITE_SIZE = replace(
    KS_FINITE_SIZE,
    reason="the claim's rate: an empirical spectral distribution's share above a fixed "
    f"threshold approaches the limit law's mass there {SPECTRAL_RATES}; each alternative's: a "
    "wrong law's mass there differs from it by a positive constant" + SAME_RATES,
    limit="nu_inf's mass above 4 theta_1 (theory; the same at every ell, c = 1)",
)
ONE_PERCENT = (
    "2026-12-05 (issue 33, after the committed verdicts were seen): the nearest wrong laws are "
    "nu_inf at beta (1 +- 1 %), one rule for every paper (was beta (1 +- 3 %), chosen with the "
    "ell = 2000 results known; at +- 1.5 % A.1/beta=1 read does not reproduce and A.3/beta=1 "
    "inconclusive); the row reports its verdict at +- 3 % beside it (other_resolutions)"
)
KS_MARGIN_OLD = (
    "; margin half the distance to nu_inf at beta (1 +- 1 %) (was half that to beta (1 +- 3 %): "
    "0.5 x 0.0137 = 0.0069 at beta = 0.5, 0.5 x 0.0255 = 0.0127 at beta = 1)"
)
FINITE_SIZE_ADDED = (
    "2026-12-05 (issue 33, after the committed verdicts were seen): judged like paper B's rows, "
    "with the finite-size model g + a ell^(-p), p in [1/3, 2], over every ell of "
    "paperA.linearisation (was the largest ell alone, no finite-size model: an excess of 0.56 "
    "margins at beta = 1 was read as agreement with no rule for whether it vanishes)"
)

# A.5/location's replicate calibration, as recorded (two significant digits) when the widening
# was declared: over 9 independent replicates of the default preset (library reruns at 7cd3665,
# 2026-12-02; commit f394013) the statistic's sd over replicates against the mean over
# replicates of its bootstrap and jackknife standard errors.
LOCATION_REPLICATES = 9
LOCATION_REPLICATE_SD = 0.027
LOCATION_BOOTSTRAP_SE = 0.017
LOCATION_JACKKNIFE_SE = 0.018
LOCATION_INTERVAL_SCALE = LOCATION_REPLICATE_SD / LOCATION_BOOTSTRAP_SE
LOCATION_INTERVAL_REASON = (
    f"derived from the replicate calibration, not chosen: over {LOCATION_REPLICATES} "
    "independent replicates of the default preset (library reruns at 7cd3665, 2026-12-02, "
    f"commit f394013) the statistic's sd was {LOCATION_REPLICATE_SD} against a mean bootstrap "
    f"standard error of {LOCATION_BOOTSTRAP_SE} (jackknife {LOCATION_JACKKNIFE_SE}): the "
    "percentile bootstrap interval of this slope of interpolated crossings over 10 draws is "
    f"narrower than the replicate spread by their ratio, {LOCATION_REPLICATE_SD} / "
    f"{LOCATION_BOOTSTRAP_SE} = {LOCATION_INTERVAL_SCALE:.3f}, and is widened by that ratio "
    "(the engine's interval is the bootstrap's, so its standard error is the one calibrated)"
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
            points=f"largest ell of paperA.linearisation, c = 1, beta = {beta}; the "
            "finite-size model over every ell of paperA.linearisation",
            target="0 (the bulk as close to nu_inf as the Gaussian reference)",
            comparison="equivalence",
            margin=0.5,
            margin_unit=NEAREST_LAW_UNIT,
            margin_reason=NEAREST_LAW_REASON,
            interval="bootstrap",
            finite_size=KS_FINITE_SIZE,
            alternatives=(MP_MUTANT, *BETA_MUTANTS),
            changed_after_results=(
                f"{THIS_STOP}: the statistic compares the bulk with nu_inf itself (was "
                "KS(attention, L) - KS(Y_lin, L), which cancels whatever law L is: MP passed "
                "it); margin half the distance to nu_inf at beta (1 +- 3 %) (was a quarter of "
                "KS(nu_inf, MP)); no trend rescue",
                ONE_PERCENT + KS_MARGIN_OLD,
                FINITE_SIZE_ADDED,
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
        points="largest ell of paperA.linearisation, c = 1, beta = 1; the finite-size model "
        "over every ell of paperA.linearisation",
        target="0 (attention as close to Y_lin as Y_lin to itself)",
        comparison="equivalence",
        margin=0.5,
        margin_unit=NEAREST_LAW_UNIT,
        margin_reason=NEAREST_LAW_REASON,
        interval="bootstrap",
        finite_size=KS_FINITE_SIZE,
        alternatives=(
            Alternative(
                "MP",
                "the Gaussian equivalent with iid scores: Y_lin's eigenvalues carried to the "
                "MP surrogate by the quantile map F_MP^-1(F_nu_inf(x))",
                MP_MUTANT.reason,
            ),
            Alternative(
                "beta-1%",
                "the Gaussian equivalent at 0.99 beta: Y_lin's eigenvalues carried to "
                "nu_inf(0.99 beta) by the quantile map",
                BETA_MUTANTS[0].reason,
            ),
            Alternative(
                "beta+1%",
                "the Gaussian equivalent at 1.01 beta (quantile map)",
                BETA_MUTANTS[1].reason,
            ),
        ),
        changed_after_results=(
            f"{THIS_STOP}: margin half the distance to nu_inf at beta (1 +- 3 %) (was a "
            "quarter of KS(nu_inf, MP)); trend rescue removed; alternatives declared",
            ONE_PERCENT + KS_MARGIN_OLD,
            "2026-12-05 (issue 33, after the committed verdicts were seen): judged like paper "
            "B's rows, with the finite-size model g + a ell^(-p), p in [1/3, 2], over every ell "
            "of the A-T2 pair distances (every ell of paperA.linearisation, already computed "
            "there; was the largest ell alone, no finite-size model: an excess of 0.53 margins "
            "was read as agreement with no rule for whether it vanishes)",
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
            points=f"largest ell of paperA.linearisation, c = 1, beta = {beta} ({BETA_JUDGED}); "
            "the finite-size model over every ell of paperA.linearisation",
            target="nu_inf's mass above 4 theta_1 (theory; MP puts none there)",
            comparison="equivalence",
            margin=0.5,
            margin_unit="the smaller change of the mass above 4 theta_1(beta) between nu_inf at "
            "beta and at 0.99 beta or 1.01 beta (theory only, at the row's beta: 0.0035 at "
            "beta = 0.5, 0.0045 at beta = 1)",
            margin_reason="half the change that the nearest wrong beta (1 %) makes to this "
            "mass, so that a row that holds also rules out nu_inf at beta (1 +- 1 %); MP's "
            "mass there is 0, 3-5 % of the bulk away; " + RESOLUTION_PRINCIPLE,
            interval="bootstrap",
            finite_size=EDGE_SHARE_FINITE_SIZE,
            alternatives=(
                Alternative(
                    "MP",
                    "the Marchenko-Pastur surrogate with the same mean: no mass above "
                    "4 theta_1 (target 0)",
                    MP_MUTANT.reason,
                ),
                Alternative(
                    "beta-1%",
                    "nu_inf at 0.99 beta: the share above 4 theta_1(0.99 beta) against that "
                    "law's mass there",
                    BETA_MUTANTS[0].reason,
                ),
                Alternative(
                    "beta+1%",
                    "nu_inf at 1.01 beta (threshold and target at 1.01 beta)",
                    BETA_MUTANTS[1].reason,
                ),
            ),
            changed_after_results=(
                f"{THIS_STOP}: the statistic is the bulk's mass beyond the MP edge against "
                "nu_inf's (was Delta = KS(bulk, MP) - KS(bulk, nu_inf) >= half KS(nu_inf, "
                "MP), which passed nu_inf with beta 10 % off)",
                ONE_PERCENT + "; margin half the change of the mass that beta (1 +- 1 %) "
                "makes, from theory at the row's beta (was 0.005 at both betas, half the "
                "change that 3 % makes, 1.05 % at beta = 0.5 and 1.29 % at beta = 1, rounded); "
                "no finite-size model: its draws are at one ell (paperA.bulk_laws)",
                "2026-12-05 (issue 33, after the committed verdicts were seen): judged like paper "
                "B's rows, at the largest ell of paperA.linearisation (c = 1, d_qk = ell; the "
                "attention spectra already computed there for A.1 and A.3), with the finite-size "
                "model g + a ell^(-p), p in [1/3, 2], over every ell of paperA.linearisation, "
                "target and limit target nu_inf's mass above 4 theta_1 and the alternatives "
                "judged on the same draws at every ell (was one ell of paperA.bulk_laws, ell = "
                "d_qk = 1000 in the default preset, no finite-size model: at beta = 1 a share "
                "1.3 margins above nu_inf's mass was read inconclusive with no rule for whether "
                "the excess vanishes)",
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
        interval_scale=LOCATION_INTERVAL_SCALE,
        interval_scale_reason=LOCATION_INTERVAL_REASON,
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
            "2026-12-05 (issue 33, after the committed verdicts were seen): the widening is the "
            f"calibration's ratio itself, sd / bootstrap se = {LOCATION_INTERVAL_SCALE:.3f} (was "
            "2, the next round factor above it, chosen with the data seen: at 2.11 the 'log "
            "ell' alternative was no longer ruled out)",
        ),
    ),
)
"""Paper A's declared tests, in claim order."""
