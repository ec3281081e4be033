"""Figure A8 (theory only), drawn from its tidy table
(:func:`attnspec.papers.a.limit_law_plotted.limit_law_plotted_table`), two columns wide,
everything in units of theta_1 (t = x / theta_1, density theta_1 p(theta_1 t)), so that the MP
surrogate is MP_1 in every panel:

- top row, one panel per beta (c = 1): nu_inf (theory colour, solid) against the surrogate
  (MP-surrogate colour, dashed), each edge dotted in its colour, densities on a log axis;
  one legend below the row;
- bottom row: (f) nu_inf across c at one beta (the sequential c map) with the surrogate, its
  legend inside at the top right, where no curve runs;
  (g) x_+ / theta_1 against 4 with both expansions of x_+ over theta_1 (expansion colour) and
  the beta -> 0 limit 27/4, a right axis in x_+ / (4 theta_1); (h) three measures of how far
  nu_inf is from the surrogate on a log axis, each 0 for the surrogate itself. (g) and (h) have
  their legends below them.

One colour per meaning; the beta panels are small multiples rather than one panel of beta
colours, because five (or three) shades of the shared beta map lie closer than the layering
check's Delta E of 20.
"""

import pandas as pd
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from attnspec.plotting.style import (
    COLOURS,
    LINE_STYLES,
    SURROGATE_COLOUR,
    THEORY_COLOUR,
    TWO_COLUMNS,
    label_panels,
    log_axis,
    new_canvas,
    sequential_colours,
)

ALTERNATIVE, EDGE = LINE_STYLES["alternative or quantile"], LINE_STYLES["edge or threshold"]
LAW_STYLE = {"color": THEORY_COLOUR, "lw": 1.3}
SURROGATE_STYLE = {"color": SURROGATE_COLOUR, "lw": 1.1, "ls": ALTERNATIVE}
LAW_EDGE_STYLE = {"color": THEORY_COLOUR, "lw": 0.9, "ls": EDGE}
SURROGATE_EDGE_STYLE = {"color": SURROGATE_COLOUR, "lw": 0.9, "ls": EDGE}
FUSS_CATALAN_EDGE = 27 / 4
"""x_+ / theta_1 -> 27/4 as beta -> 0: the Fuss–Catalan edge of a product of two Ginibre
matrices."""
EDGE_RANGE = (3.6, 7.2)
"""Panel (g)'s y range (x_+ / theta_1 runs from 27/4 to 4); each expansion is drawn where it
lies in it."""
LIMIT_STYLE = {"color": COLOURS["expansion"], "lw": 0.7, "ls": (0, (1, 3))}
DENSITY_RANGE = (1e-3, 5.0)
"""The density panels' log y range (theta_1 p): both laws diverge like x^{-1/2} at 0 and vanish
like a square root at their edges, where the log scale shows the tail of nu_inf beyond 4."""

# (series, label, style) of panel (g): x_+ and the surrogate's edge solid (as in figure A4),
# the two expansions in the expansion colour, told apart by their dashes.
EDGE_CURVES = (
    ("x_plus", r"$x_+/\theta_1$, edge of $\nu_\infty$", {"color": THEORY_COLOUR, "lw": 1.4}),
    ("mp_edge", r"$4$, MP surrogate's edge", {"color": SURROGATE_COLOUR, "lw": 1.2}),
    (
        "small_beta",
        r"small $\beta$: "
        r"$(\frac{27}{4}\beta^2 + \frac{3}{2}\beta^4 + \frac{5}{9}\beta^6)/\theta_1$",
        {"color": COLOURS["expansion"], "lw": 1.0, "ls": "--"},
    ),
    (
        "large_beta",
        r"large $\beta$: $4 + 4\beta^4/(a\,\theta_1)$",
        {"color": COLOURS["expansion"], "lw": 1.0, "ls": "-."},
    ),
)
# (series, label, style) of panel (h): three measures of nu_inf's distance from the surrogate.
DIFFERENCE_CURVES = (
    (
        "kolmogorov_distance",
        r"Kolmogorov $\sup_x |F_{\nu_\infty} - F_{\mathrm{MP}}|$",
        {"color": THEORY_COLOUR, "lw": 1.3},
    ),
    (
        "mass_above_mp_edge",
        r"mass of $\nu_\infty$ above $4\theta_1$",
        {"color": THEORY_COLOUR, "lw": 1.1, "ls": "--"},
    ),
    (
        "second_moment_excess",
        r"$m_2/m_1^2 - 2 = \beta^4/\theta_1^2$",
        {"color": THEORY_COLOUR, "lw": 1.1, "ls": "-."},
    ),
)


def _rows(frame: pd.DataFrame, sweep: str, series: str) -> pd.DataFrame:
    return frame[(frame["sweep"] == sweep) & (frame["series"] == series)]


def _below(ax, handles, labels, ncols: int = 1) -> None:
    """The panel's own legend, under its x label."""
    ax.legend(
        handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=ncols,
        frameon=False, handlelength=2.2, columnspacing=1.0,
    )  # fmt: skip


