"""Atomic writes: nothing half-written on failure, ordinary permissions on success."""

import os
import stat

import numpy as np
import pytest

from attnspec.io import atomic_path, load_npz, read_csv, save_npz, write_csv


def test_failed_write_leaves_nothing(tmp_path):
    target = tmp_path / "table.csv"
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("job failed")
    assert list(tmp_path.iterdir()) == []


def test_written_files_have_ordinary_permissions(tmp_path):
    umask = os.umask(0o022)
    try:
        write_csv(tmp_path / "t.csv", ["a", "b"], [[1, 0.1]])
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "t.csv").stat().st_mode) == 0o644


def test_csv_and_npz_round_trip_exactly(tmp_path):
    value = 0.1 + 0.2
    write_csv(tmp_path / "t.csv", ["x"], [[value]])
    assert float(read_csv(tmp_path / "t.csv")[0]["x"]) == value
    save_npz(tmp_path / "a.npz", values=np.array([value]))
    assert load_npz(tmp_path / "a.npz")["values"][0] == value
