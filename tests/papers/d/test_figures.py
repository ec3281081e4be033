"""Figures D1-D4 are drawn from their tidy CSVs alone: the figure drawn from the CSV file is
byte-identical to the one drawn from the rows before writing, the drawn curves and points are the
CSV's numbers, and a redraw gives the same bytes."""

import numpy as np
import pytest
from figure_checks import from_csv, png_bytes

from attnspec.papers.d import multihead_plotted, multihead_summary
from attnspec.papers.d.multihead import SCHEMES, heads_draws, public_model_draws, sharing_draws
from attnspec.papers.d.multihead_evidence import sharing_laws
from attnspec.papers.d.multihead_plotted import INDEPENDENT_LAW, TIED_LAW
from attnspec.papers.d.plot_multihead import (
    SCHEME_COLOURS,
    plot_heads,
    plot_public_models,
    plot_sharing,
    student_t_errorbar,
)

HEADS = {"n_tokens": 32, "d_head": 32, "d_out": 32, "beta": 1.0}
SHARING = {
    "schemes": list(SCHEMES),
    "n_tokens": [16, 24, 32],
    "heads": 4,
    "kv_groups": 2,
    "gamma_k": 2.0,
    "gamma_o": 1.5,
    "beta": 1.0,
}
LAWS = (INDEPENDENT_LAW, TIED_LAW)


@pytest.fixture(scope="module")
def public_table():
    records = {m: public_model_draws(m, 1.0, 3) for m in ("dinov3-l16", "bert-base")}
    return multihead_plotted.public_model_plotted_table(records, 1.0)


@pytest.fixture(scope="module")
def heads_table():
    records = {h: heads_draws(32, h, 32, 32, 1.0, 2) for h in (1, 4)}
    return multihead_plotted.heads_plotted_table(records, HEADS)


@pytest.fixture(scope="module")
def sharing_table():
    spectra = {
        s: {n: sharing_draws(s, SHARING, n, 2)["softmax"] for n in SHARING["n_tokens"]}
        for s in SCHEMES
    }
    return multihead_plotted.sharing_plotted_table(spectra, sharing_laws(SHARING))


def rows(frame, kind, series=None):
    found = frame[frame["kind"] == kind]
    return found if series is None else found[found["series"] == series]


def test_d1_is_drawn_from_its_csv(public_table, tmp_path):
    frame = from_csv(public_table, tmp_path / "d1.csv")
    direct = plot_public_models(public_table)
    figure = plot_public_models(frame)
    assert png_bytes(direct) == png_bytes(figure)
    again = plot_public_models(frame)
    assert png_bytes(again) == png_bytes(figure)
    # the means drawn are the CSV's per-model means of the draws and of the floors, the squares
    # its published means
    ax = figure.axes[1]
    for series in (multihead_plotted.OURS, multihead_plotted.FLOOR):
        data = rows(frame, "data", series)
        means = data[data["metric"] == "KS"].groupby("name", sort=False)["value"].mean()
        drawn = [line.get_ydata() for line in ax.lines if len(line.get_ydata()) == len(means)]
        assert any(np.allclose(y, means.to_numpy()) for y in drawn), series
    # the model names alone under the panels: the verdicts are in the caption's table
    assert ax.get_xticklabels()[0].get_text().replace("\n", "") == frame["name"].iloc[0]
    published = rows(frame, "statistic", multihead_plotted.PUBLISHED_MEAN)
    squares = [line for line in ax.lines if line.get_marker() == "s"]
    np.testing.assert_array_equal(
        squares[0].get_ydata(), published.loc[published["metric"] == "KS", "value"].to_numpy()
    )


def test_d2_is_drawn_from_its_csv(heads_table, tmp_path):
    frame = from_csv(heads_table, tmp_path / "d2.csv")
    direct = plot_heads(heads_table, 12)
    figure = plot_heads(frame, 12)
    assert png_bytes(direct) == png_bytes(figure)
    # every panel's red curve is the CSV's theory rows; its histograms its eigenvalues
    theory = rows(frame, "theory", multihead_plotted.LIMIT_LAW)
    for ax in figure.axes:
        stage = "attention" if "attention" in ax.get_title() else "output"
        heads = int(ax.get_title().rsplit("= ", 1)[1].rstrip("$"))
        curve = theory[(theory["stage"] == stage) & (theory["heads"] == heads)]
        curves = [line for line in ax.lines if len(line.get_xdata()) == len(curve)]
        np.testing.assert_array_equal(curves[-1].get_xdata(), curve["eigenvalue"].to_numpy())
        np.testing.assert_array_equal(curves[-1].get_ydata(), curve["density"].to_numpy())
    samples = rows(frame, "data", "softmax")
    assert len(samples) == 2 * 2 * 2 * 32  # stages x heads x draws x n