def _beta_panels(axes, frame: pd.DataFrame) -> None:
    """One panel per beta of the ``betas`` sweep: nu_inf and the surrogate with their edges."""
    for ax, (beta, rows) in zip(
        axes, frame[frame["sweep"] == "betas"].groupby("beta"), strict=True
    ):
        law = rows[rows["series"] == "nu_inf_density"]
        surrogate = rows[rows["series"] == "mp_density"]
        ax.plot(law["x_over_theta1"], law["theta1_density"], **LAW_STYLE)
        ax.plot(surrogate["x_over_theta1"], surrogate["theta1_density"], **SURROGATE_STYLE)
        for series, style in (("mp_edge", SURROGATE_EDGE_STYLE), ("nu_inf_edge", LAW_EDGE_STYLE)):
            (edge,) = rows.loc[rows["series"] == series, "value_over_theta1"]
            ax.axvline(edge, **style)
        ax.set_title(rf"$\beta = {beta:g}$, $c = 1$")
        ax.set_xlabel(r"$x/\theta_1$")
    axes[0].set_ylabel(r"$\theta_1 \times$ density")
    log_axis(axes[0].yaxis)
    axes[0].set_ylim(*DENSITY_RANGE)
    axes[0].xaxis.set_major_locator(MaxNLocator(4, integer=True))


def _ratio_panel(ax, frame: pd.DataFrame) -> None:
    """nu_inf(beta, c) for every c of the ``ratios`` sweep, with the surrogate MP_1."""
    rows = _rows(frame, "ratios", "nu_inf_density")
    colours = sequential_colours("c", rows["c"])
    surrogate = _rows(frame, "betas", "mp_density")
    first = surrogate[surrogate["beta"] == surrogate["beta"].min()]
    handles, labels = [], []
    for ratio, curve in rows.groupby("c"):
        (line,) = ax.plot(
            curve["x_over_theta1"], curve["theta1_density"], color=colours[ratio], lw=1.1
        )
        handles.append(line)
        labels.append(f"$c = {ratio:g}$")
    (line,) = ax.plot(first["x_over_theta1"], first["theta1_density"], **SURROGATE_STYLE)
    handles.append(line)
    labels.append(r"MP$_1$")
    (beta,) = set(rows["beta"])
    ax.set_title(rf"$\nu_\infty$ across $c = \ell/d_{{qk}}$, $\beta = {beta:g}$")
    ax.set_xlabel(r"$x/\theta_1$")
    ax.set_ylabel(r"$\theta_1 \times$ density")
    log_axis(ax.yaxis)
    ax.set_ylim(*DENSITY_RANGE)
    # inside, top right: the curves end at their edges below it (a legend under the panel
    # would lie over their drops towards zero density)
    ax.legend(handles, labels, loc="upper right", frameon=False)


def _edge_panel(ax, frame: pd.DataFrame) -> None:
    """x_+ / theta_1 against 4 and both expansions; a right axis in x_+ / (4 theta_1)."""
    low, high = EDGE_RANGE
    for series, _, style in EDGE_CURVES:
        curve = _rows(frame, "beta_grid", series)
        shown = curve["value_over_theta1"].between(low, high)  # an expansion leaves the view
        ax.plot(curve["beta"][shown], curve["value_over_theta1"][shown], **style)
    ax.axhline(FUSS_CATALAN_EDGE, **LIMIT_STYLE)
    ax.set_ylim(low, high)
    ax.set_xlabel(r"inverse temperature $\beta$")
    ax.set_ylabel(r"right edge / $\theta_1$")
    ax.set_title(r"edges, $c = 1$")
    right = ax.secondary_yaxis("right", functions=(lambda y: y / 4, lambda y: 4 * y))
    right.set_ylabel(r"edge / $4\theta_1$")
    handles = [Line2D([], [], **style) for _, _, style in EDGE_CURVES]
    handles.append(Line2D([], [], **LIMIT_STYLE))
    labels = [label for _, label, _ in EDGE_CURVES] + [r"$27/4$: $\beta \to 0$ limit"]
    _below(ax, handles, labels)


def _difference_panel(ax, frame: pd.DataFrame) -> None:
    """How far nu_inf is from the surrogate against beta, log scale."""
    for series, _, style in DIFFERENCE_CURVES:
        curve = _rows(frame, "beta_grid", series)
        ax.plot(curve["beta"], curve["value"], **style)
    log_axis(ax.yaxis)
    ax.set_xlabel(r"inverse temperature $\beta$")
    ax.set_ylabel("distance from the surrogate")
    ax.set_title(r"what differs, $c = 1$")
    handles = [Line2D([], [], **style) for _, _, style in DIFFERENCE_CURVES]
    _below(ax, handles, [label for _, label, _ in DIFFERENCE_CURVES])


def plot_limit_law(frame: pd.DataFrame):
    """Figure A8 from its tidy table: a row of density panels, one per beta (c = 1), then
    (f) across c, (g) the edges over theta_1, (h) how far nu_inf is from its surrogate."""
    n_betas = frame.loc[frame["sweep"] == "betas", "beta"].nunique()
    figure = new_canvas(width=TWO_COLUMNS, height=5.4)
    top, bottom = figure.subfigures(2, 1, height_ratios=(1.0, 1.55))
    densities = top.subplots(1, n_betas, sharex=True, sharey=True)
    _beta_panels(densities, frame)
    styles = (LAW_STYLE, LAW_EDGE_STYLE, SURROGATE_STYLE, SURROGATE_EDGE_STYLE)
    labels = (r"$\nu_\infty$", r"its edge $x_+$", r"MP surrogate $\theta_1$MP$_1$",
              r"its edge $4\theta_1$")  # fmt: skip
    top.legend(
        [Line2D([], [], **style) for style in styles], labels, loc="outside lower center",
        ncols=4, frameon=False,
    )  # fmt: skip
    ratio, edges, difference = bottom.subplots(1, 3)
    _ratio_panel(ratio, frame)
    _edge_panel(edges, frame)
    _difference_panel(difference, frame)
    label_panels([*densities, ratio, edges, difference])
    return figure
