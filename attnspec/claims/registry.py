"""The claims registry: every verdict row's test, declared once, before the data.

Each :class:`DeclaredTest` states what the data are (``subject``), the statistic (a name from
:data:`attnspec.claims.evidence.STATISTICS` and its meaning), the parameter points judged, the target,
the comparison, the margin with its scientific reason (a number fixed here in the claim's own
units, never derived from the spread of the data it judges and never widening when the judged
size shrinks), the interval method, the finite-size model (a declared exponent and its reason,
or none: then no finite-size caveat is possible), and the wrong theories a referee would put
forward that the row must rule out on its own data (:class:`Alternative`). The engine
(:mod:`attnspec.claims.verdicts`) applies the one rule to all of them; per-paper code only computes the
samples (:class:`attnspec.claims.evidence.Evidence`). Changing a test is a diff of this file, and a test
changed after its results were seen says so in ``changed_after_results``.

Kinds: ``empirical`` rows judge random draws against a limit and can fail; ``model`` rows
evaluate a closed-form model whose spread over draws is below what the margin resolves;
``identity`` rows compare two exact computations (a failure is a bug); ``bound`` rows hold by
construction (a theorem). Only empirical rows are evidence; every claim has at least one.
"""

from dataclasses import dataclass

from attnspec.claims.catalogue import CLAIMS
from attnspec.claims.evidence import STATISTICS
from attnspec.claims.verdicts import COMPARISONS, INTERVALS, KINDS, check_finite_size_test


@dataclass(frozen=True)
class Alternative:
    """A wrong theory a referee would put forward against a row: ``name`` (its key in the
    evidence), ``theory`` (what it says, in the statistic's terms) and ``reason`` (why a referee
    would propose it)."""

    name: str
    theory: str
    reason: str


@dataclass(frozen=True)
class FiniteSize:
    """A row's finite-size model T(ell) = g + a ell^(-exponent) (:mod:`attnspec.claims.finite_size`):
    the exponent with its text and reason, and the limit's target in words."""

    exponent: float
    exponent_text: str
    reason: str
    limit: str


@dataclass(frozen=True)
class DeclaredTest:
    """One registry row (see the module docstring)."""

    row_id: str
    kind: str
    subject: str
    figure: str
    statistic: str
    describes: str
    points: str
    target: str
    comparison: str
    margin: float
    margin_unit: str
    margin_reason: str
    interval: str
    finite_size: FiniteSize | None = None
    interval_scale: float = 1.0
    interval_scale_reason: str = ""
    alternatives: tuple[Alternative, ...] = ()
    scope: str = ""
    changed_after_results: tuple[str, ...] = ()

    def __post_init__(self):
        claim = self.claim_id
        if claim not in CLAIMS:
            raise ValueError(f"{self.row_id}: unknown claim {claim!r}")
        for name, value, allowed in (
            ("kind", self.kind, KINDS),
            ("statistic", self.statistic, tuple(STATISTICS)),
            ("comparison", self.comparison, COMPARISONS),
            ("interval", self.interval, INTERVALS),
        ):
            if value not in allowed:
                raise ValueError(f"{self.row_id}: {name} must be one of {allowed}, got {value!r}")
        if not self.margin >= 0:
            raise ValueError(f"{self.row_id}: margin must be >= 0, got {self.margin!r}")
        if not self.interval_scale >= 1.0 or (self.interval_scale != 1.0) != bool(
            self.interval_scale_reason
        ):
            raise ValueError(
                f"{self.row_id}: interval_scale must be >= 1 and differ from 1 exactly when "
                f"interval_scale_reason is given, got {self.interval_scale!r} with "
                f"{'a' if self.interval_scale_reason else 'no'} reason"
            )
        if self.finite_size is not None:
            check_finite_size_test(self.row_id, self.comparison, self.interval)
        if self.kind == "empirical" and not self.alternatives:
            raise ValueError(f"{self.row_id}: an empirical row must declare its alternatives")
        names = [a.name for a in self.alternatives]
        if len(set(names)) != len(names) or any("/" in n for n in names):
            raise ValueError(f"{self.row_id}: alternative names must be unique, without '/'")

    @property
    def claim_id(self) -> str:
        return self.row_id.split("/", 1)[0]


