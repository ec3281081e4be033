"""Figure B4 layout: x_+ over (beta, c) from the scalar formula, and the square-model branches.

(a) x_+(beta) for every c (log scale) with the R-transform edge (crosses), 4 theta_1, the
simulated ell s_2(A)^2 (median; 10-90 % bars from at least 10 draws) and the top s_1(Y_lin)^2
of the Gaussian model (median, diamonds) at the largest ell of each (c, beta), and the verdict
labels of rows B.4/c=<c> (from the judged claims table);
(b) the same divided by theta_1 = e^{beta^2} - 1 (-> 4 as beta -> infinity);
(c) the three roots g of the square-model cubic a g (1 - g)^2 + b (3g - 1) = 0 against beta,
physical root marked; (d) the candidate edge b (r + w)^2 g at each root.
"""

from collections.abc import Iterator, Mapping

import numpy as np
from matplotlib import colormaps
from matplotlib.ticker import FixedLocator, FormatStrFormatter, NullFormatter

from attnspec.plotting.style import (
    REFERENCE_COLOUR,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    apply_style,
    new_figure,
)

EDGE_FORMULA_PLOTTED_HEADER = ("panel", "series", "c", "beta", "value")
OTHER_BRANCH_COLOUR = REFERENCE_COLOUR


def ratio_colours(ratios) -> list:
    """One colour per c, from the viridis map (dark = small c)."""
    cmap = colormaps["viridis"]
    n = len(ratios)
    return [cmap(0.85 * i / max(n - 1, 1)) for i in range(n)]


def _other_branches(branches: Mapping, key: str) -> np.ndarray:
    """The two non-physical entries of ``branches[key]`` per beta, shape (B, 2)."""
    values = branches[key]
    keep = np.ones(values.shape, dtype=bool)
    keep[np.arange(values.shape[0]), branches["physical_index"]] = False
    return values[keep].reshape(values.shape[0], 2)


def _physical(branches: Mapping, key: str) -> np.ndarray:
    values = branches[key]
    return values[np.arange(values.shape[0]), branches["physical_index"]].real


def _theta1(beta) -> np.ndarray:
    """theta_1 = e^{beta^2} - 1."""
    return np.expm1(np.asarray(beta, dtype=np.float64) ** 2)


def _unscaled(beta) -> np.ndarray:
    return np.ones(np.shape(beta))


def _points(ax, points: Mapping, c: float, colour, scale) -> None:
    """Simulated medians at one c (10-90 % bars where they exist: at least 10 draws) and the
    Gaussian model's top value, each divided by ``scale(beta)``."""
    mine = points["c"] == c
    if not np.any(mine):
        return
    beta = points["beta"][mine]
    factor = scale(beta)
    ax.plot(
        beta,
        points["median_Y_lin_top"][mine] / factor,
        ls="none",
        marker="D",
        ms=3,
        color=colour,
        zorder=6,
    )
    median = points["median_ell_s2sq"][mine] / factor
    low = np.nan_to_num(median - points["q10"][mine] / factor)
    high = np.nan_to_num(points["q90"][mine] / factor - median)
    ax.errorbar(
        beta,
        median,
        yerr=[low, high],
        ls="none",
        marker="o",
        ms=4.5,
        mfc="white",
        mew=1.1,
        color=colour,
        capsize=2.5,
        lw=1.0,
        zorder=5,
    )


