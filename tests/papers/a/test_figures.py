"""Figures A1-A8 are drawn from their tidy CSVs alone: each figure function gets the CSV file
read back by pandas (as the figure scripts do), the drawn curves, bars, points and medians are
the CSV's numbers (or pandas group-bys of them), each panel has the rows it needs, bands over
draws appear only from 10 draws on (else the draws themselves), and a redraw gives the same
bytes. Small sizes; the end-to-end run checks the real ones."""

import numpy as np
import pandas as pd
import pytest
from figure_checks import from_csv, panel_texts, png_bytes
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgb

from attnspec.models.gaussian_equivalent import STEPWISE_MODELS
from attnspec.papers.a import (
    bulk_laws_plotted,
    bulk_laws_summary,
    edges_plotted,
    edges_summary,
    full_spectrum,
    full_spectrum_plotted,
    full_spectrum_summary,
    limit_law_plotted,
    limit_law_summary,
    linearisation_plotted,
    linearisation_summary,
    perron,
    perron_plotted,
    perron_summary,
    stepwise_plotted,
    stepwise_summary,
)
from attnspec.papers.a.plot_bulk_laws import plot_bulk_laws, plot_ratios
from attnspec.papers.a.plot_edges import plot_edges
from attnspec.papers.a.plot_full_spectrum import plot_full_spectrum
from attnspec.papers.a.plot_limit_law import plot_limit_law
from attnspec.papers.a.plot_linearisation import plot_linearisation
from attnspec.papers.a.plot_perron import plot_perron
from attnspec.papers.a.plot_stepwise import plot_stepwise
from attnspec.papers.spectra import model_spectra
from attnspec.plotting.craft import convention_problems, craft_problems, layering_problems
from attnspec.plotting.style import COLOURS, close

POINT = dict(d_qk=40, sampler="gaussian", d_model=None)
ELL = 40


KINDS = {"data", "theory", "statistic"}


def csv_frame(tmp_path, table: pd.DataFrame) -> pd.DataFrame:
    """The figure's table written as its CSV and read back, as the figure scripts do."""
    frame = from_csv(table, tmp_path / "plotted.csv")
    assert list(frame.columns) == list(table.columns)
    return frame


def assert_tidy(frame: pd.DataFrame, identifiers=()) -> None:
    """``kind`` first, then ``series``; only the three kinds; no column holds one value on
    every data row (a constant repeated on each observation), except the ``identifiers`` of a
    one-panel figure."""
    assert list(frame.columns[:2]) == ["kind", "series"]
    assert set(frame["kind"]) <= KINDS
    data = frame[frame["kind"] == "data"]
    assert len(data) > 0
    for column in frame.columns[2:]:
        if column not in identifiers:
            assert data[column].isna().all() or data[column].nunique(dropna=False) > 1, column


def redraws_identically(figure, draw) -> None:
    """Drawing the same CSV again gives the same bytes."""
    again = draw()
    assert png_bytes(figure) == png_bytes(again)
    close(figure)
    close(again)


def line_data(line) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)


def has_band(ax) -> bool:
    """seaborn draws a band over draws as a PolyCollection (fill_between)."""
    return any(isinstance(c, PolyCollection) for c in ax.collections)


def spectra_of(model, draws, beta, n_tokens=ELL, **point):
    return model_spectra(model, draws, n_tokens=n_tokens, beta=beta, **(POINT | point))


# A1 ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=[3, 10], ids=["3-draws", "10-draws"])
def stepwise_table(request):
    draws = request.param
    spectra = {m: spectra_of(m, draws, 1.0) for m in STEPWISE_MODELS}
    summary = stepwise_summary.summarise_stepwise(
        spectra, beta=1.0, ratio=1.0, n_removed=3, bins=10
    )
    return draws, stepwise_plotted.stepwise_plotted_table(spectra, summary, 3), summary


