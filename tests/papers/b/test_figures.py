"""Figures B1-B6 are drawn from their tidy CSVs alone: each table has ``kind`` first (data,
theory, statistic) and no constant repeated on the data rows, the figure drawn from the CSV file
is byte-identical to the one drawn from the table before writing, each panel's curves, bands,
bars, dots and histograms are the CSV's numbers (medians and 10-90 % quantiles over the CSV's
draws where a panel has at least 10 draws, the draws themselves where it has fewer), and the CSV
has the rows every panel needs; the companion notebook's redraw cell and the README's redraw
snippet work from the CSV alone."""

import re
from dataclasses import replace
from types import SimpleNamespace

import jupytext
import numpy as np
import pandas as pd
import pytest
import seaborn as sns
from conftest import REPO
from figure_checks import from_csv, panel_texts, png_bytes

from attnspec.papers.b.conditional import COVARIANCES, conditional_draw, key_dimension
from attnspec.papers.b.conditional_plotted import (
    DENSITY_POINTS,
    conditional_plotted_table,
    population_plotted_table,
)
from attnspec.papers.b.conditional_summary import (
    TOP_SHOWN,
    conditional_series,
    group_by_size,
    population_series,
)
from attnspec.papers.b.edge_formulas_plotted import edge_formula_plotted_table
from attnspec.papers.b.edge_formulas_summary import (
    edge_curves,
    r_transform_points,
    square_cubic_branches,
)
from attnspec.papers.b.plot_conditional import (
    EDGE_SPLIT,
    histogram_edges,
    plot_conditional_edges,
    plot_population,
)
from attnspec.papers.b.plot_edge_formulas import plot_edge_formulas
from attnspec.papers.b.plot_sticking import plot_gap, plot_sticking, plot_uniform
from attnspec.papers.b.plot_visibility import plot_visibility
from attnspec.papers.b.sticking import sticking_draw, uniform_index_counts
from attnspec.papers.b.sticking_plotted import (
    CURVE_POINTS,
    gap_plotted_table,
    sticking_plotted_table,
    uniform_plotted_table,
)
from attnspec.papers.b.sticking_summary import (
    SCHEDULES,
    collect_series,
    gap_rate,
    spike_correlation,
)
from attnspec.papers.b.visibility_plotted import visibility_plotted_table
from attnspec.papers.b.visibility_summary import spike_quantile, spike_threshold
from attnspec.plotting.craft import layering_problems
from attnspec.plotting.style import close
from attnspec.theory import bulk_edge
from attnspec.workflow.io import write_table

# c = 1 with 10 draws (bands), c = 2 with 3 draws (the draws themselves) and another largest ell
SQUARE = {"ells": (64, 96), "betas": [0.5, 1.0, 1.5], "draws": 10}
RECTANGULAR = {"ells": (64, 128), "betas": [0.5, 1.0], "draws": 3}
KINDS = {"data", "theory", "statistic"}


def drawn_from_its_csv(plot, table, path):
    """The figure drawn from the CSV, after checking it equals the one drawn from the table
    byte for byte; and the CSV as a DataFrame."""
    frame = from_csv(table, path)
    direct = plot(table)
    figure = plot(frame)
    assert png_bytes(figure) == png_bytes(direct)
    close(direct)
    return figure, frame


def assert_tidy(frame, one_panel=()):
    """``kind`` first with only data, theory and statistic, then ``series``; no column (after
    those two) constant over every data row (a value repeated on the draws belongs in a theory
    or statistic row of its own), save the identifiers ``one_panel`` of a one-panel figure."""
    assert list(frame.columns[:2]) == ["kind", "series"]
    assert set(frame["kind"]) <= KINDS and "data" in set(frame["kind"])
    assert frame["series"].notna().all()
    data = frame[frame["kind"] == "data"]
    for column in frame.columns[2:]:
        if column not in one_panel:
            assert data[column].nunique(dropna=False) > 1, f"{column} is constant on the data"


