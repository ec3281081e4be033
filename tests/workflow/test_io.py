"""Atomic writes (nothing half-written, ordinary permissions) and the files of a figure rule."""

import os
import stat

import numpy as np
import pandas as pd
import pytest

from attnspec.workflow.io import atomic_path, load_npz, read_csv, save_npz, write_table


def test_failed_write_leaves_nothing(tmp_path):
    target = tmp_path / "table.csv"
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("job failed")
    assert list(tmp_path.iterdir()) == []


def test_written_files_have_ordinary_permissions(tmp_path):
    umask = os.umask(0o022)
    try:
        write_table(tmp_path / "t.csv", pd.DataFrame({"a": [1], "b": [0.1]}))
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "t.csv").stat().st_mode) == 0o644


def test_csv_and_npz_round_trip_exactly(tmp_path):
    value = 0.1 + 0.2
    write_table(tmp_path / "t.csv", pd.DataFrame({"x": [value, 1e-17], "n": [3, 4]}))
    assert read_csv(tmp_path / "t.csv") == [
        {"x": repr(value), "n": "3"},
        {"x": "1e-17", "n": "4"},
    ]
    assert (tmp_path / "t.csv").read_bytes().count(b"\r") == 0
    save_npz(tmp_path / "a.npz", values=np.array([value]))
    assert load_npz(tmp_path / "a.npz")["values"][0] == value


def _figure_rule(tmp_path, names=("pdf", "png", "plotted", "caption")):
    """A stand-in for a figure rule's ``snakemake`` object, with a one-line caption template and
    a config snapshot without provenance line (the caption then ends with the template)."""
    from types import SimpleNamespace

    (tmp_path / "cap.rst").write_text('beta = {{ snakemake.config["beta"] }}')
    (tmp_path / "config.yaml").write_text("beta: 1.5\n")
    return SimpleNamespace(
        output=SimpleNamespace(**{n: str(tmp_path / f"out.{n}") for n in names}),
        input=SimpleNamespace(
            caption=str(tmp_path / "cap.rst"), config=str(tmp_path / "config.yaml")
        ),
        config={"beta": 1.5},
    )


def _judged(row_id):
    """A claims-table row as claims_judge writes it (values as text)."""
    return {
        "row_id": row_id, "kind": "empirical", "value": "-0.98", "interval_low": "-1.02",
        "interval_high": "-0.94", "target": "-1", "comparison": "equivalence", "margin": "0.1",
        "verdict": "holds", "stability": "0.99", "alternative": "", "ruled_out": "2 of 2",
        "no_power_against": "", "power_up": "1.2", "power_down": "1.4",
    }  # fmt: skip


def _figure():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    return pyplot.figure()


def test_figure_outputs_carry_caption_tables_and_verdict_rows(tmp_path):
    from attnspec.workflow.io import write_figure_outputs, write_plotted

    smk = _figure_rule(tmp_path)
    drawn = write_plotted(smk, pd.DataFrame({"x": [1], "y": [2.5]}))
    write_figure_outputs(smk, _figure(), tables=[(("k",), [(3,)])], judged=[_judged("A.2")])
    assert read_csv(smk.output.plotted) == [{"x": "1", "y": "2.5"}]
    assert drawn.equals(pd.read_csv(smk.output.plotted))
    caption = (tmp_path / "out.caption").read_text()
    assert caption.startswith("beta = 1.5\n\n\n| k |")
    assert "| A.2 | empirical | -0.98 | [-1.02, -0.94] | [-1.1, -0.9] | holds | 0.99 |" in caption


