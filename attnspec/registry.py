"""The claims registry: every verdict row's test, declared once, before the data.

Each :class:`DeclaredTest` states the statistic (a name from
:data:`attnspec.evidence.STATISTICS` and its meaning), the parameter points judged, the target,
the comparison, the margin with its scientific reason (a number fixed here, in the units
``margin_unit`` names, never derived from the spread of the data it judges), the interval method
and the data of the trend rule. The engine (:mod:`attnspec.verdicts`) applies the one rule to
all of them; per-paper code only computes the samples (:class:`attnspec.evidence.Evidence`).
Changing a test is a diff of this file.

Kinds: ``empirical`` rows judge data against a limit and can fail; ``identity`` rows compare two
exact computations (a failure is a bug); ``bound`` rows hold by construction (a theorem) and are
shown, not counted as evidence. Every claim has at least one empirical row.
"""

from dataclasses import dataclass

from attnspec.claims import CLAIMS
from attnspec.evidence import STATISTICS
from attnspec.verdicts import COMPARISONS, INTERVALS, KINDS


@dataclass(frozen=True)
class DeclaredTest:
    """One registry row (see the module docstring)."""

    row_id: str
    kind: str
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
    trend: str

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

    @property
    def claim_id(self) -> str:
        return self.row_id.split("/", 1)[0]

    @property
    def counts_as_evidence(self) -> bool:
        return self.kind == "empirical"


BETA_JUDGED = "beta <= 1 only: at beta >= 1.5 the limit is out of reach of any affordable ell"
TW_UNIT = (
    "the Tracy-Widom standard deviation of the Gaussian model's top eigenvalue at the judged "
    "ell, gamma_TW ell^(-2/3) sd(TW1) / x_+ (papers.md section 3)"
)
KS_UNIT = "the Kolmogorov distance between nu_inf and the MP surrogate at the row's beta"
ONE_QUARTER_KS = (
    "the claims of paper A distinguish nu_inf from the Marchenko-Pastur surrogate it refutes: "
    "an excess over the Gaussian reference's own distance below a quarter of KS(nu_inf, MP) "
    "leaves the bulk at least three times closer to nu_inf than to MP (triangle inequality)"
)
TWO_TW = (
    "an eigenvalue within two Tracy-Widom standard deviations of the Gaussian model's expected "
    "top eigenvalue is at the edge by its own fluctuation scale; an outlier (a BBP spike) sits "
    "at a distance from x_+ that does not shrink with ell"
)


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