def of(frame, kind, *series):
    keep = frame["kind"] == kind
    if series:
        keep &= frame["series"].isin(series)
    return frame[keep]


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
    table = sticking_plotted_table(series)
    figure, frame = drawn_from_its_csv(plot_sticking, table, tmp_path / "b1.csv")
    assert_tidy(frame)
    assert list(frame.columns) == ["kind", "series", "c", "beta", "ell", "draw", "k", "value"]
    assert set(frame.groupby(["kind", "series"]).groups) == {
        ("data", "attention"), ("data", "Y_lin"), ("theory", "x_plus"),
    }  # fmt: skip
    # every (c, beta, ell, draw) with k = 2..top_k in both data series, x_+ once per (c, beta)
    expected = sum(len(s.n_tokens) * s.attention[0].shape[0] * (s.top_k - 1) for s in series)
    assert len(of(frame, "data", "attention")) == len(of(frame, "data", "Y_lin")) == expected
    edges = of(frame, "theory", "x_plus").set_index(["c", "beta"])["value"]
    assert len(edges) == len(series)
    for s in series:  # the table's numbers are the series' values
        assert np.isclose(edges[s.ratio, s.beta], bulk_edge(s.beta, s.ratio), rtol=1e-12)
        mine = of(frame, "data")
        mine = mine[(mine["c"] == s.ratio) & (mine["beta"] == s.beta) & (mine["ell"] == 64)]
        for name, values, first in (("attention", s.attention[0], 1), ("Y_lin", s.linear[0], 0)):
            drawn = mine[mine["series"] == name].pivot(index="draw", columns="k", values="value")
            np.testing.assert_array_equal(drawn.to_numpy(), values[:, first : first + 3])
    panels = {ax.get_title().split(":")[0]: ax for ax in figure.axes if ax.get_title()}
    assert len(panels) == len(series)
    for (c, beta), panel in of(frame, "data").groupby(["c", "beta"]):
        ax = panels[rf"$c = {c:g}$, $\beta = {beta:g}$"]
        assert has_line(ax, [edges[c, beta]] * 2)
        for _, values in panel.groupby("k"):
            attention = values[values["series"] == "attention"].groupby("ell")["value"]
            linear = values[values["series"] == "Y_lin"].groupby("ell")["value"]
            assert has_line(ax, attention.median()) and has_line(ax, linear.median())
            if c == 1.0:  # 10 draws: the 10-90 % band
                bands = band_vertices(ax)
                for _, draws in attention:
                    assert contains(quantiles(draws), bands)
            else:  # 3 draws: no band, every draw a dot
                assert band_vertices(ax).size == 0
                assert contains(values.loc[values["series"] == "attention", "value"],
                                scattered(ax)[:, 1])  # fmt: skip
    assert not any(panel_texts(ax) for ax in figure.axes)  # verdicts are in the caption only
    close(figure)


