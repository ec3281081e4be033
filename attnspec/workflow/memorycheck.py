"""Before any job: every job's reserved memory fits the memory a job may have (workflow glue).

The rule files declare, per config key that sets a size (``paperB.sticking.n_tokens``, ...), the
sizes the preset asks for and the ``mem_mb`` a job at a size reserves (the same function its rule
uses). A size whose job would not fit is refused with the key, the size, both amounts and the
largest size that fits, instead of a job that starts and dies allocating (issue 12, item 5).
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import psutil

from attnspec.workflow.configcheck import ConfigError


@dataclass(frozen=True)
class MemoryDemand:
    """The jobs one config key sizes: ``mem_mb_at(size)`` is a job's reservation at ``size``
    (non-decreasing in ``size``); ``sizes`` are the preset's values of the key, multiples of
    ``step`` (sizes the key allows: e.g. whole head widths)."""

    key: str
    sizes: tuple[int, ...]
    mem_mb_at: Callable[[int], int]
    step: int = 1


def machine_memory_mb() -> int:
    """Physical memory of this machine in MB (10^6 bytes): psutil.virtual_memory().total."""
    return psutil.virtual_memory().total // 1_000_000


def job_memory_limit(
    configured_mb: int | None, resources_mb: int | None, local: bool
) -> tuple[int | None, str]:
    """The most memory one job may reserve, and where that limit comes from.

    ``configured_mb`` (config key ``job_memory_limit_mb``, e.g. a cluster node's memory, set by a
    cluster profile) wins; else ``--resources mem_mb``; else, on a local run, this machine's
    physical memory. A cluster run without a configured limit is not checked (``None``).
    """
    if configured_mb is not None:
        return int(configured_mb), f"job_memory_limit_mb = {int(configured_mb)} MB"
    if resources_mb is not None:
        return int(resources_mb), f"--resources mem_mb={int(resources_mb)}"
    if local:
        memory = machine_memory_mb()
        return memory, f"this machine's memory ({memory} MB)"
    return None, "no limit (a cluster run without job_memory_limit_mb)"


def retry_reservation_mb(first_mb: int, attempt: int, limit_mb: int | None) -> int:
    """A job's ``mem_mb`` on its ``attempt`` (1, 2, ...): ``attempt x first_mb``, so that a job
    killed for its memory is resubmitted (Snakemake's ``retries``) with more; capped at
    ``limit_mb`` (the most a job may have, None: no cap) but never below ``first_mb``, which the
    preflight has checked against that limit."""
    if int(attempt) < 1:
        raise ValueError(f"attempt must be a whole number >= 1, got {attempt!r}")
    if int(first_mb) < 1:
        raise ValueError(f"first_mb must be a whole number of MB >= 1, got {first_mb!r}")
    scaled = int(attempt) * int(first_mb)
    if limit_mb is None:
        return scaled
    return max(int(first_mb), min(scaled, int(limit_mb)))


def largest_fitting(
    mem_mb_at: Callable[[int], int], limit_mb: int, upper: int, step: int = 1
) -> int | None:
    """The largest multiple ``n = j step <= upper`` with ``mem_mb_at(n) <= limit_mb`` (bisection
    over j: the reservation is non-decreasing in the size), or None if not even ``step`` fits."""
    if mem_mb_at(step) > limit_mb:
        return None
    low, high = 1, max(1, upper // step)  # low * step fits; the answer is in [low, high]
    while low < high:
        middle = (low + high + 1) // 2
        if mem_mb_at(middle * step) <= limit_mb:
            low = middle
        else:
            high = middle - 1
    return low * step


def check_job_memory(demands: Iterable[MemoryDemand], limit_mb: int, source: str) -> None:
    """Raise one ConfigError (a ValueError) naming every key with a size whose job reserves
    more than ``limit_mb``, with the amount, the limit's source and the largest size that fits."""
    problems = []
    for demand in demands:
        for size in sorted(set(demand.sizes)):
            needed = int(demand.mem_mb_at(size))
            if needed <= limit_mb:
                continue
            fitting = largest_fitting(demand.mem_mb_at, limit_mb, size, demand.step)
            largest = (
                f"the largest that fits is {fitting}"
                if fitting
                else "not even the smallest size fits"
            )
            problems.append(
                f"config key {demand.key}: {size} needs a job of {needed} MB, more than "
                f"{source}; {largest}"
            )
            break  # the key's larger sizes fail too
    if problems:
        raise ConfigError(
            "jobs that could not run (refused before any job): "
            + "; ".join(problems)
            + ". Lower the size, or run where a job may have more memory (--resources mem_mb, "
            "or job_memory_limit_mb for a cluster node)"
        )