# --- what the data are ------------------------------------------------------------------------

ATTENTION = "softmax attention draws (Gaussian Q, K; papers.md section 1)"
GAUSSIAN_MODEL = (
    "draws of the Gaussian model Y_lin, not of attention: the edge formula checked on the model "
    "it is a formula for"
)
CANONICAL = (
    "the canonical score model diag(sigma) (papers.md section 5): a deterministic evaluation, "
    "its iid bulk moving the statistic by less than the margin resolves"
)
CANONICAL_RANDOM = "the canonical score model diag(sigma) with an iid bulk (random draws)"
ISOTROPIC = "softmax(U Sigma V^T), U and V Haar, the isotropic model diag(Sigma) stands for"
GAUSSIAN_SCORES = "softmax attention of Gaussian scores beta Q K^T / sqrt(d_qk) (random draws)"
MINILM = (
    "all-MiniLM-L6-v2 on a fixed public-domain corpus (passages are the resampling units) "
    "against Gaussian references of the same shape"
)
CONTROL = "structured score matrices with known eigen-angles (a control of the diagnostic)"
MULTIHEAD = "multi-head softmax attention draws against their same-weights Gaussian equivalent"
MULTIHEAD_LAWS = "multi-head softmax attention draws against the library's limit laws"
THEORY = "theory only (two exact computations)"

# --- shared texts -------------------------------------------------------------------------------

BETA_JUDGED = "beta <= 1 only: at beta >= 1.5 the limit is out of reach of any affordable ell"
THIS_STOP = "stop 25 (issue 19, tests re-declared after the referee's mutation test)"
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
EDGE_MARGIN_REASON = (
    "half the smallest error in x_+ declared as an alternative (1 %): a value within 0.5 % of "
    "the prediction, with an interval narrower than the remaining 0.5 %, rules x_+ (1 +- 1 %) out; "
    "fixed in units of x_+, so a smaller or noisier simulation only widens the interval"
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
OUTLIER = Alternative(
    "outlier +2%",
    "a persistent outlier 2 % above x_+: ell s_2(A)^2 -> 1.02 x_+ (target and limit 0.02)",
    "what a BBP spike that never dissolves would give (papers.md section 3): the failure "
    "sticking excludes",
)
TW_EDGE = FiniteSize(
    exponent=2 / 3,
    exponent_text="2/3",
    reason="an edge eigenvalue's Tracy-Widom shift and spread scale like ell^(-2/3) "
    "(papers.md section 3)",
    limit="0 (ell s_k^2 -> x_+)",
)
B_SIZES = (
    "ee121eb (stop 18): judged at ell = 4096 over 20 draws, was 8192 over 10, chosen on cost "
    "before any result at 4096 was judged; at 4096 two rows passed only because their "
    "Tracy-Widom margins were 1.59x wider"
)
B1_TREND = (
    "9318986 (stop 16): the old trend rule judged against the limit 0, not the finite-ell "
    "Tracy-Widom expectation, after a synthetic test showed a constant outlier passing it"
)
TW_MARGIN_OLD = (
    f"{THIS_STOP}: margin fixed at 0.5 % of x_+ (was 2 Tracy-Widom sds at the judged ell, which "
    "widen as the simulation shrinks); the trend rescue replaced by the finite-size model "
    "g + a ell^(-2/3); alternatives x_+ (1 +- 1 %) and a persistent outlier declared"
)


def _paper_a() -> list[DeclaredTest]:
    rows = []
    for beta in ("0.5", "1"):
        rows.append(
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
        )
    for beta in ("0.5", "1"):
        rows.append(
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
                changed_after_results=(
                    f"{THIS_STOP}: trend rescue removed, alternatives declared",
                ),
            )
        )
    rows.append(
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
        )
    )
    for beta in ("0.5", "1"):
        rows.append(
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
        )
    rows += [
        DeclaredTest(
            row_id="A.5/breakdown",
            kind="empirical",
            subject=ATTENTION,
            figure="A5-linearisation",
            statistic="mean_difference",
            describes="Kolmogorov distance of the bulk to nu_inf minus that of Y_lin, means "
            "over draws",
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
            "reruns, stop 25) the statistic's sd was 0.027 against a mean bootstrap standard "
            "error of 0.017 and a jackknife one of 0.018: the percentile interval of this "
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
    ]
    return rows


def _paper_b() -> list[DeclaredTest]:
    rows = []
    for beta in ("0.5", "1"):
        rows.append(
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
                changed_after_results=(B1_TREND, B_SIZES, TW_MARGIN_OLD),
            )
        )
    for beta in ("0.5", "1"):
        for schedule, k_ell in SCHEDULES:
            rows.append(
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
                    "rules out x_+ (1 +- 1 %) and an outlier at any index",
                    interval="bootstrap",
                    finite_size=TW_EDGE,
                    alternatives=(
                        *X_PLUS_MUTANTS,
                        Alternative(
                            "outlier +2%",
                            "a persistent outlier 2 % above x_+ at k = 2 (its location 1.02 x_+)",
                            OUTLIER.reason,
                        ),
                    ),
                    changed_after_results=(
                        B_SIZES,
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
                    ),
                )
            )
    for covariance, label in COVARIANCES:
        rows.append(
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
                    exponent=1.0,
                    exponent_text="1",
                    reason="the bias of order 1/ell of E_ell, the finite-size mechanism declared "
                    "with claim B.3 before this model (attnspec.claims.catalogue; papers.md section 4)",
                    limit="0 (E_ell -> x_+)",
                ),
                alternatives=X_PLUS_MUTANTS,
                changed_after_results=(
                    f"{THIS_STOP}: margin fixed at 0.5 % of x_+ (was one Tracy-Widom sd at the "
                    "judged ell); the trend rescue replaced by the finite-size model; "
                    "alternatives x_+ (1 +- 1 %) declared. The model's exponent was first drafted "
                    "as 2/3 and set to 1 after that draft's extrapolation of the committed draws "
                    "overshot below x_+: the data halve per doubling of ell, as the mechanism "
                    "declared with B.3 before this stop says (a bias of order 1/ell)",
                ),
            )
        )
    rows += [
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
    ]
    for ratio in ("0.5", "2"):
        rows.append(
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
                    f"{THIS_STOP}: the gap relative to x_+ with a margin of 0.5 % of x_+ (was "
                    "standardised by the Tracy-Widom sd at the judged ell with a margin of one "
                    "sd, which widens in x_+ units as ell shrinks); alternatives declared",
                ),
            )
        )
    return rows


