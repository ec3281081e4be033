"""Static checks of the workflow: formatting, lint, dry runs, conventions every rule keeps."""

import re
from collections import Counter

import pytest
from conftest import REPO, run, tool

TARGET_RULES = {"all", "paperA", "paperB", "paperC", "paperD", "replicates", "verify"}
REQUIRED_DIRECTIVES = ("log:", "benchmark:", "threads:", "resources:", "conda:", "script:")


def rule_blocks():
    """(rule name, body text) for every rule in workflow/rules/*.smk."""
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        text = path.read_text()
        for match in re.finditer(r"^rule (\w+):\n((?:[ \t]+.*\n|\n)*)", text, flags=re.M):
            yield match[1], match[2]


def test_every_job_rule_has_log_benchmark_threads_resources_conda_script():
    checked = 0
    for name, body in rule_blocks():
        if name in TARGET_RULES:
            continue
        checked += 1
        missing = [d for d in REQUIRED_DIRECTIVES if f"\n    {d}" not in "\n" + body]
        assert not missing, f"rule {name} lacks {missing}"
    assert checked >= 3


def test_every_script_is_used_by_exactly_one_rule_but_the_generic_ones():
    """figure.py, table.py and evidence.py run one rule per entry of the rooms' outputs lists
    (tests/papers/test_outputs.py); every other script runs in exactly one rule."""
    used = Counter(
        s for _, body in rule_blocks() for s in re.findall(r'f"\{SCRIPTS\}/(\S+)"', body)
    )
    scripts = sorted(p.name for p in (REPO / "scripts").glob("*.py"))
    assert sorted(used) == scripts
    assert {s for s, n in used.items() if n > 1} <= {"figure.py", "table.py", "evidence.py"}


def test_snakefmt_clean():
    run([tool("snakefmt"), "--check", "--diff", "Snakefile", "workflow/rules"])


def test_ruff_clean():
    run([tool("ruff"), "check", "."])
    run([tool("ruff"), "format", "--check", "."])


@pytest.mark.slow  # starts Snakemake
def test_snakemake_lint_clean():
    result = run([tool("snakemake"), "--lint", "--cores", "1"], check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Congratulations, your workflow is in a good condition!" in result.stdout + result.stderr


@pytest.mark.slow  # starts Snakemake
@pytest.mark.parametrize("preset", ["config/config.yaml", "config/paper.yaml", "config/ci.yaml"])
def test_dry_run_of_every_preset(preset):
    result = run([tool("snakemake"), "all", "-n", "-F", "--cores", "2", "--configfile", preset])
    assert "paperA_A1_figure" in result.stdout


def test_ci_runs_exactly_the_readme_test_command():
    readme_commands = re.findall(
        r"```bash\n(python3\.11 -m venv[^\n]*)\n```", (REPO / "README.md").read_text()
    )
    assert len(readme_commands) == 2, "the README shows two set-up commands: main job and tests"
    main, tests = readme_commands
    assert main.endswith("snakemake --cores all") and tests.endswith("python -m pytest")
    ci_lines = [
        line
        for line in (REPO / ".ci" / "run").read_text().splitlines()
        if line.startswith("python3.11")
    ]
    assert ci_lines == [tests]


@pytest.mark.slow  # starts Snakemake twice
def test_plain_snakemake_runs_target_all():
    """`snakemake` with no target plans what `snakemake all` plans (rule all, the Snakefile's
    default target, is defined after the included rules)."""
    from conftest import planned_rules

    plain = run([tool("snakemake"), "-n", "-F", "--cores", "1"]).stdout
    named = run([tool("snakemake"), "all", "-n", "-F", "--cores", "1"]).stdout
    assert planned_rules(plain) == planned_rules(named)
    assert "all" in planned_rules(plain)
