"""Figures B1-B6 are drawn from their tidy CSVs alone: the figure drawn from the CSV file is
byte-identical to the one drawn from the rows before writing, each panel's curves, bands, bars,
dots and histograms are the CSV's numbers (medians and 10-90 % quantiles over the CSV's draws
where a panel has at least 10 draws, the draws themselves where it has fewer), and the CSV has
the rows every panel needs; the companion notebook's redraw cell works from the CSV alone."""

from types import SimpleNamespace

import jupytext
import numpy as np
import pandas as pd
import pytest
import seaborn as sns
from conftest import REPO
from figure_checks import from_csv, png_bytes

from attnspec.experiments.conditional import (
    COVARIANCES,
    TOP_SHOWN,
    conditional_draw,
    conditional_series,
    group_by_size,
    key_dimension,
    population_series,
)
from attnspec.experiments.conditional_plotted import (
    CONDITIONAL_PLOTTED_HEADER,
    DENSITY_POINTS,
    POPULATION_PLOTTED_HEADER,
    conditional_plotted_rows,
    population_plotted_rows,
)
from attnspec.experiments.edge_formulas import (
    edge_curves,
    r_transform_points,
    square_cubic_branches,
)
from attnspec.experiments.sticking import sticking_draw, uniform_index_counts
from attnspec.experiments.sticking_plotted import (
    CURVE_POINTS,
    EDGE_FORMULA_PLOTTED_HEADER,
    GAP_PLOTTED_HEADER,
    STICKING_PLOTTED_HEADER,
    UNIFORM_PLOTTED_HEADER,
    edge_formula_plotted_rows,
    gap_plotted_rows,
    sticking_plotted_rows,
    uniform_plotted_rows,
)
from attnspec.experiments.sticking_summary import (
    SCHEDULES,
    collect_series,
    gap_rate,
    spike_correlation,
)
from attnspec.io import write_csv
from attnspec.plotting.conditional import (
    EDGE_SPLIT,
    histogram_edges,
    plot_conditional_edges,
    plot_population,
)
from attnspec.plotting.edge_formulas import plot_edge_formulas
from attnspec.plotting.sticking import plot_gap, plot_sticking, plot_uniform
from attnspec.plotting.style import close
from attnspec.theory import bulk_edge

# c = 1 with 10 draws (bands), c = 2 with 3 draws (the draws themselves).
SQUARE = {"ells": (64, 96), "betas": [0.5, 1.0, 1.5], "draws": 10}
RECTANGULAR = {"ells": (64, 96), "betas": [0.5, 1.0], "draws": 3}


def drawn_from_its_csv(plot, rows, header, path):
    """The figure drawn from the CSV, after checking it equals the one drawn from the rows byte
    for byte; and the CSV as a DataFrame."""
    frame = from_csv(rows, header, path)
    direct = plot(pd.DataFrame(rows, columns=header))
    figure = plot(frame)
    assert png_bytes(figure) == png_bytes(direct)
    close(direct)
    return figure, frame


def ydata(ax, n=None):
    """The y data of every line of an axis (with ``n`` points, if given)."""
    return [
        np.asarray(line.get_ydata(), dtype=float)
        for line in ax.lines
        if n is None or len(line.get_ydata()) == n
    ]


def has_line(ax, y) -> bool:
    y = np.asarray(y, dtype=float)
    return any(np.allclose(drawn, y, rtol=1e-12) for drawn in ydata(ax, len(y)))


def band_vertices(ax) -> np.ndarray:
    """The y coordinates of every band (seaborn's fill_between) of an axis."""
    paths = [p for c in ax.collections if "FillBetween" in type(c).__name__ for p in c.get_paths()]
    return np.concatenate([p.vertices[:, 1] for p in paths]) if paths else np.array([])


def scattered(ax) -> np.ndarray:
    """The (x, y) offsets of every scatter (dots) of an axis."""
    points = [c.get_offsets() for c in ax.collections if type(c).__name__ == "PathCollection"]
    return np.concatenate(points) if points else np.empty((0, 2))


def bar_ends(ax) -> np.ndarray:
    """The y coordinates of the ends of every error bar (LineCollection) of an axis."""
    segments = [s for c in ax.collections if hasattr(c, "get_segments") for s in c.get_segments()]
    return np.concatenate([s[:, 1] for s in segments]) if segments else np.array([])


def contains(values, drawn) -> bool:
    drawn = np.asarray(drawn, dtype=float)
    return all(np.any(np.isclose(drawn, v, rtol=1e-12, atol=0)) for v in np.ravel(values))


