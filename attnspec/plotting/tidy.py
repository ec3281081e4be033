"""The figures' tidy tables (issue 20): one row per observation, ``kind`` first (``data``:
simulated or measured values; ``theory``: curves, limits and thresholds set by theory;
``statistic``: quantities the experiment derives from the data; ``verdict``: rows of the claims
table as judged, their statistics measured from their targets), then ``series`` (what the row
is within its kind), the identifiers and the values; a cell is empty where a column does not
apply. Built with pandas, imported where called, so that the simulation jobs that import the
experiment modules do not pay for it; read back from the CSV by the plotting modules with
:func:`select` and :func:`value_of`."""

from collections.abc import Mapping, Sequence

KINDS = ("data", "theory", "statistic", "verdict")
DATA, THEORY, STATISTIC, VERDICT = KINDS


def _whole(value):
    """An integral number as an int (written 1024, not 1024.0), else the float; NaN -> None."""
    if value is None or value != value:
        return None
    return int(value) if float(value).is_integer() else float(value)


def tidy_table(parts: Sequence[Mapping[str, object]], columns: Sequence[str], integers=()):
    """A figure's tidy table (pandas DataFrame with ``columns``, ``kind`` first) from ``parts``,
    each a mapping column -> values (scalars broadcast) of the rows of one kind and series, in
    order; a column a part lacks is empty on its rows. The ``integers`` columns present
    (identifiers such as ell, draw, k) are written as integers: a nullable integer column, or,
    where integers mix with other numbers (ell of the draws and of a theory curve's grid),
    integers kept as such. A kind outside :data:`KINDS` is a ValueError."""
    import numpy as np
    import pandas as pd

    frame = pd.concat([pd.DataFrame(part) for part in parts], ignore_index=True)
    frame = frame.reindex(columns=list(columns))
    unknown = set(frame["kind"]) - set(KINDS)
    if unknown:
        raise ValueError(f"kind must be one of {KINDS}; got {sorted(unknown)}")
    for column in (c for c in integers if c in frame):
        present = frame[column].dropna().astype(float)
        if (present == np.round(present)).all():
            frame[column] = frame[column].astype(float).astype("Int64")
        else:
            frame[column] = pd.Series([_whole(v) for v in frame[column]], dtype=object)
    return frame


def numeric(frame, *columns: str):
    """A copy of a tidy table with ``columns`` as floats (empty cells -> NaN), so that a table
    drawn as built and as read back from its CSV are the same."""
    import pandas as pd

    frame = frame.copy()
    for column in columns:
        frame[column] = pd.to_numeric(frame[column], errors="coerce").astype(float)
    return frame


def select(frame, kind: str, *series: str):
    """The rows of one ``kind`` (data, theory, statistic, verdict), of the named ``series`` if
    given."""
    keep = frame["kind"] == kind
    if series:
        keep &= frame["series"].isin(series)
    return frame[keep]


def value_of(frame, kind: str, series: str, **where) -> float:
    """The value of the one row of ``kind`` and ``series`` whose columns equal ``where``."""
    mine = select(frame, kind, series)
    for column, wanted in where.items():
        mine = mine[mine[column] == wanted]
    (value,) = mine["value"]
    return float(value)
