"""Figure D4's tidy table (paper D's figure D.1): every eigenvalue of each draw per panel and
condition, and the density of each distinct limit law of a panel once
(:func:`attnspec.papers.d.design_choices_summary.distinct_laws`)."""

from collections.abc import Mapping

import numpy as np

from attnspec.papers.d.design_choices import PANELS, panel_conditions
from attnspec.papers.d.design_choices_summary import SERIES_LABELS, THEORY_RANGE, distinct_laws
from attnspec.papers.d.multihead_summary import theory_curve
from attnspec.plotting.tidy import DATA, THEORY, tidy_table

PLOTTED_COLUMNS = ("kind", "series", "panel", "condition", "draw", "eigenvalue", "density")
LIMIT_LAW = "limit law"
THEORY_POINTS = 600


def design_choices_plotted_table(records: Mapping[str, Mapping], settings: Mapping):
    """Figure D4's tidy table (:data:`PLOTTED_COLUMNS`), per ``panel`` and ``condition`` (its
    label): kind "data", every eigenvalue of every draw (series softmax or Gaussian equivalent);
    kind "theory", series :data:`LIMIT_LAW`, the density of each distinct law of the panel
    (:func:`distinct_laws`) on (0, THEORY_RANGE x edge] with its support's ends (no draw).
    ``records``: panel -> its draw record."""
    blocks = []
    for panel in PANELS:
        record = records[panel]
        laws = distinct_laws(panel, settings)
        for condition in panel_conditions(panel, settings):
            key = {"panel": panel, "condition": condition.label}
            for series, label in SERIES_LABELS.items():
                values = np.atleast_2d(
                    np.asarray(record[f"{condition.name}/{series}"], dtype=np.float64)
                )
                blocks.append(
                    {"kind": DATA, "series": label, **key,
                     "draw": np.repeat(np.arange(len(values)), values.shape[1]),
                     "eigenvalue": values.ravel()}
                )  # fmt: skip
            if condition.name in laws:
                law = laws[condition.name]
                x, density = theory_curve(law, THEORY_RANGE * law.edge, THEORY_POINTS)
                blocks.append(
                    {"kind": THEORY, "series": LIMIT_LAW, **key, "eigenvalue": x,
                     "density": density}
                )  # fmt: skip
    return tidy_table(blocks, PLOTTED_COLUMNS, integers=("draw",))
