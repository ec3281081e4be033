"""Paper D's config check: the relations between its config keys (``paperD``) that the schema
cannot state (:mod:`attnspec.papers.config_rules`)."""

from collections.abc import Mapping

from attnspec.papers.d.design_choices import check_figure_d1_settings
from attnspec.papers.d.multihead import check_sharing_settings
from attnspec.papers.d.multihead_evidence import check_judged_points


def first_problem(config: Mapping) -> str | None:
    """The first problem of paper D's keys, or None: the public models and sharing schemes
    configured include those the registry rows judge
    (:func:`attnspec.papers.d.multihead_evidence.check_judged_points`), every scheme has a layer
    at every n of paperD.sharing (:func:`attnspec.papers.d.multihead.check_sharing_settings`) and
    every panel of figure D4 its layers
    (:func:`attnspec.papers.d.design_choices.check_figure_d1_settings`)."""
    paper_d = config.get("paperD", {})
    if not {"public_models", "sharing", "figure_d1"} <= paper_d.keys():
        return None  # a partial config (the schema requires all three)
    try:
        check_judged_points(paper_d["public_models"]["models"], paper_d["sharing"]["schemes"])
        check_sharing_settings(paper_d["sharing"])
        check_figure_d1_settings(paper_d["figure_d1"])
    except ValueError as error:
        return str(error)
    return None
