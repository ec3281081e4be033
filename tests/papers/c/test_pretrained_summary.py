"""Figures C5, C6 and table C-T2 numbers from per-head diagnostics."""

import numpy as np
import pandas as pd
import pytest

from attnspec.papers.c import pretrained_plotted as plotted
from attnspec.papers.c import pretrained_summary as summary
from attnspec.papers.c.pretrained import isotropic_diagnostics, model_diagnostics
from attnspec.papers.c.pretrained_controls import control_diagnostics
from attnspec.papers.c.pretrained_evidence import eigen_angle_tests


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


def test_plotted_tables_shapes_and_normalisation(diagnostics):
    controls = {name: control_diagnostics(name, 8, 8, 10) for name in ("aligned", "local")}
    full, long, iso_full, iso_long = diagnostics
    angles = plotted.eigen_angle_plotted_table(
        *diagnostics, bins=10, controls=controls, reference_q95=0.2
    )
    spectra = plotted.spectra_plotted_table(long, iso_long, top_k=2)
    for table in (angles, spectra):
        assert list(table.columns[:2]) == ["kind", "series"]
    frame = pd.concat([angles, spectra], ignore_index=True)
    sizes = frame[frame["kind"] != "statistic"].groupby(["panel", "series"]).size()
    # C5 (a) counts of every pooled eigen-angle (U and V) in the 10 bins
    counts = frame[(frame["panel"] == "eigen_angles") & (frame["series"] == "model")]["y"]
    assert len(counts) == 10 and counts.sum() == full["angles"][..., 0, :].size
    # C5 (b) one distance per passage, head and side; the controls' per draw and side
    assert sizes["distances", "model"] == full["angle_distance"][..., 0].size == 2 * 2 * 3 * 2
    assert sizes["distances", "aligned"] == 20 and sizes["distances", "reference"] == 40
    # C5 (c) step counts whose running sums are distribution functions ending at 1
    sources = {"model": long, "isotropic": iso_long}
    null_space = frame[frame["panel"] == "null_space"]
    for (series, _), steps in null_space.groupby(["series", "convention"]):
        assert len(steps) == plotted.CDF_POINTS and np.all(steps["y"] >= 0)
        assert steps["y"].sum() == sources[series]["angles"][..., 0, 0, :].size
    # C5 (b) the Haar 95 % quantile as the one statistic row
    assert angles.loc[angles["kind"] == "statistic", "x"].tolist() == [0.2]
    # C6 every passage's spectrum, per-head medians over passages of energy and stable rank
    medians = spectra[spectra["kind"] == "statistic"].groupby(["panel", "series"]).size()
    assert sizes["spectra", "model"] == long["normalised_singular_values"].size
    assert medians["energy", "model"] == 2 * 3 and medians["stable_rank", "model"] == 2 * 3 * 2
    energy = frame[(frame["panel"] == "energy") & (frame["series"] == "model")]["y"]
    assert energy.iloc[4] == float(np.median(long["energy"][:, 1, 1, 1]))


def test_distance_samples_and_tests_tables(diagnostics):
    full, long, iso_full, iso_long = diagnostics
    controls = {name: control_diagnostics(name, 8, 8, 10) for name in ("aligned", "local")}
    tests = eigen_angle_tests(full, iso_full, controls["aligned"], controls["local"])
    sizes = {"model": 24, "aligned": 20, "local": 20, "null": 20}
    rows = summary.tests_rows(tests, sizes)
    assert [row[1] for row in rows] == [24, 20, 20, 20]
    assert all(len(row) == len(summary.TESTS_HEADER) for row in rows)
    assert len(summary.power_rows(tests)) == tests["contaminations"].size
    assert "Haar 95 % quantile" in summary.tests_text(tests)


def test_near_bin_edge_counts_the_angles_another_cpu_could_move_across_an_edge():
    from attnspec.papers.c.pretrained import ANGLE_ERROR, ANGLE_RESOLUTION
    from attnspec.papers.c.pretrained_summary import near_bin_edge

    edges = np.array([0.0, 1.0, 2.0, np.pi])
    angles = np.array([0.5, 1.0 + ANGLE_ERROR / 2, 2.5, ANGLE_RESOLUTION, 3 * ANGLE_RESOLUTION])
    assert near_bin_edge(angles, edges).tolist() == [2, 2, 1]
    assert near_bin_edge(angles, edges, steps=True).tolist() == [1, 2, 2, 1]
