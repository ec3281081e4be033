"""Helpers of the figure tests: a figure's PNG bytes, a tidy table read back from its CSV and
the texts a panel shows besides its panel letter."""

import io

import pandas as pd

from attnspec.plotting.style import is_panel_letter
from attnspec.workflow.io import PNG_METADATA, write_table


def png_bytes(figure) -> bytes:
    """The figure as PNG (as attnspec.workflow.io.save_figure writes it, at a low resolution)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=40, metadata=PNG_METADATA)
    return buffer.getvalue()


def panel_texts(ax) -> list:
    """The texts of an axes other than its panel letter (what the panel itself says)."""
    return [text for text in ax.texts if not is_panel_letter(text)]


def from_csv(frame: pd.DataFrame, path) -> pd.DataFrame:
    """A figure's table written as the CSV at ``path`` and read back as the figure script
    reads it."""
    write_table(path, frame)
    return pd.read_csv(path)
