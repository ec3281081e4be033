"""Counter-based seeding: one random stream per (parameters, draw, stream name, replicate).

entropy = int(sha256(canonical_json({"params": params, "stream": stream}))), spawn_key = (draw,).
Any draw of any job can be regenerated alone, independently of job order, process and machine.
Replicate r >= 1 (the config key ``replicate``) adds ``"replicate": r`` to the hashed payload, so
every stream of a replicate is statistically independent of replicate 0's, whose streams are
those of the payload without the key.
"""

import hashlib
import json
import math
from collections.abc import Mapping

import numpy as np

from attnspec.validation import check_count


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


def canonical_json(params: Mapping, stream: str = "", replicate: int = 0) -> str:
    """Canonical JSON text of ``{"params": params, "stream": stream}`` (plus ``"replicate": r``
    for a replicate r >= 1).

    Keys sorted, no whitespace, floats written by ``repr`` (json's float format: 0.1 is ``0.1``,
    and 1 and 1.0 are different parameters), tuples as lists, numpy scalars as Python ones.
    """
    payload = {"params": _canonical(params), "stream": str(stream)}
    replicate = check_count(replicate, "replicate", 0)
    if replicate:
        payload["replicate"] = replicate
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def seed_sequence_for(
    params: Mapping, draw: int, stream: str = "", *, replicate: int = 0
) -> np.random.SeedSequence:
    """SeedSequence(entropy=sha256(canonical_json(params, stream, replicate)), spawn_key=(draw,)).

    Parameters
    ----------
    params : Mapping
        The parameters that identify the experiment (str keys; values JSON-like, floats finite).
    draw : int
        Non-negative draw (replicate) index.
    stream : str
        Name of an independent stream for the same parameters and draw (e.g. ``"qk"``, ``"noise"``).
    replicate : int
        Non-negative replicate of the whole workflow (0: the default streams).
    """
    draw = check_count(draw, "draw", 0)
    digest = hashlib.sha256(canonical_json(params, stream, replicate).encode("ascii")).digest()
    return np.random.SeedSequence(entropy=int.from_bytes(digest, "big"), spawn_key=(draw,))


def rng_for(
    params: Mapping, draw: int, stream: str = "", *, replicate: int = 0
) -> np.random.Generator:
    """PCG64 Generator seeded by :func:`seed_sequence_for` ``(params, draw, stream, replicate)``."""
    return np.random.Generator(
        np.random.PCG64(seed_sequence_for(params, draw, stream, replicate=replicate))
    )