def test_a1_table_is_tidy(stepwise_table, tmp_path):
    draws, table, summary = stepwise_table
    frame = csv_frame(tmp_path, table)
    assert_tidy(frame)
    assert list(frame.columns) == ["kind", "series", "model", "draw", "k", "x", "value"]
    kinds = frame.groupby(["kind", "series"]).size().to_dict()
    assert kinds == {
        ("data", "bulk"): len(STEPWISE_MODELS) * draws * (ELL - 3),
        ("theory", "nu_inf_density"): summary["theory_x"].size,
        ("theory", "nu_inf_quantile"): ELL - 3,
        ("theory", "x_plus"): 1,
        ("statistic", "ks_to_attention"): len(STEPWISE_MODELS),
    }
    ks = frame[frame["series"] == "ks_to_attention"]
    assert list(ks["model"]) == list(STEPWISE_MODELS)
    np.testing.assert_array_equal(ks["value"], summary["ks_to_attention"])
    assert frame.loc[frame["series"] == "x_plus", "value"].item() == summary["x_plus"]


def test_a1_is_drawn_from_its_csv(stepwise_table, tmp_path):
    draws, table, summary = stepwise_table
    frame = csv_frame(tmp_path, table)
    bulk = frame[(frame["kind"] == "data") & (frame["series"] == "bulk")]
    assert len(bulk) == len(STEPWISE_MODELS) * draws * (ELL - 3)
    figure = plot_stepwise(frame, bins=10)
    density = frame[frame["series"] == "nu_inf_density"]
    quantile = frame[frame["series"] == "nu_inf_quantile"]
    for column, model in enumerate(STEPWISE_MODELS):
        top, bottom = figure.axes[column], figure.axes[len(STEPWISE_MODELS) + column]
        x, y = line_data(top.lines[0])
        np.testing.assert_array_equal(x, density["x"])
        np.testing.assert_array_equal(y, density["value"])
        mine = bulk[bulk["model"] == model]
        median = mine.groupby("k")["value"].median()
        x, y = line_data(bottom.lines[0])
        np.testing.assert_array_equal(x, median.index)
        np.testing.assert_allclose(y, median.to_numpy())
        # the library's sorted medians are the CSV's
        np.testing.assert_allclose(median.to_numpy(), summary[f"sorted/{model}"])
        np.testing.assert_array_equal(line_data(bottom.lines[-1])[1], quantile["value"])
        assert has_band(bottom) == (draws >= 10)
        assert len(bottom.lines) == (2 if draws >= 10 else 2 + draws)
        # each row shares its y-axis (the figure editor's defect: the bottom row did not)
        assert top.get_shared_y_axes().joined(top, figure.axes[0])
        assert bottom.get_shared_y_axes().joined(bottom, figure.axes[len(STEPWISE_MODELS)])
    redraws_identically(figure, lambda: plot_stepwise(frame, bins=10))
    assert craft_problems(plot_stepwise(frame, bins=10)) == []


# A2 ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def full_spectrum_table():
    parameters = dict(n_tokens=ELL, d_qk=ELL, beta=1.0)
    draws = full_spectrum.full_spectrum_draws(2, **parameters)
    summary = full_spectrum_summary.summarise_full_spectrum(draws, **parameters)
    return full_spectrum_plotted.full_spectrum_plotted_table(summary), summary


