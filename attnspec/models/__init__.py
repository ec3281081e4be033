"""Random attention models (papers A, B, C): sampling Q and K, the row softmax, and paper A's
stepwise Gaussian-equivalent models (``sampling``, ``softmax``, ``gaussian_equivalent``)."""
