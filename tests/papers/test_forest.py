"""The claims forest: every row as (statistic - target) / margin with its interval, its limit
from the limit's target, each declared alternative from its own target, coloured by the
headline verdict; drawn from its CSV alone, within the print craft."""

import numpy as np
import pytest
from figure_checks import from_csv, png_bytes

from attnspec.claims.dashboard import headline_class
from attnspec.papers.forest import (
    ALTERNATIVE_MARKS,
    ALTERNATIVE_SERIES,
    AXIS_LIMIT,
    BEYOND_MARK,
    BOUND_TEXT,
    LIMIT_SERIES,
    STATISTIC_SERIES,
    alternatives_of,
    forest_table,
    plot_forest,
)
from attnspec.plotting.craft import craft_problems, layering_problems

ROW = {
    "paper": "B",
    "claim_id": "B.1",
    "row_id": "B.1/beta=0.5",
    "kind": "empirical",
    "comparison": "equivalence",
    "target": "0.01",
    "margin": "0.005",
    "value": "0.012",
    "interval_low": "0.011",
    "interval_high": "0.0135",
    "limit": "0.0",
    "limit_low": "-0.002",
    "limit_high": "0.004",
    "limit_target": "0.001",
    "verdict": "holds",
    "stability": "0.95",
    "alternatives": "x+ -1%: does not reproduce, value 0.03 [0.029, 0.031], target 0.01, "
    "limit 0.02 [0.01, 0.03]; blind: inconclusive at these sizes, value 0.012 [0.011, 0.0135], "
    "target 0.02",
}


def test_a_row_is_measured_in_margins_from_each_theorys_own_target():
    frame = forest_table([ROW]).set_index(["series", "name"])
    statistic = frame.loc[(STATISTIC_SERIES, "")]
    np.testing.assert_allclose(statistic[["z", "z_low", "z_high"]].astype(float), [0.4, 0.2, 0.7])
    limit = frame.loc[(LIMIT_SERIES, "")]
    np.testing.assert_allclose(limit[["z", "z_low", "z_high"]].astype(float), [-0.2, -0.6, 0.6])
    shifted = frame.loc[(ALTERNATIVE_SERIES, "x+ -1%")]
    np.testing.assert_allclose(shifted[["z", "z_low", "z_high"]].astype(float), [4.0, 3.8, 4.2])
    # an alternative that differs only in its target: the same data, measured from its target
    blind = frame.loc[(ALTERNATIVE_SERIES, "blind")]
    np.testing.assert_allclose(blind[["z", "z_low", "z_high"]].astype(float), [-1.6, -1.8, -1.3])
    assert blind["verdict"] == "inconclusive at these sizes"
    assert statistic["verdict"] == "holds" and bool(statistic["evidence"])


def test_a_fragile_pass_is_never_drawn_as_holds():
    fragile = {**ROW, "stability": "0.62", "alternative": "inconclusive at these sizes"}
    assert headline_class(fragile) == "fragile pass"
    assert headline_class(ROW) == "holds"


def test_alternatives_without_their_own_target_are_not_placed():
    assert alternatives_of({"alternatives": "MP: does not reproduce, value 0.11 [0.1, 0.12]"}) == []


def test_a_bound_has_no_z_and_a_bad_comparison_is_refused():
    bound = {**ROW, "row_id": "C.3/bound", "kind": "bound", "margin": "0.0"}
    frame = forest_table([bound])
    assert len(frame) == 1 and np.isnan(float(frame["z"].iloc[0]))
    with pytest.raises(ValueError, match="unknown comparison 'about'"):
        forest_table([{**ROW, "comparison": "about"}])


