"""Figures C1-C6 are drawn from their tidy CSVs alone: the figure drawn from the CSV file is
byte-identical to the one drawn from the table before writing, the drawn curves, bands and points
are the CSV's numbers, a redraw gives the same bytes, every table has ``kind`` (data, theory,
statistic) first and no constant repeated on its data rows, and the committed CSVs of the
default preset hold every series each panel draws (one row per observation)."""

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import REPO
from figure_checks import from_csv, png_bytes
from matplotlib.collections import PolyCollection

from attnspec.models.softmax import MASKS
from attnspec.papers.c import degeneration_plotted as dp
from attnspec.papers.c import degeneration_summary as ds
from attnspec.papers.c import pretrained_plotted as pp
from attnspec.papers.c import pretrained_stable_rank_plotted as sp
from attnspec.papers.c import pretrained_stable_rank_summary as ss
from attnspec.papers.c import pretrained_summary as ps
from attnspec.papers.c.degeneration import (
    bulk_count_job,
    bulk_grid,
    gaussian_model_job,
    isotropic_job,
    spectra_job,
    stable_rank_job,
    survival_job,
)
from attnspec.papers.c.gaussian_stable_rank_summary import reference_table
from attnspec.papers.c.plot_degeneration import (
    FLOOR,
    ISOTROPIC_PANEL,
    distribution_functions,
    plot_bulk,
    plot_spectra,
    plot_stable_rank,
    plot_survival,
    spectra_panels,
)
from attnspec.papers.c.plot_pretrained import plot_eigen_angles, plot_score_spectra
from attnspec.papers.c.plot_pretrained_stable_rank import plot_pretrained_stable_rank
from attnspec.papers.c.pretrained import isotropic_diagnostics, model_diagnostics
from attnspec.papers.c.pretrained_controls import control_diagnostics
from attnspec.papers.c.pretrained_evidence import eigen_angle_tests
from attnspec.plotting.craft import convention_problems, craft_problems, layering_problems
from attnspec.plotting.style import TWO_COLUMNS, close

MODEL = {
    "spikes": 3,
    "kappa": 2.0,
    "spike_placement": "spread",
    "bulk_scale": 1.0,
    "gaussian_ratio": 1.0,
}
PROFILES = ["zeros", "iid"]
FIGURES = REPO / "figures" / "paperC"
DEFAULT = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["paperC"]


KINDS = {"data", "theory", "statistic"}


def assert_tidy(frame: pd.DataFrame, one_valued=()) -> None:
    """``kind`` first (only data, theory, statistic), then ``series``; no other column holds one
    value on every data row (a constant belongs in its own theory or statistic row) but the
    identifiers ``one_valued`` (one value here: the data are all in one panel, or the preset
    makes one draw)."""
    assert list(frame.columns[:2]) == ["kind", "series"]
    assert set(frame["kind"]) <= KINDS and "data" in set(frame["kind"])
    data = frame[frame["kind"] == "data"]
    for column in frame.columns[2:]:
        values = data[column]
        constant = values.notna().all() and values.nunique() == 1
        assert not constant or column in one_valued, column


def drawn_from_its_csv(plot, table, path, **options):
    """The figure drawn from the CSV file, after checking that it equals the one drawn from the
    table and that a redraw gives the same bytes."""
    frame = from_csv(table, path)
    direct = plot(table, **options)
    figure, again = plot(frame, **options), plot(frame, **options)
    assert png_bytes(figure) == png_bytes(direct) == png_bytes(again)
    close(direct)
    close(again)
    return frame, figure


