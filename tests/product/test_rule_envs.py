"""Each rule's conda environment provides every package its script imports, directly or through
the attnspec modules it uses (the pip path installs everything; this keeps --use-conda honest)."""

import ast
import re
import sys

import pytest
import yaml
from conftest import REPO

from attnspec.papers.outputs import Evidence, Figure, Table, find_output

# Import name -> conda package, where they differ.
CONDA_NAME = {"yaml": "pyyaml", "IPython": "ipython"}
# Packages an environment gets as a dependency of one it pins.
PROVIDED_BY = {"ipykernel": {"ipython"}}
GENERIC = {"figure.py": Figure, "table.py": Table, "evidence.py": Evidence}
POST_DEPLOY = re.compile(r"pip install --no-deps ([^\n]+)")


def rule_scripts_and_envs() -> list[tuple[str, str, str, str]]:
    """(rule, script, env, output name) of every rule with a script (the output name, of the
    rooms' outputs lists, for a generic script; "" for any other)."""
    found = []
    for path in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for block in re.split(r"^rule ", path.read_text(), flags=re.M)[1:]:
            script = re.search(r'script:\s+f"\{SCRIPTS\}/([\w]+\.py)"', block)
            env = re.search(r'conda:\s+"\.\./envs/([\w\-]+)\.yaml"', block)
            name = re.search(r'\n        output_name="([^"]+)",', block)
            if script:
                found.append(
                    (block.split(":")[0], script[1], env[1] if env else "", name[1] if name else "")
                )
    return found


def run_sources(script: str, output_name: str) -> list:
    """The sources a job runs: its script and, for a generic one, the room's module holding the
    assembling function of its entry."""
    path = REPO / "scripts" / script
    if not output_name:
        return [path]
    kind = GENERIC[script]
    module = find_output(output_name, kind).assemble.partition(":")[0]
    return [path, REPO.joinpath(*module.split(".")).with_suffix(".py")]


def imported_modules(path, seen, everywhere=True) -> set[str]:
    """Top-level names of every module imported by ``path`` (``everywhere``: also inside
    functions) and, recursively, by the module-level imports of the attnspec modules it uses.

    Imports inside attnspec functions are lazy on purpose (e.g. matplotlib for writing figures)
    and are needed only by the scripts that call those functions (:func:`lazy_imports`).
    """
    if path in seen:
        return set()
    seen.add(path)
    names = set()
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree) if everywhere else tree.body:
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for module in modules:
            if module.split(".")[0] != "attnspec":
                names.add(module.split(".")[0])
                continue
            candidate = REPO.joinpath(*module.split("."))
            for source in (candidate.with_suffix(".py"), candidate / "__init__.py"):
                if source.is_file():
                    names |= imported_modules(source, seen, everywhere=False)
    return names


def called_names(tree) -> set[str]:
    """Names of the functions called in ``tree`` (``f(...)`` and ``module.f(...)``)."""
    calls = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                calls.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                calls.add(node.func.attr)
    return calls


def lazy_imports() -> dict[str, set[str]]:
    """Third-party packages imported inside each attnspec function, or inside any function it
    calls (by name, transitively): what calling it requires."""
    direct, calls = {}, {}
    for path in (REPO / "attnspec").rglob("*.py"):
        for function in ast.walk(ast.parse(path.read_text())):
            if not isinstance(function, ast.FunctionDef):
                continue
            packages = direct.setdefault(function.name, set())
            calls.setdefault(function.name, set()).update(called_names(function))
            for node in ast.walk(function):
                if isinstance(node, ast.Import):
                    packages |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    packages.add(node.module.split(".")[0])
    needs = {
        name: {p for p in found if p not in sys.stdlib_module_names and p != "attnspec"}
        for name, found in direct.items()
    }
    changed = True
    while changed:
        changed = False
        for name, callees in calls.items():
            inherited = set().union(*(needs.get(callee, set()) for callee in callees))
            if not inherited <= needs[name]:
                needs[name] |= inherited
                changed = True
    return needs


LAZY = lazy_imports()


def env_packages(env: str) -> set[str]:
    path = REPO / "workflow" / "envs" / f"{env}.yaml"
    packages = {
        re.split(r"[=<>]", entry)[0].lower()
        for entry in yaml.safe_load(path.read_text())["dependencies"]
        if isinstance(entry, str)
    }
    post_deploy = path.with_suffix(".post-deploy.sh")
    if post_deploy.is_file():
        for line in POST_DEPLOY.findall(post_deploy.read_text()):
            packages |= {pin.split("==")[0].lower() for pin in line.split()}
    for package in list(packages):
        packages |= PROVIDED_BY.get(package, set())
    return packages


RULES = rule_scripts_and_envs()


def test_rules_were_found():
    assert len(RULES) > 40
    assert all(env for _, _, env, _ in RULES)


@pytest.mark.parametrize(("rule", "script", "env", "output_name"), RULES, ids=[r[0] for r in RULES])
def test_rule_env_provides_every_import(rule, script, env, output_name):
    modules = set()
    for path in run_sources(script, output_name):
        modules |= imported_modules(path, set())
        tree = ast.parse(path.read_text())
        own = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        for name in called_names(tree) - own:  # a script's own main() is not attnspec.cli.main
            modules |= LAZY.get(name, set())
    third_party = {m for m in modules if m not in sys.stdlib_module_names}
    needed = {CONDA_NAME.get(m, m).lower() for m in third_party}
    missing = needed - env_packages(env)
    assert not missing, f"{rule} ({script}) imports {sorted(missing)}, not in envs/{env}.yaml"
