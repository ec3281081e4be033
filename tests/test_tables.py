"""Markdown and LaTeX renderings of result tables."""

import pandas as pd
import pytest

from attnspec.tables import Residual, format_cell, rounding_bound, to_latex, to_markdown


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


@pytest.mark.parametrize(
    "value, scale, printed",
    [
        (3.94e-16, 1.0, "< 1e-13"),
        (1.24e-16, 1.0, "< 1e-13"),  # the same residual on another CPU prints the same
        (7.28e-12, 32408.37574, "< 4e-09"),
        (0.0, 9.0095, "< 1e-12"),
        (2.4e-130, 0.99, "< 1e-13"),
        (1e-10, 1.0, "1e-10"),  # above rounding: a finding, printed as a number
        (-5e-14, 1.0, "< 1e-13"),
    ],
)
def test_a_residual_at_rounding_level_prints_as_its_bound(value, scale, printed):
    assert format_cell(Residual(value, scale), 4) == printed


def test_a_residual_stays_its_float_in_csv_files_and_arithmetic():
    residual = Residual(3.94e-16, 2.0)
    assert float(residual) == 3.94e-16 and repr(residual) == "3.94e-16"
    assert pd.DataFrame({"r": [residual]}).to_csv(index=False) == "r\n3.94e-16\n"
    assert rounding_bound(2.9999999999) == rounding_bound(3.0000000001) == "< 3e-13"
