"""One Snakemake command per folder at a time (attnspec.workflow.preflight): the lock is held for
the life of a process, refused to a second one with one line, and released by kill -9 and by a
SIGTERM to the run's process group (which once left Snakemake asleep, holding it)."""

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import tool, tracked_copy

from attnspec.workflow.preflight import (
    RUN_LOCK,
    PreflightError,
    handle_signal_in_a_thread,
    hold_run_lock,
    remove_partial_files,
    remove_stale_snakemake_locks,
)

HOLD = (
    "import sys, time; from attnspec.workflow.preflight import hold_run_lock; "
    "lock = hold_run_lock(sys.argv[1]); print('held', flush=True); time.sleep(600)"
)


def wait_for(predicate, seconds=120.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.2)


def test_the_lock_is_refused_while_held_and_free_after_kill_9(tmp_path):
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(PreflightError, match=f"pid {holder.pid}, started .*no --unlock"):
            hold_run_lock(tmp_path)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    lock = hold_run_lock(tmp_path)
    assert (tmp_path / RUN_LOCK).read_text().startswith(f"pid {os.getpid()}, started ")
    lock.close()


def test_a_folder_where_the_lock_file_goes_is_named(tmp_path):
    """Was a raw IsADirectoryError."""
    (tmp_path / RUN_LOCK).mkdir(parents=True)
    with pytest.raises(PreflightError) as raised:
        hold_run_lock(tmp_path)
    assert str(raised.value) == (
        "attnspec: .snakemake/attnspec-run.lock is a folder, where the run keeps its lock file: "
        "remove it (rm -r .snakemake/attnspec-run.lock); the next command makes the file"
    )


def test_a_file_where_the_snakemake_folder_goes_is_named(tmp_path):
    (tmp_path / ".snakemake").write_text("")
    with pytest.raises(PreflightError, match=r"run lock .* cannot be made \(File exists: .*"):
        hold_run_lock(tmp_path)


# A handler that needs a lock the main thread holds when the signal comes, as Snakemake's
# SIGTERM handler needs its scheduler's lock: run in the main thread it would wait for ever.
DEFERRED = """
import os, signal, threading, time
from attnspec.workflow.preflight import handle_signal_in_a_thread
lock, handled = threading.Lock(), threading.Event()
def handler(signum, frame):
    with lock:
        handled.set()
signal.signal(signal.SIGTERM, handler)
handle_signal_in_a_thread(signal.SIGTERM)
with lock:
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(0.2)  # the Python handler runs here, in the main thread, holding the lock
    assert not handled.is_set()
assert handled.wait(10)
print("handled")
"""


def test_a_signal_handler_needing_a_lock_held_by_the_main_thread_runs_once_it_is_free():
    result = subprocess.run(
        [sys.executable, "-c", DEFERRED], capture_output=True, text=True, timeout=60
    )
    assert result.stdout.strip() == "handled", result.stderr


def test_only_a_python_handler_is_moved_to_a_thread():
    before = signal.getsignal(signal.SIGUSR2)
    try:
        signal.signal(signal.SIGUSR2, signal.SIG_IGN)
        handle_signal_in_a_thread(signal.SIGUSR2)
        assert signal.getsignal(signal.SIGUSR2) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGUSR2, before)


def test_stale_snakemake_locks_are_removed(tmp_path):
    locks = tmp_path / ".snakemake" / "locks"
    locks.mkdir(parents=True)
    (locks / "0.input.lock").write_text("x")
    assert [p.name for p in remove_stale_snakemake_locks(tmp_path)] == ["0.input.lock"]
    assert list(locks.iterdir()) == []


def test_half_written_outputs_of_a_killed_job_are_removed(tmp_path):
    """A temporary file named as attnspec.workflow.io.atomic_path names it (mkstemp beside the
    output) is removed; the output itself and other hidden files are kept."""
    import tempfile

    figures = tmp_path / "figures" / "paperD"
    figures.mkdir(parents=True)
    fd, partial = tempfile.mkstemp(prefix=".D2-heads.csv.", suffix=".csv", dir=figures)
    os.close(fd)
    (figures / ".gitkeep").write_text("")
    (figures / "D2-heads.csv").write_text("a committed output")
    assert remove_partial_files(tmp_path) == [figures / os.path.basename(partial)]
    assert sorted(p.name for p in figures.iterdir()) == [".gitkeep", "D2-heads.csv"]


@pytest.mark.slow
def test_a_second_run_is_refused_and_a_killed_run_needs_no_unlock(tmp_path):
    """Two real runs of the CI preset in one copy: the second stops with one line naming the
    first; after kill -9 of the first (Snakemake's lock files left behind), a third runs."""
    workdir = tracked_copy(tmp_path / "copy")
    command = [tool("snakemake"), "--configfile", "config/ci.yaml", "--cores", "1"]
    first = subprocess.Popen(
        [*command, "--", "paperA"],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for(lambda: list((workdir / ".snakemake" / "locks").glob("*")))
        second = subprocess.run(
            [*command, "--", "paperA"], cwd=workdir, capture_output=True, text=True
        )
        assert second.returncode != 0
        assert f"another Snakemake command is running in this folder (pid {first.pid}" in (
            second.stderr
        )
        assert "Traceback" not in second.stderr
        assert list((workdir / ".snakemake" / "locks").glob("*")), "the first run's lock is gone"
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    third = subprocess.run(
        [*command, "-n", "--", "paperA"], cwd=workdir, capture_output=True, text=True
    )
    assert third.returncode == 0, third.stderr
    assert "left by an ended run" in third.stderr


@pytest.mark.slow
def test_sigterm_to_the_process_group_mid_job_ends_the_run_and_frees_the_lock(tmp_path):
    """SIGTERM to the group while a job runs, then more to Snakemake (as a supervisor repeats
    it): Snakemake's handler, run in the main thread while that held the scheduler's lock, used
    to wait for ever (about half the time under these repeats), holding the run lock. Now the
    run ends within seconds and the next command in the folder is not refused."""
    workdir = tracked_copy(tmp_path / "copy")
    command = [tool("snakemake"), "--configfile", "config/ci.yaml", "--cores", "1"]
    run = subprocess.Popen(
        [*command, "--", "paperA"],
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for(lambda: list((workdir / ".snakemake" / "scripts").glob("*.py")))
        os.killpg(run.pid, signal.SIGTERM)
        for _ in range(100):
            if run.poll() is not None:
                break
            run.send_signal(signal.SIGTERM)
            time.sleep(0.03)
        run.wait(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    after = subprocess.run(
        [*command, "-n", "--", "paperA"], cwd=workdir, capture_output=True, text=True
    )
    assert after.returncode == 0, after.stderr
    assert "another Snakemake command is running" not in after.stderr
