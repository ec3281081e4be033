"""Singular values of attention matrices: all of them from the Gram matrix (``dense``), the
leading ones by block Lanczos (``lanczos``), and the localisation of vectors (``localisation``)."""
