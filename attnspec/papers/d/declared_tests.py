"""Paper D's declared tests (Hayase, Karakida: Gaussian equivalence for multi-head
attention): one row per verdict of claims D.1-D.3 (:mod:`attnspec.claims.declared`).

Claim D.1 has two kinds of rows per table D.2 configuration and metric (papers.md section 8):
``D.1/<model>/published-<metric>`` judge the paper's own statement, the finite-size distance of
softmax to its same-weights Gaussian equivalent that table D.2 reports, against the published
mean; ``D.1/<model>/<metric>`` ask more than the paper states (softmax as close to its Gaussian
equivalent as two Gaussian equivalents are to each other) and are labelled beyond the paper
(``beyond_paper``).
"""

from attnspec.claims.declared import Alternative, DeclaredTest
from attnspec.papers.d.public_models import public_model
from attnspec.papers.declared_texts import THIS_STOP

# --- what the data are ------------------------------------------------------------------------

MULTIHEAD = "multi-head softmax attention draws against their same-weights Gaussian equivalent"
MULTIHEAD_LAWS = "multi-head softmax attention draws against the library's limit laws"

# --- parameter points -------------------------------------------------------------------------

PUBLIC_MODELS = ("dinov3-l16", "bert-base", "modernbert-large", "kayyam-1.2b", "falcon-7b")
"""The table D.2 configurations of the default preset (paper D, appendix D.1)."""
SHARING_SCHEMES = (
    ("mqa", "one key/value pair shared by all query heads (multi-query)"),
    ("gqa", "key/value pairs shared within groups of query heads (grouped-query)"),
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

PUBLISHED_DIGITS = {"w1": 2, "ks": 4}
"""Decimals table D.2 prints: relative W1 in per cent to 0.01, KS to 0.0001."""
PUBLISHED_SCALE = {"w1": 0.01, "ks": 1.0}
"""Table D.2's unit in the rows' statistic: relative W1 in per cent -> a fraction of the limiting
mean; KS as printed."""
PUBLISHED_HALF_WIDTHS = 2.0
"""The margin of rows D.1/<model>/published-<metric>, in published Student-t half-widths (plus
half a unit of the table's last printed digit): :func:`published_margin`."""


def published(model: str, metric: str) -> tuple[float, float]:
    """Table D.2's (mean, Student-t 95 % half-width) of ``model`` and ``metric`` (w1 or ks), in
    the rows' units (relative W1 as a fraction of the limiting mean)."""
    entry = public_model(model)
    value, half = entry.published_w1 if metric == "w1" else entry.published_ks
    scale = PUBLISHED_SCALE[metric]
    return float(f"{value * scale:.12g}"), float(f"{half * scale:.12g}")


def published_margin(model: str, metric: str) -> float:
    """Twice the published half-width plus half a unit of the last printed digit (the table's
    rounding), in the rows' units: from table D.2 alone, never from our draws."""
    _, half = published(model, metric)
    rounding = 0.5 * 10.0 ** -PUBLISHED_DIGITS[metric] * PUBLISHED_SCALE[metric]
    return float(f"{PUBLISHED_HALF_WIDTHS * half + rounding:.12g}")  # no float-sum residue


def published_row(model: str, metric: str) -> str:
    """The row judging table D.2's published distance of ``model`` and ``metric``."""
    return f"D.1/{model}/published-{metric}"


def floor_row(model: str, metric: str) -> str:
    """The row (beyond the paper) judging the distance beyond the floor of two Gaussian
    equivalents."""
    return f"D.1/{model}/{metric}"


# --- texts of several rows --------------------------------------------------------------------
ISSUE_33 = "2026-12-05 (issue 33)"
PUBLISHED_DECLARED = (
    f"{ISSUE_33}: declared after table D-T1's comparison with the published distances had been "
    "seen (10 of 10 within their intervals); the margin from table D.2's half-widths alone"
)
FLOOR_LABELLED = (
    f"{ISSUE_33}: labelled beyond the paper after its results were seen (DINOv3-L/16 W1 "
    "and KS, Falcon-7B W1 read does not reproduce); the test itself is unchanged, and the "
    "paper's own statement is judged by rows D.1/<model>/published-<metric>"
)


def floor_beyond(model: str) -> str:
    """Why row D.1/<model>/<metric> is beyond the paper: the stronger statement it asks, and
    why it is not paper D's claim."""
    return (
        "whether softmax is as close to its same-weights Gaussian equivalent as two Gaussian "
        "equivalents of those weights (independent noise) are to each other, i.e. no distance "
        "beyond that floor: a stronger statement than paper D's. Paper D proves the "
        "equivalence in the limit (Theorem 3.1) and reports the softmax-to-equivalent distance "
        "itself at these dimensions as its finite-size accuracy (section 5.1: mean relative "
        "distances 0.24 % to 2.82 %; table D.2); it does not state that softmax is as close as "
        "a second equivalent. "
        f"Its own statement is judged by rows {published_row(model, 'w1')} and "
        f"{published_row(model, 'ks')}"
    )


GE_MUTANTS = (
    Alternative(
        "beta-1%",
        "the Gaussian equivalent built with theta_1, theta_2 at 0.99 beta (same weights, same "
        "noise W)",
        "the nearest wrong parameter: 1 % in beta is 3 % in theta_1 at beta = 1 (the one rule "
        "of every paper, attnspec.papers.declared_texts.RESOLUTION_PRINCIPLE)",
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

PUBLISHED_MUTANTS = tuple(
    Alternative(
        a.name,
        f"{a.theory}; table D.2's distance read as that of softmax to this Gaussian equivalent: "
        "our raw distance to it against the same published mean",
        a.reason,
    )
    for a in GE_MUTANTS
)
"""The alternatives of rows D.1/<model>/published-<metric>: the same wrong Gaussian equivalents
as :data:`GE_MUTANTS`, their raw distances judged against the published mean."""


def published_test(model: str, metric: str, words: str) -> DeclaredTest:
    """Row D.1/<model>/published-<metric>: paper D's own finite-size statement (table D.2)."""
    value, half = published(model, metric)
    name, digits = public_model(model).name, PUBLISHED_DIGITS[metric]
    shown = (
        f"{value * 100:.{digits}f} % +- {half * 100:.{digits}f} % of the limiting mean"
        if metric == "w1"
        else f"{value:.{digits}f} +- {half:.{digits}f}"
    )
    return DeclaredTest(
        row_id=published_row(model, metric),
        kind="empirical",
        subject=MULTIHEAD,
        figure="D-T1-public-models",
        statistic="mean",
        describes=f"per draw, the {words} between all n eigenvalues of MHA_perp MHA_perp^T and "
        "of n^-1 MHA^G MHA^G^T from the same weights, as paper D's table D.2 reports it (raw: "
        "nothing subtracted); mean over draws",
        points=f"the {model} configuration of paperD.public_models.models (table D.2: n, d, "
        "h/h_KV, d_K = d_V, K/V sharing), d_O = d, beta = paperD.public_models.beta (1)",
        target=f"paper D's published mean for {name} (table D.2, its ten draws: {shown}; its "
        "section 5.1, papers.md section 8: 'Across the seven configurations ... the mean "
        "relative distances range from 0.24% to 2.82%')",
        comparison="equivalence",
        margin=published_margin(model, metric),
        margin_unit="",
        margin_reason=(
            "twice the published Student-t 95 % half-width, plus half a unit of the table's last "
            "printed digit (its rounding): the published mean is known only to within its "
            "half-width h (ten draws), and our mean, from the same design (ten draws at the same "
            "dimensions), carries an interval of about h, so two estimates of the same mean can "
            "be asked to agree to about h + h and no closer; fixed from table D.2 alone, never "
            "from our draws' spread"
        ),
        interval="student-t",
        alternatives=PUBLISHED_MUTANTS,
        changed_after_results=(PUBLISHED_DECLARED,),
    )


def floor_test(model: str, metric: str, words: str, short: str) -> DeclaredTest:
    """Row D.1/<model>/<metric> (beyond the paper, :func:`floor_beyond`): the distance beyond the
    floor of two Gaussian equivalents of the same weights."""
    return DeclaredTest(
        row_id=floor_row(model, metric),
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
        beyond_paper=floor_beyond(model),
        changed_after_results=(
            f"{THIS_STOP}: the distance beyond the finite-size floor (two Gaussian "
            "equivalents of the same weights) with a margin of "
            + ("0.5 %" if metric == "w1" else "0.01")
            + " (was the raw relative W1 at most 5 %, which passed beta 1 % off on "
            "5 of 6 model-directions); KS judged as well as W1; alternatives "
            "declared",
            FLOOR_LABELLED,
        ),
    )


# --- the tests --------------------------------------------------------------------------------

TESTS: tuple[DeclaredTest, ...] = (
    # per configuration: the paper's statement (W1, KS), then the rows beyond it (W1, KS)
    *(
        test
        for model in PUBLIC_MODELS
        for test in (
            *(published_test(model, metric, words) for metric, words, _ in D1_METRICS),
            *(floor_test(model, *texts) for texts in D1_METRICS),
        )
    ),
    *(
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
            changed_after_results=(f"{THIS_STOP}: trend rescue removed; alternatives declared",),
        )
        for scheme, label in SHARING_SCHEMES
    ),
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
                "tying keeps the independent-head law: Delta = -KS(independent-head law, tied law)",
                "sharing preserves the law (D.2), read as holding for tying too",
            ),
        ),
        changed_after_results=(f"{THIS_STOP}: alternative declared",),
    ),
)
"""Paper D's declared tests, in claim order."""