def plot_edge_formulas(
    curves: Mapping, markers: Mapping, branches: Mapping, points: Mapping, labels=()
):
    """Figure B4 from :func:`attnspec.experiments.edge_formulas.edge_curves`,
    ``r_transform_points``, ``square_cubic_branches`` and ``largest_ell_points``; ``labels``:
    the verdict labels of rows B.4/c=<c>, printed in panel (a)."""
    apply_style()
    figure, axes = new_figure(2, 2, width=9.0, height=7.0)
    (edge_ax, scaled_ax), (roots_ax, candidates_ax) = axes
    beta = curves["beta"]
    theta1 = curves["theta1"]
    colours = ratio_colours(curves["ratio"])
    for i, (c, colour) in enumerate(zip(curves["ratio"], colours, strict=True)):
        label = f"$c={c:g}$"
        edge_ax.plot(beta, curves["x_plus"][i], color=colour, lw=1.4, label=label)
        scaled_ax.plot(beta, curves["x_plus"][i] / theta1, color=colour, lw=1.4, label=label)
        j = int(np.flatnonzero(markers["ratio"] == c)[0])
        edge_ax.plot(
            markers["beta"], markers["x_plus"][j], ls="none", marker="x", ms=4, color=colour
        )
        scaled_ax.plot(
            markers["beta"],
            markers["x_plus"][j] / _theta1(markers["beta"]),
            ls="none",
            marker="x",
            ms=4,
            color=colour,
        )
        _points(edge_ax, points, c, colour, _unscaled)
        _points(scaled_ax, points, c, colour, _theta1)
    edge_ax.plot(
        beta, curves["mp_edge"], color=SURROGATE_COLOUR, lw=1.0, ls="--", label=r"$4\theta_1$"
    )
    scaled_ax.axhline(4.0, color=SURROGATE_COLOUR, lw=1.0, ls="--", label=r"$4$ (MP surrogate)")
    edge_ax.plot([], [], ls="none", marker="x", color="0.2", label="R-transform edge $K(G^*)^2$")
    edge_ax.errorbar(
        [],
        [],
        yerr=[],
        ls="none",
        marker="o",
        mfc="white",
        color="0.2",
        capsize=2.5,
        label=r"simulated $\ell s_2(A)^2$: median (10–90 % from $\geq 10$ draws)",
    )
    edge_ax.plot(
        [], [], ls="none", marker="D", ms=3, color="0.2", label=r"simulated $s_1(Y_{lin})^2$"
    )
    if labels:
        edge_ax.text(
            0.98, 0.03, "\n".join(labels), transform=edge_ax.transAxes, ha="right",
            va="bottom", fontsize=6,
        )  # fmt: skip
    edge_ax.set_yscale("log")
    edge_ax.set_ylabel(r"right edge $x_+$")
    edge_ax.set_title(r"(a) $x_+(\beta, c)$ from the scalar formula")
    edge_ax.legend(frameon=False, fontsize=6.5, loc="upper left")
    # Log scale: the excursions of the simulated points (large at beta >= 1.5) stay in view
    # without flattening the theory curves.
    scaled_ax.set_yscale("log")
    scaled_ax.yaxis.set_major_locator(FixedLocator([3, 4, 5, 6, 8, 10, 15, 20, 30, 50, 100]))
    scaled_ax.yaxis.set_major_formatter(FormatStrFormatter("%g"))
    scaled_ax.yaxis.set_minor_formatter(NullFormatter())
    scaled_ax.set_ylabel(r"$x_+ / \theta_1$,  $\theta_1 = e^{\beta^2} - 1$ (log scale)")
    scaled_ax.set_title(r"(b) $x_+/\theta_1$ (points: largest $\ell$ of each $(c, \beta)$)")
    scaled_ax.legend(frameon=False, fontsize=6.5, loc="upper right", ncols=2)

    square_beta = branches["beta"]
    physical_root = _physical(branches, "roots")
    other_roots = _other_branches(branches, "roots")
    roots_ax.plot(
        square_beta,
        physical_root,
        color=THEORY_COLOUR,
        lw=2.0,
        label="physical root (real, in $(0, 1/3)$)",
    )
    roots_ax.plot(
        square_beta,
        other_roots[:, 0].real,
        color=OTHER_BRANCH_COLOUR,
        lw=1.1,
        label=r"other roots: Re $g$",
    )
    roots_ax.plot(
        square_beta,
        np.abs(other_roots.imag).max(axis=1),
        color=OTHER_BRANCH_COLOUR,
        lw=1.1,
        ls="--",
        label=r"other roots: $|\mathrm{Im}\, g|$ (complex pair)",
    )
    roots_ax.set_yscale("log")
    low, high = roots_ax.get_ylim()
    roots_ax.axhspan(low, 1 / 3, color=THEORY_COLOUR, alpha=0.07, lw=0)
    roots_ax.axhline(1 / 3, color=THEORY_COLOUR, lw=0.6, ls=":")
    roots_ax.text(square_beta[-1], 1 / 3, r"$g = 1/3$", ha="right", va="bottom", fontsize=6.5)
    roots_ax.set_ylim(low, high)
    roots_ax.set_ylabel(r"root $g$")
    roots_ax.set_title(r"(c) square model $c=1$: roots of $a g (1-g)^2 + b(3g-1)$")
    roots_ax.legend(frameon=False, fontsize=6.5, loc="lower left")

    other_edges = _other_branches(branches, "edges")
    candidates_ax.plot(
        square_beta,
        _physical(branches, "edges"),
        color=THEORY_COLOUR,
        lw=2.0,
        label=r"physical root: $x_+$",
    )
    candidates_ax.plot(
        square_beta,
        np.abs(other_edges[:, 0].real),
        color=OTHER_BRANCH_COLOUR,
        lw=1.1,
        label=r"other roots: $|\mathrm{Re}\, x|$",
    )
    candidates_ax.plot(
        square_beta,
        np.abs(other_edges.imag).max(axis=1),
        color=OTHER_BRANCH_COLOUR,
        lw=1.1,
        ls="--",
        label=r"other roots: $|\mathrm{Im}\, x|$ (not real: no edge)",
    )
    candidates_ax.set_yscale("log")
    candidates_ax.set_ylabel(r"candidate edge $x = b (r + w)^2 g$")
    candidates_ax.set_title(r"(d) candidate edges of the three branches ($c=1$)")
    candidates_ax.legend(frameon=False, fontsize=6.5, loc="upper left")
    for ax in axes.ravel():
        ax.set_xlabel(r"inverse temperature $\beta$")
    figure.suptitle(
        "Paper B, scalar edge formula across the proportional regime and its square-model branches",
        fontsize=9,
    )
    return figure