def _rows() -> tuple[DeclaredTest, ...]:
    rows = []
    for beta in ("0.5", "1"):
        rows.append(
            DeclaredTest(
                row_id=f"A.1/beta={beta}",
                kind="empirical",
                figure="A5-linearisation",
                statistic="mean_difference",
                describes="Kolmogorov distance of the bulk of sqrt(ell) A_perp to nu_inf, minus "
                "that of Y_lin (limit exactly nu_inf: the finite-size floor); per draw, means "
                "over draws",
                points=f"largest ell of paperA.linearisation, c = 1, beta = {beta}",
                target="0 (the bulk as close to nu_inf as the Gaussian reference)",
                comparison="equivalence",
                margin=0.25,
                margin_unit=KS_UNIT,
                margin_reason=ONE_QUARTER_KS,
                interval="bootstrap",
                trend="per (draw, ell) attention distance against the mean Y_lin distance at "
                "that ell, every ell of paperA.linearisation",
            )
        )
    for beta in ("0.5", "1"):
        rows.append(
            DeclaredTest(
                row_id=f"A.2/beta={beta}",
                kind="empirical",
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
                trend="per-draw local slopes between consecutive ell, against -1",
            )
        )
    rows.append(
        DeclaredTest(
            row_id="A.3/beta=1",
            kind="empirical",
            figure="A-T2-stepwise",
            statistic="mean_difference",
            describes="per attention draw, the mean two-sample Kolmogorov distance of sqrt(ell) "
            "A_perp to the Y_lin draws of other seeds, minus per Y_lin draw the mean distance "
            "to the other Y_lin draws (two samples of one law: the floor); means over draws",
            points="largest ell of paperA.linearisation, c = 1, beta = 1",
            target="0 (attention as close to Y_lin as Y_lin to itself)",
            comparison="equivalence",
            margin=0.25,
            margin_unit=KS_UNIT,
            margin_reason=ONE_QUARTER_KS,
            interval="bootstrap",
            trend="per attention draw its excess over the Y_lin floor, every ell of "
            "paperA.linearisation at beta = 1",
        )
    )
    for beta in ("0.5", "1"):
        rows.append(
            DeclaredTest(
                row_id=f"A.4/beta={beta}",
                kind="empirical",
                figure="A3-bulk-laws",
                statistic="mean",
                describes="Delta = KS(bulk, MP surrogate) - KS(bulk, nu_inf) per draw, mean "
                "over draws",
                points=f"paperA.bulk_laws, beta = {beta} ({BETA_JUDGED})",
                target="0 (the bulk as close to MP as to nu_inf)",
                comparison="at_least",
                margin=0.5,
                margin_unit=KS_UNIT,
                margin_reason="a bulk within A.1's margin of nu_inf (a quarter of KS(nu_inf, MP)) "
                "is closer to nu_inf than to MP by at least half of KS(nu_inf, MP); a smaller "
                "separation does not tell the two laws apart",
                interval="bootstrap",
                trend="",
            )
        )
    rows += [
        DeclaredTest(
            row_id="A.5/breakdown",
            kind="empirical",
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
            "model, four times the largest margin of A.1; linearisation at that beta would give "
            "an excess near 0",
            interval="bootstrap",
            trend="",
        ),
        DeclaredTest(
            row_id="A.5/location",
            kind="empirical",
            figure="A5-linearisation",
            statistic="loglog_slope",
            describes="per draw and ell, the threshold beta*(ell) where the excess Kolmogorov "
            "distance over the Y_lin floor (the mean Y_lin distance at the same ell and beta) "
            "first reaches 0.1, the excess interpolated linearly in log beta between the "
            "simulated betas (a crossing not bracketed by them is missing); OLS slope of "
            "log beta* on log log ell",
            points="every ell of paperA.linearisation, c = 1",
            target="0.5 (beta* proportional to sqrt(log ell), paper A section 6.1)",
            comparison="equivalence",
            margin=0.25,
            margin_unit="",
            margin_reason="halfway between the claimed exponent 1/2 and a fixed threshold "
            "(exponent 0): a row that holds excludes a threshold that does not move with ell",
            interval="bootstrap",
            trend="",
        ),
    ]
    for beta in ("0.5", "1"):
        rows.append(
            DeclaredTest(
                row_id=f"B.1/beta={beta}",
                kind="empirical",
                figure="B1-sticking",
                statistic="median",
                describes="relative gap (ell s_2(A)^2 - x_+) / x_+ per draw, median over draws",
                points=f"largest ell of paperB.sticking, c = 1, beta = {beta} ({BETA_JUDGED}: "
                "its largest entry is a supercritical spike up to ell ~ 1e10, papers.md "
                "section 3; shown in B1-B2, not judged)",
                target="the Tracy-Widom expectation of the Gaussian model at that ell, "
                "gamma_TW ell^(-2/3) E[TW1] / x_+",
                comparison="equivalence",
                margin=2.0,
                margin_unit=TW_UNIT,
                margin_reason=TWO_TW,
                interval="bootstrap",
                trend="per (draw, ell) relative gap against its limit 0 (not the finite-ell "
                "Tracy-Widom expectation, which itself moves towards 0 with ell), every ell of "
                "paperB.sticking",
            )
        )
    for beta in ("0.5", "1"):
        for schedule, k_ell in SCHEDULES:
            rows.append(
                DeclaredTest(
                    row_id=f"B.2/beta={beta}/{schedule}",
                    kind="empirical",
                    figure="B3-uniform",
                    statistic="median",
                    describes="D - D_classical per draw, D = max over 2 <= k <= k_ell of "
                    "|ell s_k(A)^2 - x_+| / x_+ and D_classical the same for the classical "
                    "locations of nu_inf at that ell; median over draws",
                    points=f"largest ell of paperB.sticking, c = 1, beta = {beta}, k_ell = "
                    f"{k_ell} (rounded up)",
                    target="0",
                    comparison="equivalence",
                    margin=2.0,
                    margin_unit=TW_UNIT,
                    margin_reason="eigenvalue rigidity: the k-th value from the edge fluctuates "
                    "by ell^(-2/3) k^(-1/3), at most the edge's own Tracy-Widom scale; two of "
                    "those standard deviations as for B.1",
                    interval="bootstrap",
                    trend="per (draw, ell) D - D_classical against 0, every ell of paperB.sticking",
                )
            )
    for covariance, label in COVARIANCES:
        rows.append(
            DeclaredTest(
                row_id=f"B.3/{covariance}",
                kind="empirical",
                figure="B5-conditional-edges",
                statistic="mean",
                describes=f"relative finite deformed-MP edge (E_ell({covariance}) - x_+) / x_+ "
                f"of {label} given K, per draw; mean over draws",
                points="largest ell of paperB.conditional",
                target="0",
                comparison="equivalence",
                margin=1.0,
                margin_unit=TW_UNIT,
                margin_reason="an edge functional within one Tracy-Widom standard deviation of "
                "x_+ cannot be told from x_+ by any spectral measurement at that ell",
                interval="bootstrap",
                trend="per (draw, ell) relative edge against 0, every ell of paperB.conditional",
            )
        )
    rows += [
        DeclaredTest(
            row_id="B.4/square-model",
            kind="identity",
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
            trend="",
        ),
        DeclaredTest(
            row_id="B.4/r-transform",
            kind="identity",
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
            trend="",
        ),
    ]
    for ratio in ("0.5", "2"):
        rows.append(
            DeclaredTest(
                row_id=f"B.4/c={ratio}",
                kind="empirical",
                figure="B4-edge-formula",
                statistic="median",
                describes="standardised top gap (s_1(Y_lin)^2 - E lambda_max) / sd lambda_max of "
                "the Gaussian model, E and sd from x_+(beta, c) of the scalar formula and "
                "Tracy-Widom; per (beta, draw), median over them",
                points=f"largest ell of paperB.ratio_scan, c = {ratio}, every beta of "
                "paperB.ratio_scan",
                target="0",
                comparison="equivalence",
                margin=1.0,
                margin_unit="Tracy-Widom standard deviations (the statistic is standardised)",
                margin_reason="the median of Tracy-Widom draws is 0.1 sd from their mean; a "
                "median within one sd places the simulated edge on the scalar formula's x_+ at "
                "the resolution of the edge fluctuation, while a 1 % error in x_+ is 3 sd at "
                "ell = 4096",
                interval="bootstrap",
                trend="",
            )
        )
    for mask in ("bidirectional", "causal"):
        rows.append(
            DeclaredTest(
                row_id=f"C.1/canonical/{mask}",
                kind="empirical",
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
                trend="per (draw, n) value against 0, every n of paperC.canonical.stable_rank",
            )
        )
    rows.append(
        DeclaredTest(
            row_id="C.1/isotropic",
            kind="empirical",
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
            trend="per (draw, n) value against 0, every n of paperC.canonical.isotropic",
        )
    )
    for profile, mask in (("iid", "bidirectional"), ("iid", "causal"), ("zeros", "causal")):
        rows.append(
            DeclaredTest(
                row_id=f"C.2/{profile}/{mask}",
                kind="empirical",
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
                interval="exact" if profile == "zeros" else "bootstrap",
                trend="",
            )
        )
    rows += [
        DeclaredTest(
            row_id="C.3/bound",
            kind="bound",
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
            trend="",
        ),
        DeclaredTest(
            row_id="C.3/canonical-slope",
            kind="empirical",
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
            trend="",
        ),
        DeclaredTest(
            row_id="C.3/canonical-limit",
            kind="empirical",
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
            trend="per (draw, n) stable rank against r + 1, every n of "
            "paperC.canonical.stable_rank",
        ),
        DeclaredTest(
            row_id="C.3/gaussian",
            kind="empirical",
            figure="C3-stable-rank",
            statistic="mean",
            describes="bidirectional stable rank of row-softmax(beta Q K^T / sqrt(d_qk)), d_qk = "
            "n, per draw; mean over draws",
            points="largest n of paperC.canonical.gaussian_model",
            target="e^(beta^2) (papers.md section 2)",
            comparison="equivalence",
            margin=0.05,
            margin_unit="e^(beta^2)",
            margin_reason="the finite-n corrections of ||A||_F^2 and ||A||^2 are O(1/n) "
            "(papers.md section 3) and below 1 % at n >= 1024; 5 % separates a bounded limit "
            "from the growth of the causal stable rank over the same sizes",
            interval="bootstrap",
            trend="per (draw, n) stable rank against e^(beta^2), every n of "
            "paperC.canonical.gaussian_model",
        ),
        DeclaredTest(
            row_id="C.4/canonical",
            kind="empirical",
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
            trend="",
        ),
        DeclaredTest(
            row_id="C.4/gaussian",
            kind="empirical",
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
            trend="",
        ),
        DeclaredTest(
            row_id="C.5/minilm",
            kind="empirical",
            figure="C5-pretrained",
            statistic="ks_two_sample",
            describes="two-sample Kolmogorov distance between the heads' eigen-angle distances "
            "to uniform (U and V of every layer and head, pooled over passages; a passage is a "
            "resampling unit) and the same distances for Haar singular vectors of Gaussian "
            "scores of the same shape (>= 2000 distances in the default preset, resampled in 25 "
            "blocks of draws); the distribution functions compared on 200 quantile points of "
            "the pooled distances",
            points="paperC.pretrained.full_rank_passages (n <= head width: U, V fixed by S)",
            target="0 (distributed like Haar)",
            comparison="equivalence",
            margin=0.1,
            margin_unit="",
            margin_reason="'nearly uniform' read as: at most a tenth of the heads' distances "
            "would have to move for their distribution to be Haar's (the Kolmogorov distance is "
            "the largest difference in mass)",
            interval="bootstrap",
            trend="",
        ),
        DeclaredTest(
            row_id="C.5/control",
            kind="empirical",
            figure="C5-pretrained",
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
            trend="",
        ),
        DeclaredTest(
            row_id="C.6/minilm",
            kind="empirical",
            figure="C5-pretrained",
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
            trend="",
        ),
    ]
    for model in PUBLIC_MODELS:
        rows.append(
            DeclaredTest(
                row_id=f"D.1/{model}",
                kind="empirical",
                figure="D-T1-public-models",
                statistic="mean",
                describes="relative Wasserstein-1 distance between all n eigenvalues of "
                "MHA_perp MHA_perp^T and of n^-1 MHA^G MHA^G^T from the same weights (mean "
                "absolute difference of the ordered eigenvalues over their common limiting mean), "
                "per draw; mean over draws (the paper's metric, appendix D.1)",
                points=f"the {model} configuration of paperD.public_models.models (table D.2: "
                "n, d, h/h_KV, d_K = d_V, K/V sharing), d_O = d, beta = paperD.public_models.beta "
                "(1)",
                target="0 (equal spectra)",
                comparison="at_most",
                margin=0.05,
                margin_unit="",
                margin_reason="a 5 % relative W1: twice the largest distance the paper reports "
                "at public-model dimensions (2.82 %, its section 5.1), the scale at which it "
                "calls the two spectra the same law",
                interval="student-t",
                trend="",
            )
        )
    for scheme, label in SHARING_SCHEMES:
        rows.append(
            DeclaredTest(
                row_id=f"D.2/{scheme}",
                kind="empirical",
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
                trend="per (draw, n) distance against the mean independent-head distance at that "
                "n, every n of paperD.sharing.n_tokens",
            )
        )
    rows.append(
        DeclaredTest(
            row_id="D.3/tied",
            kind="empirical",
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
            margin_reason="as for A.4: a spectrum within a quarter of that distance of its own "
            "law is closer to it than to the other by at least half the distance; a smaller "
            "separation does not tell the two laws apart",
            interval="bootstrap",
            trend="",
        )
    )
    return tuple(rows)


REGISTRY = _rows()
"""Every declared test, in claim order."""
TESTS = {test.row_id: test for test in REGISTRY}


def registry_of(paper: str) -> list[DeclaredTest]:
    """The registry rows of one paper ("A", "B", "C", "D"), in order."""
    return [test for test in REGISTRY if test.claim_id.startswith(f"{paper}.")]
