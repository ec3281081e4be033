"""Paper D (Hayase, Karakida; arXiv 2610.10033): Gaussian equivalence for multi-head attention."""
