"""The committed store of expensive draws (attnspec.workflow.store): a draw is reused only under
the key of exactly its arguments and code, kept with its cost, recomputed when stale."""

import functools
import hashlib
import json

import numpy as np
import pytest

from attnspec.papers.b.sticking import sticking_draw
from attnspec.workflow.store import (
    code_digest,
    draw_key,
    entry_paths,
    module_closure,
    read_entry,
    stored_or_computed,
)

CALLS = []


def toy_draw(n_tokens: int, draw: int, *, betas=(0.5, 1.0), replicate: int = 0) -> dict:
    """A cheap stand-in for a draw: values from its arguments."""
    CALLS.append((n_tokens, draw))
    rng = np.random.default_rng([n_tokens, draw, replicate])
    return {"values": rng.standard_normal((len(betas), 3)), "betas": np.asarray(betas)}


def test_the_key_covers_every_argument_with_its_default_and_nothing_else():
    spelled = draw_key(toy_draw, (256, 3), {"betas": (0.5, 1.0), "replicate": 0})
    assert draw_key(toy_draw, (256, 3)) == spelled
    assert draw_key(toy_draw, (256, 4))["key"] != spelled["key"]
    assert draw_key(toy_draw, (256, 3), {"betas": (0.5, 1.5)})["key"] != spelled["key"]
    assert spelled["arguments"] == {"n_tokens": 256, "draw": 3, "betas": [0.5, 1.0], "replicate": 0}


def test_a_changed_draw_parameter_invalidates_exactly_the_draws_it_touches():
    """Ten draws at two sizes: a new beta list changes every key, another ell only its own
    draws; the number of draws per point is not an argument of a draw and changes none."""
    base = {"betas": (0.5, 1.0, 1.5), "n_values": 182, "top_k": 6, "replicate": 0}
    keys = {(n, d): draw_key(sticking_draw, (n, 1.0, d), base)["key"] for n in (16384, 32768)
            for d in range(10)}  # fmt: skip
    assert len(set(keys.values())) == 20
    moved = {(n, d): draw_key(sticking_draw, (n, 1.0, d), {**base, "betas": (0.5, 1.0)})["key"]
             for n, d in keys}  # fmt: skip
    assert not set(moved.values()) & set(keys.values())


def test_the_code_digest_follows_the_draw_s_imports():
    closure = module_closure("attnspec.papers.b.sticking")
    assert "attnspec.spectra.lanczos" in closure and "attnspec.seeding" in closure
    assert "attnspec.claims.engine" not in closure  # judging is not drawing
    assert code_digest(sticking_draw) == code_digest(sticking_draw)


def test_a_draw_is_computed_once_kept_with_its_cost_and_then_read(tmp_path):
    store, output = tmp_path / "store", "results/paperX/toy/ell256/draw3.npz"
    CALLS.clear()
    first = stored_or_computed(store, output, toy_draw, 256, 3)
    assert CALLS == [(256, 3)]
    again = stored_or_computed(store, output, toy_draw, 256, 3)
    assert CALLS == [(256, 3)]  # read, not recomputed
    assert all(np.array_equal(first[k], again[k]) for k in first)
    record = read_entry(store, output)
    npz, path = entry_paths(store, output)
    assert npz == store / "paperX/toy/ell256/draw3.npz" and path.suffix == ".json"
    paper_scale = output.replace("results/", "results/paper-scale/")
    assert entry_paths(store, paper_scale) == (npz, path)  # one draw, whichever scale asks
    assert record["key"] == draw_key(toy_draw, (256, 3))["key"]
    assert record["cpu_s"] >= 0 and record["peak_mb"] > 0 and record["cpu"] and record["made"]


