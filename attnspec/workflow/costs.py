"""Cost model of the workflow's jobs: CPU time fitted against job size, for cluster estimates.

A job of size x (ell or n) that repeats its work m times (draws, passages) is modelled as
t = t0 + a m x^p: t0 the fixed start-up cost (interpreter, imports), a m x^p the work. The fit
minimises the error in seconds, so the longest jobs, which dominate both the total and the
extrapolation to larger sizes, govern it. The exponent must not fall below the rule's
asymptotic complexity (ell^3 for dense ell x ell matrices): at the measured sizes lower-order
terms (softmax, copies) flatten the fitted slope, and a flatter slope would under-estimate the
larger jobs. Used by tools/estimate_core_hours.py.
"""

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

# Snakemake's benchmark sampler (snakemake/benchmark.py): a sample at start, then every 0.5 s
# until 30 short intervals have passed, then every 30 s; nothing is sampled at exit.
SHORT_INTERVAL = 0.5
SHORT_SAMPLES = 30
LONG_INTERVAL = 30.0
EXPONENT_STEP = 0.01


def last_sample_time(
    wall_seconds: float,
    short_interval: float = SHORT_INTERVAL,
    short_samples: int = SHORT_SAMPLES,
    long_interval: float = LONG_INTERVAL,
) -> float:
    """Time of the benchmark sampler's last sample in a job that ran ``wall_seconds``."""
    switch = short_interval * short_samples
    if wall_seconds <= switch:
        return short_interval * math.floor(wall_seconds / short_interval)
    return switch + long_interval * math.floor((wall_seconds - switch) / long_interval)


def cpu_seconds_at_exit(cpu_seconds: float, wall_seconds: float, **schedule) -> float:
    """CPU time of the whole job: the sampled ``cpu_time`` scaled from the last sample to exit.

    The benchmark records the CPU time at its last sample, up to 30 s before the job ended;
    assuming a steady CPU rate, the job's total is cpu * wall / t_last.
    """
    sampled_until = last_sample_time(wall_seconds, **schedule)
    if sampled_until <= 0:
        return cpu_seconds
    return cpu_seconds * max(1.0, wall_seconds / sampled_until)


@dataclass(frozen=True)
class CostModel:
    """t = overhead + coefficient * multiplier * size ** exponent (seconds)."""

    overhead: float
    coefficient: float
    exponent: float

    def predict(self, size, multiplier=1.0):
        """Predicted seconds of a job (arrays broadcast)."""
        work = np.asarray(multiplier, dtype=float) * np.asarray(size, dtype=float) ** self.exponent
        return self.overhead + self.coefficient * work


def _fit_linear_nonnegative(
    work: np.ndarray, seconds: np.ndarray, overhead: float | None
) -> tuple[float, float, float]:
    """(t0, a, squared error) minimising sum (t0 + a work - t)^2 subject to t0, a >= 0
    (scipy.optimize.nnls).

    t0 is ``overhead`` when given. Otherwise, with a single value of the work, t0 and a are not
    separable and all the time is work (t0 = 0).
    """
    from scipy.optimize import nnls  # lazy: only the core-hour estimate fits costs

    scale = float(np.max(work))
    unit_work = work / scale  # columns of order one: t0 stays resolved beside work of order 1e20
    if overhead is None and np.ptp(unit_work) > 0:
        (t0, a), residual = nnls(np.column_stack([np.ones_like(unit_work), unit_work]), seconds)
    else:
        t0 = 0.0 if overhead is None else float(overhead)
        (a,), residual = nnls(unit_work[:, None], seconds - t0)
    return float(t0), float(a) / scale, float(residual) ** 2


