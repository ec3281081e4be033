"""The claims engine: each claim's verdict from a test declared before the data.

``catalogue`` (the papers' claims and the figures that show them), ``declared`` (what a declared
test is; each paper's tests are in ``attnspec/papers/<paper>/declared_tests.py``), ``evidence`` (the
samples a row is judged on and its statistics), ``finite_size`` (a row's extrapolated limit),
``preregistration`` (the declared tests as a referee reads them before any data), the engine:
``engine`` (``judge``: a declared test and its evidence to a judgement), ``rule`` (the one
decision rule and the power rule), ``resampling`` (the intervals), ``stability``, ``power``
(against the named alternatives), ``rows`` (judged rows as the tables print them), ``verdict``
(the four verdicts), and ``dashboard`` (the verdict tables and pages).
"""
