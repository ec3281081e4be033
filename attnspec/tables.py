"""Render a table (header + rows) as Markdown or LaTeX, numbers to a fixed number of digits.

The CSV files keep exact values; these renderings are for reading.
"""

from collections.abc import Sequence

import numpy as np


def format_cell(value, digits: int = 4) -> str:
    """Floats to ``digits`` significant digits; everything else as text."""
    if isinstance(value, float | np.floating):
        if not np.isfinite(value):
            return str(value)
        return f"{float(value):.{digits}g}"
    return str(value)


def _markdown_cell(value, digits: int) -> str:
    return format_cell(value, digits).replace("|", "\\|")


def to_markdown(header: Sequence[str], rows: Sequence[Sequence], digits: int = 4) -> str:
    """A GitHub-flavoured Markdown table (``|`` inside cells escaped), with a blank line before."""
    lines = ["", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_markdown_cell(v, digits) for v in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _latex_escape(text: str) -> str:
    for char in ("\\", "&", "%", "_", "#"):
        text = text.replace(char, "\\" + char)
    return text


def to_latex(
    header: Sequence[str], rows: Sequence[Sequence], *, caption: str, label: str, digits: int = 4
) -> str:
    """A booktabs LaTeX table (``tabular`` inside ``table``)."""
    body = [" & ".join(_latex_escape(format_cell(v, digits)) for v in row) + r" \\" for row in rows]
    return "\n".join(
        [
            r"\begin{table}[ht]",
            r"\centering",
            rf"\caption{{{caption}}}",
            rf"\label{{{label}}}",
            r"\begin{tabular}{" + "l" * len(header) + "}",
            r"\toprule",
            " & ".join(_latex_escape(h) for h in header) + r" \\",
            r"\midrule",
            *body,
            r"\bottomrule",
            r"\end{tabular}",
            r"\end{table}",
            "",
        ]
    )
