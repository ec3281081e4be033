"""`python -m attnspec.workflow.redo RULE`: the jobs of one rule and those depending on them, and
nothing of the work not yet done (the run itself: tests/product/test_committed_outputs.py)."""

import pytest

from attnspec.workflow.redo import Job, RedoError, main, parse_arguments, planned_jobs, redo_plan

DRY_RUN = """\
Building DAG of jobs...
Job stats:
job                 count
----------------  -------
paperD_heads            2
total                   6

[Sat Dec  5 01:36:36 2026]
rule paperD_heads:
    output: results/paperD/heads/h1/draws2.npz
    log: logs/results/paperD/heads/h1/draws2.log
    jobid: 114
    reason: Forced execution
    wildcards: results=results, heads=1, draws=2
Shell command: None

[Sat Dec  5 01:36:36 2026]
rule paperD_sharing:
    output: results/paperD/sharing/mqa/n64/draws2.npz
    reason: Missing output files: results/paperD/sharing/mqa/n64/draws2.npz

[Sat Dec  5 01:36:36 2026]
localrule paperD_D2_figure:
    input: results/paperD/heads/h1/draws2.npz, workflow/report/paperD/D2-heads.rst
    output: figures/paperD/D2-heads.png (update), results/published/paperD/D2-heads.sha256
    reason: Input files updated by another job: results/paperD/heads/h1/draws2.npz

rule paperD_DT2_table:
    input: results/paperD/heads/h1/draws2.npz, results/paperD/sharing/mqa/n64/draws2.npz
    output: figures/paperD/D-T2-moments.csv (update)

rule paper_notebook:
    input: figures/paperD/D2-heads.png, figures/paperD/D-T2-moments.csv
    output: figures/paperD.ipynb

localrule all:
    input: figures/paperD.ipynb, figures/paperD/D2-heads.png
    jobid: 0
"""


def test_the_dry_run_s_jobs_are_read_with_their_files_less_snakemake_s_flags():
    jobs = planned_jobs(DRY_RUN)
    assert [job.rule for job in jobs] == [
        "paperD_heads",
        "paperD_sharing",
        "paperD_D2_figure",
        "paperD_DT2_table",
        "paper_notebook",
        "all",
    ]
    assert jobs[2] == Job(
        "paperD_D2_figure",
        ("results/paperD/heads/h1/draws2.npz", "workflow/report/paperD/D2-heads.rst"),
        ("figures/paperD/D2-heads.png", "results/published/paperD/D2-heads.sha256"),
    )
    assert jobs[-1].outputs == ()


def test_the_plan_keeps_the_rule_and_its_dependents_and_leaves_what_waits_for_other_work():
    kept, left = redo_plan(planned_jobs(DRY_RUN), "paperD_heads")
    assert [job.rule for job in kept] == ["paperD_heads", "paperD_D2_figure"]
    assert [job.rule for job in left] == ["paperD_DT2_table", "paper_notebook"]


def test_a_rule_whose_jobs_wait_for_missing_work_is_left_whole():
    jobs = planned_jobs(DRY_RUN)
    assert redo_plan(jobs, "paperD_DT2_table") == ([], [jobs[3], jobs[4]])


def test_targets_default_to_all_and_cores_to_all():
    assert parse_arguments(["paperD_heads"]) == ("paperD_heads", ["all"], ["--cores", "all"])
    assert parse_arguments(["paperD_heads", "D2", "--", "-c2", "--configfile", "x.yaml"]) == (
        "paperD_heads",
        ["D2"],
        ["-c2", "--configfile", "x.yaml"],
    )
    with pytest.raises(RedoError, match="usage: python -m attnspec.workflow.redo RULE"):
        parse_arguments(["--", "--cores", "1"])


def test_a_malformed_command_line_is_one_line_without_traceback(capsys):
    assert main([]) == 2
    err = capsys.readouterr().err
    assert err.startswith("redo: error: usage:") and "Traceback" not in err
