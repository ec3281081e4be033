"""attnspec: random-matrix spectra of softmax attention.

Library companion to three papers and a fourth (ids as in the workflow's figures):
A — Hayase, Collins, Karakida, Gaussian equivalence for self-attention (arXiv 2510.06685);
B — Jerschow, bulk-edge sticking beyond the Perron mode (arXiv 2609.23949);
C — spectral degeneration of self-attention under isotropic score geometry (arXiv 2611.02778);
D — Hayase, Karakida, Gaussian equivalence for multi-head self-attention (arXiv 2610.10033).

Subpackages: ``models`` (samplers, softmax), ``spectra`` (singular values), ``theory``
(limit laws and edges), ``multihead`` (paper D: multi-head layers, their Gaussian equivalent and
limit laws), ``plotting`` (figure style). The maths does no file I/O.
"""

__version__ = "0.2.0"
