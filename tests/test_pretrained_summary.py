"""Figure C5 and table C-T2 numbers from per-head diagnostics."""

import numpy as np
import pytest

from attnspec.experiments import pretrained_summary as summary
from attnspec.experiments.pretrained import isotropic_diagnostics, model_diagnostics
from attnspec.experiments.pretrained_controls import control_diagnostics
from attnspec.experiments.pretrained_evidence import eigen_angle_tests


@pytest.fixture(scope="module")
def diagnostics():
    rng = np.random.default_rng(0)
    full = model_diagnostics(*rng.standard_normal((2, 2, 2, 3, 8, 8)))
    long = model_diagnostics(*rng.standard_normal((2, 2, 2, 3, 20, 8)))
    return full, long, isotropic_diagnostics(8, 8, 20), isotropic_diagnostics(20, 8, 20)


def test_table_has_one_row_per_head_then_the_reference(diagnostics):
    rows = summary.table_rows(*diagnostics, top_k=2)
    assert len(rows) == 2 * 3 + 1
    assert rows[-1][:2] == ("isotropic", "-")
    assert all(len(row) == len(summary.table_header(2)) for row in rows)
    full, long = diagnostics[:2]
    assert rows[4][2] == float(np.median(full["angle_distance"][:, 1, 1, 0, 0]))
    assert rows[4][8] == float(np.median(long["energy"][:, 1, 1, 1]))


def test_figure_summary_shapes_and_normalisation(diagnostics):
    numbers = summary.figure_summary(*diagnostics, top_k=2, bins=10)
    width = np.diff(numbers["edges"])
    assert np.sum(numbers["density_model"] * width) == pytest.approx(1.0)
    assert numbers["distance_by_layer"].shape == (2, 2 * 3 * 2)
    assert numbers["energy_top_k"].shape == (2, 3)
    assert numbers["stable_rank"].shape == (2, 3, 2)
    for key in (k for k in numbers if k.startswith("cdf/")):
        assert numbers[key][-1] == 1.0 and np.all(np.diff(numbers[key]) >= 0)
    rows = summary.layer_rows(numbers, full_rank_q95=0.2)
    assert [row[0] for row in rows] == [0, 1, "isotropic"]


def test_distance_series_and_tests_tables(diagnostics):
    full, long, iso_full, iso_long = diagnostics
    controls = {name: control_diagnostics(name, 8, 8, 10) for name in ("aligned", "local")}
    numbers = summary.figure_summary(
        full, long, iso_full, iso_long, top_k=2, bins=10, controls=controls
    )
    assert numbers["distance/model"].size == full["angle_distance"][..., 0].size
    assert numbers["distance/aligned"].size == 20 and np.all(
        np.diff(numbers["distance/aligned"]) >= 0
    )
    tests = eigen_angle_tests(full, iso_full, controls["aligned"], controls["local"])
    sizes = {"model": 24, "aligned": 20, "local": 20, "null": 20}
    rows = summary.tests_rows(tests, sizes)
    assert [row[1] for row in rows] == [24, 20, 20, 20]
    assert all(len(row) == len(summary.TESTS_HEADER) for row in rows)
    assert len(summary.power_rows(tests)) == tests["contaminations"].size
    assert "Haar 95 % quantile" in summary.tests_text(tests)