# B2 ---------------------------------------------------------------------------------------
def test_b2_is_drawn_from_its_csv(series, tmp_path):
    c1 = square(series)
    spike_betas = [1.0, 1.5]
    table = gap_plotted_table(c1, spike_betas=spike_betas)
    figure, frame = drawn_from_its_csv(plot_gap, table, tmp_path / "b2.csv")
    assert_tidy(frame)
    gap_ax, spike_ax, ipr_ax = figure.axes
    legend = " ".join(text.get_text() for text in figure.legends[0].get_texts())
    delocalised = of(frame, "theory", "delocalised")
    assert len(delocalised) == CURVE_POINTS and delocalised["beta"].isna().all()
    assert has_line(ipr_ax, delocalised["value"])
    draws = 10 * 2  # draws x ells
    for s in c1:
        beta, mine = s.beta, frame[frame["beta"] == s.beta]
        count = mine.groupby(["kind", "panel", "series"]).size()
        assert count["data", "gap", "attention"] == count["data", "gap", "Y_lin"] == draws
        assert count["theory", "gap", "tracy_widom"] == CURVE_POINTS
        assert count["data", "ipr", "left"] == count["data", "ipr", "right"] == draws
        gap = mine[mine["panel"] == "gap"]
        attention = of(gap, "data", "attention")
        assert contains(attention["value"].abs(), scattered(gap_ax)[:, 1])
        medians = attention.groupby("ell")["value"].median().abs()
        drawn = np.concatenate(ydata(gap_ax))
        assert contains(medians, drawn)
        assert contains(of(gap, "data", "Y_lin").groupby("ell")["value"].median().abs(), drawn)
        assert has_line(gap_ax, of(gap, "theory", "tracy_widom")["value"].abs())
        fit = of(gap, "statistic", "fit")
        assert len(fit) == 2 and has_line(gap_ax, fit["value"])
        rate, slopes = gap_rate(s), of(gap, "statistic").set_index("series")["value"]
        assert (slopes["fit_slope"], slopes["fit_slope_low"], slopes["fit_slope_high"]) == (
            rate.slope, rate.low, rate.high,
        )  # fmt: skip
        assert f"fit slope ${rate.slope:.2f}$" in legend
        ipr = of(mine, "data", "left", "right")
        assert contains(ipr["value"], scattered(ipr_ax)[:, 1])
        for _, side in ipr.groupby("series"):
            assert has_line(ipr_ax, side.groupby("ell")["value"].median())
        spike = mine[mine["panel"] == "spike"]
        points = of(spike, "data")
        assert len(points) == (draws if beta in spike_betas else 0)
        if len(points):
            supercritical = of(spike, "data", "supercritical")
            assert supercritical["prediction"].notna().all()
            assert of(spike, "data", "subcritical")["prediction"].isna().all()
            assert of(spike, "theory", "x_plus")["value"].item() == s.x_plus
            r, number = spike_correlation(s)
            assert of(spike, "statistic", "spike_correlation")["value"].item() == pytest.approx(r)
            assert len(supercritical) == number
            assert contains(points["value"], scattered(spike_ax)[:, 1])
            assert contains(supercritical["prediction"], scattered(spike_ax)[:, 0])
    close(figure)


# B3 ---------------------------------------------------------------------------------------
def test_b3_is_drawn_from_its_csv(series, tmp_path):
    c1 = square(series)
    table = uniform_plotted_table(c1)
    figure, frame = drawn_from_its_csv(plot_uniform, table, tmp_path / "b3.csv")
    assert_tidy(frame)
    assert len(of(frame, "data", "D")) == len(c1) * len(SCHEDULES) * 2 * 10
    assert len(of(frame, "theory", "classical_D")) == len(c1) * len(SCHEDULES) * 2
    assert set(frame["kind"]) == {"data", "theory"}
    for ax, (beta, panel) in zip(figure.axes, frame.groupby("beta"), strict=True):
        assert f"{beta:g}" in ax.get_title()
        for schedule, data in panel.groupby("schedule"):
            draws, classical = of(data, "data", "D"), of(data, "theory", "classical_D")
            by_ell = draws.groupby("ell")
            assert has_line(ax, by_ell["value"].median())
            assert has_line(ax, classical["value"])
            for ell, mine in by_ell:
                assert (mine["k_ell"] == uniform_index_counts(ell)[schedule]).all()
                assert contains(quantiles(mine["value"]), bar_ends(ax))
    close(figure)


