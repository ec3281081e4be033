"""What the Snakefile runs while Snakemake reads it: the parse-time Python of the workflow, in one
place, so that the Snakefile holds only its includes and the calls below.

:func:`start_run`, before the rules are read: the scripts' import path, the checked config
(:mod:`attnspec.workflow.configcheck`) and its provenance, the working directory's checks
(:mod:`attnspec.workflow.preflight`), the run lock and the clean-up of what ended runs left.
It returns a :class:`Run`, whose methods the Snakefile calls after the rules are read
(:meth:`Run.check_memory`) and in its ``onstart`` and ``onsuccess`` handlers.
"""

import os
import signal
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from snakemake_interface_executor_plugins.settings import ExecMode

from attnspec.workflow.configcheck import (
    check_corpus,
    check_verify_draws,
    prepare_config,
)
from attnspec.workflow.memorycheck import check_job_memory
from attnspec.workflow.npzschema import kind_of
from attnspec.workflow.preflight import (
    check_cores,
    check_free_space,
    check_output_folders,
    check_report_path,
    check_writable,
    handle_signal_in_a_thread,
    hold_run_lock,
    remove_corrupt_results,
    remove_partial_files,
    remove_stale_snakemake_locks,
)
from attnspec.workflow.provenance import provenance_line
from attnspec.workflow.publish import (
    remove_outdated_receipts,
    remove_staged_leftovers,
)
from attnspec.workflow.rerun_check import report_rerun


@dataclass
class Run:
    """One Snakemake command's start: when it started and the run lock it holds (None when it
    takes none) for its life."""

    started: float
    run_lock: object = None

    def check_memory(self, demands, limit_mb: int | None, limit_source: str) -> None:
        """Every job's first attempt fits the memory a job may have (``limit_mb``, None when
        there is no limit; :mod:`attnspec.workflow.memorycheck`), checked before any job."""
        if limit_mb is not None:
            check_job_memory(demands, limit_mb, limit_source)

    def on_start(self) -> None:
        """SIGTERM ends the run: Snakemake's handler (installed by now) runs in a thread of its
        own, never on top of the main thread holding the lock it needs
        (:mod:`attnspec.workflow.preflight`)."""
        handle_signal_in_a_thread(signal.SIGTERM)

    def on_success(self, checked_config: Mapping) -> None:
        """The run's last words: the outputs it rewrote against the committed ones of its
        preset, by the tolerances of :mod:`attnspec.workflow.drift` (another CPU's last bits
        pass; logs/drift.txt lists any difference)."""
        print(
            f"attnspec: {report_rerun(os.getcwd(), checked_config, self.started)}",
            file=sys.stderr,
        )


def start_run(workflow, config: dict, argv: Sequence[str] | None = None) -> Run:
    """Everything before the rules are read, in this order (``workflow`` is Snakemake's, whose
    ``basedir`` is the repository root; ``config`` is replaced in place by the checked config;
    ``argv`` defaults to the command line):

    1. the jobs' scripts import the repository's attnspec package whether or not it is
       pip-installed (conda rule environments do not install it): PYTHONPATH starts with the
       repository root;
    2. the preset: config/config.yaml unless --configfile names one, which must then be complete
       on its own; --config overrides either
       (:func:`~attnspec.workflow.configcheck.prepare_config`); paper C's corpus files and the
       draws of key ``verify`` are read relative to the working directory, as the jobs read
       them; config key ``provenance`` (not a preset key) gets the attnspec version and code
       commit, for captions and the report;
    3. the working directory can hold the outputs (and --report's folder the report);
    4. one Snakemake command per folder at a time: the command holds the folder's lock for its
       life (jobs run under cluster executors do not take it, nor a command given --nolock,
       such as the rule graph's nested dry run); holding it, the lock files and half-written
       temporary outputs of ended runs are stale and removed. A committed output that is no
       longer what a run of this folder published there (:mod:`attnspec.workflow.publish`)
       loses its receipt, so that the next run of a target that includes it redoes its job and
       restores it;
    5. corrupt results of an earlier run are removed, to be recomputed.
    """
    argv = sys.argv if argv is None else argv
    basedir, root = workflow.basedir, os.getcwd()
    os.environ.update(
        PYTHONPATH=os.pathsep.join(p for p in (basedir, os.environ.get("PYTHONPATH")) if p)
    )
    # Outputs written from now on are this run's (the drift check at its end compares them).
    run = Run(started=time.time())

    checked = prepare_config(
        config,
        configfiles=workflow.config_settings.configfiles,
        default_preset=os.path.join(basedir, "config", "config.yaml"),
        schema_path=os.path.join(basedir, "workflow", "schemas", "config.schema.yaml"),
    )
    check_corpus(checked, root)
    check_verify_draws(checked, root)
    config.clear()
    config.update(checked)
    config["provenance"] = provenance_line(basedir)

    check_output_folders(root)
    check_writable(root)
    check_free_space(root, needed_mb=200)
    check_report_path(argv[1:])

    if workflow.exec_mode == ExecMode.DEFAULT and "--nolock" not in argv:
        check_cores(workflow.resource_settings.cores)
        run.run_lock = hold_run_lock(root)
        for stale in (
            remove_stale_snakemake_locks(root)
            + remove_partial_files(root)
            + remove_staged_leftovers(root)
        ):
            print(f"attnspec: removed {stale} (left by an ended run)", file=sys.stderr)
        outdated = remove_outdated_receipts(root)
        for change in outdated[:5]:
            print(
                f"attnspec: {change} since a run of this folder published it: a run of a target "
                "that includes it redoes its job, which restores it",
                file=sys.stderr,
            )
        if len(outdated) > 5:
            print(f"attnspec: ... and {len(outdated) - 5} more such outputs", file=sys.stderr)

    for corrupt in remove_corrupt_results(root):
        kind = kind_of(corrupt)
        print(
            f"attnspec: {corrupt} was corrupt (not a readable npz): removed; a job that needs it "
            "recomputes it (outputs already made from it are kept: `.venv/bin/python -m "
            f"attnspec.workflow.redo {kind[0].rule if kind else '<its rule>'}` redoes them)",
            file=sys.stderr,
        )
    return run