def _paper_c() -> list[DeclaredTest]:
    rows = []
    for mask in ("bidirectional", "causal"):
        rows.append(
            DeclaredTest(
                row_id=f"C.1/canonical/{mask}",
                kind="model",
                subject=CANONICAL,
                figure="C4-spike-survival",
                statistic="mean",
                describes="max over the r spike-tied singular values of |s_p(A) - 1| per draw, "
                "mean over draws (canonical diag(sigma), iid bulk); spike-tied: among the top "
                "r + 6 singular pairs, those whose right singular vector has weight >= 1/2 on the "
                "spike directions (rows e_p), a spike not found counting as s_p = 0",
                points=f"largest n of paperC.canonical.stable_rank, {mask}",
                target="0 (a fully kept mode: A_ii = 1)",
                comparison="equivalence",
                margin=0.1,
                margin_unit="",
                margin_reason="a spike-tied singular value within 0.1 of 1 keeps at least 90 % "
                "of its mode, while the bulk's singular values at the same n are below 0.01",
                interval="bootstrap",
                changed_after_results=(
                    f"{THIS_STOP}: kind model (was empirical: its interval is 0 to 3e-5 wide, "
                    "an evaluation of the closed-form model); trend rescue removed",
                ),
            )
        )
    rows.append(
        DeclaredTest(
            row_id="C.1/isotropic",
            kind="empirical",
            subject=ISOTROPIC,
            figure="C1-spectra",
            statistic="mean",
            describes="the same statistic for softmax(U Sigma V^T) with U, V Haar and the same "
            "sigma, the spike directions being V e_p: the model the canonical diag(Sigma) stands "
            "for (scope of C.1: holds for the canonical model, this row says whether it holds "
            "for the isotropic one)",
            points="largest n of paperC.canonical.isotropic, bidirectional",
            target="0",
            comparison="equivalence",
            margin=0.1,
            margin_unit="",
            margin_reason="as for the canonical rows",
            interval="bootstrap",
            alternatives=(
                Alternative(
                    "spikes lost",
                    "softmax keeps no spike mode of the isotropic model (every spike-tied value "
                    "0: statistic 1)",
                    "what a bulk-dominated softmax of a rotated score matrix would give",
                ),
            ),
            scope="whether C.1 extends from the canonical diagonal model to the isotropic "
            "softmax(U Sigma V^T) it stands for",
            changed_after_results=(f"{THIS_STOP}: trend rescue removed, alternative declared",),
        )
    )
    non_degenerate = Alternative(
        "slope -0.5",
        "a non-degenerate bulk: median bulk singular value ~ n^(-1/2) (slope -1/2)",
        "the rate of the Gaussian model of paper A (sqrt(n) A_perp = O(1)): the bulk paper C "
        "says softmax crushes",
    )
    for profile, mask in (("iid", "bidirectional"), ("iid", "causal"), ("zeros", "causal")):
        deterministic = profile == "zeros"
        rows.append(
            DeclaredTest(
                row_id=f"C.2/{profile}/{mask}",
                kind="model" if deterministic else "empirical",
                subject=CANONICAL if deterministic else CANONICAL_RANDOM,
                figure="C2-bulk",
                statistic="loglog_slope",
                describes="OLS slope of log(median bulk singular value of A) on log n over every "
                f"(draw, n) (canonical model, {profile} bulk; median of the n - r - 1 values "
                "below the top r + 1, from exact inertia counts, interpolated between the points "
                "of the count grid)",
                points=f"every n of paperC.canonical.bulk, {mask}",
                target="-1/2 (the rate of a non-degenerate bulk: sqrt(n) A_perp = O(1) in the "
                "Gaussian model of paper A)",
                comparison="below",
                margin=0.25,
                margin_unit="",
                margin_reason="concentration at zero means bulk singular values vanishing faster "
                "than the non-degenerate n^(-1/2); by at least n^(-1/4), halfway from that rate "
                "to the 1/n of entries of order 1/n",
                # the zeros profile is deterministic: one draw, an exact value
                interval="exact" if deterministic else "bootstrap",
                alternatives=() if deterministic else (non_degenerate,),
                changed_after_results=(
                    (f"{THIS_STOP}: kind model (was empirical: one deterministic draw)",)
                    if deterministic
                    else (f"{THIS_STOP}: alternative declared",)
                ),
            )
        )
    rows += [
        DeclaredTest(
            row_id="C.3/bound",
            kind="bound",
            subject=CANONICAL,
            figure="C3-stable-rank",
            statistic="mean",
            describes="stable rank ||A||_F^2 / ||A||^2 of bidirectional canonical A (iid bulk) "
            "per draw, mean over draws",
            points="largest n of paperC.canonical.stable_rank",
            target="r + 1 (row-stochastic A: ||A|| >= 1 and ||A||_F^2 <= r + 1 + o(1))",
            comparison="at_most",
            margin=0.0,
            margin_unit="",
            margin_reason="a theorem for a row-stochastic matrix with r concentrated rows: "
            "shown, not evidence",
            interval="bootstrap",
        ),
        DeclaredTest(
            row_id="C.3/canonical-slope",
            kind="model",
            subject=CANONICAL,
            figure="C3-stable-rank",
            statistic="semilog_slope",
            describes="OLS slope of the bidirectional stable rank (canonical, iid bulk) on log n "
            "over every (draw, n)",
            points="the three largest n of paperC.canonical.stable_rank",
            target="0 (bounded)",
            comparison="equivalence",
            margin=0.05,
            margin_unit="",
            margin_reason="a fifth of the causal asymptotic slope 1/4: a logarithmic growth at "
            "even a fifth of the causal rate is excluded by a row that holds",
            interval="bootstrap",
            changed_after_results=(
                f"{THIS_STOP}: kind model (was empirical: interval width below 1e-4)",
            ),
        ),
        DeclaredTest(
            row_id="C.3/canonical-limit",
            kind="model",
            subject=CANONICAL,
            figure="C3-stable-rank",
            statistic="mean",
            describes="bidirectional stable rank (canonical, iid bulk) per draw, mean over draws",
            points="largest n of paperC.canonical.stable_rank",
            target="r + 1, the limit of the canonical model (kappa > 1), approached like "
            "(r + 1) / (1 + sqrt(r / n)) (derived in docs/papers.md, paper C)",
            comparison="equivalence",
            margin=0.1,
            margin_unit="",
            margin_reason="2.5 % of the limit r + 1 = 4, and less than half the growth of the "
            "causal stable rank per e-fold of n",
            interval="bootstrap",
            changed_after_results=(
                f"{THIS_STOP}: kind model (was empirical: interval width below 1e-4); trend "
                "rescue removed",
            ),
        ),
        DeclaredTest(
            row_id="C.3/gaussian",
            kind="empirical",
            subject=GAUSSIAN_SCORES,
            figure="C3-stable-rank",
            statistic="mean",
            describes="bidirectional stable rank of row-softmax(beta Q K^T / sqrt(d_qk)), d_qk = "
            "n, per draw; mean over draws",
            points="largest n of paperC.canonical.gaussian_model",
            target="e^(beta^2) (papers.md section 2)",
            comparison="equivalence",
            margin=0.03,
            margin_unit="e^(beta^2)",
            margin_reason="half the change of e^(beta^2) under a 3 % error in beta (about 6 % at "
            "beta = 1); the finite-n corrections of ||A||_F^2 and ||A||^2 are O(1/n) and below "
            "1 % at n >= 1024 (papers.md section 3)",
            interval="bootstrap",
            alternatives=(
                Alternative(
                    "beta-3%",
                    "e^((0.97 beta)^2)",
                    "the nearest wrong parameter (as paper A's rows)",
                ),
                Alternative("beta+3%", "e^((1.03 beta)^2)", "the same, upwards"),
            ),
            changed_after_results=(
                f"{THIS_STOP}: margin 3 % of e^(beta^2) (was 5 %, which let beta 3 % low "
                "through); trend rescue removed; alternatives declared",
            ),
        ),
        DeclaredTest(
            row_id="C.4/canonical",
            kind="empirical",
            subject=CANONICAL_RANDOM,
            figure="C3-stable-rank",
            statistic="semilog_slope",
            describes="OLS slope of the causal stable rank (canonical, iid bulk) on log n over "
            "every (draw, n)",
            points="every n of paperC.canonical.stable_rank",
            target="0 (no growth)",
            comparison="at_least",
            margin=0.1,
            margin_unit="",
            margin_reason="a growth of at least 0.1 per e-fold of n: 40 % of the Cesaro "
            "asymptotic slope 1/4 and twice the largest slope C.3 allows a bounded stable rank",
            interval="bootstrap",
            alternatives=(
                Alternative(
                    "bounded",
                    "the causal stable rank bounded like the bidirectional one (slope 0)",
                    "the bidirectional result carried over to causal masks",
                ),
            ),
            changed_after_results=(f"{THIS_STOP}: alternative declared",),
        ),
        DeclaredTest(
            row_id="C.4/gaussian",
            kind="empirical",
            subject=GAUSSIAN_SCORES,
            figure="C3-stable-rank",
            statistic="semilog_slope",
            describes="OLS slope of the causal stable rank of row-softmax(beta Q K^T / "
            "sqrt(d_qk)), d_qk = n, on log n over every (draw, n)",
            points="every n of paperC.canonical.gaussian_model",
            target="the derived reference slope over the same n: OLS slope on log n of "
            "E||A||_F^2 / lambda_max(C_n C_n^T + diag(rho_i - 1/i)), rho_i the exact expected "
            "squared norm of a row of i log-normal softmax weights, C_n the Cesaro matrix = E A "
            "(docs/papers.md, paper C; papers.md section 9)",
            comparison="equivalence",
            margin=0.25,
            margin_unit="the reference slope",
            margin_reason="the reference replaces ||A|| by its deterministic approximation; 25 % "
            "tells the log-normal enhancement e^(beta^2) of ||A||_F^2 (a factor 2.7 at beta = 1) "
            "from the canonical slope",
            interval="bootstrap",
            alternatives=(
                Alternative(
                    "canonical 0.25",
                    "the canonical model's Cesaro slope 1/4",
                    "the heuristic reference this row refutes for Gaussian scores (table C-T1 "
                    "used it before the derived reference)",
                ),
                Alternative(
                    "bounded",
                    "no growth (slope 0)",
                    "the bidirectional result carried over to causal masks",
                ),
            ),
            changed_after_results=(f"{THIS_STOP}: alternatives declared",),
        ),
        DeclaredTest(
            row_id="C.5/minilm",
            kind="empirical",
            subject=MINILM,
            figure="C5-eigen-angles",
            statistic="ks_two_sample",
            describes="two-sample Kolmogorov distance between the heads' eigen-angle distances "
            "to uniform (U and V of every layer and head, pooled over passages; a passage is a "
            "resampling unit) and the same distances for Haar singular vectors of Gaussian "
            "scores of the same shape (resampled in 25 blocks of draws); the distribution "
            "functions compared on 200 quantile points of the pooled distances",
            points="paperC.pretrained.full_rank_passages (n <= head width: U, V fixed by S)",
            target="0 (distributed like Haar)",
            comparison="equivalence",
            margin=0.04,
            margin_unit="",
            margin_reason="power against a declared structured share: 5 % of the heads with "
            "fully structured singular vectors (the aligned control's distances, far from "
            "Haar's) move the Kolmogorov distance by up to 0.05; a margin of 0.04 leaves that "
            "share outside the region once the interval is narrower than 0.01",
            interval="bootstrap",
            alternatives=(
                Alternative(
                    "5% structured",
                    "5 % of each passage's distances replaced by aligned-control distances "
                    "(heads with known non-uniform eigen-angles), the rest the model's",
                    "'nearly uniform' must exclude a small share of structured heads",
                ),
            ),
            scope="the eigen-angle diagnostic does not see locality: local-attention "
            "(Toeplitz) score heads give Haar-like eigen-angles (their distance is reported "
            "in the note), so C.5 says nothing about local attention",
            changed_after_results=(
                f"{THIS_STOP}: margin 0.04, justified by power against 5 % structured heads "
                "(was 0.1, which let 8 % structured heads and 100 % local heads through); the "
                "locality blind spot stated as the row's scope",
            ),
        ),
        DeclaredTest(
            row_id="C.5/control",
            kind="empirical",
            subject=CONTROL,
            figure="C5-eigen-angles",
            statistic="ks_two_sample",
            describes="the same distance for structured score matrices of the same shape whose "
            "singular vectors have known non-uniform eigen-angles: aligned scores "
            "U Sigma V^T with U, V rotations by angles uniform on [0, pi/3] from the identity "
            "(the canonical geometry U = V = I, rotated; eigen-angles uniform on [0, pi/3] "
            "through the pipeline's conventions), control draws resampled in 25 blocks",
            points="as C.5/minilm",
            target="0",
            comparison="at_least",
            margin=0.1,
            margin_unit="",
            margin_reason="the diagnostic must separate known non-uniform eigen-angles from Haar "
            "by more than C.5's margin, or 'nearly uniform' would say nothing",
            interval="bootstrap",
            alternatives=(
                Alternative(
                    "blind",
                    "the diagnostic cannot tell known structure from Haar (predicted distance 0)",
                    "the failure this control exists to exclude",
                ),
            ),
            changed_after_results=(
                "8cd0be4: the control was switched from local-attention scores to aligned "
                "scores after the local control did not separate from Haar (its eigen-angles "
                "look uniform: the diagnostic's blind spot, now C.5/minilm's scope)",
                f"{THIS_STOP}: alternative declared",
            ),
        ),
        DeclaredTest(
            row_id="C.6/minilm",
            kind="empirical",
            subject=MINILM,
            figure="C6-score-spectra",
            statistic="median",
            describes="energy fraction E_k of ||S||_F^2 in the top k singular directions per "
            "(passage, layer, head); per passage the median over its (layer, head), then the "
            "median over passages (passages resampled)",
            points="paperC.pretrained.long_passages, k = paperC.pretrained.top_k",
            target="1/2 (a majority of the energy)",
            comparison="at_least",
            margin=0.1,
            margin_unit="",
            margin_reason="'dominated by a small number of directions' read as a clear majority "
            "(at least 60 %) of the score energy in the top k directions",
            interval="bootstrap",
            alternatives=(
                Alternative(
                    "isotropic",
                    "isotropic scores: E_k as for Gaussian Q, K of the same shape (the median of "
                    "the isotropic reference)",
                    "the heuristic reference of an unstructured head",
                ),
            ),
            changed_after_results=(f"{THIS_STOP}: alternative declared",),
        ),
    ]
    return rows