def test_a2_table_is_tidy(full_spectrum_table, tmp_path):
    table, summary = full_spectrum_table
    frame = csv_frame(tmp_path, table)
    assert_tidy(frame)
    assert list(frame.columns) == ["kind", "series", "draw", "k", "x", "value"]
    pairs = summary["pair_value"].size
    kinds = frame.groupby(["kind", "series"]).size().to_dict()
    assert kinds == {
        ("data", "spectrum"): 2 * ELL,
        ("data", "nonperron"): pairs,
        ("data", "ell_ipr_left"): pairs,
        ("data", "ell_ipr_right"): pairs,
        ("theory", "nu_inf_quantile"): ELL - 1,
        ("theory", "nu_inf_expected_count"): summary["edges"].size - 1,
        ("theory", "spike_prediction"): 2,
    } | {("theory", name): 1 for name in full_spectrum_plotted.FULL_SPECTRUM_LEVELS}
    # each singular pair: its value, ranked within its draw, and the IPR of both its vectors
    nonperron = frame[frame["series"] == "nonperron"]
    np.testing.assert_array_equal(nonperron["value"], summary["pair_value"])
    np.testing.assert_array_equal(nonperron["draw"], summary["pair_draw"])
    np.testing.assert_array_equal(nonperron["k"], nonperron.groupby("draw").cumcount() + 1)
    for side in ("left", "right"):
        ipr = frame[frame["series"] == f"ell_ipr_{side}"]
        np.testing.assert_array_equal(ipr["x"], summary["pair_value"])
        np.testing.assert_array_equal(ipr["k"], nonperron["k"])
        np.testing.assert_array_equal(ipr["value"], summary[f"pair_ipr_{side}"])
    for name in full_spectrum_plotted.FULL_SPECTRUM_LEVELS:
        assert frame.loc[frame["series"] == name, "value"].item() == summary[name]


def test_a2_is_drawn_from_its_csv(full_spectrum_table, tmp_path):
    table, summary = full_spectrum_table
    frame = csv_frame(tmp_path, table)
    spectrum = frame[(frame["kind"] == "data") & (frame["series"] == "spectrum")]
    assert len(spectrum) == 2 * ELL
    figure = plot_full_spectrum(frame)
    sorted_ax, histogram_ax, top_ax, ipr_ax = figure.axes
    np.testing.assert_array_equal(
        line_data(sorted_ax.lines[0])[1], spectrum.loc[spectrum["draw"] == 0, "value"]
    )
    # (b): the data's bars and the theory's outline are the CSV's values on the same log bins
    outline = [line for line in histogram_ax.lines if len(line.get_xdata()) > 2][0]
    expected = frame.loc[frame["series"] == "nu_inf_expected_count", "value"].to_numpy()
    np.testing.assert_allclose(np.unique(line_data(outline)[1]), np.unique(expected))
    np.testing.assert_allclose(np.unique(expected), np.unique(summary["theory_counts"]))
    fill = [c for c in histogram_ax.collections if isinstance(c, PolyCollection)][0]
    heights = np.unique(fill.get_paths()[0].vertices[:, 1])
    assert set(summary["counts"][summary["counts"] > 0]) <= set(np.round(heights, 9))
    # (c): one line per draw through its non-Perron values; (d): every vector's IPR
    nonperron = frame[frame["series"] == "nonperron"]
    drawn = [line_data(line)[1] for line in top_ax.lines if line.get_marker() == "o"]
    for draw, values in nonperron.groupby("draw")["value"]:
        assert any(np.array_equal(y, values.to_numpy()) for y in drawn), draw
    for series, marker in (("ell_ipr_left", "o"), ("ell_ipr_right", "^")):
        line = [line for line in ipr_ax.lines if line.get_marker() == marker][0]
        rows = frame[frame["series"] == series]
        np.testing.assert_array_equal(line_data(line)[0], rows["x"])
        np.testing.assert_array_equal(line_data(line)[1], rows["value"])
    assert not top_ax.child_axes  # at this ell the Tracy-Widom window is seen without a zoom
    redraws_identically(figure, lambda: plot_full_spectrum(frame))
    assert craft_problems(plot_full_spectrum(frame)) == []


def test_a2_zooms_on_a_thin_tracy_widom_window(full_spectrum_table, tmp_path):
    """A Tracy-Widom window too thin to be seen on (c) (as at ell = 1000) gets an inset that
    spans it, its two ticks at its bounds."""
    table, _ = full_spectrum_table
    frame = csv_frame(tmp_path, table)
    x_plus = frame.loc[frame["series"] == "x_plus", "value"].iloc[0]
    frame.loc[frame["series"] == "outlier_threshold", "value"] = 1.002 * x_plus
    figure = plot_full_spectrum(frame)
    (zoom,) = figure.axes[2].child_axes
    low, high = zoom.get_ylim()
    assert low < x_plus < 1.002 * x_plus < high
    np.testing.assert_allclose(zoom.get_yticks(), [x_plus, 1.002 * x_plus])
    assert craft_problems(figure) == []


