"""Cost model of the core-hour estimate (attnspec.workflow.costs, tools/estimate_core_hours.py) on
synthetic benchmark data."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from attnspec.workflow.costs import (
    CostModel,
    JobCost,
    costs_by_rule,
    cpu_seconds_at_exit,
    fit_cost_model,
    last_sample_time,
    nearest_measured,
    runtime_minutes,
)


@pytest.mark.parametrize(
    ("wall", "last"),
    [(0.3, 0.0), (7.3, 7.0), (15.0, 15.0), (44.9, 15.0), (45.0, 45.0), (118.61, 105.0)],
)
def test_last_sample_follows_snakemakes_schedule(wall, last):
    # every 0.5 s for the first 15 s, then every 30 s
    assert last_sample_time(wall) == pytest.approx(last)


def test_cpu_time_is_scaled_from_the_last_sample_to_exit():
    # sampled at 105 s of a 118.61-s job: the last 13.61 s of CPU were not seen
    assert cpu_seconds_at_exit(80.0, 118.61) == pytest.approx(80.0 * 118.61 / 105.0)
    # a job shorter than the first interval is left as recorded
    assert cpu_seconds_at_exit(0.2, 0.3) == 0.2


def test_fit_recovers_overhead_coefficient_and_exponent():
    sizes = np.array([256, 512, 1024, 2048, 4096, 8192] * 2, dtype=float)
    truth = CostModel(overhead=1.5, coefficient=2e-11, exponent=3.2)
    model = fit_cost_model(sizes, np.ones_like(sizes), truth.predict(sizes), min_exponent=3)
    assert model.exponent == pytest.approx(3.2)
    assert model.overhead == pytest.approx(1.5, abs=1e-6)
    assert model.coefficient == pytest.approx(2e-11, rel=1e-6)


def test_exponent_is_not_allowed_below_the_complexity():
    # lower-order terms at small sizes flatten the slope; the fit must not follow them down
    sizes = np.array([1000, 2000, 4000, 8000], dtype=float)
    seconds = 1e-6 * sizes**2
    model = fit_cost_model(sizes, np.ones_like(sizes), seconds, min_exponent=3)
    assert model.exponent == 3
    assert model.predict(16000) > 1e-6 * 16000**2


def test_fit_reproduces_the_largest_jobs_rather_than_the_smallest():
    # ell^2 work below a crossover, ell^3 above: the extrapolation follows the top sizes
    sizes = np.array([1024, 2048, 4096, 8192], dtype=float)
    seconds = 1.0 + 1e-6 * sizes**2 + 1e-10 * sizes**3
    model = fit_cost_model(sizes, np.ones_like(sizes), seconds, min_exponent=3)
    assert model.predict(8192) == pytest.approx(seconds[-1], rel=0.02)


def test_two_sizes_use_the_known_exponent_and_separate_the_overhead():
    sizes = np.array([1000.0, 2000.0])
    seconds = 2.0 + 1e-9 * sizes**3
    model = fit_cost_model(sizes, np.ones(2), seconds, min_exponent=3)
    assert model.exponent == 3
    assert model.overhead == pytest.approx(2.0)
    assert model.coefficient == pytest.approx(1e-9)


def test_one_size_puts_all_time_into_the_work():
    model = fit_cost_model([1000, 1000], [1, 1], [3.0, 5.0], min_exponent=3)
    assert model.overhead == 0
    assert model.predict(1000) == pytest.approx(4.0)
    assert model.predict(2000) == pytest.approx(32.0)


def test_a_known_overhead_is_kept_and_only_the_work_fitted():
    # one size: the start-up cost measured on related jobs separates it from the work
    model = fit_cost_model([1000, 1000], [1, 1], [4.0, 6.0], min_exponent=3, overhead=1.0)
    assert model.overhead == 1.0
    assert model.predict(2000) == pytest.approx(1.0 + 4.0 * 8)
    with pytest.raises(ValueError):
        fit_cost_model([1000], [1], [4.0], min_exponent=3, overhead=-1.0)


def test_multiplier_scales_the_work_not_the_overhead():
    sizes = np.array([128, 128, 256, 256, 512, 512], dtype=float)
    draws = np.array([2, 4, 2, 4, 2, 4], dtype=float)
    truth = CostModel(overhead=0.8, coefficient=3e-8, exponent=3.0)
    model = fit_cost_model(sizes, draws, truth.predict(sizes, draws), min_exponent=3)
    assert model.predict(1024, 10) == pytest.approx(truth.predict(1024, 10), rel=1e-6)


def test_coefficients_stay_nonnegative():
    # time falling with size (noise): a constant, not a negative slope
    model = fit_cost_model([1, 2, 3], [1, 1, 1], [5.0, 4.0, 3.0], min_exponent=1)
    assert model.coefficient == 0
    assert model.overhead == pytest.approx(4.0)


def test_overhead_survives_huge_work_values():
    # n = 1e6 at p = 4 gives work of 1e24 next to an overhead of order one
    sizes = np.array([65536, 262144, 1048576], dtype=float)
    seconds = 0.7 + 1e-24 * sizes**4
    model = fit_cost_model(sizes, np.ones(3), seconds, min_exponent=4, max_exponent=4)
    assert model.overhead == pytest.approx(0.7, rel=1e-6)


@pytest.mark.parametrize(
    ("sizes", "multipliers", "seconds", "min_exponent"),
    [([1, 2], [1], [1, 2], 1), ([], [], [], 1), ([0, 1], [1, 1], [1, 2], 1), ([1], [1], [1], 5)],
)
def test_fit_rejects_bad_input(sizes, multipliers, seconds, min_exponent):
    with pytest.raises(ValueError):
        fit_cost_model(sizes, multipliers, seconds, min_exponent=min_exponent)


def test_nearest_measured_drops_the_least_important_features_first():
    measured = [
        ("spectrum", ("model", "linear"), ("c", 1.0), ("sampler", "gaussian")),
        ("spectrum", ("model", "attention"), ("c", 1.0), ("sampler", "literal"), ("gamma", 0.5)),
    ]
    assert nearest_measured(measured[0], measured) == measured[0]
    literal = ("spectrum", ("model", "attention"), ("c", 1.0), ("sampler", "literal"), ("gamma", 1))
    assert nearest_measured(literal, measured) == literal[:4]
    linear_literal = ("spectrum", ("model", "linear"), ("c", 1.0), ("sampler", "literal"))
    assert nearest_measured(linear_literal, measured) == linear_literal[:3]
    assert nearest_measured(("notebook",), measured) is None


def test_runtime_is_rounded_up_with_a_floor():
    assert runtime_minutes(96.8 * 60, safety=3) == 295
    assert runtime_minutes(60 * 60, safety=3) == 180
    assert runtime_minutes(1.0, safety=3) == 10
    assert runtime_minutes(0.0, safety=3, minimum=5) == 5
    with pytest.raises(ValueError):
        runtime_minutes(10.0, safety=0)


def load_estimate_tool():
    """tools/estimate_core_hours.py as a module (tools/ is not a package)."""
    path = Path(__file__).resolve().parents[2] / "tools" / "estimate_core_hours.py"
    spec = importlib.util.spec_from_file_location("estimate_core_hours", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_replicate_job_is_the_same_kind_as_replicate_0():
    # the estimate keys a job's cost by its rule and the wildcards that change it; the results
    # root of a workflow replicate is not one of them
    estimate = load_estimate_tool()
    wildcards = {"n_tokens": "8192", "ratio": "1.0", "draw": "3"}
    kinds = {
        estimate.describe(
            estimate.Job("paperB_sticking_draw", wildcards | {"results": results}), {}
        )
        for results in ("results", "results/replicate2")
    }
    assert kinds == {(("paperB_sticking_draw", ("ratio", "1.0")), 8192.0, 1.0)}


def test_measured_presets_pool_their_benchmark_files_once(tmp_path):
    # the default preset's sticking draws stop at ell = 4096; a paper-preset draw at 8192 adds a
    # size to the same kind, and a job both presets share is one measurement, not two
    estimate = load_estimate_tool()
    header = "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"

    def draw(ell, seconds):
        path = f"benchmarks/ell{ell}.tsv"
        (tmp_path / path).parent.mkdir(exist_ok=True)
        (tmp_path / path).write_text(header + f"{seconds}\t-\t100\t0\t0\t0\t0\t0\t0\t{seconds}\n")
        wildcards = {"n_tokens": str(ell), "ratio": "1.0", "draw": "0"}
        return estimate.Job("paperB_sticking_draw", wildcards, path)

    shared, larger = draw(4096, 13.0), draw(8192, 60.0)
    samples = estimate.measured_samples([([shared], {}), ([shared, larger], {})], tmp_path)
    [(kind, rows)] = samples.items()
    assert kind == ("paperB_sticking_draw", ("ratio", "1.0"))
    assert sorted(size for size, _, _ in rows) == [4096.0, 8192.0]


def test_costs_by_rule_sums_work_and_keeps_the_largest_peak():
    jobs = [
        JobCost("draw", "d0", 100.0, 120.0, 900.0, "store"),
        JobCost("draw", "d1", 50.0, 60.0, 950.0, "benchmark"),
        JobCost("figure", "f", 2.0, 3.0, 300.0, "benchmark"),
    ]
    rules = costs_by_rule(jobs)
    assert list(rules) == ["draw", "figure"]  # by CPU, largest first
    assert rules["draw"] == {
        "jobs": 2,
        "from_store": 1,
        "cpu_s": 150.0,
        "wall_s": 180.0,
        "peak_mb": 950.0,
        "peak_job": "d1",
    }
    assert rules["figure"]["from_store"] == 0