# B4 ---------------------------------------------------------------------------------------
def test_b4_is_drawn_from_its_csv(series, tmp_path):
    curves = edge_curves(0.1, 2.0, 12, [0.5, 1.0, 2.0])
    markers = r_transform_points([0.5, 1.0], [0.5, 1.0, 2.0])
    branches = square_cubic_branches(curves["beta"])
    table = edge_formula_plotted_table(curves, markers, branches, series)
    figure, frame = drawn_from_its_csv(plot_edge_formulas, table, tmp_path / "b4.csv")
    assert_tidy(frame)
    assert set(of(frame, "data")["series"]) == {"attention", "Y_lin"}
    count = frame.groupby(["panel", "series"]).size()
    assert count["x_plus", "scalar_formula"] == count["x_plus_over_theta1", "scalar_formula"] == 36
    assert count["x_plus", "mp_edge_4theta1"] == 12 and count["x_plus", "r_transform"] == 6
    assert count["x_plus", "attention"] == count["x_plus", "Y_lin"] == 3 * 10 + 2 * 3
    for panel in ("square_roots", "square_candidate_edges"):
        for name in ("physical", "other_abs_real", "other_abs_imag"):
            assert count[panel, name] == 12
    ells = of(frame, "data").groupby("c")["ell"].unique()
    assert ells.map(list).to_dict() == {1.0: [96], 2.0: [128]}  # the largest ell of each c
    axes = dict(zip(("x_plus", "x_plus_over_theta1", "square_roots", "square_candidate_edges"),
                    figure.axes, strict=True))  # fmt: skip
    limit = of(frame[frame["panel"] == "x_plus_over_theta1"], "theory", "mp_edge_4theta1")
    assert limit["value"].tolist() == [4.0] and has_line(axes["x_plus_over_theta1"], [4.0, 4.0])
    for (panel, name, c), data in frame.drop(limit.index).groupby(
        ["panel", "series", "c"], dropna=False
    ):
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
            assert (data["kind"] == "theory").all()
            assert has_line(ax, data["value"])
    assert not panel_texts(figure.axes[0])  # verdicts are in the caption only
    close(figure)


# B7 ---------------------------------------------------------------------------------------
def _at_sizes(s, sizes):
    """The series ``s`` restricted to the ells in ``sizes``."""
    keep = [i for i, ell in enumerate(s.n_tokens) if int(ell) in sizes]
    per_ell = ("attention", "linear", "theta_max", "ipr_left", "ipr_right")
    return replace(s, n_tokens=s.n_tokens[keep],
                   **{key: tuple(getattr(s, key)[i] for i in keep) for key in per_ell})  # fmt: skip


