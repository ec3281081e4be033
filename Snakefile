"""attnspec: figures and tables of random-matrix papers on softmax attention.

The workflow: `snakemake --cores all` from the repository root (the working directory; every
path is relative to it) runs this file. It calls attnspec.workflow.startup, which checks the
config and the working directory before the rules are read, then includes the rules of
workflow/rules/. Targets: all (default), paperA, paperB, paperC, paperD, replicates. Presets:
config/config.yaml (default), config/paper.yaml (the papers' sizes), config/ci.yaml (tiny, for
tests).
"""

import sys

from snakemake.utils import min_version

min_version("9.0")

# The Snakefile imports the repository's attnspec package whether or not it is pip-installed
# (workflow.basedir is the repository root); the jobs get it on PYTHONPATH (startup.start_run).
sys.path.insert(0, workflow.basedir)

from attnspec.workflow.startup import start_run  # noqa: E402

# The config checked and the folder made ready, before any rule is read (startup.start_run).
RUN = start_run(workflow, config)


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/shared.smk"
include: "workflow/rules/paperA.smk"
include: "workflow/rules/paperA_perron.smk"
include: "workflow/rules/paperA_laws.smk"
include: "workflow/rules/paperA_edges.smk"
include: "workflow/rules/paperA_tables.smk"
include: "workflow/rules/paperB.smk"
include: "workflow/rules/paperB_sticking.smk"
include: "workflow/rules/paperB_theory.smk"
include: "workflow/rules/paperC.smk"
include: "workflow/rules/paperC_canonical.smk"
include: "workflow/rules/paperC_pretrained.smk"
include: "workflow/rules/paperD.smk"
include: "workflow/rules/paperD_draws.smk"
include: "workflow/rules/paperD_figures.smk"
include: "workflow/rules/notebooks.smk"
include: "workflow/rules/rulegraph.smk"
include: "workflow/rules/targets.smk"


# Every job's first attempt fits the memory a job may have (JOB_MEMORY_LIMIT_MB, common.smk),
# checked before any job; SIGTERM ends the run; its last words compare what it rewrote with the
# committed outputs (attnspec.workflow.startup.Run).
RUN.check_memory(MEMORY_DEMANDS, JOB_MEMORY_LIMIT_MB, JOB_MEMORY_LIMIT_SOURCE)


onstart:
    RUN.on_start()


onsuccess:
    RUN.on_success(CHECKED_CONFIG)


# Targets and quick aggregations run on the submitting machine, never as cluster jobs.
localrules:
    paperA,
    paperB,
    paperC,
    paperD,


rule all:
    """Every figure and table of the papers, the claims dashboard, the executed companion
    notebooks and the rule graph (the default target)."""
    default_target: True
    input:
        rules.paperA.input,
        rules.paperB.input,
        rules.paperC.input,
        rules.paperD.input,
        rules.claims_dashboard.output,
        rules.claims_forest.output,
        rules.claims_limits.output,
        expand(
            in_figures("paper{paper}.{ext}"),
            paper=list(PAPER_CATEGORIES),
            ext=["ipynb", "html"],
        ),
        rules.rulegraph.output,
    localrule: True
