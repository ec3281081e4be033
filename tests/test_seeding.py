"""Counter-based seeding: any draw regenerates alone, bit for bit, in any order or process."""

import subprocess
import sys

import numpy as np
import pytest

from attnspec.seeding import canonical_json, rng_for, seed_sequence_for

PARAMS = {"experiment": "test", "beta": 1.0, "n_tokens": 64, "ratios": (0.5, 1)}


def test_a_draw_regenerated_alone_is_bit_identical_to_the_same_draw_in_a_sequence():
    in_order = [rng_for(PARAMS, draw, "qk").standard_normal(50) for draw in range(5)]
    alone = rng_for(PARAMS, 3, "qk").standard_normal(50)
    assert np.array_equal(in_order[3], alone)
    reversed_order = [rng_for(PARAMS, draw, "qk").standard_normal(50) for draw in (4, 3, 2, 1, 0)]
    assert np.array_equal(reversed_order[1], alone)


def test_draws_streams_and_parameters_each_change_the_numbers():
    base = rng_for(PARAMS, 0, "qk").standard_normal(20)
    assert not np.array_equal(base, rng_for(PARAMS, 1, "qk").standard_normal(20))
    assert not np.array_equal(base, rng_for(PARAMS, 0, "noise").standard_normal(20))
    assert not np.array_equal(base, rng_for({**PARAMS, "beta": 1.5}, 0, "qk").standard_normal(20))


def test_canonical_json_sorts_keys_and_normalises_numpy_scalars():
    shuffled = {"ratios": [np.float64(0.5), np.int64(1)], "n_tokens": np.int64(64)}
    shuffled |= {"beta": np.float64(1.0), "experiment": "test"}
    assert canonical_json(shuffled, "qk") == canonical_json(PARAMS, "qk")
    assert canonical_json({"b": 0.1, "a": 2}) == '{"params":{"a":2,"b":0.1},"stream":""}'
    # Floats by repr: 1 and 1.0 are different parameters (documented).
    assert canonical_json({"beta": 1}) != canonical_json({"beta": 1.0})


def test_the_seed_sequence_is_the_sha256_of_the_canonical_json_spawned_at_the_draw():
    sequence = seed_sequence_for(PARAMS, 7, "qk")
    assert sequence.spawn_key == (7,)
    assert sequence.entropy.bit_length() > 200  # a 256-bit digest, not a small integer


def test_the_numbers_do_not_depend_on_the_process():
    code = (
        "from attnspec.seeding import rng_for; "
        f"print(repr(rng_for({PARAMS!r}, 2, 'qk').standard_normal()))"
    )
    child = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert float(child) == rng_for(PARAMS, 2, "qk").standard_normal()


@pytest.mark.parametrize("draw", [-1, 1.0, True])
def test_invalid_draws_are_refused(draw):
    with pytest.raises(ValueError, match="draw"):
        rng_for(PARAMS, draw)


def test_unserialisable_and_non_finite_parameters_are_refused():
    with pytest.raises(TypeError):
        rng_for({"f": object()}, 0)
    with pytest.raises(ValueError, match="non-finite"):
        rng_for({"beta": float("nan")}, 0)


def test_replicate_zero_keeps_the_default_streams_and_others_differ():
    from attnspec.seeding import rng_for

    params = {"n_tokens": 8, "beta": 1.0}
    base = rng_for(params, 3, "queries_keys").standard_normal(4)
    assert np.array_equal(base, rng_for(params, 3, "queries_keys", replicate=0).standard_normal(4))
    first = rng_for(params, 3, "queries_keys", replicate=1).standard_normal(4)
    second = rng_for(params, 3, "queries_keys", replicate=2).standard_normal(4)
    assert not np.array_equal(base, first) and not np.array_equal(first, second)
    assert np.array_equal(first, rng_for(params, 3, "queries_keys", replicate=1).standard_normal(4))


@pytest.mark.parametrize("replicate", [-1, 1.0, True, "1"])
def test_replicate_must_be_a_non_negative_integer(replicate):
    from attnspec.seeding import rng_for

    with pytest.raises(ValueError, match="replicate"):
        rng_for({"a": 1}, 0, replicate=replicate)