# A3 ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def bulk_laws_table():
    attention, linear, summaries = [], [], []
    for beta in (0.5, 1.0):
        attention.append(spectra_of("attention", 3, beta))
        linear.append(spectra_of("linear", 3, beta))
        summaries.append(
            bulk_laws_summary.summarise_bulk_laws(
                list(attention[-1]), list(linear[-1]), beta=beta, ratio=1.0, bins=12
            )
        )
    return bulk_laws_plotted.bulk_laws_plotted_table(summaries, attention, linear), summaries


def test_a3_table_is_tidy(bulk_laws_table):
    table, _ = bulk_laws_table
    assert_tidy(table)
    assert set(table["kind"]) == KINDS
    assert list(table.columns) == ["kind", "series", "beta", "model", "draw", "x", "value"]
    scalars = table[table["x"].isna() & table["draw"].isna()]
    assert scalars.groupby("beta").size().tolist() == [7, 7]  # x_+, 4 theta1, mass, distances
    assert set(scalars["kind"]) == {"theory", "statistic"}


def test_a3_is_drawn_from_its_csv(bulk_laws_table, tmp_path):
    table, summaries = bulk_laws_table
    frame = csv_frame(tmp_path, table)
    counts = frame[frame["kind"] == "data"].groupby(["beta", "model"]).size()
    assert counts.to_dict() == {
        (b, m): 3 * (ELL - (m == "attention")) for b in (0.5, 1.0) for m in ("attention", "linear")
    }
    figure = plot_bulk_laws(frame, bins=12)
    for column, summary in enumerate(summaries):
        beta = float(summary["beta"])
        top, bottom = figure.axes[column], figure.axes[2 + column]
        # seaborn's density bars are the library's histogram, normalised by all pooled values
        heights = [p.get_height() for p in top.patches[:12]]
        np.testing.assert_allclose(heights, summary["density_attention"], rtol=1e-12)
        panel = frame[frame["beta"] == beta]
        curve = panel[(panel["kind"] == "theory") & (panel["series"] == "nu_inf_density")]
        drawn = [line_data(line) for line in top.lines]
        assert any(np.array_equal(x, curve["x"]) and np.array_equal(y, curve["value"])
                   for x, y in drawn)  # fmt: skip
        # the edge region: complementary ECDFs of the CSV's values, fractions (n - k)/n
        for line, model in zip(bottom.lines[2:4], ("attention", "linear"), strict=True):
            values = np.sort(panel.loc[(panel["kind"] == "data") & (panel["model"] == model),
                                       "value"].to_numpy())  # fmt: skip
            x, y = line_data(line)
            np.testing.assert_array_equal(x[1:], values)
            np.testing.assert_allclose(y[1:], 1 - np.arange(1, values.size + 1) / values.size)
        # the numbers are in the caption's tables: at most the count of values beyond the axis
        assert not panel_texts(bottom)
        assert all("beyond axis" in text.get_text() for text in panel_texts(top))
    # one legend, below the panels, the bulk first
    (legend,) = figure.legends
    assert legend.get_texts()[0].get_text().endswith("bulk")
    redraws_identically(figure, lambda: plot_bulk_laws(frame, bins=12))


# A4 ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=[3, 10], ids=["3-draws", "10-draws"])
def edge_table(request):
    betas = [0.5, 1.0]
    simulated = edges_summary.simulated_edges(
        [list(spectra_of("linear", request.param, beta)) for beta in betas], betas, ELL
    )
    theory = edges_summary.edge_theory_curves(0.25, 1.25, 12, ELL)
    return request.param, edges_plotted.edge_plotted_table(theory, simulated), simulated