def test_the_forest_is_drawn_from_its_csv_within_the_craft(tmp_path):
    rows = [
        ROW,
        {**ROW, "row_id": "B.1/beta=1", "value": "0.5", "interval_high": "0.6", "limit": "nan"},
        {**ROW, "row_id": "B.1/far", "value": "600", "interval_high": "601", "limit": "nan"},
        {**ROW, "paper": "C", "row_id": "C.3/bound", "kind": "bound", "margin": "0"},
    ]
    table = forest_table(rows)
    frame = from_csv(table, tmp_path / "forest.csv")
    figure = plot_forest(frame)
    assert png_bytes(plot_forest(table)) == png_bytes(figure)
    assert craft_problems(figure) == []
    assert layering_problems(figure) == []  # the row separators are guides, not series
    paper_b = figure.axes[0]
    # B.1/beta=1's value, 98 margins off, is placed (symmetric-log axis); 1.2e5 is an arrow
    assert any(np.isclose(line.get_xdata()[0], 98.0) for line in paper_b.lines)
    arrows = [line for line in paper_b.lines if line.get_marker() == ">"]
    assert [line.get_xdata()[0] for line in arrows] == [AXIS_LIMIT]
    # the bound: a hollow dot at the target and the words
    assert BOUND_TEXT in [t.get_text() for t in figure.axes[1].texts]


def test_a_wrong_theory_is_marked_by_whether_the_data_rule_it_out_never_by_a_verdict_colour():
    figure = plot_forest(forest_table([ROW]))
    marks = {line.get_marker(): line for line in figure.axes[0].lines}
    ruled_out, kept = ALTERNATIVE_MARKS[True], ALTERNATIVE_MARKS[False]
    assert marks[ruled_out["marker"]].get_xdata()[0] == pytest.approx(4.0)  # x+ -1%
    assert marks[kept["marker"]].get_xdata()[0] == pytest.approx(-1.6)  # blind, inconclusive
    assert marks[kept["marker"]].get_zorder() > marks["o"].get_zorder()  # never hidden


def test_beyond_the_paper_and_fragile_verdicts_are_marked_on_their_rows():
    beyond = {**ROW, "row_id": "B.9/strong", "beyond_paper": "a stronger statement"}
    shaky = {**ROW, "row_id": "B.9/shaky", "verdict": "inconclusive at these sizes",
             "stability": "0.51"}  # fmt: skip
    replicated = {**ROW, "row_id": "B.9/replicated", "replicate_verdicts": "holds; inconclusive"}
    table = forest_table([ROW, beyond, shaky, replicated]).set_index("row_id")
    assert (
        table.loc["B.9/strong", "beyond_paper"].all()
        and not table.loc[ROW["row_id"], "beyond_paper"].any()
    )
    assert table.loc["B.9/shaky", "fragile"].all() and table.loc["B.9/replicated", "fragile"].all()
    ax = plot_forest(table.reset_index()).axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[1] == f"B.9/strong {BEYOND_MARK}" and labels[0] == "B.1/\u03b2=0.5"
    flags = sorted(t.get_text() for t in ax.texts)
    assert flags == ["fragile (51 % stable)", "fragile: replicates differ"]


def test_the_statistic_at_the_papers_sizes_is_drawn_beside_the_default_one():
    from attnspec.papers.forest import PAPER_SCALE_SERIES

    large = {**ROW, "value": "0.0102", "interval_low": "0.0098", "interval_high": "0.0106",
             "stability": "0.5"}  # fmt: skip
    table = forest_table([ROW], [large]).set_index("series")
    np.testing.assert_allclose(
        table.loc[PAPER_SCALE_SERIES, ["z", "z_low", "z_high"]].astype(float), [0.04, -0.04, 0.12]
    )
    assert table.loc[PAPER_SCALE_SERIES, "verdict"] == "fragile pass"  # its own headline
    figure = plot_forest(table.reset_index())
    assert any(line.get_marker() == "s" for line in figure.axes[0].lines)
    assert "statistic at the papers' sizes (paper preset)" in [
        t.get_text() for t in figure.legends[0].get_texts()
    ]


def test_one_papers_forest_has_its_rows_only_and_an_unknown_paper_is_refused():
    table = forest_table([ROW, {**ROW, "paper": "C", "row_id": "C.1/x"}])
    figure = plot_forest(table, ["C"])
    assert len(figure.axes) == 1 and figure.axes[0].get_title() == "Paper C"
    with pytest.raises(ValueError, match="papers must name papers of the table"):
        plot_forest(table, ["Z"])


