"""One look for every figure: fonts, sizes, colours for data, theory and the MP surrogate."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

DATA_COLOUR = "#4C72B0"
THEORY_COLOUR = "#C44E52"
SURROGATE_COLOUR = "#55A868"
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


def new_figure(n_rows: int, n_cols: int, *, width: float, height: float, **kwargs):
    """A figure and its axes grid in the project style (inches; ``squeeze=False``)."""
    with plt.rc_context(RC_PARAMS):
        figure, axes = plt.subplots(
            n_rows, n_cols, figsize=(width, height), squeeze=False, layout="constrained", **kwargs
        )
    return figure, axes


def apply_style() -> None:
    """Make the project style the default for figures created afterwards."""
    plt.rcParams.update(RC_PARAMS)


def close(figure) -> None:
    """Release a figure's memory."""
    plt.close(figure)
