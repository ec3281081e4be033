"""attnspec: random-matrix spectra of softmax attention.

Library companion to three papers (ids as in the workflow's figures):
A — Hayase, Collins, Karakida, Gaussian equivalence for self-attention (arXiv 2510.06685);
B — Jerschow, bulk-edge sticking beyond the Perron mode (arXiv 2609.23949);
C — spectral degeneration of self-attention under isotropic score geometry (arXiv 2611.02778).

Subpackages: ``models`` (samplers, softmax), ``spectra`` (singular values), ``theory``
(limit laws and edges), ``plotting`` (figure style). The maths does no file I/O.
"""

__version__ = "0.2.0"
