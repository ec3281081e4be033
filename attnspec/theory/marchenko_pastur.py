"""Marchenko–Pastur laws: the Stieltjes transform of MP_c and the iid-scores surrogate.

MP_c is the mean-one Marchenko–Pastur law of ratio c > 0: density
sqrt((l+ - y)(y - l-)) / (2 pi c y) on [l-, l+] = [(1 - sqrt c)^2, (1 + sqrt c)^2], plus an atom
of mass 1 - 1/c at 0 when c > 1. It enters nu_inf through the population law rho = a + b MP_c
(paper A section 2). The surrogate 4 theta1-edge law is the one paper A refutes.
"""

import numpy as np
from numpy.typing import ArrayLike, NDArray

from attnspec.theory.constants import nonlinearity_coefficients
from attnspec.theory.law import LimitLaw
from attnspec.validation import (
    check_betas,
    check_finite_complex_array,
    check_levels,
    check_parameters,
    check_ratio,
    check_real,
    check_real_array,
)

_BISECTION_STEPS = 64


_FAR = 1e100  # |w| beyond which G_MP(w) = 1/w (1 + 1/w + ...) is 1/w to double precision


def _stieltjes(w: NDArray[np.complex128], c: float) -> NDArray[np.complex128]:
    """G_MP(w) without checks (nan or inf at the pole w = 0 when c >= 1); 1/w for |w| > 1e100."""
    lower, upper = (1.0 - np.sqrt(c)) ** 2, (1.0 + np.sqrt(c)) ** 2
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        root = np.sqrt(w - lower) * np.sqrt(w - upper)
        plus, minus = (w + (c - 1.0)) + root, (w + (c - 1.0)) - root
        # Equal forms 2 / plus = minus / (2 c w); take the one free of cancellation.
        near = np.where(np.abs(plus) >= np.abs(minus), 2.0 / plus, minus / (2.0 * c * w))
        return np.where(np.abs(w) > _FAR, 1.0 / w, near)


def marchenko_pastur_stieltjes(w: ArrayLike, ratio: float) -> NDArray[np.complex128]:
    """Stieltjes transform G(w) = E[1/(w - y)] of MP_c (mean one, ratio c).

    G solves c w G^2 - (w + c - 1) G + 1 = 0 and is evaluated as
    G = 2 / ((w + c - 1) + S) = ((w + c - 1) - S) / (2 c w), S = sqrt(w - l-) sqrt(w - l+) with
    principal square roots: the branch with G ~ 1/w at infinity, analytic off [l-, l+] (and off
    0 when c > 1, where the atom 1 - 1/c gives a pole). Of the two forms the one without
    cancellation is used. On the cut, real w gives the boundary value from above, Im G <= 0.

    Parameters
    ----------
    w : array_like
        Finite points of the complex plane (real input is promoted to complex), not w = 0 when
        c >= 1 (the pole of the atom at c > 1; E[1/y] diverges at c = 1).
    ratio : float
        c in [1e-8, 1e8].

    Returns
    -------
    ndarray of complex128, same shape as ``w``.

    Raises
    ------
    ValueError
        If ratio is out of range, or w has NaN, inf or the pole w = 0 (c >= 1).
    """
    c = check_ratio(ratio)
    w = check_finite_complex_array(w, "w")
    if c >= 1 and np.any(w == 0):
        raise ValueError("w = 0 is a pole of G_MP for c >= 1 (atom at 0, or E[1/y] = inf at c = 1)")
    return _stieltjes(w, c)