def test_a4_table_is_tidy(edge_table, tmp_path):
    draws, table, simulated = edge_table
    frame = csv_frame(tmp_path, table)
    assert_tidy(frame)
    assert list(frame.columns) == [
        "kind", "series", "beta", "draw", "edge", "edge_over_4theta1", "deviation_percent",
    ]  # fmt: skip
    kinds = frame.groupby(["kind", "series"]).size().to_dict()
    assert kinds == {("data", "ylin_top"): 2 * draws} | {
        ("theory", series): 12 for series in edges_plotted.EDGE_THEORY_SERIES
    }
    assert frame.loc[frame["kind"] == "theory", "draw"].isna().all()
    tops = frame[frame["series"] == "ylin_top"]
    np.testing.assert_array_equal(tops["edge"], np.ravel(simulated["top"]))
    np.testing.assert_array_equal(tops["draw"], np.tile(np.arange(draws), 2))


def test_a4_is_drawn_from_its_csv(edge_table, tmp_path):
    draws, table, simulated = edge_table
    frame = csv_frame(tmp_path, table)
    tops = frame[(frame["kind"] == "data") & (frame["series"] == "ylin_top")]
    assert len(tops) == 2 * draws
    figure = plot_edges(frame, n_tokens=ELL)
    for ax, y in zip(figure.axes, ("edge", "edge_over_4theta1", "deviation_percent"), strict=True):
        points = ax.collections[0].get_offsets()
        np.testing.assert_array_equal(points[:, 1], tops[y])
        median = tops.groupby("beta")[y].median()
        markers = [line for line in ax.lines if line.get_marker() == "o"][0]
        np.testing.assert_allclose(line_data(markers)[1], median.to_numpy())
        bars = [c for c in ax.collections if c not in ax.collections[:1]]
        assert bool(bars) == (draws >= 10)
    np.testing.assert_allclose(
        tops.groupby("beta")["edge"].median().to_numpy(), simulated["median"]
    )
    curve = frame[frame["series"] == "x_plus"]
    np.testing.assert_array_equal(line_data(figure.axes[0].lines[0])[1], curve["edge"])

    # both expansions in the expansion colour; the Tracy-Widom expectation is theory, dotted
    def drawn(series):
        y = frame.loc[frame["series"] == series, "edge"]
        (line,) = [line for line in figure.axes[0].lines if np.array_equal(line_data(line)[1], y)]
        return line

    for series in ("small_beta", "large_beta"):
        assert to_rgb(drawn(series).get_color()) == to_rgb(COLOURS["expansion"])
    tracy_widom = drawn("tracy_widom_expectation")
    assert to_rgb(tracy_widom.get_color()) == to_rgb(COLOURS["theory"])
    assert tracy_widom.get_linestyle() == ":"
    redraws_identically(figure, lambda: plot_edges(frame, n_tokens=ELL))
    assert craft_problems(plot_edges(frame, n_tokens=ELL)) == []


# A5 ---------------------------------------------------------------------------------------
SIZES = np.array([250, 500, 1000, 2000])
BETAS = np.array([0.5, 1.0, 1.25, 1.5, 1.75, 2.0, 3.0])


def distance_summary(draws: int) -> dict:
    """A synthetic distance table: a floor 2.5 / ell and an excess crossing 0.1 near
    beta = 0.65 sqrt(log ell), each draw scattered by 2 %."""
    rng = np.random.default_rng(0)
    floor = 2.5 / SIZES[:, None] * np.ones(BETAS.size)
    centre = np.log(0.65 * np.sqrt(np.log(SIZES)))[:, None]
    excess = 0.9 / (1 + 8.0 * np.exp(-(np.log(BETAS)[None, :] - centre) / 0.15))
    table = {k: [] for k in ("model", "n_tokens", "beta", "draw", "kolmogorov")}
    for model, values in (("attention", floor + excess), ("linear", floor)):
        for (i, j), value in np.ndenumerate(values):
            for draw in range(draws):
                table["model"].append(model)
                table["n_tokens"].append(SIZES[i])
                table["beta"].append(BETAS[j])
                table["draw"].append(draw)
                table["kolmogorov"].append(value * (1 + 0.02 * rng.standard_normal()))
    table = {k: np.array(v) for k, v in table.items()}
    table["wasserstein1_relative"] = 0.5 * table["kolmogorov"]
    return linearisation_summary.summarise_distances(table)


