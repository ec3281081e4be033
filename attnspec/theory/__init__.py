"""Free-probability limit laws and edges for random softmax attention (papers A and B).

nu_inf = rho ⊠ MP_1 with rho = a + b MP_c is the limit law of the squared singular values of
sqrt(ell) A^perp (paper A); :class:`NuInfinity` computes it from the subordination quartic,
:class:`SymmetrisedLinearModel` independently from the R-transform of Y_lin. :func:`bulk_edge`
gives its right edge x_+ (paper B's scalar formula), :class:`MarchenkoPasturSurrogate` the
iid-scores law paper A refutes, :func:`finite_deformed_mp_edge` paper B's finite edge,
:func:`population_law` the law of paper B's conditional covariance, and :func:`edge_small_beta`,
:func:`edge_large_beta` the asymptotics of x_+ (``asymptotics``). Every law class (these,
:class:`attnspec.theory.marchenko_pastur.MarchenkoPastur` and paper D's multi-head laws) is a
:class:`LimitLaw`: density, cdf, quantile, support, edge, atom, mean, second_moment.

Every function returns a correct finite value or raises ValueError naming the argument and its
supported range: beta in [1e-150, 26.6] (0 where the degenerate law makes sense; [1e-6, 26.6]
for the densities), c = ell / d_qk in [1e-8, 1e8] (:mod:`attnspec.validation`). Importing
the package loads numpy only; scipy.optimize is imported by the functions that solve for a root.
"""

from attnspec.theory.asymptotics import edge_large_beta, edge_small_beta
from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.theory.deformed_mp import finite_deformed_mp_edge
from attnspec.theory.edge import bulk_edge
from attnspec.theory.law import LimitLaw
from attnspec.theory.marchenko_pastur import MarchenkoPasturSurrogate, mp_edge
from attnspec.theory.nu_infinity import NuInfinity, bulk_density
from attnspec.theory.population import population_law
from attnspec.theory.r_transform import SymmetrisedLinearModel

__all__ = [
    "LimitLaw",
    "MarchenkoPasturSurrogate",
    "NuInfinity",
    "SymmetrisedLinearModel",
    "bulk_density",
    "bulk_edge",
    "edge_large_beta",
    "edge_small_beta",
    "finite_deformed_mp_edge",
    "mp_edge",
    "nonlinearity_coefficients",
    "population_law",
]
