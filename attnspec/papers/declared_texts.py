"""Texts shared by the declared tests of several papers (attnspec/papers/<paper>/declared_tests.py):
the subject of attention draws, the betas judged, and the stop that re-declared the tests."""

ATTENTION = "softmax attention draws (Gaussian Q, K; papers.md section 1)"
BETA_JUDGED = "beta <= 1 only: at beta >= 1.5 the limit is out of reach of any affordable ell"
THIS_STOP = "stop 25 (issue 19, tests re-declared after the referee's mutation test)"
