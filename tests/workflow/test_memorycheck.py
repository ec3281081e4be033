"""The job-memory check: a size whose job cannot fit is refused with its key, the amounts and the
largest size that fits; the limit comes from the config, --resources or the machine."""

import pytest
from conftest import REPO

from attnspec.workflow.configcheck import ConfigError
from attnspec.workflow.memorycheck import (
    MemoryDemand,
    check_job_memory,
    job_memory_limit,
    largest_fitting,
    machine_memory_mb,
    retry_reservation_mb,
)


def quadratic(n):
    """A dense job: 700 MB plus two float64 n x n copies."""
    return 700 + 2 * n * n * 8 // 1_000_000


def test_largest_fitting_is_the_boundary_of_the_reservation():
    limit = 24_000
    best = largest_fitting(quadratic, limit, 65536)
    assert quadratic(best) <= limit < quadratic(best + 1)
    assert largest_fitting(quadratic, limit, 1000) == 1000  # the size itself fits
    assert largest_fitting(quadratic, 500, 65536) is None


def test_largest_fitting_keeps_to_the_step():
    best = largest_fitting(quadratic, 24_000, 65536, step=24)
    assert best % 24 == 0 and quadratic(best) <= 24_000 < quadratic(best + 24)


def test_a_size_too_large_names_its_key_amount_limit_and_largest_size():
    demands = [
        MemoryDemand("paperB.sticking.n_tokens", (1024, 65536), quadratic),
        MemoryDemand("paperA.perron.n_tokens", (128, 256), quadratic),
    ]
    with pytest.raises(ConfigError) as error:
        check_job_memory(demands, 24_000, "this machine's memory (24000 MB)")
    message = str(error.value)
    best = largest_fitting(quadratic, 24_000, 65536)
    assert f"config key paperB.sticking.n_tokens: 65536 needs a job of {quadratic(65536)} MB" in (
        message
    )
    assert f"the largest that fits is {best}" in message and "perron" not in message


def test_sizes_that_fit_pass():
    check_job_memory([MemoryDemand("k", (64, 128), quadratic)], 1000, "limit")


def test_the_limit_is_the_config_then_resources_then_the_machine():
    assert job_memory_limit(64_000, 2_000, local=True) == (64_000, "job_memory_limit_mb = 64000 MB")
    assert job_memory_limit(None, 2_000, local=True) == (2_000, "--resources mem_mb=2000")
    memory, source = job_memory_limit(None, None, local=True)
    assert memory == machine_memory_mb() > 1000 and "this machine" in source
    assert job_memory_limit(None, None, local=False)[0] is None  # a cluster node is not this one


def test_a_retry_reserves_attempt_times_the_first_attempt_up_to_the_limit():
    assert [retry_reservation_mb(723, attempt, None) for attempt in (1, 2, 3)] == [723, 1446, 2169]
    assert [retry_reservation_mb(12961, attempt, 20000) for attempt in (1, 2)] == [12961, 20000]
    # The preflight checked the first attempt against the limit; a cap never goes below it.
    assert retry_reservation_mb(12961, 2, 8000) == 12961


@pytest.mark.parametrize(
    ("first_mb", "attempt", "named"), [(723, 0, "attempt"), (0, 1, "first_mb")]
)
def test_a_retry_reservation_names_its_bad_argument(first_mb, attempt, named):
    with pytest.raises(ValueError, match=named):
        retry_reservation_mb(first_mb, attempt, None)


def test_every_rule_reserves_memory_that_grows_with_the_attempt():
    """Each rule's mem_mb goes through reserved_mem_mb (workflow/rules/common.smk), so a job
    killed for memory on a cluster is resubmitted with more (profiles/slurm: retries: 1)."""
    rules = sorted((REPO / "workflow" / "rules").glob("*.smk"))
    reservations = [
        (path.name, line.strip())
        for path in rules
        for line in path.read_text().splitlines()
        if line.strip().startswith("mem_mb=")
    ]
    assert len(reservations) >= 70
    assert [r for r in reservations if not r[1].startswith("mem_mb=reserved_mem_mb(")] == []
