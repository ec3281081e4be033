"""The finite-size limits figure: each row with a finite-size model, its statistic per size, the
fits over its declared rates and its limit against the limit's pass region, drawn from its CSV
alone, within the print craft; the drawn fits agree with the engine's limits."""

import numpy as np
import pytest
from conftest import REPO
from figure_checks import from_csv, png_bytes

from attnspec.papers.limits import (
    BEST_SERIES,
    ENVELOPE_SERIES,
    FIT_REACH,
    LIMIT_SERIES,
    REGION_SERIES,
    SIZE_SERIES,
    limits_table,
    plot_limits,
    weighted_line,
)
from attnspec.papers.registry import TESTS
from attnspec.plotting.craft import convention_problems, craft_problems
from attnspec.workflow.io import load_evidence, read_csv


@pytest.fixture(scope="module")
def committed():
    rows = read_csv(REPO / "figures" / "claims.csv")
    evidence = {
        item.row_id: item
        for paper in "ABCD"
        for item in load_evidence(REPO / "figures" / f"paper{paper}" / "claims-evidence.npz")
    }
    return rows, evidence


def test_a_weighted_line_recovers_its_intercept_and_slope():
    x = np.array([1.0, 0.5, 0.25, 0.125])
    assert weighted_line(x, 2.0 + 3.0 * x, np.array([1.0, 2.0, 3.0, 4.0])) == pytest.approx(
        (2.0, 3.0)
    )


def test_every_row_with_a_limit_gets_its_sizes_fits_limit_and_region(committed):
    rows, evidence = committed
    table = limits_table(rows, evidence, TESTS)
    with_limit = [r["row_id"] for r in rows if np.isfinite(float(r["limit"]))]
    assert list(dict.fromkeys(table["row_id"])) == with_limit
    for row in rows:
        if row["row_id"] not in with_limit:
            continue
        mine = table[table["row_id"] == row["row_id"]].set_index("series")
        sizes = mine.loc[SIZE_SERIES]
        assert list(sizes["x"]) == list(evidence[row["row_id"]].sizes)
        assert (sizes["y_low"] <= sizes["y"]).all() and (sizes["y"] <= sizes["y_high"]).all()
        envelope = mine.loc[ENVELOPE_SERIES]
        assert envelope["x"].max() == pytest.approx(FIT_REACH * sizes["x"].max())
        assert (envelope["y_low"] <= envelope["y_high"]).all()
        limit = mine.loc[LIMIT_SERIES]
        assert (limit["y"], limit["y_low"], limit["y_high"]) == pytest.approx(
            (float(row["limit"]), float(row["limit_low"]), float(row["limit_high"]))
        )
        region = mine.loc[REGION_SERIES]
        assert region["y_high"] == pytest.approx(float(row["limit_target"]) + float(row["margin"]))


def test_the_drawn_best_fit_extrapolates_inside_the_engine_s_limit_interval(committed):
    """The drawn fit is recomputed with this figure's own resamples: at the largest drawn ell it
    has not reached infinity, but its intercept (the curve's limit) must lie in the engine's
    interval for the best rate, a check that the figure draws the engine's model."""
    rows, evidence = committed
    table = limits_table(rows, evidence, TESTS)
    for row in rows:
        if not np.isfinite(float(row["limit"])):
            continue
        best = table[(table["row_id"] == row["row_id"]) & (table["series"] == BEST_SERIES)]
        x, y = best["x"].to_numpy(float), best["y"].to_numpy(float)
        # two points of g + a x^-p give g: extrapolate along the fitted curve's own rate
        p = float(row["limit_fit"].split("best p = ")[1].split(",")[0])
        u = x[[0, -1]] ** -p
        g = y[-1] - (y[0] - y[-1]) / (u[0] - u[-1]) * u[-1]
        assert float(row["limit_low"]) <= g <= float(row["limit_high"]), row["row_id"]


def test_the_figure_is_drawn_from_its_csv_within_the_craft(committed, tmp_path):
    rows, evidence = committed
    table = limits_table(rows, evidence, TESTS)
    frame = from_csv(table, tmp_path / "limits.csv")
    figure = plot_limits(frame)
    assert png_bytes(plot_limits(table)) == png_bytes(figure)
    assert craft_problems(figure) == [] and convention_problems(figure) == []
    visible = [ax for ax in figure.axes if ax.get_visible()]
    assert len(visible) == table["row_id"].nunique()


def test_a_row_with_a_limit_but_no_finite_size_evidence_is_refused(committed):
    rows, evidence = committed
    row = next(r for r in rows if np.isfinite(float(r["limit"])))
    with pytest.raises(ValueError, match=f"row {row['row_id']}: no finite-size evidence"):
        limits_table([row], {}, TESTS)
    with pytest.raises(ValueError, match="none has"):
        limits_table([r for r in rows if not np.isfinite(float(r["limit"]))], evidence, TESTS)
