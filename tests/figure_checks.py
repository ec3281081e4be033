"""Helpers of the figure tests: a figure's PNG bytes and a tidy table read back from its CSV."""

import io

import pandas as pd

from attnspec.workflow.io import PNG_METADATA, write_table


def png_bytes(figure) -> bytes:
    """The figure as PNG (as attnspec.workflow.io.save_figure writes it, at a low resolution)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=40, metadata=PNG_METADATA)
    return buffer.getvalue()


def from_csv(frame: pd.DataFrame, path) -> pd.DataFrame:
    """A figure's table written as the CSV at ``path`` and read back as the figure script
    reads it."""
    write_table(path, frame)
    return pd.read_csv(path)