def test_b7_is_drawn_from_its_csv(series, tmp_path):
    """This preset's draws at ell = 64, the paper preset's "stored" ones at 96, a paper grid point
    (128) without draws; every theta_max is a dot of its beta's panel, every grid point a
    marker of panel (a) with the fraction of its draws above 1/G*, the model's median and the
    threshold are lines, and nothing hides data."""
    c1 = square(series)
    betas = [s.beta for s in c1]
    run, stored = [_at_sizes(s, {64}) for s in c1], [_at_sizes(s, {96}) for s in c1]
    grids = {"run": ([64], betas), "paper": ([64, 96, 128], betas)}
    table = visibility_plotted_table(run, stored, grids, ratios=[0.5, 2.0])
    figure, frame = drawn_from_its_csv(plot_visibility, table, tmp_path / "b7.csv")
    assert list(frame.columns[:2]) == ["kind", "series"] and set(frame["kind"]) <= KINDS
    plane_ax, *spike_axes = figure.axes
    assert len(spike_axes) == len(betas)
    assert set(of(frame, "theory", "critical_size")["c"]) == {0.5, 1.0, 2.0}
    grid = of(frame, "data", "grid").set_index(["beta", "ell"])
    assert grid.loc[(1.0, 64), "preset"] == "both" and grid.loc[(1.0, 96), "preset"] == "paper"
    assert grid.loc[(1.0, 128), "draws"] == 0 and np.isnan(grid.loc[(1.0, 128), "value"])
    plane_points = np.array([line.get_xydata()[0] for line in plane_ax.lines
                             if line.get_linestyle() == "None"])  # fmt: skip
    theta = of(frame, "data", "theta_max")
    for (beta, ell), row in grid.iterrows():
        assert np.any(np.all(np.isclose(plane_points, [beta, ell], rtol=1e-12), axis=1))
        if row["draws"]:
            mine = theta[(theta["beta"] == beta) & (theta["ell"] == ell)]["value"]
            assert len(mine) == row["draws"] == 10
            assert row["value"] == np.mean(mine > spike_threshold(beta))
    for ax, s in zip(spike_axes, c1, strict=True):
        mine = frame[frame["beta"] == s.beta]
        draws = of(mine, "data", "theta_max")
        assert set(draws["preset"]) == {"run", "stored"}
        assert contains(draws["value"], scattered(ax)[:, 1])
        quantiles = of(mine, "theory", "quantile")
        median = quantiles[quantiles["probability"] == 0.5]
        assert np.allclose(median["value"], spike_quantile(median["ell"], s.beta), rtol=1e-12)
        assert has_line(ax, median["value"])
        threshold = of(mine, "theory", "threshold")["value"].item()
        assert threshold == s.critical_spike and has_line(ax, [threshold, threshold])
    assert layering_problems(figure) == []
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
    table = conditional_plotted_table(series)
    figure, frame = drawn_from_its_csv(plot_conditional_edges, table, tmp_path / "b5.csv")
    assert_tidy(frame)
    assert list(frame.columns) == ["kind", "series", "covariance", "ell", "draw", "value"]
    data = of(frame, "data")
    assert len(data) == 2 * len(COVARIANCES) * len(sizes) * 10
    assert of(frame, "theory")["series"].tolist() == ["x_plus"]
    assert of(frame, "theory")["value"].item() == series.x_plus
    edge_ax, gap_ax = figure.axes
    legend = " ".join(text.get_text() for text in figure.legends[0].get_texts())
    assert has_line(edge_ax, [series.x_plus] * 2)
    for name, mine in frame.groupby("covariance"):
        edges = of(mine, "data", "edge")
        np.testing.assert_allclose(edges["value"], series.edges[name].ravel(), rtol=1e-15)
        for ax, column in ((edge_ax, "edge"), (gap_ax, "abs_gap")):
            values = of(mine, "data", column)
            by_ell = values.groupby("ell")["value"]
            assert has_line(ax, by_ell.median())
            assert contains(values["value"], scattered(ax)[:, 1])
            for _, draws in by_ell:
                assert contains(quantiles(draws), bar_ends(ax))
        fit = of(mine, "statistic", "abs_gap_fit")
        assert len(fit) == len(sizes) and has_line(gap_ax, fit["value"])
        rate, slopes = series.rates[name], of(mine, "statistic").set_index("series")["value"]
        assert (slopes["fit_slope"], slopes["fit_slope_low"], slopes["fit_slope_high"]) == (
            rate.slope, rate.low, rate.high,
        )  # fmt: skip
        assert f"\\ell^{{{rate.slope:.2f}}}" in legend
    close(figure)


def test_b6_is_drawn_from_its_csv(conditional, tmp_path):
    sizes, results = conditional
    series = population_series(1.0, 1.0, sizes, results)
    table = population_plotted_table(results, series)
    bins = 20
    figure, frame = drawn_from_its_csv(
        lambda f: plot_population(f, bins=bins), table, tmp_path / "b6.csv"
    )
    assert_tidy(frame)
    count = frame.groupby(["kind", "series"]).size()
    largest = max(sizes)
    assert count["data", "eigenvalue"] == len(COVARIANCES) * 10 * largest
    assert count["data", "largest"] == len(COVARIANCES) * len(sizes) * 10 * TOP_SHOWN
    assert count["theory", "density"] == DENSITY_POINTS and count["theory", "atom"] == 1
    assert count["statistic"].to_dict() == {"kolmogorov": len(COVARIANCES) * len(sizes)}
    assert count["theory", "rho_edge"] == 1
    assert count["theory"].drop(["density", "atom", "rho_edge"]).to_dict() == dict.fromkeys(
        ["tw1_mean", "tw1_q99", "tw_scale"], len(sizes)
    )
    assert of(frame, "theory", "rho_edge")["x"].item() == series.scales[-1].rho_edge
    spectrum_f, spectrum_g, top_ax, trend_ax, ks_ax = figure.axes
    density = of(frame, "theory", "density")
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
        values = of(frame[frame["covariance"] == name], "data", "eigenvalue")["x"]
        heights, _ = np.histogram(values, bins=edges, density=True)
        drawn = [patch.get_height() for patch in ax.patches]
        np.testing.assert_allclose(drawn, heights, rtol=1e-12)
        assert has_line(ax, density["y"])
    top = of(frame, "data", "largest")
    at_largest = top[top["ell"] == largest]
    assert contains(at_largest["y"], scattered(top_ax)[:, 0])
    lambda_max = top[top["rank"] == 0]
    for _, data in lambda_max.groupby("covariance"):
        assert has_line(trend_ax, data.groupby("ell")["y"].median())
        assert contains(data["y"], scattered(trend_ax)[:, 1])
    for name in ("tw1_mean", "tw1_q99"):
        assert has_line(trend_ax, of(frame, "theory", name)["y"])
    for _, data in of(frame, "statistic", "kolmogorov").groupby("covariance"):
        assert has_line(ks_ax, data["y"])
    close(figure)


