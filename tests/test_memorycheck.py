"""The job-memory check: a size whose job cannot fit is refused with its key, the amounts and the
largest size that fits; the limit comes from the config, --resources or the machine."""

import pytest

from attnspec.workflow.configcheck import ConfigError
from attnspec.workflow.memorycheck import (
    MemoryDemand,
    check_job_memory,
    job_memory_limit,
    largest_fitting,
    machine_memory_mb,
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
