"""Faults beyond bad input: unwritable outputs, a full disk, corrupt results of an earlier run."""

import contextlib
import os
import subprocess
import zipfile

import numpy as np
import pytest
from conftest import run, tool, tracked_copy

from attnspec.workflow.preflight import (
    PreflightError,
    check_free_space,
    check_writable,
    is_corrupt_npz,
    link_sources,
    remove_corrupt_results,
)


@contextlib.contextmanager
def read_only(folder):
    """``folder`` unwritable even for root (chattr +i where available, else chmod)."""
    immutable = (
        os.geteuid() == 0
        and subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode == 0
    )
    if not immutable:
        os.chmod(folder, 0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("cannot make a folder read-only here")
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        else:
            os.chmod(folder, 0o700)


def test_unwritable_output_folder_is_named(tmp_path):
    (tmp_path / "figures").mkdir()
    with (
        read_only(tmp_path / "figures"),
        pytest.raises(PreflightError, match="figures is not writable"),
    ):
        check_writable(tmp_path)


def test_full_disk_is_reported_before_any_job(tmp_path):
    with pytest.raises(PreflightError, match="MB free on the disk"):
        check_free_space(tmp_path, needed_mb=10**12)
    check_free_space(tmp_path, needed_mb=1)


def test_corrupt_and_truncated_npz_are_found_and_removed(tmp_path):
    results = tmp_path / "results" / "paperA"
    results.mkdir(parents=True)
    good, truncated, garbage, flipped = (
        results / f"{n}.npz" for n in ("good", "cut", "junk", "crc")
    )
    np.savez(good, values=np.arange(1000.0))
    data = good.read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    garbage.write_bytes(b"not an npz file")
    with zipfile.ZipFile(good) as archive:
        offset = archive.infolist()[0].header_offset + 200
    flipped.write_bytes(data[:offset] + bytes([data[offset] ^ 0xFF]) + data[offset + 1 :])
    empty, foreign = results / "empty.npz", results / "foreign.npz"
    zipfile.ZipFile(empty, "w").close()  # a valid zip with no array (made a run fail)
    with zipfile.ZipFile(foreign, "w") as archive:
        archive.writestr("values.npy", b"not an array header")
    assert not is_corrupt_npz(good)
    assert all(is_corrupt_npz(p) for p in (truncated, garbage, flipped, empty, foreign))
    removed = remove_corrupt_results(tmp_path)
    assert sorted(removed) == sorted([truncated, garbage, flipped, empty, foreign])
    assert good.exists() and not truncated.exists()


def test_the_sources_view_links_everything_but_the_outputs(tmp_path):
    root, view = tmp_path / "repo", tmp_path / "view"
    for folder in ("figures", "results", "logs", "benchmarks", ".snakemake", "workflow", "data"):
        (root / folder).mkdir(parents=True)
    (root / "Snakefile").write_text("include: 'workflow/Snakefile'\n")
    view.mkdir()
    links = link_sources(root, view)
    assert [link.name for link in links] == ["Snakefile", "data", "workflow"]
    assert sorted(p.name for p in view.iterdir()) == ["Snakefile", "data", "workflow"]
    assert all(link.is_symlink() and link.resolve() == root / link.name for link in links)
    assert (view / "Snakefile").read_text() == "include: 'workflow/Snakefile'\n"


@pytest.mark.slow  # copies the repository, starts Snakemake twice
def test_snakemake_recomputes_a_corrupt_result_instead_of_plotting_it(tmp_path):
    workdir = tracked_copy(tmp_path / "clone")
    target = "results/config.yaml"
    run([tool("snakemake"), target, "--cores", "1", "--configfile", "config/ci.yaml"], cwd=workdir)
    corrupt = workdir / "results" / "paperA" / "left-over.npz"
    corrupt.parent.mkdir(parents=True, exist_ok=True)
    corrupt.write_bytes(b"PK\x03\x04 truncated")
    result = run([tool("snakemake"), "-n", target, "--configfile", "config/ci.yaml"], cwd=workdir)
    assert "was corrupt (not a readable npz): removed; a job that needs it recomputes" in (
        result.stderr
    )
    assert not corrupt.exists()


@pytest.mark.slow  # copies the repository, starts Snakemake
def test_unwritable_figures_stop_snakemake_with_one_message(tmp_path):
    workdir = tracked_copy(tmp_path / "clone")
    with read_only(workdir / "figures"):
        result = run(
            [tool("snakemake"), "-n", "--configfile", "config/ci.yaml"], cwd=workdir, check=False
        )
    assert result.returncode != 0
    assert "figures is not writable" in result.stdout + result.stderr
    assert "Traceback" not in result.stdout + result.stderr