def test_d3_is_drawn_from_its_csv(sharing_table, tmp_path):
    frame = from_csv(sharing_table, tmp_path / "d3.csv")
    direct = plot_sharing(sharing_table, 15)
    figure = plot_sharing(frame, 15)
    assert png_bytes(direct) == png_bytes(figure)
    distances = [multihead_plotted.distance_series(law) for law in LAWS]
    assert set(zip(frame["kind"], frame["series"], strict=True)) == {
        ("data", multihead_plotted.SPECTRUM),
        *(("data", series) for series in distances),
        *(("theory", law) for law in LAWS),
        ("theory", multihead_plotted.D2_MARGIN),
        ("theory", multihead_plotted.D3_THRESHOLD),
        ("statistic", multihead_plotted.D2_EXCESS),
        ("statistic", multihead_plotted.D3_DELTA),
    }
    # the spectra in order of tying, no verdict in any title (they are in the caption's table)
    titles = [ax.get_title() for ax in figure.axes]
    assert [t.split(",")[0] for t in titles[:4]] == ["independent", "GQA", "MQA", "K = V"]
    assert not any(word in t for t in titles for word in ("holds", "reproduce", "inconclusive"))
    # the laws' curves are the CSV's theory rows
    ax = figure.axes[0]
    for law in LAWS:
        curve = rows(frame, "theory", law)
        (line,) = [line for line in ax.lines if line.get_label() == law]
        np.testing.assert_array_equal(line.get_ydata(), curve["density"].to_numpy())
    # with 2 draws each draw is its own line: every value of the CSV is on a drawn line, each
    # statistic on an axes of its own (the KS distances, row D.2's excess KS, row D.3's Delta)
    statistics = {
        "KS distance": frame["series"].isin(distances),
        "row D.2 (MQA, GQA)": frame["series"] == multihead_plotted.D2_EXCESS,
        "row D.3 (K = V): $\\Delta$": frame["series"] == multihead_plotted.D3_DELTA,
    }
    for name, selected in statistics.items():
        (ax,) = [ax for ax in figure.axes if name in (ax.get_ylabel(), ax.get_title())]
        drawn = np.concatenate([line.get_ydata() for line in ax.lines])
        values = frame.loc[selected, "value"].to_numpy()
        assert values.size and np.all(np.isin(values, drawn)), name
    # the thresholds are the CSV's theory rows
    (delta_ax,) = [ax for ax in figure.axes if ax.get_title().startswith("row D.3")]
    threshold = rows(frame, "theory", multihead_plotted.D3_THRESHOLD)["value"].to_numpy()
    assert np.isin(threshold, np.concatenate([line.get_ydata() for line in delta_ax.lines])).all()


def test_sharing_colours_darken_or_lighten_in_order_of_tying():
    from attnspec.plotting.style import sequential_colours

    order = ["independent", "GQA", "MQA", "K = V"]
    assert list(SCHEME_COLOURS) == order
    assert list(SCHEME_COLOURS.values()) == list(sequential_colours("sharing", range(4)).values())


def test_student_t_errorbar_is_the_papers_interval():
    values = np.array([1.0, 2.0, 4.0, 3.0])
    low, high = student_t_errorbar(values)
    half = 3.182446305284263 * values.std(ddof=1) / 2
    assert (low, high) == pytest.approx((2.5 - half, 2.5 + half))
    assert np.isnan(student_t_errorbar(np.array([1.0]))).all()


