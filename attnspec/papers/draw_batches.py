"""Many draws in one job: the per-draw results of a parameter point stacked into one record.

Draws that cost less than the start of a job (ell <= BATCHED_UP_TO for paper B) run all together:
each draw is still computed alone from its own seeded streams (the same call as a single-draw
job), and the batch stacks the results on a leading draw axis, so :func:`unstack_draws` gives
back records equal bit for bit to the single-draw ones. Nothing here reads files.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np

BATCHED_UP_TO = 2048
"""Paper B's draws at ell <= this run all in one job per parameter point (a draw there takes a
few seconds at most, about the cost of starting the job)."""
BATCH_KEY = "batch_draws"
"""The key of a stacked record that holds its number of draws."""


def is_batched(n_tokens: int) -> bool:
    """Whether the draws at ell = ``n_tokens`` run in one job."""
    return int(n_tokens) <= BATCHED_UP_TO


def stack_draws(records: Sequence[Mapping[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """One record with every array of ``records`` stacked on a new leading axis (the draw), and
    their number under :data:`BATCH_KEY`. Every record must have the same keys and shapes."""
    if not records:
        raise ValueError("records must hold at least one draw")
    keys = list(records[0])
    if BATCH_KEY in keys:
        raise ValueError(f"a draw record may not use the key {BATCH_KEY!r}")
    for i, record in enumerate(records):
        if list(record) != keys:
            raise ValueError(f"record {i} has keys {sorted(record)}, record 0 has {sorted(keys)}")
    stacked = {key: np.stack([np.asarray(record[key]) for record in records]) for key in keys}
    stacked[BATCH_KEY] = np.int64(len(records))
    return stacked


def unstack_draws(arrays: Mapping[str, np.ndarray]) -> list[dict[str, np.ndarray]]:
    """The per-draw records of a stacked record (:func:`stack_draws`), or ``[arrays]`` for a
    single-draw record."""
    if BATCH_KEY not in arrays:
        return [dict(arrays)]
    count = int(arrays[BATCH_KEY])
    keys = [key for key in arrays if key != BATCH_KEY]
    return [{key: arrays[key][i] for key in keys} for i in range(count)]


def batched_draws(
    draw: Callable[[int], Mapping[str, np.ndarray]], draws: Iterable[int]
) -> dict[str, np.ndarray]:
    """:func:`stack_draws` of ``draw(d)`` for each draw index ``d`` (in the order given)."""
    return stack_draws([draw(int(d)) for d in draws])
