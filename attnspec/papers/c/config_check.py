"""Paper C's config check: the relations between its config keys (``paperC``) that the schema
cannot state (:mod:`attnspec.papers.config_rules`)."""

from collections.abc import Mapping


def first_problem(config: Mapping) -> str | None:
    """The first problem of paper C's keys, or None: the schema states them all (its corpus, read
    from the working directory, is checked by :func:`attnspec.workflow.configcheck.check_corpus`
    before any job)."""
    return None