@pytest.mark.parametrize("draws", [3, 10])
def test_a5_is_drawn_from_its_csv(draws, tmp_path):
    summary = distance_summary(draws)
    collapse = linearisation_summary.collapse_analysis(summary)
    table = linearisation_plotted.linearisation_plotted_table(summary, collapse)
    assert_tidy(table)
    assert set(table["kind"]) == KINDS
    frame = csv_frame(tmp_path, table)
    assert set(frame.loc[frame["kind"] == "data", "series"]) == set(linearisation_summary.METRICS)
    per_draw = frame.groupby("series").size()
    for series in ("kolmogorov", "wasserstein1_relative"):
        assert per_draw[series] == 2 * SIZES.size * BETAS.size * draws
    assert per_draw["excess_over_floor"] == SIZES.size * BETAS.size * draws
    assert per_draw["beta_star"] == SIZES.size * draws
    figure = plot_linearisation(frame)
    panels = figure.axes
    for ax, (metric, x) in zip(
        panels[:3],
        (("kolmogorov", "x"), ("wasserstein1_relative", "x"), ("kolmogorov", "beta")),
        strict=True,
    ):
        rows = frame[(frame["series"] == metric) & (frame["model"] == "attention")]
        means = rows.groupby(["n_tokens", x])["value"].mean()
        drawn = [line_data(line)[1] for line in ax.lines if line.get_linestyle() == "-"]
        for n in SIZES:
            assert any(np.allclose(y, means[n].to_numpy()) for y in drawn if y.size == BETAS.size)
        if x == "beta":  # the library's means are the CSV's
            np.testing.assert_allclose(means[SIZES[-1]], summary[f"{metric}/attention/mean"][-1])
        assert has_band(ax) == (draws >= 10)
    fit = frame[frame["series"] == "beta_star_fit"]
    assert any(np.array_equal(line_data(line)[1], fit["value"]) for line in panels[5].lines)
    assert len(panels[5].collections[0].get_offsets()) == SIZES.size * draws
    exponent = frame[(frame["series"] == "exponent") & (frame["model"] == "attention")]
    assert any(np.array_equal(line_data(line)[1], exponent["value"]) for line in panels[3].lines)
    assert not any(panel_texts(ax) for ax in panels)  # the verdicts are in the caption's table
    redraws_identically(figure, lambda: plot_linearisation(frame))


# A6 ---------------------------------------------------------------------------------------
PERRON_PANELS = ("abs_s1_minus_1", "ell_s1sq_minus_1", "stable_rank")


def perron_series(beta: float, draws: int) -> perron_summary.PerronSeries:
    """Draws whose s_1 - 1 follows the prediction with 5 % scatter."""
    rng = np.random.default_rng(1)
    ells = np.array([128, 256, 512, 1024])
    predicted = np.sqrt(perron.perron_squared_prediction(ells, ells, beta)) - 1
    results = [
        {"s1": 1 + p * (1 + 0.05 * rng.standard_normal(draws)),
         "frobenius_squared": np.exp(beta**2) * (1 + 0.01 * rng.standard_normal(draws))}
        for p in predicted
    ]  # fmt: skip
    return perron_summary.perron_series(beta, ells, results)