def quantiles(values) -> np.ndarray:
    return np.quantile(np.asarray(values, dtype=float), [0.1, 0.9])


@pytest.fixture(scope="module")
def series():
    records = []
    for c, point in ((1.0, SQUARE), (2.0, RECTANGULAR)):
        for ell in point["ells"]:
            n_values = max(4, int(np.ceil(np.sqrt(ell))) + 1)
            records += [
                sticking_draw(ell, c, d, betas=point["betas"], n_values=n_values, top_k=4)
                for d in range(point["draws"])
            ]
    return collect_series(records)


def square(series):
    return [s for s in series if s.ratio == 1.0]


# B1 ---------------------------------------------------------------------------------------
def test_b1_is_drawn_from_its_csv(series, tmp_path):
    rows = list(sticking_plotted_rows(series))
    figure, frame = drawn_from_its_csv(
        plot_sticking, rows, STICKING_PLOTTED_HEADER, tmp_path / "b1.csv"
    )
    # every (c, beta, ell, draw) with k = 2..top_k, both series, and x_+ of the panel
    expected = sum(len(s.n_tokens) * s.attention[0].shape[0] * (s.top_k - 1) for s in series)
    assert len(frame) == expected
    panels = {ax.get_title().split(":")[0]: ax for ax in figure.axes if ax.get_title()}
    assert len(panels) == len(series)
    for (c, beta), panel in frame.groupby(["c", "beta"]):
        ax = panels[rf"$c = {c:g}$, $\beta = {beta:g}$"]
        assert np.isclose(panel["x_plus"].iloc[0], bulk_edge(beta, c), rtol=1e-12)
        assert has_line(ax, [panel["x_plus"].iloc[0]] * 2)
        for _, values in panel.groupby("k"):
            by_ell = values.groupby("ell")
            assert has_line(ax, by_ell["attention"].median())
            assert has_line(ax, by_ell["Y_lin"].median())
            if c == 1.0:  # 10 draws: the 10-90 % band
                bands = band_vertices(ax)
                for _, draws in by_ell:
                    assert contains(quantiles(draws["attention"]), bands)
            else:  # 3 draws: no band, every draw a dot
                assert band_vertices(ax).size == 0
                assert contains(values["attention"], scattered(ax)[:, 1])
    assert not any(ax.texts for ax in figure.axes)  # verdicts are in the caption only
    close(figure)


# B2 ---------------------------------------------------------------------------------------
def test_b2_is_drawn_from_its_csv(series, tmp_path):
    c1 = square(series)
    spike_betas = [1.0, 1.5]
    rows = list(gap_plotted_rows(c1, spike_betas=spike_betas))
    rates = {s.beta: gap_rate(s) for s in c1}
    spikes = {s.beta: spike_correlation(s) for s in c1 if s.beta in spike_betas}
    figure, frame = drawn_from_its_csv(
        lambda f: plot_gap(f, rates, spikes), rows, GAP_PLOTTED_HEADER, tmp_path / "b2.csv"
    )
    gap_ax, spike_ax, ipr_ax = figure.axes
    draws = 10 * 2  # draws x ells
    for beta, mine in frame.groupby("beta"):
        count = mine.groupby(["panel", "series"]).size()
        assert count["gap", "attention"] == count["gap", "Y_lin"] == draws
        assert count["gap", "tracy_widom"] == count["ipr", "delocalised"] == CURVE_POINTS
        assert count["ipr", "left"] == count["ipr", "right"] == draws
        gap = mine[mine["panel"] == "gap"]
        attention = gap[gap["series"] == "attention"]
        assert contains(attention["y"].abs(), scattered(gap_ax)[:, 1])
        medians = attention.groupby("x")["y"].median().abs()
        drawn = np.concatenate(ydata(gap_ax))
        assert contains(medians, drawn)
        assert contains(gap.loc[gap["series"] == "Y_lin"].groupby("x")["y"].median().abs(), drawn)
        assert has_line(gap_ax, gap.loc[gap["series"] == "tracy_widom", "y"].abs())
        fit = gap[gap["series"] == "fit"]
        assert len(fit) == 2 and has_line(gap_ax, fit["y"])
        ipr = mine[mine["series"].isin(["left", "right"])]
        assert contains(ipr["y"], scattered(ipr_ax)[:, 1])
        for _, side in ipr.groupby("series"):
            assert has_line(ipr_ax, side.groupby("x")["y"].median())
        spike = mine[mine["panel"] == "spike"]
        assert len(spike) == (draws if beta in spike_betas else 0)
        if len(spike):
            assert contains(spike["y"], scattered(spike_ax)[:, 1])
            assert contains(spike["x"], scattered(spike_ax)[:, 0])
    close(figure)


