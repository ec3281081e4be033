"""Counter-based seeding: one random stream per (parameters, draw, stream name).

entropy = int(sha256(canonical_json({"params": params, "stream": stream}))), spawn_key = (draw,).
Any draw of any job can be regenerated alone, independently of job order, process and machine.
"""

import hashlib
import json
import math
from collections.abc import Mapping

import numpy as np


def _canonical(value):
    """JSON-ready copy of ``value``: str-keyed dicts, lists, Python scalars (from numpy too)."""
    if isinstance(value, Mapping):
        return {str(key): _canonical(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_canonical(item) for item in value]
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"non-finite parameter {value!r} cannot seed a stream")
        return value
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"cannot seed from a parameter of type {type(value).__name__}")


def canonical_json(params: Mapping, stream: str = "") -> str:
    """Canonical JSON text of ``{"params": params, "stream": stream}``.

    Keys sorted, no whitespace, floats written by ``repr`` (json's float format: 0.1 is ``0.1``,
    and 1 and 1.0 are different parameters), tuples as lists, numpy scalars as Python ones.
    """
    payload = {"params": _canonical(params), "stream": str(stream)}
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def seed_sequence_for(params: Mapping, draw: int, stream: str = "") -> np.random.SeedSequence:
    """SeedSequence(entropy=sha256(canonical_json(params, stream)), spawn_key=(draw,)).

    Parameters
    ----------
    params : Mapping
        The parameters that identify the experiment (str keys; values JSON-like, floats finite).
    draw : int
        Non-negative draw (replicate) index.
    stream : str
        Name of an independent stream for the same parameters and draw (e.g. ``"qk"``, ``"noise"``).
    """
    if isinstance(draw, bool) or not isinstance(draw, int | np.integer) or draw < 0:
        raise ValueError(f"draw must be a non-negative integer, got {draw!r}")
    digest = hashlib.sha256(canonical_json(params, stream).encode("ascii")).digest()
    return np.random.SeedSequence(entropy=int.from_bytes(digest, "big"), spawn_key=(int(draw),))


def rng_for(params: Mapping, draw: int, stream: str = "") -> np.random.Generator:
    """PCG64 Generator seeded by :func:`seed_sequence_for` ``(params, draw, stream)``."""
    return np.random.Generator(np.random.PCG64(seed_sequence_for(params, draw, stream)))