def _replicates_table(rows_by_replicate):
    """figures/claims-replicates.csv's rows as scripts/claims_replicates.py writes them."""
    from attnspec.claims.dashboard import replicates_numbers, replicates_rows

    header, table = replicates_rows(rows_by_replicate)
    more_header, more = replicates_numbers(rows_by_replicate)
    return [
        dict(zip([*header, *more_header], [*row, *extra], strict=True))
        for row, extra in zip(table, more, strict=True)
    ]


def test_each_replicate_is_stacked_under_its_row_in_its_own_verdict_colour():
    from attnspec.papers.forest import REPLICATE_SERIES
    from attnspec.plotting.craft import convention_problems, layering_problems
    from attnspec.plotting.style import VERDICT_COLOURS

    other = {**ROW, "value": "0.02", "interval_low": "0.018", "interval_high": "0.022",
             "verdict": "does not reproduce", "stability": "1.0"}  # fmt: skip
    replicates = _replicates_table({0: [ROW], 1: [other], 2: [ROW]})
    table = forest_table([ROW], replicates=replicates).set_index(["series", "name"])
    first = table.loc[(REPLICATE_SERIES, "replicate 1")]
    np.testing.assert_allclose(first[["z", "z_low", "z_high"]].astype(float), [2.0, 1.6, 2.4])
    assert first["verdict"] == "does not reproduce"
    assert table.loc[(REPLICATE_SERIES, "replicate 2"), "verdict"] == "holds"
    frame = table.reset_index()
    combined, own = plot_forest(frame), plot_forest(frame, ["B"], replicates=True)
    assert own.get_size_inches()[1] > combined.get_size_inches()[1]  # taller rows

    def colours(figure):
        from matplotlib.colors import to_rgb

        return {tuple(np.round(to_rgb(line.get_color()), 3)) for line in figure.axes[0].lines}

    vermillion = tuple(np.round(VERDICT_COLOURS["does not reproduce"], 3))
    assert vermillion in colours(own) and vermillion not in colours(combined)
    assert layering_problems(own) == [] and convention_problems(own) == []
    assert "replicates 1, 2 (independent streams), under the row's own" in [
        t.get_text() for t in own.legends[0].get_texts()
    ]


def test_row_labels_write_parameters_as_symbols_and_keep_the_ids():
    from attnspec.papers.forest import row_label

    assert row_label("B.2/beta=1/cube_root") == "B.2/\u03b2=1/\u221b\u2113"
    assert row_label("B.2/beta=0.5/square_root") == "B.2/\u03b2=0.5/\u221a\u2113"
    assert row_label("B.2/beta=0.5/log") == "B.2/\u03b2=0.5/log \u2113"
    assert row_label("B.3/Sigma_f") == "B.3/\u03a3_f"
    assert row_label("D.1/bert-base/published-w1") == "D.1/bert-base/published-w1"


def test_the_legend_names_only_the_marks_drawn():
    labels = [t.get_text() for t in plot_forest(forest_table([ROW])).legends[0].get_texts()]
    assert "beyond the paper" not in labels
    assert "not evidence (model, identity, bound)" not in labels
    beyond = {**ROW, "row_id": "B.9/strong", "beyond_paper": "a stronger statement"}
    model = {**ROW, "row_id": "B.9/model", "kind": "model"}
    figure = plot_forest(forest_table([ROW, beyond, model]))
    labels = [t.get_text() for t in figure.legends[0].get_texts()]
    assert "beyond the paper" in labels and "not evidence (model, identity, bound)" in labels


def test_a_papers_forest_caption_names_its_rows_and_keeps_the_shared_key():
    from attnspec.papers.forest import paper_forest_caption

    caption = "**Claims of the papers: every verdict in one picture.**\nEach line is one row."
    text = paper_forest_caption(caption, "B")
    assert text.startswith("**Claims of paper B: its verdicts in one picture")
    assert text.endswith("\nEach line is one row.")
    with pytest.raises(ValueError, match="caption must start with a bold title line"):
        paper_forest_caption("no title\nrest", "B")
