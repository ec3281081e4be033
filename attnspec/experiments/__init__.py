"""Per-figure computations: compose models, spectra and theory into the numbers a figure shows.

Each module owns one figure family and returns plain arrays; the workflow's scripts do the I/O.
"""
