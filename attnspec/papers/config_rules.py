"""What the rooms' config checks share (``attnspec/papers/<x>/config_check.py``): the relations
between a paper's config keys that the schema cannot state, each found as the one line that
names the key and what is allowed (the workflow raises it as a ConfigError before any job).

Each room's ``config_check.first_problem(config)`` returns the first problem of the config keys
its paper reads, or None; :func:`attnspec.papers.registry.room_modules` finds them.
"""

from collections.abc import Mapping, Sequence

from attnspec.validation import shown

# Paper A draws d_qk = round(ell / c): the realised ratio must be within this of the nominal c.
RATIO_ROUNDING = 0.01


def width_problem(key: str, sizes, ratios, *, exact: bool) -> str | None:
    """Whether every ell / c of ``sizes`` x ``ratios`` gives a query/key width d_qk >= 1: a whole
    number (``exact``, paper B) or one whose rounding moves c by at most RATIO_ROUNDING (paper
    A). The first that does not, as a problem line naming config key ``key``; else None."""
    for ell in sizes:
        for c in ratios:
            width = ell / c
            rounded = round(width)
            if exact and (width < 1 or width != rounded):
                return (
                    f"config key {key}: ell / c = {ell} / {c} = {width:g} is not a whole number "
                    f">= 1; allowed: ratios c that divide every ell into a query/key width d_qk"
                )
            if not exact and (rounded < 1 or abs(ell / rounded - c) > RATIO_ROUNDING * c):
                realised = ell / max(rounded, 1)
                return (
                    f"config key {key}: c = {c} at ell = {ell} needs d_qk = round(ell / c) = "
                    f"{max(rounded, 1)}, i.e. c = {realised:g}; allowed: c with ell / c at least "
                    f"1 and within {RATIO_ROUNDING:.0%} of a whole number"
                )
    return None


def judged_problem(key: str, section: Mapping, field: str, judged: Sequence) -> str | None:
    """Whether ``section[field]`` (config key ``key``, ``paper<X>....``) holds every value of
    ``judged``, the values the paper's registry rows judge (a section without the field is left
    to the schema). A problem line naming the missing values, else None."""
    missing = [value for value in judged if value not in section.get(field, judged)]
    if not missing:
        return None
    paper = key.partition(".")[0].removeprefix("paper")
    return (
        f"config key {key}: got {shown(section[field])}; allowed: a list containing "
        f"{list(judged)} (the values paper {paper}'s registry rows judge), missing {missing}"
    )