# B3 ---------------------------------------------------------------------------------------
def test_b3_is_drawn_from_its_csv(series, tmp_path):
    c1 = square(series)
    rows = list(uniform_plotted_rows(c1))
    figure, frame = drawn_from_its_csv(
        plot_uniform, rows, UNIFORM_PLOTTED_HEADER, tmp_path / "b3.csv"
    )
    assert len(frame) == len(c1) * len(SCHEDULES) * 2 * 10
    for ax, (beta, panel) in zip(figure.axes, frame.groupby("beta"), strict=True):
        assert f"{beta:g}" in ax.get_title()
        for schedule, data in panel.groupby("schedule"):
            by_ell = data.groupby("ell")
            assert has_line(ax, by_ell["D"].median())
            assert has_line(ax, by_ell["classical_D"].first())
            for ell, draws in by_ell:
                assert (draws["k_ell"] == uniform_index_counts(ell)[schedule]).all()
                assert contains(quantiles(draws["D"]), bar_ends(ax))
    close(figure)


# B4 ---------------------------------------------------------------------------------------
def test_b4_is_drawn_from_its_csv(series, tmp_path):
    curves = edge_curves(0.1, 2.0, 12, [0.5, 1.0, 2.0])
    markers = r_transform_points([0.5, 1.0], [0.5, 1.0, 2.0])
    branches = square_cubic_branches(curves["beta"])
    rows = list(edge_formula_plotted_rows(curves, markers, branches, series))
    figure, frame = drawn_from_its_csv(
        plot_edge_formulas, rows, EDGE_FORMULA_PLOTTED_HEADER, tmp_path / "b4.csv"
    )
    count = frame.groupby(["panel", "series"]).size()
    assert count["x_plus", "scalar_formula"] == count["x_plus_over_theta1", "scalar_formula"] == 36
    assert count["x_plus", "mp_edge_4theta1"] == 12 and count["x_plus", "r_transform"] == 6
    assert count["x_plus", "attention"] == count["x_plus", "Y_lin"] == 3 * 10 + 2 * 3
    for panel in ("square_roots", "square_candidate_edges"):
        for name in ("physical", "other_abs_real", "other_abs_imag"):
            assert count[panel, name] == 12
    axes = dict(zip(("x_plus", "x_plus_over_theta1", "square_roots", "square_candidate_edges"),
                    figure.axes, strict=True))  # fmt: skip
    for (panel, name, c), data in frame.groupby(["panel", "series", "c"], dropna=False):
        ax = axes[panel]
        if name in ("attention", "Y_lin"):
            by_beta = data.groupby("beta")["value"]
            assert has_line(ax, by_beta.median())
            if name == "attention" and c == 1.0:  # 10 draws: 10-90 % bars
                for _, draws in by_beta:
                    assert contains(quantiles(draws), bar_ends(ax))
            elif name == "attention":  # 3 draws: the draws themselves
                assert contains(data["value"], scattered(ax)[:, 1])
        else:
            assert has_line(ax, data["value"])
    assert not figure.axes[0].texts  # verdicts are in the caption only
    close(figure)


# B5, B6 -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def conditional():
    records = [
        conditional_draw(ell, key_dimension(ell, 1.0), 1.0, d)
        for ell in (32, 48, 64)
        for d in range(10)
    ]
    return group_by_size(records)


def test_b5_is_drawn_from_its_csv(conditional, tmp_path):
    sizes, results = conditional
    series = conditional_series(1.0, 1.0, sizes, results)
    rows = list(conditional_plotted_rows(series))
    figure, frame = drawn_from_its_csv(
        lambda f: plot_conditional_edges(f, series.rates),
        rows, CONDITIONAL_PLOTTED_HEADER, tmp_path / "b5.csv",
    )  # fmt: skip
    assert len(frame) == len(COVARIANCES) * len(sizes) * 10
    edge_ax, gap_ax = figure.axes
    assert has_line(edge_ax, [series.x_plus] * 2)
    for name, data in frame.groupby("covariance"):
        np.testing.assert_allclose(data["edge"], series.edges[name].ravel(), rtol=1e-15)
        for ax, column in ((edge_ax, "edge"), (gap_ax, "abs_gap")):
            by_ell = data.groupby("ell")[column]
            assert has_line(ax, by_ell.median())
            assert contains(data[column], scattered(ax)[:, 1])
            for _, draws in by_ell:
                assert contains(quantiles(draws), bar_ends(ax))
        assert has_line(gap_ax, data.groupby("ell")["abs_gap_fit"].first())
    close(figure)