class MarchenkoPastur(LimitLaw):
    """Law of shift + scale * y with y ~ MP_c (mean-one Marchenko–Pastur of ratio c).

    Continuous part on [shift + scale l-, shift + scale l+] with density
    sqrt((l+ - y)(y - l-)) / (2 pi c scale y), y = (x - shift) / scale, and an atom of mass
    1 - 1/c at ``shift`` when c > 1. Mean shift + scale; second moment
    (shift + scale)^2 + c scale^2.

    Parameters
    ----------
    ratio : float
        c in [1e-8, 1e8].
    scale : float
        Dilation, finite and > 0.
    shift : float
        Translation (the position of the atom when c > 1), finite; shift + scale (1 + sqrt c)^2
        must be finite too.

    Raises
    ------
    ValueError
        If a parameter is outside its range. Methods take real x (NaN raises ValueError),
        q in [0, 1], finite w (not the pole w = shift when c >= 1).
    """

    def __init__(self, ratio: float = 1.0, scale: float = 1.0, shift: float = 0.0):
        self.ratio = check_ratio(ratio)
        self.scale = check_real(scale, "scale")
        self.shift = check_real(shift, "shift")
        if not (np.isfinite(self.scale) and self.scale > 0):
            raise ValueError(f"scale must be finite and > 0, got {scale!r}")
        if not np.isfinite(self.shift):
            raise ValueError(f"shift must be finite, got {shift!r}")
        root_c = np.sqrt(self.ratio)
        self._lower = (1.0 - root_c) ** 2
        self._upper = (1.0 + root_c) ** 2
        self.atom = max(0.0, 1.0 - 1.0 / self.ratio)
        if not np.isfinite(self.edge):
            raise ValueError(
                f"scale and shift: the right edge shift + scale (1 + sqrt c)^2 overflows float64 "
                f"(scale={scale!r}, shift={shift!r}, c={ratio!r})"
            )

    @property
    def edge(self) -> float:
        """Right edge shift + scale (1 + sqrt c)^2."""
        with np.errstate(over="ignore"):
            return float(np.float64(self.shift) + np.float64(self.scale) * self._upper)

    @property
    def mean(self) -> float:
        """First moment shift + scale."""
        return self.shift + self.scale

    @property
    def second_moment(self) -> float:
        """Second moment (shift + scale)^2 + c scale^2 (ValueError if it overflows float64)."""
        shift, scale = np.float64(self.shift), np.float64(self.scale)
        with np.errstate(over="ignore"):
            value = float((shift + scale) ** 2 + self.ratio * scale**2)
        if not np.isfinite(value):
            raise ValueError(
                f"the second moment overflows float64 (scale = {self.scale:g}, shift = "
                f"{self.shift:g}); supported: (|shift| + scale) (1 + sqrt c) < ~1e154"
            )
        return value

    def support(self) -> list[tuple[float, float]]:
        """Support of the continuous part, [(shift + scale l-, shift + scale l+)]."""
        return [(self.shift + self.scale * self._lower, self.edge)]

    def stieltjes(self, w: ArrayLike) -> NDArray[np.complex128]:
        """G(w) = E[1/(w - x)] = G_MP((w - shift) / scale) / scale (branch as in G_MP)."""
        w = check_finite_complex_array(w, "w")
        if self.atom > 0 and np.any(w == self.shift):
            raise ValueError(f"w = shift = {self.shift:g} is the pole of the atom (c > 1)")
        distance = w - self.shift
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            value = _stieltjes(distance / self.scale, self.ratio) / self.scale
            # Far from the support (|w - shift| > 1e100 scale) G(w) = 1/(w - shift).
            value = np.where(np.abs(distance) > _FAR * self.scale, 1.0 / distance, value)
        if not np.all(np.isfinite(value)):
            raise ValueError("w = shift is a singular point of G (c = 1: E[1/(x - shift)] = inf)")
        return value

    def density(self, x: ArrayLike) -> NDArray[np.float64]:
        """Density of the continuous part (the atom is excluded); zero off the support.

        Vectorised over real x (+-inf allowed, NaN raises ValueError).
        """
        with np.errstate(over="ignore"):
            y = (check_real_array(x, "x") - self.shift) / self.scale
        inside = (y > self._lower) & (y < self._upper)
        ys = np.where(inside, y, 0.5 * (self._lower + self._upper))
        value = np.sqrt((self._upper - ys) * (ys - self._lower)) / (2 * np.pi * self.ratio * ys)
        return np.where(inside, value / self.scale, 0.0)

    def _continuous_cdf(self, phi: NDArray[np.float64]) -> NDArray[np.float64]:
        """Mass of the continuous part below y = 1 + c - 2 sqrt(c) cos(phi), phi in [0, pi].

        With that substitution the density becomes (2/pi) sin^2 phi / (1 + c - 2 sqrt c cos phi),
        whose primitive is (2/pi) [sin(phi)/(2 sqrt c) + (1 + c) phi / (4c)
        - |1 - c| / (2c) arctan((1 + sqrt c) tan(phi/2) / |1 - sqrt c|)]; it ends at min(1, 1/c).
        """
        c = self.ratio
        root_c = np.sqrt(c)
        arc = np.arctan2((1 + root_c) * np.sin(phi / 2), abs(1 - root_c) * np.cos(phi / 2))
        return (2 / np.pi) * (
            np.sin(phi) / (2 * root_c) + (1 + c) * phi / (4 * c) - abs(1 - c) / (2 * c) * arc
        )

    def _phi(self, y: NDArray[np.float64]) -> NDArray[np.float64]:
        cos_phi = (1 + self.ratio - y) / (2 * np.sqrt(self.ratio))
        return np.arccos(np.clip(cos_phi, -1.0, 1.0))

    def cdf(self, x: ArrayLike) -> NDArray[np.float64]:
        """P(X <= x) in closed form (atom included at ``shift``); real x, NaN raises ValueError."""
        with np.errstate(over="ignore"):
            y = (check_real_array(x, "x") - self.shift) / self.scale
        atom = np.where(y >= 0, self.atom, 0.0)
        return np.clip(atom + self._continuous_cdf(self._phi(y)), 0.0, 1.0)

    def quantile(self, q: ArrayLike) -> NDArray[np.float64]:
        """inf{x : cdf(x) >= q} by vectorised bisection in phi; q must lie in [0, 1]."""
        q = check_levels(q)
        target = q - self.atom
        lo = np.zeros_like(q)
        hi = np.full_like(q, np.pi)
        for _ in range(_BISECTION_STEPS):
            mid = 0.5 * (lo + hi)
            below = self._continuous_cdf(mid) < target
            lo = np.where(below, mid, lo)
            hi = np.where(below, hi, mid)
        y = 1 + self.ratio - 2 * np.sqrt(self.ratio) * np.cos(hi)
        y = np.where(target <= 0, 0.0 if self.atom > 0 else self._lower, y)
        return self.shift + self.scale * y