def edge_formula_plotted_rows(
    curves: Mapping, markers: Mapping, branches: Mapping, points: Mapping
) -> Iterator[tuple]:
    """Every number drawn in :func:`plot_edge_formulas`: rows (panel, series, c, beta, value).

    Panels ``x_plus`` and ``x_plus_over_theta1`` (curves, R-transform crosses, simulated
    median/q10/q90), ``square_roots`` and ``square_candidate_edges`` (c = 1).
    """
    for i, c in enumerate(curves["ratio"]):
        for b, x, t in zip(curves["beta"], curves["x_plus"][i], curves["theta1"], strict=True):
            yield ("x_plus", "scalar_formula", c, b, x)
            yield ("x_plus_over_theta1", "scalar_formula", c, b, x / t)
    for b, x in zip(curves["beta"], curves["mp_edge"], strict=True):
        yield ("x_plus", "mp_edge_4theta1", "", b, x)
    for j, c in enumerate(markers["ratio"]):
        for b, x in zip(markers["beta"], markers["x_plus"][j], strict=True):
            yield ("x_plus", "r_transform", c, b, x)
            yield ("x_plus_over_theta1", "r_transform", c, b, x / _theta1(b))
    for key, series in (
        ("median_ell_s2sq", "simulated_median"),
        ("q10", "simulated_q10"),
        ("q90", "simulated_q90"),
        ("median_Y_lin_top", "simulated_Y_lin_median"),
    ):
        for c, b, x in zip(points["c"], points["beta"], points[key], strict=True):
            if np.isfinite(x):
                yield ("x_plus", series, c, b, x)
                yield ("x_plus_over_theta1", series, c, b, x / _theta1(b))
    physical = {"roots": _physical(branches, "roots"), "edges": _physical(branches, "edges")}
    others = {
        "roots": _other_branches(branches, "roots"),
        "edges": _other_branches(branches, "edges"),
    }
    for key, panel in (("roots", "square_roots"), ("edges", "square_candidate_edges")):
        for i, b in enumerate(branches["beta"]):
            yield (panel, "physical", 1.0, b, physical[key][i])
            yield (panel, "other_abs_real", 1.0, b, abs(others[key][i, 0].real))
            yield (panel, "other_abs_imag", 1.0, b, float(np.abs(others[key][i].imag).max()))
