"""Figure A8's tidy table (paper A, theory only): the density panels' rows then the curves
against beta of :mod:`attnspec.papers.a.limit_law_summary`, one row per plotted value."""

from collections.abc import Sequence

from attnspec.papers.a.limit_law_summary import beta_grid_parts, density_parts

COLUMNS = (
    "kind",
    "series",
    "sweep",
    "beta",
    "c",
    "x",
    "x_over_theta1",
    "density",
    "theta1_density",
    "value",
    "value_over_theta1",
)
"""The tidy table's columns: ``sweep`` is ``betas`` (the density panels across beta at c = 1),
``ratios`` (across c at one beta) or ``beta_grid`` (the curves against beta, c = 1)."""


def limit_law_plotted_table(
    betas: Sequence[float],
    ratios: Sequence[float],
    ratio_beta: float,
    density_points: int,
    beta_min: float,
    beta_max: float,
    beta_points: int,
):
    """Figure A8's tidy table (pandas DataFrame with :data:`COLUMNS`), theory only: the rows of
    :func:`density_parts` then those of :func:`beta_grid_parts`; a cell is empty where its
    column does not apply."""
    from attnspec.plotting.tidy import tidy_table

    parts = density_parts(betas, ratios, ratio_beta, density_points)
    parts += beta_grid_parts(beta_min, beta_max, beta_points)
    return tidy_table(parts, COLUMNS)
