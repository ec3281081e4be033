"""The README's numbers come from files, not prose: generated blocks in sync, the job count of
the measured run equal to a fresh dry run's, the two commands exactly those of .ci/run."""

import json
import re
import sys

import pytest
from conftest import REPO, run, tool

sys.path.insert(0, str(REPO / "tools"))
import readme_blocks  # noqa: E402

README = (REPO / "README.md").read_text(encoding="utf-8")


def test_generated_blocks_are_up_to_date():
    for path, blocks in readme_blocks.DOCUMENTS.items():
        text = path.read_text(encoding="utf-8")
        assert readme_blocks.rendered(text, blocks) == text, "run: python tools/readme_blocks.py"


def test_the_readme_links_the_architecture_page():
    assert "(docs/architecture.md)" in README


@pytest.mark.slow  # starts Snakemake
def test_measured_job_count_is_the_default_preset_dry_run():
    report = json.loads((REPO / "docs" / "runtime.json").read_text())
    dry_run = run([tool("snakemake"), "-n", "-F"]).stdout
    planned = int(re.search(r"^total\s+(\d+)", dry_run.split("Job stats:")[1], flags=re.M)[1])
    assert report["jobs"] == planned
    assert report["preset"] == "config/config.yaml"


def test_ci_runs_exactly_the_readme_test_command():
    commands = re.findall(r"```bash\n(python3\.11 -m venv .*?)\n```", README)
    assert len(commands) == 2, commands
    ci = (REPO / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert ci == commands[1]
    assert commands[0].endswith("snakemake --cores all")
    assert commands[1].endswith("python -m pytest")


# Where the documents state a preset's job count: (file, pattern whose group is the count).
STATED_JOB_COUNTS = {
    "config/ci.yaml": [
        ("README.md", r"`config/ci.yaml`: tiny sizes for the tests \((\d+) jobs"),
        ("config/README.md", r"`config/ci.yaml`: tiny sizes for the tests: every rule, (\d+) jobs"),
    ],
    "config/paper.yaml": [
        ("README.md", r"ell = 32768: (\d+) jobs"),
        ("docs/cluster.md", r"plans (\d+) jobs in a fresh clone"),
        ("docs/cluster.md", r"the paper preset's (\d+) jobs run"),
        ("profiles/slurm/profile.yaml", r"the paper preset has (\d+) \(docs/cluster.md\)"),
    ],
}


@pytest.mark.slow  # starts Snakemake
@pytest.mark.parametrize("preset", sorted(STATED_JOB_COUNTS))
def test_stated_job_counts_are_the_presets_dry_runs(preset):
    dry_run = run([tool("snakemake"), "-n", "-F", "--configfile", preset]).stdout
    planned = int(re.search(r"^total\s+(\d+)", dry_run.split("Job stats:")[1], flags=re.M)[1])
    for name, pattern in STATED_JOB_COUNTS[preset]:
        stated = re.search(pattern, (REPO / name).read_text(encoding="utf-8"))
        assert stated, f"{name}: no job count for {preset} ({pattern})"
        assert int(stated[1]) == planned, (
            f"{name} states {stated[1]} jobs; {preset} plans {planned}"
        )


@pytest.mark.slow  # starts Snakemake
def test_measured_largest_job_is_the_paper_preset_largest_reservation():
    report = json.loads((REPO / "docs" / "largest-job.json").read_text())
    dry_run = run([tool("snakemake"), "-n", "-F", "--configfile", "config/paper.yaml"]).stdout
    reserved = {}
    for job in dry_run.split("\nrule ")[1:]:
        output = re.search(r"output: (\S+)", job)
        memory = re.search(r"mem_mb=(\d+)", job)
        if output and memory:
            reserved[output[1].rstrip(",")] = int(memory[1])
    largest = max(reserved.values())
    assert report["reserved_mem_mb"] == reserved[report["target"]] == largest
    assert report["max_rss_mb"] <= report["reserved_mem_mb"]