PUBLIC_MODELS = ("dinov3-l16", "bert-base", "modernbert-large", "kayyam-1.2b", "falcon-7b")
"""The table D.2 configurations of the default preset (paper D, appendix D.1)."""
SHARING_SCHEMES = (
    ("mqa", "one key/value pair shared by all query heads (multi-query)"),
    ("gqa", "key/value pairs shared within groups of query heads (grouped-query)"),
)
SCHEDULES = (("log", "log ell"), ("cube_root", "ell^(1/3)"), ("square_root", "ell^(1/2)"))
COVARIANCES = (
    ("Sigma_f", "Sigma_f (the softmax kernel)"),
    ("Sigma_G", "Sigma_G (its linearisation)"),
)
D1_METRICS = (
    (
        "w1",
        "relative Wasserstein-1 distance (mean absolute difference of the ordered eigenvalues "
        "over their common limiting mean)",
        "relative W1",
    ),
    ("ks", "two-sample Kolmogorov distance", "KS"),
)
GE_MUTANTS = (
    Alternative(
        "beta-1%",
        "the Gaussian equivalent built with theta_1, theta_2 at 0.99 beta (same weights, same "
        "noise W)",
        "the nearest wrong parameter: 1 % in beta is 3 % in theta_1 at beta = 1",
    ),
    Alternative("beta+1%", "theta_1, theta_2 at 1.01 beta", "the same, upwards"),
    Alternative(
        "theta_2 x 0.5",
        "the score term's coefficient theta_2 halved (theta_1 kept)",
        "a wrong linear part of the softmax (E f')^2",
    ),
    Alternative(
        "no score term",
        "theta_2 = 0: the Gaussian equivalent without its score term (noise of variance theta_1)",
        "the iid-scores surrogate (paper A's refuted law, multi-head form)",
    ),
)