def test_tidy_tables_hold_each_observation_once(public_table, sharing_table):
    ours = rows(public_table, "data", multihead_plotted.OURS)
    assert ours.groupby(["model", "metric"]).size().tolist() == [3, 3, 3, 3]
    floor = rows(public_table, "data", multihead_plotted.FLOOR)
    assert floor.groupby(["model", "metric"]).size().tolist() == [3, 3, 3, 3]
    # the published mean and half-width: one row each per model and metric
    published = rows(public_table, "statistic")
    assert published.groupby(["model", "metric"]).size().tolist() == [2, 2, 2, 2]
    spectrum = rows(sharing_table, "data", multihead_plotted.SPECTRUM)
    assert spectrum.groupby("scheme").size().to_dict() == {
        label: 2 * 32 for label in ("GQA", "K = V", "MQA", "independent")
    }


@pytest.mark.parametrize("name", ["public_table", "heads_table", "sharing_table"])
def test_tables_have_kind_first_and_no_constant_data_column(name, request):
    """``kind`` first with data, theory and statistic only, ``series`` second; no column holds
    one value on every data row (a per-figure constant is a row of its own) and the identifiers
    are integers."""
    frame = request.getfixturevalue(name)
    assert list(frame.columns[:2]) == ["kind", "series"]
    assert set(frame["kind"]) <= {"data", "theory", "statistic"}
    assert "data" in set(frame["kind"])
    data = frame[frame["kind"] == "data"]
    constant = [c for c in frame.columns[1:] if data[c].notna().all() and data[c].nunique() == 1]
    assert not constant, constant
    for column in {"draw", "heads", "n"} & set(frame.columns):
        assert str(frame[column].dtype) == "Int64", column


def test_dt1_rows_give_the_verdicts_of_the_papers_rows_and_of_the_rows_beyond_it():
    """Table D-T1's last four columns: the verdicts of rows D.1/<model>/published-w1 and
    published-ks (paper D's claim), then of D.1/<model>/w1 and ks (beyond the paper)."""
    records = {"bert-base": public_model_draws("bert-base", 1.0, 2)}
    verdicts = {
        "D.1/bert-base/published-w1": "holds",
        "D.1/bert-base/published-ks": "inconclusive at these sizes",
        "D.1/bert-base/w1": "does not reproduce",
    }
    (row,) = multihead_summary.public_model_table_rows(records, 1.0, verdicts)
    assert len(row) == len(multihead_summary.PUBLIC_TABLE_HEADER)
    found = dict(zip(multihead_summary.PUBLIC_TABLE_HEADER[-4:], row[-4:], strict=True))
    assert found == {
        "verdict W1 against the published mean": "holds",
        "verdict KS against the published mean": "inconclusive at these sizes",
        "verdict W1 beyond the floor (beyond the paper)": "does not reproduce",
        "verdict KS beyond the floor (beyond the paper)": multihead_summary.NOT_JUDGED,
    }


def test_d1_draws_what_rows_d1_judge_over_their_pass_bands(public_table, tmp_path):
    """Below the distances, each row D.1 as mean minus target with its interval, coloured by its
    headline verdict (a fragile pass in its own colour, never as holds)."""
    from attnspec.plotting.style import VERDICT_COLOURS

    judged = [
        {"row_id": "D.1/bert-base/published-w1", "value": "0.0148", "interval_low": "0.0127",
         "interval_high": "0.017", "target": "0.0166", "margin": "0.0046",
         "verdict": "holds", "stability": "0.8"},
        {"row_id": "D.1/bert-base/ks", "value": "0.0041", "interval_low": "0.0029",
         "interval_high": "0.0053", "target": "0.0", "margin": "0.01",
         "verdict": "inconclusive at these sizes", "stability": "1.0"},
    ]  # fmt: skip
    records = {m: public_model_draws(m, 1.0, 3) for m in ("dinov3-l16", "bert-base")}
    table = multihead_plotted.public_model_plotted_table(records, 1.0, judged)
    frame = from_csv(table, tmp_path / "d1.csv")
    verdicts = rows(frame, "verdict").set_index("series")
    published = verdicts.loc[multihead_plotted.AGAINST_PUBLISHED]
    np.testing.assert_allclose(
        published[["value", "low", "high", "margin"]].astype(float), [-0.18, -0.39, 0.04, 0.46]
    )
    assert published["verdict"] == "fragile pass"
    figure = plot_public_models(frame)
    assert png_bytes(figure) == png_bytes(plot_public_models(table))
    w1_judged, ks_judged = figure.axes[2], figure.axes[3]
    marks = [line for line in w1_judged.lines if line.get_marker() == "s"]
    assert [m.get_color() for m in marks] == [VERDICT_COLOURS["fragile pass"]]
    assert np.isclose(marks[0].get_ydata()[0], -0.18)
    circles = [line for line in ks_judged.lines if line.get_marker() == "o"]
    assert [c.get_color() for c in circles] == [VERDICT_COLOURS["inconclusive at these sizes"]]