@pytest.mark.parametrize("draws", [3, 10])
def test_a6_is_drawn_from_its_csv(draws, tmp_path):
    series = [perron_series(0.5, draws), perron_series(1.0, draws)]
    table = perron_plotted.perron_plotted_table(series)
    assert_tidy(table)
    assert set(table["kind"]) == KINDS
    frame = csv_frame(tmp_path, table)
    draw_rows = frame[frame["kind"] == "data"]
    assert draw_rows.groupby("panel").size().tolist() == [2 * 4 * draws] * 3
    # levels are one row per beta, not repeated at every ell: the limit, the constant of (b)
    levels = frame[frame["n_tokens"].isna()]
    assert levels.groupby(["series", "panel"]).size().to_dict() == {
        ("fit_slope", "abs_s1_minus_1"): 2, ("limit", "stable_rank"): 2,
        ("prediction", "ell_s1sq_minus_1"): 2,
    }  # fmt: skip
    figure = plot_perron(frame)
    for ax, panel in zip(figure.axes, PERRON_PANELS, strict=True):
        mine = draw_rows[draw_rows["panel"] == panel]
        assert len(ax.collections[0].get_offsets()) == len(mine)
        markers = [line_data(line)[1] for line in ax.lines if line.get_marker() == "o"]
        for beta, medians in mine.groupby(["beta", "n_tokens"])["value"].median().groupby("beta"):
            assert any(np.allclose(y, medians.to_numpy()) for y in markers), beta
        assert (len(ax.collections) > 1) == (draws >= 10)  # the 10-90 % bars
        prediction = frame[(frame["panel"] == panel) & (frame["series"] == "prediction")]
        for _, rows in prediction.groupby("beta"):  # a level (no ell) across the simulated ell
            y = rows["value"] if rows["n_tokens"].notna().all() else [rows["value"].iloc[0]] * 2
            assert any(np.array_equal(line_data(line)[1], y) for line in ax.lines)
    np.testing.assert_allclose(
        draw_rows[draw_rows["panel"] == "abs_s1_minus_1"].groupby("n_tokens")["value"].size(),
        2 * draws,
    )
    # one legend below the panels, none over the data; no verdict in the figure
    assert not any(ax.get_legend() or panel_texts(ax) for ax in figure.axes)
    assert not any("holds" in text.get_text() for text in figure.legends[0].get_texts())
    redraws_identically(figure, lambda: plot_perron(frame))


# A7 ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ratio_table():
    specs = [
        dict(d_qk=20, sampler="gaussian", d_model=None),
        dict(d_qk=ELL, sampler="literal", d_model=80),
    ]
    attention = [spectra_of("attention", 2, 1.0, **spec) for spec in specs]
    panels = [
        bulk_laws_summary.summarise_ratio_panel(
            list(draws), n_tokens=ELL, beta=1.0, bins=12, **spec
        )
        for draws, spec in zip(attention, specs, strict=True)
    ]
    return bulk_laws_plotted.ratios_plotted_table(panels, attention), panels


def test_a7_table_is_tidy(ratio_table):
    table, _ = ratio_table
    assert_tidy(table)
    assert set(table["kind"]) == KINDS
    statistics = table[table["kind"] == "statistic"]
    assert statistics.groupby("panel").size().tolist() == [3, 3]  # the pooled distances


def test_a7_is_drawn_from_its_csv(ratio_table, tmp_path):
    table, panels = ratio_table
    frame = csv_frame(tmp_path, table)
    counts = frame[frame["kind"] == "data"].groupby("panel", sort=False).size()
    assert counts.to_dict() == {"gaussian-dqk20": 2 * (ELL - 1), "literal-d80-dqk40": 2 * (ELL - 1)}
    figure = plot_ratios(frame, n_tokens=ELL, bins=12)
    axes = [ax for ax in figure.axes if ax.patches]
    assert len(axes) == len(panels)
    for ax, panel in zip(axes, panels, strict=True):
        heights = [p.get_height() for p in ax.patches[:12]]
        np.testing.assert_allclose(heights, panel["density"], rtol=1e-12)
        np.testing.assert_array_equal(line_data(ax.lines[0])[1], panel["density_nu_inf"])
        assert ("1/c" in ax.texts[0].get_text()) == (float(panel["ratio"]) != 1.0)
        # the swapped ratio is nu_inf too: the theory's colour, dashed
        swapped = [line for line in ax.lines if line.get_linestyle() == "--"]
        assert [line.get_color() for line in swapped] == [ax.lines[0].get_color()] * (
            float(panel["ratio"]) != 1.0
        )
    redraws_identically(figure, lambda: plot_ratios(frame, n_tokens=ELL, bins=12))


