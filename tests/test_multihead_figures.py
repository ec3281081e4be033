"""Figures D1-D3 are drawn from their tidy CSVs alone: the figure drawn from the CSV file is
byte-identical to the one drawn from the rows before writing, the drawn curves and points are the
CSV's numbers, and a redraw gives the same bytes."""

import numpy as np
import pandas as pd
import pytest
from figure_checks import from_csv, png_bytes

from attnspec.multihead import summary
from attnspec.multihead.draws import SCHEMES, heads_draws, public_model_draws, sharing_draws
from attnspec.multihead.evidence import sharing_laws
from attnspec.plotting.multihead import (
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


@pytest.fixture(scope="module")
def public_rows():
    records = {m: public_model_draws(m, 1.0, 3) for m in ("dinov3-l16", "bert-base")}
    return summary.public_model_plotted_rows(records, 1.0)


@pytest.fixture(scope="module")
def heads_rows():
    records = {h: heads_draws(32, h, 32, 32, 1.0, 2) for h in (1, 4)}
    return summary.heads_plotted_rows(records, HEADS)


@pytest.fixture(scope="module")
def sharing_rows():
    spectra = {
        s: {n: sharing_draws(s, SHARING, n, 2)["softmax"] for n in SHARING["n_tokens"]}
        for s in SCHEMES
    }
    return summary.sharing_plotted_rows(spectra, sharing_laws(SHARING))


def test_d1_is_drawn_from_its_csv(public_rows, tmp_path):
    header = summary.PUBLIC_PLOTTED_HEADER
    frame = from_csv(public_rows, header, tmp_path / "d1.csv")
    direct = plot_public_models(pd.DataFrame(public_rows, columns=header))
    figure = plot_public_models(frame)
    assert png_bytes(direct) == png_bytes(figure)
    again = plot_public_models(frame)
    assert png_bytes(again) == png_bytes(figure)
    # the means drawn are the CSV's per-model means of the draws and of the floors, the squares
    # its published rows
    ax = figure.axes[1]
    for source in (summary.OURS, summary.FLOOR):
        rows = frame[(frame["source"] == source) & (frame["metric"] == "KS")]
        means = rows.groupby("name", sort=False)["value"].mean()
        drawn = [line.get_ydata() for line in ax.lines if len(line.get_ydata()) == len(means)]
        assert any(np.allclose(y, means.to_numpy()) for y in drawn), source
    # the model names alone under the panels: the verdicts are in the caption's table
    assert ax.get_xticklabels()[0].get_text().replace("\n", "") == frame["name"].iloc[0]
    published = frame[(frame["source"] == summary.PUBLISHED) & (frame["metric"] == "KS")]
    squares = [line for line in ax.lines if line.get_marker() == "s"]
    np.testing.assert_array_equal(squares[0].get_ydata(), published["value"].to_numpy())


def test_d2_is_drawn_from_its_csv(heads_rows, tmp_path):
    header = summary.HEADS_PLOTTED_HEADER
    frame = from_csv(heads_rows, header, tmp_path / "d2.csv")
    direct = plot_heads(pd.DataFrame(heads_rows, columns=header), 12)
    figure = plot_heads(frame, 12)
    assert png_bytes(direct) == png_bytes(figure)
    # every panel's red curve is the CSV's theory rows; its histograms its eigenvalues
    theory = frame[frame["series"] == "theory"]
    for ax in figure.axes:
        stage = "attention" if "attention" in ax.get_title() else "output"
        heads = int(ax.get_title().rsplit("= ", 1)[1].rstrip("$"))
        rows = theory[(theory["stage"] == stage) & (theory["heads"] == heads)]
        curves = [line for line in ax.lines if len(line.get_xdata()) == len(rows)]
        np.testing.assert_array_equal(curves[-1].get_xdata(), rows["x"].to_numpy())
        np.testing.assert_array_equal(curves[-1].get_ydata(), rows["y"].to_numpy())
    samples = frame[frame["series"] == "softmax"]
    assert len(samples) == 2 * 2 * 2 * 32  # stages x heads x draws x n


def test_d3_is_drawn_from_its_csv(sharing_rows, tmp_path):
    header = summary.SHARING_PLOTTED_HEADER
    frame = from_csv(sharing_rows, header, tmp_path / "d3.csv")
    direct = plot_sharing(pd.DataFrame(sharing_rows, columns=header), 15)
    figure = plot_sharing(frame, 15)
    assert png_bytes(direct) == png_bytes(figure)
    panels = set(frame["panel"])
    assert panels == {"spectrum", "law", "distance", "judged"}
    # the spectra in order of tying, no verdict in any title (they are in the caption's table)
    titles = [ax.get_title() for ax in figure.axes]
    assert [t.split(",")[0] for t in titles[:4]] == ["independent", "GQA", "MQA", "K = V"]
    assert not any(word in t for t in titles for word in ("holds", "reproduce", "inconclusive"))
    # with 2 draws each draw is its own line: every value of the CSV is on a drawn line, each
    # statistic on an axes of its own (the KS distances, row D.2's excess KS, row D.3's Delta)
    statistics = {
        "KS distance": frame["panel"] == "distance",
        "row D.2 (MQA, GQA)": frame["series"] == "D.2 excess KS",
        "row D.3 (K = V): $\\Delta$": frame["series"] == "D.3 Delta",
    }
    for name, rows in statistics.items():
        (ax,) = [ax for ax in figure.axes if name in (ax.get_ylabel(), ax.get_title())]
        drawn = np.concatenate([line.get_ydata() for line in ax.lines])
        values = frame.loc[rows & frame["n"].notna(), "y"].to_numpy()
        assert values.size and np.all(np.isin(values, drawn)), name


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


def test_tidy_rows_hold_each_observation_once(public_rows, sharing_rows):
    frame = pd.DataFrame(public_rows, columns=summary.PUBLIC_PLOTTED_HEADER)
    ours = frame[frame["source"] == "attnspec"]
    assert ours.groupby(["model", "metric"]).size().tolist() == [3, 3, 3, 3]
    floor = frame[frame["source"] == summary.FLOOR]
    assert floor.groupby(["model", "metric"]).size().tolist() == [3, 3, 3, 3]
    frame = pd.DataFrame(sharing_rows, columns=summary.SHARING_PLOTTED_HEADER)
    spectrum = frame[frame["panel"] == "spectrum"]
    assert spectrum.groupby("scheme").size().to_dict() == {
        label: 2 * 32 for label in ("GQA", "K = V", "MQA", "independent")
    }
