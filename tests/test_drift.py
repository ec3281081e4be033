"""The drift check (attnspec.workflow.drift): another CPU's last-bit differences pass, real
changes of a number, a text, a file or a figure are reported (issue 20, item 7)."""

import shutil

import numpy as np
import pandas as pd
import pytest
from conftest import REPO

from attnspec.workflow.drift import FLOAT32_RTOL, compare_trees


@pytest.fixture()
def trees(tmp_path):
    """A committed tree (a copy of three real outputs, one of paper B) and a fresh copy of it."""
    committed, fresh = tmp_path / "committed", tmp_path / "fresh"
    for name in ("paperA/A-T1-edges.csv", "paperA/A-T1-edges.md", "paperB/B-T1-sticking.csv"):
        (committed / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / "figures" / name, committed / name)
    _figure(committed / "paperA/figure.png", shift=0.0)
    shutil.copytree(committed, fresh)
    return committed, fresh


def _figure(path, shift, width=3.4):
    from matplotlib import pyplot as plt

    figure, ax = plt.subplots(figsize=(width, 2.0))
    x = np.linspace(0, 1, 200)
    ax.plot(x, np.sin(6 * x) + shift)
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _edit_csv(path, column, change):
    table = pd.read_csv(path)
    table[column] = change(table[column])
    table.to_csv(path, index=False, float_format="%.17g")


def test_identical_trees_have_no_drift(trees):
    assert compare_trees(*trees) == []


@pytest.mark.parametrize(
    "column, change, drifts",
    [
        ("x_plus", lambda v: v * (1 + 1e-12), False),  # another CPU's last bits
        ("x_plus", lambda v: v * (1 + 1e-6), True),
        ("mp_edge_4theta1", lambda v: v + 1e-3, True),
    ],
)
def test_csv_numbers_drift_only_beyond_the_relative_tolerance(trees, column, change, drifts):
    committed, fresh = trees
    _edit_csv(fresh / "paperA/A-T1-edges.csv", column, change)
    found = compare_trees(committed, fresh)
    assert bool(found) == drifts, found


def test_paper_b_numbers_from_float32_scores_get_the_float32_tolerance(trees):
    committed, fresh = trees
    _edit_csv(fresh / "paperB/B-T1-sticking.csv", "median", lambda v: v * (1 + FLOAT32_RTOL / 2))
    assert compare_trees(committed, fresh) == []
    _edit_csv(fresh / "paperB/B-T1-sticking.csv", "median", lambda v: v * (1 + 1e-3))
    assert any("'median'" in line for line in compare_trees(committed, fresh))


def test_a_text_cell_or_a_missing_file_is_reported(trees):
    committed, fresh = trees
    _edit_csv(fresh / "paperA/A-T1-edges.csv", "beta", lambda v: v.astype(str) + "x")
    (fresh / "paperB/B-T1-sticking.csv").unlink()
    found = compare_trees(committed, fresh)
    assert any("'beta'" in line for line in found) and any("missing" in line for line in found)


def test_markdown_numbers_may_move_by_one_unit_of_their_last_digit(trees):
    committed, fresh = trees
    path = fresh / "paperA/A-T1-edges.md"
    text = path.read_text()
    number = next(t for t in text.split("|") if t.strip().replace(".", "").isdigit()).strip()
    decimals = len(number.partition(".")[2])
    unit = 10.0**-decimals

    def moved(by):
        return text.replace(f" {number} ", f" {float(number) + by * unit:.{decimals}f} ", 1)

    (committed / "paperA/A-T1-edges.md").write_text(text + "\n*Produced by attnspec 0.2.0*\n")
    path.write_text(moved(1) + "\n*Produced by attnspec 0.2.0, code at commit abcdef0*\n")
    assert compare_trees(committed, fresh) == []
    path.write_text(moved(3))
    assert compare_trees(committed, fresh)
    path.write_text(text.replace("|", "/", 1))
    assert any("text differs" in line for line in compare_trees(committed, fresh))


def test_a_moved_curve_or_a_resized_figure_drifts_but_a_near_identical_one_does_not(trees):
    committed, fresh = trees
    _figure(fresh / "paperA/figure.png", shift=1e-4)
    assert compare_trees(committed, fresh) == []
    _figure(fresh / "paperA/figure.png", shift=0.3)
    assert any("RMS" in line for line in compare_trees(committed, fresh))
    _figure(fresh / "paperA/figure.png", shift=0.0, width=7.0)
    assert compare_trees(committed, fresh)
    assert not list(fresh.rglob("*failed-diff*"))


def test_a_missing_tree_is_one_clear_error(tmp_path):
    with pytest.raises(ValueError, match="committed must be a directory"):
        compare_trees(tmp_path / "nowhere", tmp_path)
