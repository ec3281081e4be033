"""The claims engine: each claim's verdict from a test declared before the data.

``catalogue`` (the papers' claims and the figures that show them), ``declared`` (what a declared
test is; each paper's tests are in ``attnspec/papers/<paper>/declared_tests.py``), ``evidence`` (the
samples a row is judged on and its statistics), ``finite_size`` (a row's extrapolated limit),
``verdicts`` (the one decision rule, power against the named alternatives, stability) and
``dashboard`` (the verdict tables and pages).
"""