def fit_cost_model(
    sizes: Sequence[float],
    multipliers: Sequence[float],
    seconds: Sequence[float],
    min_exponent: float,
    max_exponent: float = 4.0,
    overhead: float | None = None,
) -> CostModel:
    """Fit t = t0 + a m x^p to measured jobs (sizes x, multipliers m, CPU seconds t; the same
    form serves for peak memory).

    With three or more distinct sizes p is fitted on a grid in [min_exponent, max_exponent];
    with fewer, p is the known complexity ``min_exponent``. t0 is fitted, or fixed to
    ``overhead`` (e.g. a start-up cost measured on related jobs). Fitted, it is identifiable
    only when the work m x^p takes two or more values; otherwise all the time is taken as
    work (t0 = 0), which over- rather than under-estimates larger jobs.
    """
    x = np.asarray(sizes, dtype=float)
    m = np.asarray(multipliers, dtype=float)
    t = np.asarray(seconds, dtype=float)
    if not (len(x) == len(m) == len(t) > 0):
        raise ValueError("sizes, multipliers and seconds must be non-empty and of equal length")
    if np.any(x <= 0) or np.any(m <= 0) or np.any(t < 0):
        raise ValueError("sizes and multipliers must be positive, seconds non-negative")
    if min_exponent > max_exponent:
        raise ValueError(f"min_exponent {min_exponent} > max_exponent {max_exponent}")
    if overhead is not None and overhead < 0:
        raise ValueError(f"overhead {overhead} is negative")
    if len(np.unique(x)) >= 3:
        steps = round((max_exponent - min_exponent) / EXPONENT_STEP)
        exponents = min_exponent + EXPONENT_STEP * np.arange(steps + 1)
    else:
        exponents = np.array([float(min_exponent)])
    best = None
    for p in exponents:
        t0, a, error = _fit_linear_nonnegative(m * x**p, t, overhead)
        if best is None or error < best[0] - 1e-12:
            best = (error, CostModel(t0, a, round(float(p), 6)))
    return best[1]


def nearest_measured(key: tuple, measured: Collection[tuple]) -> tuple | None:
    """The longest prefix of ``key`` that starts some measured key (None if not even key[:1]).

    Keys are (rule, feature, ...) with features ordered from most to least important, so a
    job whose exact kind was not measured borrows the cost of its nearest measured relatives.
    """
    for length in range(len(key), 0, -1):
        prefix = key[:length]
        if any(other[:length] == prefix for other in measured):
            return prefix
    return None


def runtime_minutes(seconds: float, safety: float, minimum: int = 10, step: int = 5) -> int:
    """A SLURM runtime request: ``safety`` x the predicted time, rounded up to ``step`` minutes."""
    if seconds < 0 or safety <= 0:
        raise ValueError("seconds must be non-negative and safety positive")
    minutes = math.ceil(safety * seconds / 60 / step) * step
    return max(minimum, int(minutes))


@dataclass(frozen=True)
class JobCost:
    """What one job of a run cost: CPU and wall seconds, peak memory (MB) and where the numbers
    come from ("store": the record of the draw the job reused, i.e. what computing it cost;
    "benchmark": Snakemake's measurement of the job itself)."""

    rule: str
    name: str
    cpu_s: float
    wall_s: float
    peak_mb: float
    source: str


def costs_by_rule(jobs: Sequence[JobCost]) -> dict[str, dict]:
    """Per rule: jobs, jobs costed from store records, CPU and wall seconds summed (the rule's
    work on one core), the largest peak memory and the job that had it; sorted by CPU."""
    rules: dict[str, dict] = {}
    for job in jobs:
        entry = rules.setdefault(
            job.rule,
            {"jobs": 0, "from_store": 0, "cpu_s": 0.0, "wall_s": 0.0, "peak_mb": -1.0},
        )
        entry["jobs"] += 1
        entry["from_store"] += job.source == "store"
        entry["cpu_s"] += job.cpu_s
        entry["wall_s"] += job.wall_s
        if job.peak_mb > entry["peak_mb"]:
            entry["peak_mb"], entry["peak_job"] = job.peak_mb, job.name
    for entry in rules.values():
        entry["cpu_s"], entry["wall_s"] = round(entry["cpu_s"], 1), round(entry["wall_s"], 1)
        entry["peak_mb"] = round(entry["peak_mb"], 1)
    return dict(sorted(rules.items(), key=lambda item: -item[1]["cpu_s"]))
