"""Texts shared by the declared tests of several papers (attnspec/papers/<paper>/declared_tests.py):
the subject of attention draws, the betas judged, the commit that re-declared the tests, and the
range of approach rates and the caveat distance of every finite-size model."""

ATTENTION = "softmax attention draws (Gaussian Q, K; papers.md section 1)"
BETA_JUDGED = "beta <= 1 only: at beta >= 1.5 the limit is out of reach of any affordable ell"
THIS_STOP = "7cd3665 (2026-12-02; issue 19, tests re-declared after the referee's mutation test)"

# Every finite-size model T(ell) = g + a ell^(-p) declares this range of rates p.
APPROACH_RATES = (1 / 3, 2.0)
APPROACH_RATES_TEXT = "[1/3, 2]"
APPROACH_RATES_REASON = (
    "the rate of every mechanism declared for these rows lies inside: a stuck edge's "
    "Tracy-Widom shift ell^(-2/3), an outlier's Gaussian fluctuations ell^(-1/2), a bias of "
    "order 1/ell (of E_ell, of an outlier's mean), each with a factor 1.5 either side for the "
    "corrections no theory here fixes; a few sizes do not pin p down, so the limit's interval "
    "is the union over the range and no choice of p inside it decides the verdict"
)
CAVEAT_DISTANCE = 1.0
CAVEAT_REASON = (
    "a caveat explains a judged size standing off its region by at most one margin, the effect "
    "the row resolves; a judged size farther off is not near the claim, whatever the "
    "extrapolation says"
)

# The resolution of every row whose wrong theories are the predicted law with its defining
# parameter moved (beta for the laws of papers A and D, x_+ for paper B's edges).
RESOLUTION = 0.01
COARSE_RESOLUTION = 0.03
RESOLUTION_PRINCIPLE = (
    "one rule for every paper: the nearest wrong theory moves the parameter that defines the "
    "predicted law (beta for nu_inf and paper D's Gaussian equivalent, x_+ for paper B's "
    "edges) by 1 %, and a row's margin is half the distance, in its statistic's units, to that "
    "theory. The reason does not depend on any result: these laws are exact functions of a "
    "parameter the papers state exactly, so the test is whether the data single out the "
    "predicted member of its own family, and 1 % is the size of the commonest slip in such "
    "formulas (a normalisation by ell instead of ell - 1 at the smallest ell the presets run, "
    "100, or a constant rounded to two digits), the same for every paper, so that no paper is "
    "judged at a coarser resolution than another; each such row also reports its verdict at "
    "+- 3 % (other_resolutions), so a verdict that depends on the resolution shows it"
)
