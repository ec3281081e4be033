"""Markdown and LaTeX renderings of result tables."""

from attnspec.tables import format_cell, to_latex, to_markdown


def test_markdown_table_escapes_pipes_and_rounds_floats():
    text = to_markdown(["name", "value"], [["|s1 - 1|", 0.123456789], ["n", 7]])
    lines = text.strip().splitlines()
    assert lines[0] == "| name | value |"
    assert lines[2] == "| \\|s1 - 1\\| | 0.1235 |"
    assert lines[3] == "| n | 7 |"
    assert text.startswith("\n"), "a blank line must separate the table from a caption above"


def test_latex_table_escapes_specials():
    text = to_latex(["x_plus", "a&b"], [[1.5, "50%"]], caption="c", label="tab:x")
    assert r"x\_plus & a\&b \\" in text
    assert r"1.5 & 50\% \\" in text
    assert text.count(r"\begin{tabular}{ll}") == 1


def test_non_finite_cells_are_written_as_such():
    assert format_cell(float("nan")) == "nan"
    assert format_cell(float("inf")) == "inf"
