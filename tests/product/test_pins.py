"""The pip pins (requirements.txt) and the conda files (environment.yml, workflow/envs) agree."""

import re

import yaml
from conftest import REPO


def pip_pins() -> dict[str, str]:
    pins = {}
    for line in (REPO / "requirements.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"requirements.txt: {line!r} is not an exact pin (name==version)"
            pins[name.lower()] = version
    return pins


def conda_pins(path) -> dict[str, str]:
    pins = {}
    for entry in yaml.safe_load(path.read_text())["dependencies"]:
        if isinstance(entry, str) and entry != "pip":
            match = re.fullmatch(r"([A-Za-z0-9_.\-]+)\s*=\s*([^=\s]+)", entry)
            assert match, f"{path.name}: {entry!r} is not pinned as name=version"
            pins[match[1].lower()] = match[2]
    return pins


def conda_files():
    return [REPO / "environment.yml", *sorted((REPO / "workflow" / "envs").glob("*.yaml"))]


def test_requirements_are_exact_pins():
    assert {"numpy", "scipy", "matplotlib", "snakemake"} <= set(pip_pins())


def test_conda_files_agree_with_requirements():
    pins = pip_pins()
    for path in conda_files():
        for name, version in conda_pins(path).items():
            if name == "python":
                assert version == "3.11", f"{path.name}: python={version}, the pip path uses 3.11"
                continue
            assert name in pins, f"{path.name}: {name} is not pinned in requirements.txt"
            assert version == pins[name], (
                f"{path.name}: {name}={version} but requirements.txt has {name}=={pins[name]}"
            )


def test_environment_yml_covers_every_pip_pin():
    pins, conda = pip_pins(), conda_pins(REPO / "environment.yml")
    assert set(pins) == set(conda) - {"python"}


def test_every_rule_env_exists_and_is_used():
    envs = {p.name for p in (REPO / "workflow" / "envs").glob("*.yaml")}
    used = set()
    for rules in (REPO / "workflow" / "rules").glob("*.smk"):
        used |= set(re.findall(r'"\.\./envs/([\w\-]+\.yaml)"', rules.read_text()))
    assert used <= envs, f"rules use missing envs: {used - envs}"
    assert envs <= used, f"unused env files: {envs - used}"