def _paper_d() -> list[DeclaredTest]:
    rows = []
    for model in PUBLIC_MODELS:
        for metric, words, short in D1_METRICS:
            rows.append(
                DeclaredTest(
                    row_id=f"D.1/{model}/{metric}",
                    kind="empirical",
                    subject=MULTIHEAD,
                    figure="D-T1-public-models",
                    statistic="mean",
                    describes=f"per draw, the {words} between all n eigenvalues of MHA_perp "
                    "MHA_perp^T and of n^-1 MHA^G MHA^G^T from the same weights, minus the same "
                    f"{short} between two Gaussian equivalents of those weights with independent "
                    "noise (the finite-size floor of the comparison); mean over draws",
                    points=f"the {model} configuration of paperD.public_models.models (table "
                    "D.2: n, d, h/h_KV, d_K = d_V, K/V sharing), d_O = d, beta = "
                    "paperD.public_models.beta (1)",
                    target="0 (softmax as close to its Gaussian equivalent as two Gaussian "
                    "equivalents of the same weights)",
                    comparison="equivalence",
                    margin=0.005 if metric == "w1" else 0.01,
                    margin_unit="",
                    margin_reason=(
                        "a 0.5 % relative W1 beyond the floor: a fifth of the largest distance "
                        "the paper reports at public-model dimensions (2.82 %, its section 5.1), "
                        "and half the shift of the mean that 1 % in beta makes (3 % in theta_1)"
                        if metric == "w1"
                        else "a 1 % Kolmogorov distance beyond the floor: the paper's reported KS "
                        "at these dimensions is 0.01-0.03, and dropping the score term moves it "
                        "2-6x"
                    ),
                    interval="student-t",
                    alternatives=GE_MUTANTS,
                    changed_after_results=(
                        f"{THIS_STOP}: the distance beyond the finite-size floor (two Gaussian "
                        "equivalents of the same weights) with a margin of "
                        + ("0.5 %" if metric == "w1" else "0.01")
                        + " (was the raw relative W1 at most 5 %, which passed beta 1 % off on "
                        "5 of 6 model-directions); KS judged as well as W1; alternatives "
                        "declared",
                    ),
                )
            )
    for scheme, label in SHARING_SCHEMES:
        rows.append(
            DeclaredTest(
                row_id=f"D.2/{scheme}",
                kind="empirical",
                subject=MULTIHEAD_LAWS,
                figure="D3-sharing",
                statistic="mean_difference",
                describes=f"Kolmogorov distance of the centred softmax output's eigenvalues with "
                f"{label} to the limit law of independent heads, per draw, minus the same for "
                "independent heads (the finite-size floor); means over draws",
                points="the largest n of paperD.sharing.n_tokens, at the fixed ratios of "
                "paperD.sharing (h heads, kv_groups K/V pairs for GQA, gamma_K = gamma_V, "
                "gamma_O), beta = paperD.sharing.beta (1); each scheme with its own draws",
                target="0 (sharing as close to the independent-head law as independent heads)",
                comparison="equivalence",
                margin=0.25,
                margin_unit="the Kolmogorov distance between the independent-head and the tied "
                "K = V limit laws at the same dimensions",
                margin_reason="sharing preserves the law if it moves the spectrum by much less "
                "than the change the paper attributes to tying (D.3): a quarter of the distance "
                "between the two limit laws",
                interval="bootstrap",
                alternatives=(
                    Alternative(
                        "tied law",
                        "sharing changes the law as tying does: the distance to the "
                        "independent-head law that the tied (K = V) law has",
                        "the change D.3 finds for tying, read as a change for any sharing",
                    ),
                    Alternative(
                        "fewer heads",
                        "shared K/V act as h_KV heads: the scheme's spectrum follows the "
                        "independent-head law with h_KV heads of the same total widths",
                        "the naive count of distinct key/value pairs",
                    ),
                ),
                changed_after_results=(
                    f"{THIS_STOP}: trend rescue removed; alternatives declared",
                ),
            )
        )
    rows.append(
        DeclaredTest(
            row_id="D.3/tied",
            kind="empirical",
            subject=MULTIHEAD_LAWS,
            figure="D3-sharing",
            statistic="mean",
            describes="Delta = KS(tied softmax spectrum, independent-head law) - KS(tied softmax "
            "spectrum, tied law) per draw, mean over draws",
            points="the largest n of paperD.sharing.n_tokens, at the fixed ratios of "
            "paperD.sharing (h heads, gamma_K = gamma_V, gamma_O; V_r = K_r), beta = "
            "paperD.sharing.beta (1)",
            target="0 (the tied spectrum as close to the untied law as to its own)",
            comparison="at_least",
            margin=0.5,
            margin_unit="the Kolmogorov distance between the independent-head and the tied "
            "K = V limit laws at the same dimensions",
            margin_reason="a spectrum within a quarter of that distance of its own law is closer "
            "to it than to the other by at least half the distance; a smaller separation does "
            "not tell the two laws apart",
            interval="bootstrap",
            alternatives=(
                Alternative(
                    "tying preserves",
                    "tying keeps the independent-head law: Delta = -KS(independent-head law, "
                    "tied law)",
                    "sharing preserves the law (D.2), read as holding for tying too",
                ),
            ),
            changed_after_results=(f"{THIS_STOP}: alternative declared",),
        )
    )
    return rows


REGISTRY = tuple(_paper_a() + _paper_b() + _paper_c() + _paper_d())
"""Every declared test, in claim order."""
TESTS = {test.row_id: test for test in REGISTRY}


def registry_of(paper: str) -> list[DeclaredTest]:
    """The registry rows of one paper ("A", "B", "C", "D"), in order."""
    return [test for test in REGISTRY if test.claim_id.startswith(f"{paper}.")]
