"""A citable release: licence, citation metadata, changelog and version agree."""

import tomllib

import yaml
from conftest import REPO, run, tool

import attnspec


def test_version_is_the_same_everywhere():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text())
    changelog = (REPO / "CHANGELOG.md").read_text()
    assert project["version"] == attnspec.__version__ == str(citation["version"])
    released = [line for line in changelog.splitlines() if line.startswith("## ")]
    released = [line for line in released if not line.startswith("## Unreleased")]
    assert released[0].startswith(f"## {attnspec.__version__} ")


def test_licence_is_the_mit_licence_pyproject_declares():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["license"] == {"text": "MIT"}
    assert (REPO / "LICENSE").read_text().startswith("MIT License\n")
    assert yaml.safe_load((REPO / "CITATION.cff").read_text())["license"] == "MIT"


def test_citation_lists_the_software_and_every_paper():
    citation = yaml.safe_load((REPO / "CITATION.cff").read_text())
    assert citation["cff-version"] == "1.2.0" and citation["type"] == "software"
    ids = {i["value"] for ref in citation["references"] for i in ref.get("identifiers", [])}
    assert ids == {"arXiv:2510.06685", "arXiv:2609.23949", "arXiv:2611.02778", "arXiv:2610.10033"}


def test_github_workflows_validate_and_run_the_readme_test_command():
    workflows = sorted((REPO / ".github" / "workflows").glob("*.yml"))
    assert [p.name for p in workflows] == ["ci.yml", "figures.yml"]
    run(
        [
            tool("check-jsonschema"),
            "--builtin-schema",
            "vendor.github-workflows",
            *map(str, workflows),
        ]
    )
    assert "bash .ci/run" in workflows[0].read_text()
    figures = workflows[1].read_text()
    assert "snakemake --report report.zip" in figures
    # the README's cross-machine check: committed outputs against regenerated ones by tolerance
    check = "tools/compare_outputs.py"
    assert check in figures and "committed-figures" in figures
    assert f"python {check} /tmp/committed-figures figures" in (REPO / "README.md").read_text()


def test_workflow_catalog_settings_are_valid_yaml():
    settings = yaml.safe_load((REPO / ".snakemake-workflow-catalog.yml").read_text())
    # conda files pin direct dependencies only and were never created here: not claimed
    assert settings["usage"]["software-stack-deployment"]["conda"] is False