# Figure D4 (paper D's figure D.1) ---------------------------------------------------------
FIGURE_D1 = {
    "n_tokens": 32,
    "beta": 1.0,
    "head_counts": [2, 4],
    "total_width": 64,
    "heads": 4,
    "d_head": 16,
    "output_widths": [128, 32],
    "sharing_output_width": 64,
    "draws": 2,
    "histogram_bins": 12,
}


@pytest.fixture(scope="module")
def figure_d1_table():
    from attnspec.papers.d.design_choices import PANELS, panel_draws
    from attnspec.papers.d.design_choices_plotted import design_choices_plotted_table

    records = {panel: panel_draws(panel, FIGURE_D1, 2) for panel in PANELS}
    return design_choices_plotted_table(records, FIGURE_D1)


def test_d4_is_drawn_from_its_csv_at_print_size_and_passes_every_check(figure_d1_table, tmp_path):
    from attnspec.papers.d.design_choices_plotted import LIMIT_LAW
    from attnspec.papers.d.plot_design_choices import plot_design_choices
    from attnspec.plotting.craft import convention_problems, craft_problems, layering_problems

    frame = from_csv(figure_d1_table, tmp_path / "d4.csv")
    figure = plot_design_choices(frame, 12)
    assert png_bytes(plot_design_choices(figure_d1_table, 12)) == png_bytes(figure)
    assert tuple(figure.get_size_inches()) == (7.0, 2.9)
    assert craft_problems(figure) == []
    assert convention_problems(figure) == []
    assert layering_problems(figure) == []
    axes = [ax for ax in figure.axes if ax.get_visible()]
    assert len(axes) == 3
    # each panel's red curves are the CSV's theory rows, one per distinct law
    theory = rows(frame, "theory", LIMIT_LAW)
    for ax, panel in zip(axes, "abc", strict=True):
        laws = theory[theory["panel"] == panel]
        drawn = [line for line in ax.lines if line.get_label().startswith(LIMIT_LAW)]
        conditions = list(dict.fromkeys(laws["condition"]))
        assert len(drawn) == len(conditions)
        for line, condition in zip(drawn, conditions, strict=True):
            curve = laws[laws["condition"] == condition]
            np.testing.assert_array_equal(line.get_ydata(), curve["density"].to_numpy())
    # panel c draws the independent-head law once (MQA has it too) beside the tied law
    assert list(dict.fromkeys(theory.loc[theory["panel"] == "c", "condition"])) == [
        "independent",
        "K = V",
    ]
    # the panel whose law reaches 0 (d_O = n) has a log density axis, the others a linear one
    assert [ax.get_yscale() for ax in axes] == ["linear", "log", "linear"]


def test_d4_table_holds_every_eigenvalue_once_with_kind_first(figure_d1_table):
    frame = figure_d1_table
    assert list(frame.columns[:2]) == ["kind", "series"]
    assert set(frame["kind"]) == {"data", "theory"}
    data = rows(frame, "data")
    counts = data.groupby(["panel", "condition", "series"]).size()
    assert len(counts) == 2 * 7 and set(counts) == {2 * 32}  # 7 conditions, 2 series
    constant = [c for c in frame.columns[1:] if data[c].notna().all() and data[c].nunique() == 1]
    assert not constant, constant
    assert str(frame["draw"].dtype) == "Int64"


def test_d4_condition_colours_are_ordered_and_the_sharing_schemes_are_d3s():
    from attnspec.papers.d.plot_design_choices import condition_colours, legend_label
    from attnspec.plotting.style import sequential_colours

    heads = condition_colours("a", ["h = 16", "h = 4"])
    assert heads == {
        "h = 4": sequential_colours("heads", [4, 16])[4],
        "h = 16": sequential_colours("heads", [4, 16])[16],
    }
    sharing = condition_colours("c", ["independent", "MQA", "K = V"])
    assert sharing == {label: SCHEME_COLOURS[label] for label in sharing}
    assert legend_label("d_O = 256") == "$d_O = 256$" and legend_label("K = V") == "K = V"
