"""One look for every figure, set once: the seaborn theme (paper context, ticks, the "deep"
palette) with the project's fonts and sizes, and named colours from that palette for data,
theory and the MP surrogate."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import seaborn as sns  # noqa: E402

PALETTE = sns.color_palette("deep")
"""seaborn's "deep" palette: the colours of every figure's data series, in order."""
DATA_COLOUR = PALETTE[0]
SURROGATE_COLOUR = PALETTE[2]
THEORY_COLOUR = PALETTE[3]
REFERENCE_COLOUR = "0.35"

RC_PARAMS = {
    "font.family": "DejaVu Sans",
    "font.size": 8,
    "axes.titlesize": 9,
    "axes.labelsize": 8,
    "legend.fontsize": 7,
    "xtick.labelsize": 7,
    "ytick.labelsize": 7,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "figure.dpi": 100,
    "savefig.bbox": "tight",
    "pdf.fonttype": 42,
    "svg.hashsalt": "attnspec",
    "path.simplify": False,
}

BAND = ("pi", 80)
"""seaborn ``errorbar`` of the bands over draws: the 10-90 % percentile interval."""
BAND_MIN_DRAWS = 10
"""Fewer draws than this at a point: plot the draws themselves, not a band."""


def apply_style() -> None:
    """Make the project theme the default for figures created afterwards (seaborn's theme with
    the project's rc parameters)."""
    sns.set_theme(context="paper", style="ticks", palette=PALETTE, rc=RC_PARAMS)


def new_figure(n_rows: int, n_cols: int, *, width: float, height: float, **kwargs):
    """A figure and its axes grid in the project theme (inches; ``squeeze=False``)."""
    apply_style()
    figure, axes = plt.subplots(
        n_rows, n_cols, figsize=(width, height), squeeze=False, layout="constrained", **kwargs
    )
    return figure, axes


def close(figure) -> None:
    """Release a figure's memory."""
    plt.close(figure)
