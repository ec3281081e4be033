"""Run one job's script alone, outside a Snakemake run, for debugging: ``alone RULE``.

    .venv/bin/python -m attnspec.workflow.alone RULE [WILDCARD=VALUE ...] [--configfile FILE]

Every script in ``scripts/`` reads the ``snakemake`` object Snakemake gives it (``smk.input``,
``smk.output``, ``smk.log``, ``smk.params``, ``smk.config``, ...). Here that object is built
from the workflow itself, as PyPSA-Eur's ``mock_snakemake`` does: the Snakefile is read with the
preset (the config checks and the run lock included, as for a run), the job of RULE with the
given wildcards is found in the DAG of its outputs, and the script runs in this process
(``pdb``, ``breakpoint()`` and print debugging work) with that object, so it writes what its
job writes, committed outputs included (published only when complete,
:mod:`attnspec.workflow.publish`). Its inputs must exist: the message names any that are
missing, to be made first by ``snakemake <file>``. A rule whose wildcards are left open must
have one job in the DAG of target ``all``; otherwise the message lists the wildcards to choose.
"""

import os
import runpy
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import snakemake.api as api
from snakemake.exceptions import WorkflowError
from snakemake.script import Snakemake
from snakemake.settings.enums import Quietness
from snakemake.settings.types import ConfigSettings, DAGSettings, OutputSettings, ResourceSettings
from snakemake_interface_executor_plugins.utils import TargetSpec

from attnspec.workflow.configcheck import ConfigError
from attnspec.workflow.preflight import PreflightError

# Snakemake is imported at module level: only this debugging command imports the module (the
# rule environments' check follows the lazy imports of functions that jobs call, by name).
USAGE = "usage: python -m attnspec.workflow.alone RULE [WILDCARD=VALUE ...] [--configfile FILE]"


class AloneError(RuntimeError):
    """The job cannot be run alone; the message says why."""


def _workflow_job(rule: str, wildcards: Mapping[str, str], configfiles: Sequence[str], root):
    """(the job of ``rule`` with ``wildcards``, the workflow) from the DAG Snakemake builds for
    it (for target ``all`` when wildcards are left open)."""
    output = OutputSettings(quiet={Quietness.ALL}, enable_file_logging=False)
    with api.SnakemakeApi(output) as snakemake_api:
        workflow_api = snakemake_api.workflow(
            resource_settings=ResourceSettings(cores=1),
            config_settings=ConfigSettings(configfiles=[Path(f) for f in configfiles]),
            snakefile=Path(root) / "Snakefile",
            workdir=Path(root),
        )
        names = {r.name: r for r in workflow_api._workflow.rules}
        if rule not in names:
            raise AloneError(f"no rule {rule!r} (`snakemake --list-rules` lists them)")
        known = set(names[rule].wildcard_names)
        unknown = sorted(set(wildcards) - known)
        if unknown:
            raise AloneError(
                f"rule {rule} has no wildcard {', '.join(unknown)}; its wildcards: "
                f"{', '.join(sorted(known)) or 'none'}"
            )
        open_wildcards = known - set(wildcards)
        settings = (
            DAGSettings(targets={"all"})
            if open_wildcards
            else DAGSettings(target_jobs=[TargetSpec(rule, dict(wildcards))])
        )
        workflow = workflow_api.dag(settings).workflow_api._workflow
        workflow._prepare_dag(forceall=True, ignore_incomplete=True, lock_warn_only=True)
        workflow._build_dag()
        jobs = [
            job
            for job in workflow.dag.jobs
            if job.rule.name == rule
            and all(str(job.wildcards_dict.get(k)) == str(v) for k, v in wildcards.items())
        ]
        if not jobs:
            raise AloneError(
                f"this preset runs no job of rule {rule} with these wildcards (target all; "
                "`snakemake -n` lists the jobs it runs)"
            )
        if len(jobs) > 1:
            shown = "; ".join(
                " ".join(f"{k}={v}" for k, v in job.wildcards_dict.items()) for job in jobs[:5]
            )
            raise AloneError(
                f"rule {rule} has {len(jobs)} jobs with these wildcards ({shown}"
                f"{' ...' if len(jobs) > 5 else ''}); give WILDCARD=VALUE for "
                f"{', '.join(sorted(open_wildcards))} (results is the results folder: results, "
                "results/paper-scale or results/replicate<r>)"
            )
        return jobs[0], workflow


def job_snakemake(
    rule: str,
    wildcards: Mapping[str, str] | None = None,
    *,
    configfiles: Sequence[str] = (),
    root: str | os.PathLike = ".",
):
    """The ``snakemake`` object a run gives the script of ``rule``'s job with ``wildcards``
    (:class:`snakemake.script.Snakemake`: input, output, params, wildcards, threads, resources,
    log, the checked config, the rule's name), and the script's path. AloneError if the rule is
    unknown, names no script or has no single such job."""
    job, workflow = _workflow_job(rule, dict(wildcards or {}), configfiles, root)
    if not job.rule.script:
        raise AloneError(f"rule {rule} runs no script")
    script = Path(job.rule.script)
    smk = Snakemake(
        job.input,
        job.output,
        job.params,
        job.wildcards,
        job.threads,
        job.resources,
        job.log,
        workflow.config,
        job.rule.name,
        None,
        scriptdir=script.parent,
    )
    return smk, script


def run_alone(
    rule: str,
    wildcards: Mapping[str, str] | None = None,
    *,
    configfiles: Sequence[str] = (),
    root: str | os.PathLike = ".",
) -> Path:
    """Run the script of ``rule``'s job with ``wildcards`` in this process (module docstring);
    returns the script's path. AloneError, before the script runs, if an input is missing."""
    smk, script = job_snakemake(rule, wildcards, configfiles=configfiles, root=root)
    missing = [str(path) for path in smk.input if not Path(path).exists()]
    if missing:
        raise AloneError(
            f"the job's inputs {', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''} "
            "are missing: make them first (`snakemake --cores all <file>`)"
        )
    for path in [*smk.output, *smk.log]:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    runpy.run_path(str(script), init_globals={"snakemake": smk}, run_name="__main__")
    return script


def parse(argv: Sequence[str]) -> tuple[str, dict[str, str], list[str]]:
    """(rule, wildcards, config files) from the command line; AloneError otherwise."""
    words, configfiles = list(argv), []
    while "--configfile" in words:
        at = words.index("--configfile")
        if at + 1 >= len(words):
            raise AloneError(f"--configfile needs a file\n{USAGE}")
        configfiles.append(words[at + 1])
        del words[at : at + 2]
    if not words or words[0].startswith("-"):
        raise AloneError(f"give a rule first\n{USAGE}")
    loose = [word for word in words[1:] if "=" not in word]
    if loose:
        raise AloneError(
            f"{', '.join(loose)}: not WILDCARD=VALUE (the only option is --configfile)\n{USAGE}"
        )
    wildcards = dict(word.split("=", 1) for word in words[1:])
    return words[0], wildcards, configfiles


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    try:
        rule, wildcards, configfiles = parse(argv)
        for path in configfiles:
            if not Path(path).is_file():
                raise AloneError(f"--configfile {path}: no such file")
        script = run_alone(rule, wildcards, configfiles=configfiles)
    except (AloneError, WorkflowError, ConfigError, PreflightError) as error:
        print(f"alone: error: {str(error).strip()}", file=sys.stderr)
        return 2
    print(f"alone: ran {script.name} for rule {rule}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
