"""Paper B (Jerschow): bulk-edge sticking, the conditional covariance and the scalar edge
formula."""
