"""One room per paper: each paper's simulations, evidence, tidy tables, drawing and declared tests.

``a`` (Gaussian equivalence), ``b`` (bulk-edge sticking), ``c`` (spectral degeneration) and ``d``
(multi-head attention) each hold what the workflow computes for that paper's figures and tables;
the reusable maths they call is the library (:mod:`attnspec.theory`, :mod:`attnspec.models`,
:mod:`attnspec.spectra`, :mod:`attnspec.multihead`, :mod:`attnspec.pretrained`). What the rooms
share sits here: ``spectra`` (seeded spectra of a keyed draw), ``draw_batches`` (many draws in
one job), ``progress`` (timing of progress records), ``declared_texts`` (texts several papers'
declared tests use) and ``registry`` (the four papers' declared tests, gathered).
"""