def test_figure_outputs_write_the_pdf_only_when_the_rule_has_one(tmp_path):
    from attnspec.workflow.io import write_figure_outputs

    for names in (("pdf", "png", "plotted", "caption"), ("png", "plotted", "caption")):
        folder = tmp_path / str(len(names))
        folder.mkdir()
        write_figure_outputs(_figure_rule(folder, names), _figure())
        assert (folder / "out.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        pdf = folder / "out.pdf"
        assert pdf.read_bytes()[:5] == b"%PDF-" if "pdf" in names else not pdf.exists()
        assert sorted(p.name for p in folder.iterdir() if p.name.startswith(".")) == []


def test_figure_outputs_take_an_intro_and_no_verdicts(tmp_path):
    from attnspec.workflow.io import write_figure_outputs

    smk = _figure_rule(tmp_path)
    write_figure_outputs(
        smk,
        _figure(),
        tables=[(("k",), [(0.123456,)])],
        digits=2,
        intro="\n**Claims hold.**\n",
    )
    caption = (tmp_path / "out.caption").read_text()
    assert caption == "beta = 1.5\n**Claims hold.**\n\n| k |\n|---|\n| 0.12 |\n"


def test_figure_outputs_without_verdicts_end_with_their_tables(tmp_path):
    from attnspec.workflow.io import write_figure_outputs

    smk = _figure_rule(tmp_path)
    write_figure_outputs(smk, _figure(), tables=[(("k",), [(3,)])], intro="\n")
    assert (tmp_path / "out.caption").read_text() == "beta = 1.5\n\n| k |\n|---|\n| 3 |\n"


def test_evidence_round_trips_through_npz(tmp_path):
    from attnspec.claims.evidence import Evidence
    from attnspec.workflow.io import load_evidence, save_evidence

    items = [
        Evidence(
            "B.2/beta=1/log",
            {"values": np.array([0.1, np.nan, 0.3])},
            target=0.01,
            margin_scale=0.003,
            sizes=np.array([1.0, 2.0, 4.0]),
            by_size=tuple({"values": np.arange(3.0) + i} for i in range(3)),
            limit_target=0.0,
            quantity="median gap, ell = 8192",
            note="beta = 1 note: théta",
            extra={"x_plus": 9.0},
            alternatives={
                "x+ +1%": Evidence(
                    "B.2/beta=1/log",
                    {"values": np.array([0.2, 0.1, 0.0])},
                    target=-0.01,
                    sizes=np.array([1.0, 2.0, 4.0]),
                    by_size=tuple({"values": np.arange(3.0) - i} for i in range(3)),
                    note="wrong edge",
                )
            },
        ),
        Evidence("B.4/square-model", {"values": np.array([3e-16])}, target=0.0),
    ]
    path = tmp_path / "evidence.npz"
    save_evidence(path, items)
    loaded = load_evidence(path)
    assert [e.row_id for e in loaded] == [e.row_id for e in items]
    for a, b in zip(loaded, items, strict=True):
        assert a.quantity == b.quantity and a.note == b.note and a.target == b.target
        assert a.margin_scale == b.margin_scale and dict(a.extra) == dict(b.extra)
        assert a.limit_target == b.limit_target and list(a.alternatives) == list(b.alternatives)
        for key in b.samples:
            np.testing.assert_array_equal(a.samples[key], b.samples[key])
        if b.sizes is None:
            assert a.sizes is None and a.by_size is None
        else:
            np.testing.assert_array_equal(a.sizes, b.sizes)
            for x, y in zip(a.by_size, b.by_size, strict=True):
                np.testing.assert_array_equal(x["values"], y["values"])
        for name, alternative in b.alternatives.items():
            assert a.alternatives[name].note == alternative.note
            assert a.alternatives[name].target == alternative.target
            np.testing.assert_array_equal(
                a.alternatives[name].by_size[2]["values"], alternative.by_size[2]["values"]
            )


def test_missing_values_are_empty_cells_or_the_given_marker(tmp_path):
    frame = pd.DataFrame({"x": [1.5, np.nan], "label": ["a", None]})
    write_table(tmp_path / "empty.csv", frame)
    write_table(tmp_path / "nan.csv", frame, missing="nan")
    assert (tmp_path / "empty.csv").read_text() == "x,label\n1.5,a\n,\n"
    assert (tmp_path / "nan.csv").read_text() == "x,label\n1.5,a\nnan,nan\n"


def test_verdicts_go_before_the_methods_block(tmp_path):
    from attnspec.workflow.io import write_figure_outputs

    smk = _figure_rule(tmp_path)
    (tmp_path / "cap.rst").write_text(
        "**Figure.** What is shown.\n\n**Methods.**\nbeta = {{ snakemake.config['beta'] }}\n"
    )
    fragile = dict(_judged("A.3"), stability="0.6")
    write_figure_outputs(smk, _figure(), judged=[_judged("A.2"), fragile])
    caption = (tmp_path / "out.caption").read_text()
    short, methods = caption.split("**Methods.**")
    assert short == (
        "**Figure.** What is shown.\n\nVerdicts: A.2: holds; "
        "A.3: fragile pass: holds (stability 60%).\n\n"
    )
    assert methods.startswith("\nbeta = 1.5\n")