# A8 ---------------------------------------------------------------------------------------
A8_BETAS, A8_RATIOS = [0.5, 1.0, 2.0], [0.5, 2.0]


@pytest.fixture(scope="module")
def limit_law_table():
    return limit_law_plotted.limit_law_plotted_table(A8_BETAS, A8_RATIOS, 1.0, 60, 0.25, 2.5, 6)


def test_a8_table_is_tidy(limit_law_table, tmp_path):
    frame = csv_frame(tmp_path, limit_law_table)
    assert list(frame.columns) == list(limit_law_plotted.COLUMNS)
    assert set(frame["kind"]) == {"theory"}  # theory only: no simulation
    sizes = frame.groupby(["sweep", "series"]).size().to_dict()
    assert {k: v for k, v in sizes.items() if k[0] == "beta_grid"} == {
        ("beta_grid", series): 6 for series in limit_law_summary.BETA_GRID_SERIES
    }
    for sweep, series, count in (("betas", "nu_inf_edge", 3), ("betas", "mp_edge", 3),
                                 ("ratios", "nu_inf_edge", 2)):  # fmt: skip
        assert sizes[(sweep, series)] == count
    densities = frame[frame["series"].str.endswith("_density")]
    assert densities[["value", "value_over_theta1"]].isna().all().all()
    # every density row: x = theta1 t and theta1 p, with theta1 = e^{beta^2} - 1
    theta1 = np.expm1(densities["beta"] ** 2)
    np.testing.assert_allclose(densities["x"], theta1 * densities["x_over_theta1"], rtol=1e-14)
    np.testing.assert_allclose(
        densities["theta1_density"], theta1 * densities["density"], rtol=1e-14
    )


def test_a8_is_drawn_from_its_csv(limit_law_table, tmp_path):
    frame = csv_frame(tmp_path, limit_law_table)
    figure = plot_limit_law(frame)
    densities, (ratio, edge, difference) = figure.axes[: len(A8_BETAS)], figure.axes[-3:]
    assert len(figure.axes) == len(A8_BETAS) + 3
    for ax, beta in zip(densities, A8_BETAS, strict=True):
        for series, colour in (("nu_inf_density", "theory"), ("mp_density", "mp_surrogate")):
            rows = frame[(frame["sweep"] == "betas") & (frame["beta"] == beta)
                         & (frame["series"] == series)]  # fmt: skip
            (line,) = [
                ln for ln in ax.lines if np.array_equal(line_data(ln)[1], rows["theta1_density"])
            ]
            np.testing.assert_array_equal(line_data(line)[0], rows["x_over_theta1"])
            assert to_rgb(line.get_color()) == to_rgb(COLOURS[colour])
    for c in A8_RATIOS:
        rows = frame[(frame["sweep"] == "ratios") & (frame["c"] == c)
                     & (frame["series"] == "nu_inf_density")]  # fmt: skip
        assert any(np.array_equal(line_data(ln)[1], rows["theta1_density"]) for ln in ratio.lines)
    x_plus = frame[frame["series"] == "x_plus"]
    np.testing.assert_array_equal(line_data(edge.lines[0])[1], x_plus["value_over_theta1"])
    for line, series in zip(difference.lines, limit_law_summary.BETA_GRID_SERIES[-3:], strict=True):
        np.testing.assert_array_equal(
            line_data(line)[1], frame.loc[frame["series"] == series, "value"]
        )
    again = plot_limit_law(frame)
    assert png_bytes(figure) == png_bytes(again)  # a redraw gives the same bytes
    close(figure)
    # nothing a figure editor would reject, no break of the conventions, nothing hiding data
    assert craft_problems(again) == convention_problems(again) == layering_problems(again) == []
