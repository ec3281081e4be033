"""Random attention models (papers A, B, C): sampling Q and K and Haar factors (``sampling``),
the row softmax (``softmax``), paper A's stepwise Gaussian-equivalent models
(``gaussian_equivalent``) and paper C's canonical and isotropic score models (``canonical``)."""