def test_a_stale_draw_is_recomputed_and_replaced(tmp_path, caplog):
    store, output = tmp_path / "store", "results/paperX/toy/ell256/draw3.npz"
    stored_or_computed(store, output, toy_draw, 256, 3)
    CALLS.clear()
    fresh = stored_or_computed(store, output, toy_draw, 256, 3, betas=(0.5,))
    assert CALLS == [(256, 3)] and fresh["values"].shape == (1, 3)
    assert "stale (arguments changed)" in caplog.text
    assert read_entry(store, output)["arguments"]["betas"] == [0.5]


def test_without_a_store_every_draw_is_computed(tmp_path):
    CALLS.clear()
    stored_or_computed(None, "results/x/draw0.npz", toy_draw, 8, 0)
    stored_or_computed(None, "results/x/draw0.npz", toy_draw, 8, 0)
    assert CALLS == [(8, 0), (8, 0)]


def test_a_half_kept_draw_without_its_record_is_not_read(tmp_path):
    store, output = tmp_path / "store", "results/paperX/toy/draw0.npz"
    npz, record = entry_paths(store, output)
    npz.parent.mkdir(parents=True)
    np.savez(npz, values=np.zeros(3))
    CALLS.clear()
    stored_or_computed(store, output, toy_draw, 8, 0)
    assert CALLS == [(8, 0)] and json.loads(record.read_text())["arguments"]["n_tokens"] == 8


def test_arguments_that_are_not_plain_values_are_refused():
    with pytest.raises(ValueError, match="plain values"):
        draw_key(toy_draw, (object(), 0))


def test_verify_recomputes_a_stored_draw_and_finds_it_identical_or_names_the_difference(tmp_path):
    from attnspec.workflow.store_verify import default_selection, verify

    store = tmp_path / "store"
    for n, d in ((128, 0), (256, 0), (256, 1)):
        stored_or_computed(store, f"results/paperX/toy/ell{n}-c1.0/draw{d}.npz", toy_draw, n, d)
    chosen = default_selection(store)
    assert [p.relative_to(store).as_posix() for p in chosen] == [
        "paperX/toy/ell256-c1.0/draw0.json"
    ]
    (line,) = verify(store, chosen)
    assert line.startswith("paperX/toy/ell256-c1.0/draw0.npz: identical")
    npz = store / "paperX/toy/ell256-c1.0/draw0.npz"
    arrays = dict(np.load(npz))
    np.savez(npz, **{**arrays, "values": arrays["values"] * (1 + 1e-3)})
    (line,) = verify(store, chosen)
    assert ": differs (largest relative difference 0.001" in line
    np.savez(npz, **{**arrays, "values": arrays["values"] * (1 + 1e-12)})
    assert ": within tolerance" in verify(store, chosen)[0]
    record = store / "paperX/toy/ell256-c1.0/draw0.json"
    changed = json.loads(record.read_text())
    changed["key"] = "0" * 64
    record.write_text(json.dumps(changed))
    assert ": stale" in verify(store, chosen)[0]


def test_a_code_change_that_keeps_the_values_is_rekeyed_only_after_a_bit_identical_recomputation(
    tmp_path,
):
    from attnspec.workflow.store_verify import verify

    store = tmp_path / "store"
    for d in (0, 1):
        stored_or_computed(store, f"results/paperX/toy/ell256-c1.0/draw{d}.npz", toy_draw, 256, d)
    stored_or_computed(store, "results/paperX/toy/ell512-c1.0/draw0.npz", toy_draw, 512, 0)
    records = sorted(store.rglob("*.json"))
    for path in records:  # as if made by other code
        record = json.loads(path.read_text())
        record.update(key="1" * 64, code="c" * 64)
        path.write_text(json.dumps(record))
    chosen = store / "paperX/toy/ell256-c1.0/draw0.json"
    assert ": stale" in verify(store, [chosen])[0]
    lines = verify(store, [chosen], rekey=True)
    assert lines[0].startswith("paperX/toy/ell256-c1.0/draw0.npz: identical")
    assert sorted(lines[1:]) == [
        "paperX/toy/ell256-c1.0/draw0.npz: re-keyed to the current code",
        "paperX/toy/ell256-c1.0/draw1.npz: re-keyed to the current code",
    ]
    other = json.loads((store / "paperX/toy/ell512-c1.0/draw0.json").read_text())
    assert other["key"] == "1" * 64  # another point: not re-keyed without its own check
    CALLS.clear()
    stored_or_computed(store, "results/paperX/toy/ell256-c1.0/draw1.npz", toy_draw, 256, 1)
    assert CALLS == []