def test_b6_is_drawn_from_its_csv(conditional, tmp_path):
    sizes, results = conditional
    series = population_series(1.0, 1.0, sizes, results)
    rows = list(population_plotted_rows(results, series))
    bins = 20
    figure, frame = drawn_from_its_csv(
        lambda f: plot_population(f, bins=bins),
        rows, POPULATION_PLOTTED_HEADER, tmp_path / "b6.csv",
    )  # fmt: skip
    count = frame.groupby(["panel", "series"]).size()
    largest = max(sizes)
    assert count["spectrum", "eigenvalue"] == len(COVARIANCES) * 10 * largest
    assert count["top", "largest"] == len(COVARIANCES) * len(sizes) * 10 * TOP_SHOWN
    assert count["rho", "density"] == DENSITY_POINTS and count["rho", "atom"] == 1
    assert count["reference"].to_dict() == dict.fromkeys(
        ["rho_edge", "tw1_mean", "tw1_q99", "tw_scale"], len(sizes)
    )
    spectrum_f, spectrum_g, top_ax, trend_ax, ks_ax = figure.axes
    density = frame[frame["series"] == "density"]
    # bins as wide as `bins` over the curve's range, an edge at the last point of the curve
    # before rho's continuous part, and the two bins right of it split into EDGE_SPLIT
    low, high = density["x"].min(), density["x"].max()
    left = density.loc[density["x"] < density.loc[density["y"] > 0, "x"].min(), "x"].max()
    edges = histogram_edges(low, high, left, bins)
    widths = np.diff(edges)
    assert edges[0] <= low and edges[-1] >= high and np.isclose(edges, left).any()
    assert np.allclose(widths[edges[:-1] < left], (high - low) / bins)
    fine = (edges[:-1] >= left) & (edges[:-1] < left + 2 * (high - low) / bins - 1e-12)
    assert fine.sum() == 2 * EDGE_SPLIT
    assert np.allclose(widths[fine], (high - low) / bins / EDGE_SPLIT)
    for ax, name in ((spectrum_f, "sigma_f"), (spectrum_g, "sigma_g")):
        values = frame.loc[(frame["panel"] == "spectrum") & (frame["covariance"] == name), "x"]
        heights, _ = np.histogram(values, bins=edges, density=True)
        drawn = [patch.get_height() for patch in ax.patches]
        np.testing.assert_allclose(drawn, heights, rtol=1e-12)
        assert has_line(ax, density["y"])
    top = frame[frame["panel"] == "top"]
    at_largest = top[top["ell"] == largest]
    assert contains(at_largest["y"], scattered(top_ax)[:, 0])
    lambda_max = top[top["rank"] == 0]
    for _, data in lambda_max.groupby("covariance"):
        assert has_line(trend_ax, data.groupby("ell")["y"].median())
        assert contains(data["y"], scattered(trend_ax)[:, 1])
    for name in ("tw1_mean", "tw1_q99"):
        assert has_line(trend_ax, frame.loc[frame["series"] == name, "y"])
    for _, data in frame[frame["panel"] == "kolmogorov"].groupby("covariance"):
        assert has_line(ks_ax, data["y"])
    close(figure)


# The companion notebook ------------------------------------------------------------------
def test_the_notebook_redraws_b1_from_its_csv_alone(series, tmp_path):
    source = (REPO / "workflow/notebooks/paperB.py").read_text()
    cells = jupytext.reads(source, fmt="py:percent").cells
    redraw = [cell.source for cell in cells if cell.cell_type == "code"][-1]
    assert "B1-sticking.csv" in redraw
    write_csv(tmp_path / "B1-sticking.csv", STICKING_PLOTTED_HEADER, sticking_plotted_rows(series))
    namespace = {"pd": pd, "sns": sns, "plt": SimpleNamespace(show=lambda: None)}
    namespace["paper"] = SimpleNamespace(folder=tmp_path)
    exec(redraw, namespace)
    grid, table = namespace["grid"], namespace["table"]
    for (c, beta), ax in grid.axes_dict.items():
        panel = table[(table["c"] == c) & (table["beta"] == beta)]
        if panel.empty:
            continue
        assert has_line(ax, [panel["x_plus"].iloc[0]] * 2)
        for _, values in panel.groupby("k"):
            by_ell = values.groupby("ell")["attention"]
            assert has_line(ax, by_ell.median())
            for _, draws in by_ell:
                assert contains(quantiles(draws), band_vertices(ax))
    close(grid.figure)
