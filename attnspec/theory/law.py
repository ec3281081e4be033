"""The common face of the limit laws (scipy.stats-like verbs), so code can take any of them.

A law nu on the real line is a continuous part with density p on finitely many intervals plus
at most one atom: F(x) = atom [x >= atom's position] + int_{-inf}^x p, and F(edge) = 1.
"""

from abc import ABC, abstractmethod

from numpy.typing import ArrayLike, NDArray


class LimitLaw(ABC):
    """A limit law: density, cdf, quantile, support, its right edge, atom and two moments.

    Every law sets ``edge``, ``mean`` and ``second_moment`` (as instance attributes or
    properties: the base class declares them only) and ``atom`` if it has one.
    """

    edge: float
    """Right end of the support (the last interval of :meth:`support` ends there)."""
    atom: float = 0.0
    """Mass of the law's point mass (at 0, or where the law's docstring says); 0.0 if none."""
    mean: float
    """First moment m_1."""
    second_moment: float
    """Second moment m_2."""

    @abstractmethod
    def density(self, x: ArrayLike) -> NDArray:
        """Density of the continuous part at real x (0 off the support)."""

    @abstractmethod
    def cdf(self, x: ArrayLike) -> NDArray:
        """F(x) = P(X <= x), atom included."""

    @abstractmethod
    def quantile(self, q: ArrayLike) -> NDArray:
        """inf{x : F(x) >= q} for q in [0, 1]."""

    @abstractmethod
    def support(self) -> list[tuple[float, float]]:
        """Disjoint increasing intervals (low, high) of the continuous part, the last ending at
        ``edge``."""

    def stieltjes(self, w: ArrayLike) -> NDArray:
        """G(w) = E[1 / (w - X)]; a law without a closed form raises NotImplementedError."""
        raise NotImplementedError(
            f"{type(self).__name__} has no Stieltjes transform in closed form"
        )