def test_a_draw_whose_module_was_renamed_is_rekeyed_under_its_new_name(tmp_path):
    from attnspec.workflow.store_verify import verify

    store = tmp_path / "store"
    for d in (0, 1):
        stored_or_computed(store, f"results/paperX/toy/ell64-c1.0/draw{d}.npz", toy_draw, 64, d)
    current = f"{toy_draw.__module__}.toy_draw"
    for path in store.rglob("*.json"):  # as if made when toy_draw lived in another module
        record = json.loads(path.read_text())
        record.update(key="1" * 64, code="c" * 64, function="attnspec.gone.toy_draw")
        path.write_text(json.dumps(record))
    chosen = store / "paperX/toy/ell64-c1.0/draw0.json"
    with pytest.raises(ModuleNotFoundError):
        verify(store, [chosen], rekey=True)
    lines = verify(store, [chosen], rekey=True, moved={"attnspec.gone.toy_draw": current})
    assert lines[0].startswith("paperX/toy/ell64-c1.0/draw0.npz: identical")
    assert len(lines) == 3
    for path in store.rglob("*.json"):
        record = json.loads(path.read_text())
        assert record["function"] == current
        assert (
            record["key"] == draw_key(toy_draw, (), {"n_tokens": 64, **record["arguments"]})["key"]
        )


def _committed_records():
    from conftest import REPO

    return sorted((REPO / "data" / "store").rglob("*.json"))


@functools.cache
def _current_digest(qualified: str) -> str:
    import importlib

    module, name = qualified.rsplit(".", 1)
    return code_digest(getattr(importlib.import_module(module), name))


@pytest.mark.parametrize("record", _committed_records(), ids=lambda p: p.parent.name + "/" + p.stem)
def test_every_committed_draw_is_kept_under_the_current_code_and_its_own_key(record):
    """A change to a stored draw's code makes it stale (a paper-preset run would recompute it):
    the commit that makes the change re-keys it after a bit-identical recomputation
    (tools/verify_store.py --rekey) or says why it recomputes."""
    made = json.loads(record.read_text())
    assert _current_digest(made["function"]) == made["code"], (
        f"{record}: stale, its code changed since it was kept; re-key it after a bit-identical "
        "recomputation (python tools/verify_store.py --rekey <draw>)"
    )
    text = json.dumps({k: made[k] for k in ("function", "arguments", "code")}, sort_keys=True)
    assert hashlib.sha256(text.encode()).hexdigest() == made["key"], f"{record}: not its own key"
    assert record.with_suffix(".npz").stat().st_size > 0


def named_draw(model: str, draw: int, *, dtype=np.float64) -> dict:
    """A stand-in whose first parameter is a string without a default (like paper A's
    model_spectra) and whose dtype is recorded by name."""
    return {"values": np.full(3, float(len(model) + draw), dtype=dtype)}


def test_verify_gives_a_string_argument_without_a_default_as_it_was_recorded(tmp_path):
    """A parameter without a default has inspect's "empty" default, which is a type: it must not
    be read as a dtype name ('attention' is not a numpy type)."""
    from attnspec.workflow.store_verify import verify

    store = tmp_path / "store"
    stored_or_computed(
        store, "results/paperX/named/attention/draw0.npz", named_draw, "attention", 0
    )
    stored_or_computed(
        store, "results/paperX/named/float32/draw1.npz", named_draw, "linear", 1, dtype=np.float32
    )
    records = sorted(store.rglob("*.json"))
    assert [line.split(": ")[1].split(" (")[0] for line in verify(store, records)] == [
        "identical"
    ] * 2
