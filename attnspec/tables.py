"""Render a table (header + rows) as Markdown or LaTeX, numbers to a fixed number of digits.

The CSV files keep exact values; these renderings are for reading.
"""

from collections.abc import Sequence

import numpy as np

ROUNDING_FLOOR = 1e-13
"""Relative size (about 450 units in the last place) below which a residual between two exact
computations is rounding: printed as the bound ``< 1e-13`` (times its scale), not as the digits of
the noise, which differ between CPUs."""


class Residual(float):
    """A float that is a rounding-level residual of two computations of one quantity of size
    ``scale`` (a difference, a value zero in exact arithmetic): CSV files keep it exactly, the
    Markdown and LaTeX renderings print ``< bound`` when ``|value| <= ROUNDING_FLOOR * scale``."""

    def __new__(cls, value: float, scale: float = 1.0):
        residual = super().__new__(cls, value)
        residual.scale = abs(float(scale))
        return residual

    def __reduce__(self):
        return (Residual, (float(self), self.scale))


def rounding_bound(scale: float = 1.0) -> str:
    """``< b``: ROUNDING_FLOOR x scale rounded up to one significant digit (``< 1e-13``,
    ``< 4e-09``), so that a scale moved in its last bits prints the same bound."""
    bound = ROUNDING_FLOOR * abs(float(scale))
    if not np.isfinite(bound) or bound == 0.0:
        return "< 0"
    exponent = int(np.floor(np.log10(bound)))
    digit = int(np.ceil(round(bound / 10.0**exponent, 6)))
    if digit == 10:
        digit, exponent = 1, exponent + 1
    return f"< {digit}e{exponent:+03d}".replace("e+00", "").replace("+", "")


def format_cell(value, digits: int = 4) -> str:
    """Floats to ``digits`` significant digits, a :class:`Residual` at rounding level as its
    bound (:func:`rounding_bound`); everything else as text."""
    if isinstance(value, Residual) and abs(value) <= ROUNDING_FLOOR * value.scale:
        return rounding_bound(value.scale)
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
