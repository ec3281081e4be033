"""Where a legend goes: inside its axes at the first place that covers no data, whatever the
preset's sizes make the data look like; if there is none, at the top of an axes given more
headroom above the data; outside at the axes' right as a last resort. The same test as the craft
check (:func:`attnspec.plotting.craft.covered_series`)."""

from matplotlib.axes import Axes
from matplotlib.legend import Legend

from attnspec.plotting.craft import covered_series

LOCATIONS = (
    "upper left",
    "upper right",
    "lower left",
    "lower right",
    "center left",
    "center right",
    "upper center",
    "lower center",
)
"""The places tried inside the axes, after the preferred one."""
HEADROOMS = (1.35, 1.7, 2.2)
"""Failing every place, the y range is stretched upwards by these factors in turn (of its span,
in decades on a log axis), the data keeping the lower part, and the legend tried at the top."""
TOP = ("upper left", "upper right", "upper center")
"""The places tried in the headroom."""
OUTSIDE = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0)}
"""The place when no inside one is free even with headroom: beside the axes, at its top right
(the layout then narrows the axes)."""
PENDING = "_attnspec_pending_legends"
"""The figure attribute listing the legends :func:`settle_legends` places."""


def place_legend(ax: Axes, *args, prefer: str = "upper left", **kwargs) -> Legend:
    """``ax.legend(*args, **kwargs)`` at ``prefer`` for now, to be placed for good by
    :func:`settle_legends` once every panel of the figure is drawn (the layout, hence where the
    data lie, depends on them all)."""
    figure = ax.get_figure()
    setattr(figure, PENDING, [*getattr(figure, PENDING, []), (ax, args, prefer, kwargs)])
    return ax.legend(*args, loc=prefer, **kwargs)


def settle_legends(figure) -> None:
    """Place every legend of ``figure`` made by :func:`place_legend`, in order
    (:func:`free_legend`)."""
    for ax, args, prefer, kwargs in getattr(figure, PENDING, []):
        free_legend(ax, *args, prefer=prefer, **kwargs)
    setattr(figure, PENDING, [])


def free_legend(ax: Axes, *args, prefer: str = "upper left", **kwargs) -> Legend:
    """``ax.legend(*args, **kwargs)`` at ``prefer`` or the first of :data:`LOCATIONS` where it
    covers no drawn line or point (the layout as drawn now), else at the top of a y range with
    more headroom (:data:`HEADROOMS`), else beside the axes (:data:`OUTSIDE`)."""
    figure = ax.get_figure()
    figure.canvas.draw()  # the layout and the data's positions as they will be saved
    renderer = figure.canvas.get_renderer()
    for loc in (prefer, *(place for place in LOCATIONS if place != prefer)):
        legend = ax.legend(*args, loc=loc, **kwargs)
        if not covered_series(ax, legend.get_window_extent(renderer)):
            return legend
    low, high = ax.get_ylim()
    for factor in HEADROOMS:
        _stretch_top(ax, low, high, factor)
        figure.canvas.draw()
        for loc in TOP:
            legend = ax.legend(*args, loc=loc, **kwargs)
            if not covered_series(ax, legend.get_window_extent(renderer)):
                return legend
    ax.set_ylim(low, high)
    return ax.legend(*args, **OUTSIDE, **kwargs)


def _stretch_top(ax: Axes, low: float, high: float, factor: float) -> None:
    """The y range [low, high] stretched upwards to ``factor`` times its span (in decades on a
    log axis)."""
    if ax.get_yscale() == "log":
        ax.set_ylim(low, low * (high / low) ** factor)
    else:
        ax.set_ylim(low, low + (high - low) * factor)