def lines_with(ax, x, y):
    """The axes' lines whose data are (x, y) (to rounding: seaborn may log-transform x)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    found = []
    for line in ax.lines:
        data = np.asarray(line.get_xydata(), dtype=float)
        if len(data) == len(x) and np.allclose(data, np.c_[x, y], rtol=1e-12, equal_nan=True):
            found.append(line)
    return found


def bands(ax) -> list:
    return [c for c in ax.collections if isinstance(c, PolyCollection)]


# C1 ---------------------------------------------------------------------------------------
def test_c1_is_drawn_from_its_csv(tmp_path):
    spectra = spectra_job(48, MODEL, ["zeros", "iid", "gaussian"])
    table = dp.spectra_plotted_table(spectra, profiles=["zeros", "iid", "gaussian"])
    assert_tidy(table)
    assert set(table["kind"]) == {"data"}
    frame, figure = drawn_from_its_csv(plot_spectra, table, tmp_path / "c1.csv", spikes=3)
    # every (profile, matrix, mask) series is one line of its panel, at the floor below 1e-12;
    # the isotropic model in a last panel with the singular values of S of its profile
    panels = dict(zip(["zeros", "iid", "gaussian", ISOTROPIC_PANEL], figure.axes, strict=True))
    for (panel, _, _), series in spectra_panels(frame).groupby(["panel", "series", "mask"]):
        drawn = np.maximum(series["singular_value"], FLOOR)
        assert len(lines_with(panels[panel], series["rank"], drawn)) == 1
    isotropic = frame[frame["series"] == dp.ISOTROPIC_ATTENTION]
    assert set(isotropic["profile"]) == {"iid"} and len(isotropic) == 2 * 48
    assert len(panels[ISOTROPIC_PANEL].lines) == 3 + 2  # S, the isotropic A (2 masks), guides


# C2 ---------------------------------------------------------------------------------------
def bulk_table(draws: int, ns=(64, 128, 256)):
    counts = bulk_count_job(list(ns), MODEL, PROFILES, draws, bulk_grid(40))
    jobs = ds.counts_by_size(counts, list(ns))
    series = [ds.bulk_series(p, m, list(ns), jobs, 3) for p in PROFILES for m in MASKS]
    return jobs, dp.bulk_plotted_table(
        jobs, series, n_tokens=list(ns), profiles=PROFILES, spikes=3, bulk_scale=1.0
    )


@pytest.mark.parametrize("draws", [2, 10])
def test_c2_is_drawn_from_its_csv(tmp_path, draws):
    jobs, table = bulk_table(draws)
    assert_tidy(table)
    kinds = table.groupby("kind")["series"].agg(set).to_dict()
    assert kinds == {
        "data": {dp.BULK_SHARE},
        "theory": {dp.BULK_LIMIT, dp.BULK_GUIDE},
        "statistic": {"median", "0.9 quantile"},
    }
    frame, figure = drawn_from_its_csv(plot_bulk, table, tmp_path / "c2.csv")
    # columns: the (profile, mask) pairs whose bulk is not exactly 0, then the quantiles
    pairs = [("zeros", "causal"), ("iid", "bidirectional"), ("iid", "causal")]
    axes = np.array(figure.axes[:6]).reshape(2, 3)
    quantile_axes = figure.axes[6:8]  # zeros, iid
    distribution = frame[frame["kind"] == "data"]
    functions = distribution_functions(distribution.astype({"n": int}))
    for (profile, mask, n), shares in distribution.groupby(["profile", "mask", "n"]):
        # the weighted distribution function is the mean over draws of min(N(x) / bulk, 1)
        job = jobs[[64, 128, 256].index(n)]
        expected = np.minimum(job[f"{profile}/{mask}/counts"] / (n - 4), 1).mean(axis=0)
        np.testing.assert_allclose(np.cumsum(shares["y"]), expected, atol=1e-12)
        if (profile, mask) not in pairs:  # the bulk is exactly 0: not drawn
            assert np.all(expected == 1)
            continue
        top, bottom = axes[:, pairs.index((profile, mask))]
        drawn = functions[
            (functions["profile"] == profile) & (functions["mask"] == mask) & (functions["n"] == n)
        ]
        np.testing.assert_allclose(drawn["F"], expected, atol=1e-12)
        if n == 256:  # the largest n on top, the others' differences to it below
            assert len(lines_with(top, drawn["x"], expected)) == 1
        else:
            largest = np.minimum(jobs[2][f"{profile}/{mask}/counts"] / 252, 1).mean(axis=0)
            assert len(lines_with(bottom, drawn["x"], expected - largest)) == 1
    limit = frame[frame["series"] == dp.BULK_LIMIT]
    assert len(lines_with(axes[0, 1], limit["x"], limit["y"])) == 1
    # the quantile panels: the median over draws per n, a band only from >= 10 draws
    quantiles = frame[(frame["kind"] == "statistic") & (frame["profile"] == "iid")]
    assert quantiles.groupby(["mask", "series", "n"]).size().unique().tolist() == [draws]
    for (_, _), data in quantiles.groupby(["mask", "series"]):
        medians = data.groupby("n")["y"].median()
        assert len(lines_with(quantile_axes[1], medians.index, medians.to_numpy())) == 1
    assert len(bands(quantile_axes[1])) == (4 if draws >= 10 else 0)
    if draws < 10:  # every draw is drawn instead
        drawn = np.concatenate([line.get_ydata() for line in quantile_axes[1].lines])
        assert np.all(np.isin(quantiles["y"], drawn))
    guide = frame[(frame["series"] == dp.BULK_GUIDE) & (frame["profile"] == "iid")]
    assert len(lines_with(quantile_axes[1], guide["n"], guide["y"])) == 1


# C3 ---------------------------------------------------------------------------------------
def stable_rank_table(draws: int):
    ns, iso_ns, gauss_ns = [64, 256, 1024], [48, 64], [32, 48, 64]
    data = ds.collect_stable_ranks(
        (ns, [stable_rank_job(n, MODEL, PROFILES, draws) for n in ns]),
        (iso_ns, [isotropic_job(n, MODEL, "iid", draws) for n in iso_ns]),
        (gauss_ns, [gaussian_model_job(n, 1.0, draws) for n in gauss_ns]),
        PROFILES,
        "iid",
    )
    reference = reference_table(gauss_ns, 1.0)
    return data, dp.stable_rank_plotted_table(data, reference, spikes=3, beta=1.0)


@pytest.mark.parametrize("draws", [2, 10])
def test_c3_is_drawn_from_its_csv(tmp_path, draws):
    data, table = stable_rank_table(draws)
    assert_tidy(table)
    assert set(table["kind"]) == {"data", "theory"}
    frame, figure = drawn_from_its_csv(plot_stable_rank, table, tmp_path / "c3.csv", beta=1.0)
    canonical, gaussian, cesaro = figure.axes[:3]
    for model, ax in (("canonical", canonical), ("isotropic", canonical), ("gaussian", gaussian)):
        draws_of = frame[(frame["kind"] == "data") & (frame["model"] == model)]
        assert draws_of["draw"].notna().all()
        for _, series in draws_of.groupby(["profile", "mask"]):
            medians = series.groupby("n")["value"].median()
            # (isotropic: the markers and the error bars' own data line)
            assert len(lines_with(ax, medians.index, medians.to_numpy())) >= 1
    # bands of >= 10 draws: canonical iid (2 masks) and Gaussian (2 masks); zeros is one draw
    assert len(bands(canonical)) == (2 if draws >= 10 else 0)
    assert len(bands(gaussian)) == (2 if draws >= 10 else 0)
    # theory and Cesaro rows are the drawn curves and levels
    theory = frame[frame["kind"] == "theory"]
    derived = theory[theory["series"].isin([dp.APPROACH, dp.REFERENCE])]
    for _, curve in derived.groupby(["model", "mask"]):
        ax = canonical if curve["model"].iloc[0] == "canonical" else gaussian
        assert len(lines_with(ax, curve["n"], curve["value"])) == 1
    levels = theory[theory["n"].isna()].set_index("model")["value"]
    assert levels.to_dict() == {"canonical": 4.0, "gaussian": np.exp(1.0), "cesaro": 2.0}
    for model, ax in (("canonical", canonical), ("gaussian", gaussian), ("cesaro", cesaro)):
        assert len(lines_with(ax, [0, 1], [levels[model]] * 2)) == 1
    rows = frame[(frame["model"] == "cesaro") & frame["n"].notna()]
    table = rows.pivot(index="n", columns="series", values="value")
    assert len(lines_with(canonical, table.index, table[dp.STABLE_RANK])) == 1
    assert len(lines_with(canonical, table.index, table[dp.HARMONIC] / 4)) == 1
    assert len(lines_with(cesaro, table.index, table[dp.NORM])) == 1
    # seaborn's OLS line on log n is the fit of the table's slope (every (n, draw) point)
    causal = data.canonical[[s.mask for s in data.canonical].index("causal")]
    fit = causal.fit()
    title = figure.legends[0].get_title().get_text()  # the fits' texts head the legend
    assert (
        f"(a) zeros bulk {fit.slope:.3f} [{fit.interval()[0]:.3f}, {fit.interval()[1]:.3f}]"
        in title
    )


# C4 ---------------------------------------------------------------------------------------
def test_c4_is_drawn_from_its_csv(tmp_path):
    kappas, ns = [0.0, 0.5, 1.0, 1.5, 2.0], [64, 256]
    jobs = [survival_job(n, MODEL, "iid", kappas, 2) for n in ns]
    table = dp.survival_plotted_table(jobs, n_tokens=ns)
    assert_tidy(table)
    frame, figure = drawn_from_its_csv(
        plot_survival, table, tmp_path / "c4.csv", spikes=3, profile="iid"
    )
    data = frame[frame["kind"] == "data"]
    assert len(data) == 2 * 2 * len(kappas) * 2 * 2 * 3  # masks, n, kappas, series, draws, spikes
    theory = frame[frame["kind"] == "theory"]
    assert theory["series"].tolist() == [dp.TRANSITION] and theory["kappa"].tolist() == [1.0]
    for ax, mask in zip(figure.axes, MASKS, strict=True):
        assert len(lines_with(ax, [1.0, 1.0], [0, 1])) == 1
        for (n, series), data in frame[frame["mask"] == mask].groupby(["n", "series"]):
            means = data.groupby("kappa")["value"].mean()
            assert len(lines_with(ax, means.index, means.to_numpy())) == 1
            if series == dp.SPIKE_TIED:  # the means are those of the caption's table
                job = jobs[ns.index(n)]
                np.testing.assert_allclose(means, ds.mean_spike_value(job, mask), rtol=1e-14)


# C5, C6 -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pretrained_inputs():
    rng = np.random.default_rng(0)
    full = model_diagnostics(*rng.standard_normal((2, 2, 2, 3, 8, 8)))
    long = model_diagnostics(*rng.standard_normal((2, 2, 2, 3, 20, 8)))
    iso_full, iso_long = isotropic_diagnostics(8, 8, 20), isotropic_diagnostics(20, 8, 20)
    controls = {name: control_diagnostics(name, 8, 8, 10) for name in ("aligned", "local")}
    tests = eigen_angle_tests(full, iso_full, controls["aligned"], controls["local"])
    return (full, long, iso_full, iso_long), controls, tests


def test_c5_is_drawn_from_its_csv(tmp_path, pretrained_inputs):
    diagnostics, controls, tests = pretrained_inputs
    table = pp.eigen_angle_plotted_table(
        *diagnostics, bins=10, controls=controls, reference_q95=float(tests["reference_q95"])
    )
    assert_tidy(table)
    frame, figure = drawn_from_its_csv(
        plot_eigen_angles, table, tmp_path / "c5.csv", n_full=8, n_long=20, bins=10
    )
    assert set(frame["panel"]) == {"eigen_angles", "distances", "null_space"}
    statistic = frame[frame["kind"] == "statistic"]
    assert statistic["series"].tolist() == [ps.REFERENCE_Q95]
    assert statistic["x"].tolist() == [tests["reference_q95"]]
    angles, distances, null_space = figure.axes[:3]
    # (a) the histogram densities are the CSV's counts over total x bin width
    drawn = {
        "isotropic": bands(angles)[0].get_paths()[0].vertices[:, 1],
        "model": angles.lines[0].get_ydata(),
    }
    for series, heights in drawn.items():
        counts = frame[(frame["panel"] == "eigen_angles") & (frame["series"] == series)]["y"]
        density = counts / counts.sum() / (np.pi / 10)
        assert np.all(np.isclose(density.to_numpy()[:, None], heights[None, :]).any(axis=1))
    # (b) every distance of the CSV is a step of its distribution function; the Haar 95 % line
    for name in ("model", "reference", "aligned", "local"):
        values = np.sort(frame[(frame["panel"] == "distances") & (frame["series"] == name)]["x"])
        steps = [line.get_xdata() for line in distances.lines if len(line.get_xdata()) > 2]
        assert any(np.array_equal(np.sort(x[np.isfinite(x)]), values) for x in steps), name
    assert any(line.get_xdata()[0] == tests["reference_q95"] for line in distances.lines)
    # (c) the running sums of the step counts are the empirical distribution functions
    grid = np.linspace(0.0, np.pi, pp.CDF_POINTS)
    angles_u = diagnostics[1]["angles"][..., 0, 0, :]
    null_steps = frame[(frame["panel"] == "null_space") & (frame["series"] == "model")]
    steps = null_steps[null_steps["convention"] == "haar"]
    np.testing.assert_array_equal(
        np.cumsum(steps["y"]), np.searchsorted(np.sort(angles_u.ravel()), grid, side="right")
    )
    assert len([line for line in null_space.lines if len(line.get_xdata()) > 2]) == 5


def test_c6_is_drawn_from_its_csv(tmp_path, pretrained_inputs):
    diagnostics, _, _ = pretrained_inputs
    long, iso_long = diagnostics[1], diagnostics[3]
    table = pp.spectra_plotted_table(long, iso_long, top_k=2)
    assert_tidy(table, one_valued=("panel",))
    frame, figure = drawn_from_its_csv(plot_score_spectra, table, tmp_path / "c6.csv", top_k=2)
    assert set(frame["panel"]) == {"spectra", "energy", "stable_rank"}
    panels = frame.groupby("kind")["panel"].agg(set).to_dict()
    assert panels == {"data": {"spectra"}, "statistic": {"energy", "stable_rank"}}
    spectra, ranks, energy = figure.axes[:3]
    # (a) per layer the median over passages and heads, with the quartile band
    model = frame[(frame["panel"] == "spectra") & (frame["series"] == "model")]
    for _, layer in model.groupby("layer"):
        medians = layer.groupby("x")["y"].median()
        assert len(lines_with(spectra, medians.index, medians.to_numpy())) == 1
    assert len(bands(spectra)) == 2
    # (b) one point per head and mask, the isotropic medians as lines
    points = frame[(frame["panel"] == "stable_rank") & (frame["series"] == "model")]
    offsets = np.concatenate([c.get_offsets()[:, 1] for c in ranks.collections])
    np.testing.assert_allclose(np.sort(offsets), np.sort(points["y"]))
    isotropic = frame[(frame["panel"] == "stable_rank") & (frame["series"] == "isotropic")]
    levels = [line.get_ydata()[0] for line in ranks.lines]
    assert all(y in levels for y in isotropic["y"])
    # (c) the heat map holds every head's median energy
    cells = frame[(frame["panel"] == "energy") & (frame["series"] == "model")]
    mesh = energy.collections[0].get_array()
    np.testing.assert_array_equal(np.sort(np.ravel(mesh)), np.sort(cells["y"]))


def test_c5_c6_layer_tables_from_the_tidy_rows(pretrained_inputs):
    diagnostics, controls, _ = pretrained_inputs
    full, long = diagnostics[:2]
    frame = pp.eigen_angle_plotted_table(
        *diagnostics, bins=10, controls=controls, reference_q95=0.2
    )
    table = ps.angle_layer_rows(frame)
    assert [row[0] for row in table] == [0, 1, "isotropic"]
    assert all(len(row) == len(ps.ANGLE_LAYER_HEADER) for row in table)
    layer1 = full["angle_distance"][:, 1, :, :, 0]
    assert table[1][1] == pytest.approx(np.median(layer1))
    assert table[1][2] == pytest.approx(np.mean(layer1 > 0.2))
    table = ps.spectra_layer_rows(pp.spectra_plotted_table(long, diagnostics[3], top_k=2))
    assert [row[0] for row in table] == [0, 1, "isotropic"]
    assert all(len(row) == len(ps.spectra_layer_header(2)) for row in table)
    energy = np.median(long["energy"][:, 1, :, 1], axis=0)
    assert table[1][1] == pytest.approx(np.median(energy))
    ranks = np.median(long["stable_rank"][:, 1, :, 1], axis=0)
    assert table[1][3] == pytest.approx(np.median(ranks))


# The committed default-preset CSVs --------------------------------------------------------
# C7 ---------------------------------------------------------------------------------------
C7_LENGTHS = (16, 32, 64, 256)  # three fine-tuned lengths and one beyond: both fits exist


@pytest.fixture(scope="module")
def c7_inputs():
    """Stable ranks (passages, layers, heads, masks) growing with n, 2 layers x 3 heads."""
    rng = np.random.default_rng(7)
    lengths = {
        n: {"stable_rank": 1.0 + rng.gamma(2.0, 0.1 * np.log(n), size=(2, 2, 3, len(MASKS)))}
        for n in C7_LENGTHS
    }
    return lengths, sp.stable_rank_plotted_table(lengths, 8, 100)


@pytest.mark.slow  # about 15 s: the isotropic references and three drawings
def test_c7_is_drawn_from_its_csv_at_print_size(tmp_path, c7_inputs):
    lengths, table = c7_inputs
    assert_tidy(table)
    frame, figure = drawn_from_its_csv(
        plot_pretrained_stable_rank, table, tmp_path / "c7.csv", fine_tuned_tokens=128,
        head_width=8,
    )  # fmt: skip
    assert figure.get_size_inches()[0] == TWO_COLUMNS
    assert craft_problems(figure) == []
    assert convention_problems(figure) == []
    assert layering_problems(figure) == []
    n = np.array(C7_LENGTHS, dtype=float)
    statistics = frame[frame["kind"] == "statistic"].set_index(["series", "mask", "fit"])
    for m, mask in enumerate(MASKS):
        top, bottom = figure.axes[m], figure.axes[2 + m]
        means = np.stack([lengths[k]["stable_rank"].mean(axis=0)[..., m] for k in C7_LENGTHS])
        # (a, b) the heads' median with its band, its OLS fit a + b log n, the references
        assert len(lines_with(top, n, np.median(means.reshape(n.size, -1), axis=1))) == 1
        assert len(bands(top)) == 1
        slope = statistics.loc[("slope", mask, "all n"), "value"]
        intercept = statistics.loc[("intercept", mask, "all n"), "value"]
        assert len(lines_with(top, n, intercept + slope * np.log(n))) == 1
        for reference in (ss.CONSTANT_SCORES, ss.ISOTROPIC):
            curve = frame[(frame["series"] == reference) & (frame["mask"] == mask)]
            assert len(lines_with(top, curve["n"], curve["value"])) == 1
        # (c, d) one median per layer over its heads
        for layer in range(2):
            assert len(lines_with(bottom, n, np.median(means[:, layer], axis=1))) == 1
    fits = set(frame.loc[frame["series"] == "slope", "fit"])
    assert fits == set(ss.FITS)
    rows = ss.slope_rows(frame)
    assert [(row[0], row[1]) for row in rows] == [(mask, fit) for mask in MASKS for fit in ss.FITS]


def committed(stem: str) -> pd.DataFrame:
    return pd.read_csv(FIGURES / f"{stem}.csv")


def test_committed_c1_holds_every_singular_value():
    frame = committed("C1-spectra")
    assert_tidy(frame)
    assert list(frame.columns) == ["kind", "series", "profile", "mask", "rank", "singular_value"]
    n, profiles = DEFAULT["canonical"]["spectra"]["n_tokens"], DEFAULT["canonical"]["spectra"]
    sizes = frame.groupby(["series", "profile", "mask"]).size()
    assert set(sizes) == {n}
    assert len(sizes) == 3 * len(profiles["profiles"]) + 2  # S, A x 2 masks; isotropic A x 2


def test_committed_c2_holds_every_distribution_and_draw():
    frame = committed("C2-bulk")
    bulk = DEFAULT["canonical"]["bulk"]
    assert_tidy(frame)
    assert list(frame.columns) == ["kind", "series", "profile", "mask", "n", "draw", "x", "y"]
    distribution = frame[frame["kind"] == "data"]
    sizes = distribution.groupby(["profile", "mask", "n"]).size()
    assert len(sizes) == len(bulk["profiles"]) * 2 * len(bulk["n_tokens"])
    assert set(sizes) == {bulk["grid_points"]}
    quantiles = frame[frame["kind"] == "statistic"]
    counts = quantiles.groupby(["profile", "mask", "series", "n"])["draw"].count()
    assert counts.loc["iid"].min() == bulk["draws"] >= 10 and set(counts.loc["zeros"]) == {1}
    assert len(frame[frame["series"] == dp.BULK_LIMIT]) == bulk["grid_points"]


def test_committed_c3_holds_every_draw_and_reference():
    frame = committed("C3-stable-rank")
    canonical = DEFAULT["canonical"]
    assert_tidy(frame)
    columns = ["kind", "series", "model", "profile", "mask", "n", "draw", "value"]
    assert list(frame.columns) == columns
    data = frame[frame["kind"] == "data"]
    draws = data[data["draw"].notna()].groupby(["model", "profile", "mask", "n"]).size()
    assert draws.loc["canonical", "iid"].min() == canonical["stable_rank"]["draws"] >= 10
    assert draws.loc["gaussian"].min() == canonical["gaussian_model"]["draws"] >= 10
    assert draws.loc["isotropic"].min() == canonical["isotropic"]["draws"]
    assert len(draws.loc["canonical"]) == 2 * 2 * len(canonical["stable_rank"]["n_tokens"])
    cesaro = frame[(frame["model"] == "cesaro") & frame["n"].notna()].groupby("series").size()
    assert set(cesaro) == {len(canonical["stable_rank"]["n_tokens"])}
    theory = frame[frame["kind"] == "theory"].groupby(["series", "model", "mask"]).size()
    assert theory.loc[dp.APPROACH, "canonical", "bidirectional"] == dp.APPROACH_POINTS
    assert set(theory.loc[dp.REFERENCE]) == {len(canonical["gaussian_model"]["n_tokens"])}
    assert set(theory.loc[[dp.LIMIT, dp.NORM_LIMIT]]) == {1}


def test_committed_c4_holds_every_spike_and_kappa():
    frame = committed("C4-spike-survival")
    survival = DEFAULT["canonical"]["survival"]
    assert_tidy(frame, one_valued=("draw",) if survival["draws"] == 1 else ())
    columns = ["kind", "series", "mask", "n", "kappa", "draw", "spike", "value"]
    assert list(frame.columns) == columns
    sizes = frame[frame["kind"] == "data"].groupby(["mask", "n", "series", "kappa"]).size()
    assert len(sizes) == 2 * len(survival["n_tokens"]) * 2 * len(survival["kappas"])
    assert set(sizes) == {survival["draws"] * DEFAULT["canonical"]["spikes"]}
    assert frame.loc[frame["kind"] == "theory", "kappa"].tolist() == [dp.TRANSITION_KAPPA]


def test_committed_c5_holds_every_eigen_angle_panel():
    frame = committed("C5-eigen-angles")
    cfg = DEFAULT["pretrained"]
    assert_tidy(frame)
    assert list(frame.columns) == [
        "kind", "series", "panel", "layer", "head", "side", "passage", "convention", "x", "y",
        "near_bin_edge",
    ]  # fmt: skip
    data = frame[frame["kind"] == "data"]
    counted = data["panel"].isin(["eigen_angles", "null_space"])
    near = data.loc[counted, "near_bin_edge"]
    assert near.notna().all() and (near >= 0).all()
    assert data.loc[~counted, "near_bin_edge"].isna().all()
    sizes = data.groupby(["panel", "series"]).size()
    assert set(sizes.index.get_level_values("panel")) == {"eigen_angles", "distances", "null_space"}
    assert set(sizes.loc["eigen_angles"]) == {cfg["histogram_bins"]}
    heads = 6 * 12
    assert sizes.loc["distances", "model"] == cfg["full_rank_passages"]["count"] * heads * 2
    assert sizes.loc["distances", "reference"] == cfg["haar_reference_draws"] * 2
    conventions = data[data["panel"] == "null_space"].groupby(["series", "convention"]).size()
    assert len(conventions) == 4 and set(conventions) == {pp.CDF_POINTS}
    assert frame.loc[frame["kind"] == "statistic", "series"].tolist() == [ps.REFERENCE_Q95]


def test_committed_c6_holds_every_spectra_panel():
    frame = committed("C6-score-spectra")
    cfg = DEFAULT["pretrained"]
    assert_tidy(frame, one_valued=("panel",))
    assert list(frame.columns) == [
        "kind", "series", "panel", "layer", "head", "mask", "passage", "x", "y",
    ]  # fmt: skip
    sizes = frame.groupby(["kind", "panel", "series"]).size()
    assert set(sizes.index.get_level_values("panel")) == {"spectra", "energy", "stable_rank"}
    heads = 6 * 12
    assert sizes.loc["data", "spectra", "model"] == cfg["long_passages"]["count"] * heads * 32
    assert sizes.loc["data", "spectra", "isotropic"] == cfg["reference_draws"] * 32
    assert sizes.loc["statistic", "energy", "model"] == heads
    assert sizes.loc["statistic", "stable_rank", "model"] == 2 * heads


@pytest.mark.parametrize(
    ("stem", "plot", "options"),
    [
        ("C1-spectra", plot_spectra, {"spikes": 3}),
        ("C2-bulk", plot_bulk, {}),
        ("C3-stable-rank", plot_stable_rank, {"beta": 1.0}),
        ("C4-spike-survival", plot_survival, {"spikes": 3, "profile": "iid"}),
        ("C5-eigen-angles", plot_eigen_angles, {"n_full": 32, "n_long": 128, "bins": 24}),
        ("C6-score-spectra", plot_score_spectra, {"top_k": 3}),
        (
            "C7-pretrained-stable-rank",
            plot_pretrained_stable_rank,
            {"fine_tuned_tokens": 128, "head_width": 32},
        ),
    ],
)
def test_committed_csvs_redraw_their_figures(stem, plot, options):
    """Each committed CSV alone redraws its figure (no simulation output needed)."""
    figure = plot(committed(stem), **options)
    assert len(figure.axes) >= 2 and png_bytes(figure)[:8] == b"\x89PNG\r\n\x1a\n"
