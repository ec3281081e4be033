"""config/README.md is generated from the schema and the presets, and the schema documents every
key: a description on every property, and on every value the default preset's value as default."""

import sys

import yaml
from conftest import REPO

from attnspec.workflow.configcheck import load_schema

sys.path.insert(0, str(REPO / "tools"))
import config_readme  # noqa: E402

SCHEMA = load_schema(REPO / "workflow" / "schemas" / "config.schema.yaml")
DEFAULT = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
MACHINE_KEYS = {"job_memory_limit_mb", "verify"}  # not in the presets: no default


def properties(node, key=()):
    """(key path, schema node) of every property, depth first."""
    for name, child in node.get("properties", {}).items():
        yield (*key, name), child
        if child.get("type") == "object":
            yield from properties(child, (*key, name))


def test_config_readme_is_generated_from_the_schema_and_presets():
    committed = (REPO / "config" / "README.md").read_text(encoding="utf-8")
    assert committed == config_readme.generated(), "regenerate: python tools/config_readme.py"


def test_every_property_has_a_description():
    undocumented = [".".join(k) for k, node in properties(SCHEMA) if not node.get("description")]
    assert undocumented == []


def test_every_value_has_the_default_presets_value_as_default():
    wrong = []
    for key, node in properties(SCHEMA):
        if node.get("type") == "object" or key[-1] in MACHINE_KEYS:
            continue
        value = DEFAULT
        for part in key:
            value = value[part]
        if node.get("default") != value:
            wrong.append((".".join(key), node.get("default"), value))
    assert wrong == []
