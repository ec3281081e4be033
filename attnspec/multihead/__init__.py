"""Paper D: Gaussian equivalence for multi-head self-attention (Hayase, Karakida; 2610.10033).

``shapes`` (dimensions and K/V sharing), ``sampling`` (seeded weights, fast or through the
literal X), ``output`` (MHA_perp and the same-weights Gaussian equivalent MHA^G), ``spectra``
(all n eigenvalues of MHA_perp MHA_perp^T and of n^{-1} MHA^G MHA^G^T), ``metrics`` (relative W1,
KS; their Student-t intervals are :func:`attnspec.intervals.student_t_interval`), and the limit
laws: ``law_independent`` (untied K/V, independent or shared across heads), ``law_tied`` (K = V
within heads), ``limit`` (the law of a shape), built on ``law_base``, ``series``,
``continuation`` and ``support``. Paper D's simulations, evidence, summaries and drawing live in
its room, :mod:`attnspec.papers.d`.
"""

from attnspec.multihead.law_independent import MultiHeadLaw
from attnspec.multihead.law_tied import TiedKeyValueLaw
from attnspec.multihead.limit import limit_law, limit_mean
from attnspec.multihead.metrics import (
    kolmogorov_to_law,
    kolmogorov_two_sample,
    relative_wasserstein,
)
from attnspec.multihead.output import attention_output, gaussian_equivalent_output
from attnspec.multihead.sampling import MultiHeadWeights, sample_weights
from attnspec.multihead.shapes import MultiHeadShape
from attnspec.multihead.spectra import comparison_spectra, draw_comparison_spectra, row_spectrum

__all__ = [
    "MultiHeadLaw",
    "MultiHeadShape",
    "MultiHeadWeights",
    "TiedKeyValueLaw",
    "attention_output",
    "comparison_spectra",
    "draw_comparison_spectra",
    "gaussian_equivalent_output",
    "kolmogorov_to_law",
    "kolmogorov_two_sample",
    "limit_law",
    "limit_mean",
    "relative_wasserstein",
    "row_spectrum",
    "sample_weights",
]
