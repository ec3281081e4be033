"""Figure D4's statistics (paper D's figure D.1) from its panels' draws
(:mod:`attnspec.papers.d.design_choices`): each panel's distinct limit laws (panel c's MQA condition
has the independent-head law, paper D section C.1.2) and the key numbers per condition."""

from collections.abc import Mapping

import numpy as np

from attnspec.multihead.limit import limit_law
from attnspec.papers.d.design_choices import PANELS, panel_conditions
from attnspec.papers.d.multihead_summary import law_distances, mean_half_width

SERIES_LABELS = {"softmax": "softmax", "gaussian": "Gaussian equivalent"}
THEORY_RANGE = 1.1
"""Each law's density is tabulated on (0, THEORY_RANGE x its right edge]."""
LAW_EQUATIONS = {"a": "(C.9)", "b": "(C.15)", "c": "(C.15)"}
"""The equation of paper D giving each panel's untied law; the tied law is (C.21)."""


def law_key(law) -> tuple:
    """What defines one of paper D's laws (its class and parameters): equal keys, one law."""
    names = ("beta", "heads", "gamma_k", "gamma_v", "gamma_o")
    return (type(law).__name__, *(getattr(law, name, None) for name in names))


def distinct_laws(panel: str, settings: Mapping) -> dict:
    """Condition name -> law for the conditions of ``panel`` whose law no earlier condition has
    (:func:`attnspec.multihead.limit.limit_law` of each layer shape)."""
    found, seen = {}, set()
    for condition in panel_conditions(panel, settings):
        law = limit_law(condition.shape, settings["beta"])
        if law_key(law) not in seen:
            seen.add(law_key(law))
            found[condition.name] = law
    return found


def law_name(panel: str, shape) -> str:
    """The equation of paper D that gives a layer shape's law in ``panel``."""
    return "(C.21)" if shape.tied else LAW_EQUATIONS[panel]


DESIGN_CHOICES_KEY_HEADER = (
    "panel",
    "condition",
    "h / h_KV",
    "d_K",
    "d_V",
    "d_O",
    "gamma_K",
    "law",
    "law mean",
    "law support",
    "KS softmax",
    "KS softmax +-",
    "KS Gaussian equivalent",
    "KS Gaussian equivalent +-",
    "eigenvalues beyond the law's range",
    "draws",
)


def design_choices_key_rows(records: Mapping[str, Mapping], settings: Mapping) -> list[tuple]:
    """Figure D4's key numbers per (panel, condition): the layer's widths, its law (paper D's
    equation), mean and support, the KS of each draw's spectrum to it (mean and Student-t 95 %
    half-width) for softmax and Gaussian equivalent, and how many eigenvalues (of all draws,
    both series) lie beyond THEORY_RANGE x the law's edge."""
    rows = []
    for panel in PANELS:
        for condition in panel_conditions(panel, settings):
            shape = condition.shape
            law = limit_law(shape, settings["beta"])
            cells, beyond = [], 0
            for series in SERIES_LABELS:
                values = np.atleast_2d(records[panel][f"{condition.name}/{series}"])
                cells += mean_half_width(law_distances(values, law))
                beyond += int(np.sum(values > THEORY_RANGE * law.edge))
            support = ", ".join(f"[{lo:.3g}, {hi:.3g}]" for lo, hi in law.support())
            rows.append(
                (panel, condition.label, f"{shape.heads}/{shape.kv_heads}", shape.d_k,
                 shape.d_v or "-", shape.d_out or "-", shape.gamma_k, law_name(panel, shape),
                 law.mean, support, *cells, beyond, values.shape[0])
            )  # fmt: skip
    return rows