class MarchenkoPasturSurrogate(MarchenkoPastur):
    """The "iid scores" surrogate theta1 * MP_1 that paper A refutes (section 2 of papers.md).

    Density sqrt(x (4 theta1 - x)) / (2 pi theta1 x) on [0, 4 theta1], theta1 = e^{beta^2} - 1;
    cdf (2 phi + sin 2 phi) / pi with sin^2 phi = x / (4 theta1). Mean theta1, second moment
    2 theta1^2, edge 4 theta1 (used by Nait Saada, Naderi, Tanner, ICML 2025).

    Parameters
    ----------
    beta : float
        Inverse temperature, in [1e-150, 26.6] (beta = 0 would be a point mass at 0);
        ValueError otherwise.
    """

    def __init__(self, beta: float):
        self.beta, _ = check_parameters(beta)
        super().__init__(ratio=1.0, scale=nonlinearity_coefficients(self.beta).theta1)


def mp_edge(beta: ArrayLike) -> float | NDArray[np.float64]:
    """Edge 4 theta1 = 4 (e^{beta^2} - 1) of the MP surrogate (paper A); 0 at beta = 0.

    Vectorised over ``beta``, each 0 or in [1e-150, 26.6] (above 26.6 the edge overflows
    float64), else ValueError; returns a float for scalar input.
    """
    beta = check_betas(beta, allow_zero=True)
    edge = 4.0 * np.expm1(beta * beta)
    return float(edge) if edge.ndim == 0 else edge
