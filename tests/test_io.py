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


def test_figure_outputs_carry_caption_tables_and_claim_row(tmp_path):
    from types import SimpleNamespace

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    from attnspec.io import write_figure_outputs
    from attnspec.verdicts import HOLDS, ClaimCheck

    (tmp_path / "cap.rst").write_text('beta = {{ snakemake.config["beta"] }}')
    names = ("pdf", "png", "plotted", "caption", "claims")
    smk = SimpleNamespace(
        output=SimpleNamespace(**{n: str(tmp_path / f"out.{n}") for n in names}),
        input=SimpleNamespace(caption=str(tmp_path / "cap.rst")),
        config={"beta": 1.5},
    )
    claim = ClaimCheck("A.2", "s1 -> 1", "A6", "slope", -0.98, -1.0, 0.04, "s.e.", HOLDS, "ok")
    write_figure_outputs(
        smk, pyplot.figure(), ("x", "y"), [(1, 2.5)], tables=[(("k",), [(3,)])], claim=claim
    )
    assert read_csv(smk.output.plotted) == [{"x": "1", "y": "2.5"}]
    assert read_csv(smk.output.claims)[0]["verdict"] == HOLDS
    caption = (tmp_path / "out.caption").read_text()
    assert caption.startswith("beta = 1.5\n\n\n| k |")
    assert "| A.2 | s1 -> 1 |" in caption