# Redrawing B1 from its CSV alone: the notebook's last cell and the README's snippet -------
def b1_csv(series, folder):
    write_table(folder / "B1-sticking.csv", sticking_plotted_table(series))
    return pd.read_csv(folder / "B1-sticking.csv")


def assert_b1_redrawn(grid, table) -> None:
    """Every panel has the medians of both data series per k, the 10-90 % band of ell
    s_k(A)^2 where it has 10 draws and, if the snippet draws it, x_+."""
    data = of(table, "data")
    for (c, beta), ax in grid.axes_dict.items():
        panel = data[(data["c"] == c) & (data["beta"] == beta)]
        if panel.empty:
            continue
        for (name, _), values in panel.groupby(["series", "k"]):
            by_ell = values.groupby("ell")["value"]
            assert has_line(ax, by_ell.median())
            if name == "attention" and c == 1.0:
                for _, draws in by_ell:
                    assert contains(quantiles(draws), band_vertices(ax))


def test_the_notebook_redraws_b1_from_its_csv_alone(series, tmp_path):
    source = (REPO / "workflow/notebooks/paperB.py").read_text()
    cells = jupytext.reads(source, fmt="py:percent").cells
    redraw = [cell.source for cell in cells if cell.cell_type == "code"][-1]
    assert "B1-sticking.csv" in redraw
    b1_csv(series, tmp_path)
    namespace = {"pd": pd, "sns": sns, "plt": SimpleNamespace(show=lambda: None)}
    namespace["paper"] = SimpleNamespace(folder=tmp_path)
    exec(redraw, namespace)
    grid, table = namespace["grid"], namespace["table"]
    assert_b1_redrawn(grid, table)
    edges = of(table, "theory", "x_plus")
    for (c, beta), ax in grid.axes_dict.items():
        edge = edges.loc[(edges["c"] == c) & (edges["beta"] == beta), "value"]
        if len(edge):
            assert has_line(ax, [edge.item()] * 2)
    close(grid.figure)


def test_the_readme_redraws_b1_from_its_csv_alone(series, tmp_path, monkeypatch):
    readme = (REPO / "README.md").read_text()
    section = readme.split("The figures are drawn with seaborn from their CSV")[1]
    (snippet,) = re.findall(r"```python\n(.*?)```", section, flags=re.S)[:1]
    assert 'pd.read_csv("figures/paperB/B1-sticking.csv")' in snippet
    (tmp_path / "figures" / "paperB").mkdir(parents=True)
    b1_csv(series, tmp_path / "figures" / "paperB")
    monkeypatch.chdir(tmp_path)
    namespace = {}
    exec(snippet, namespace)
    assert_b1_redrawn(namespace["grid"], namespace["table"])
    close(namespace["grid"].figure)
