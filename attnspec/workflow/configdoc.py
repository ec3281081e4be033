"""config/README.md: every preset and every config key, generated from the schema.

For each key of the resolved schema (:func:`attnspec.workflow.configcheck.load_schema`): its
description, what is allowed, the schema's default, and its value in each preset.
``tools/config_readme.py`` writes the file; a test keeps it equal to what this module makes.
"""

from collections.abc import Mapping

from attnspec.workflow.configcheck import _describe

PRESET_TEXT = {
    "config.yaml": "the default preset: every figure and table in minutes on a 2-core laptop "
    "(used when no --configfile is given)",
    "paper.yaml": "the papers' own sizes where known (papers.md); hours of CPU, a cluster "
    "(profiles/slurm) for the largest jobs",
    "ci.yaml": "tiny sizes for the tests: every rule, 141 jobs in a few minutes; its few draws "
    "make the verdicts meaningless (many inconclusive or not reproducing)",
}


def _cell(value) -> str:
    text = "" if value is None else str(value)
    return text.replace("|", "\\|").replace("\n", " ")


def _leaves(schema: Mapping, key: str = ""):
    """(dotted key, schema node) of every key whose value is not a mapping, in schema order."""
    if schema.get("type") == "object":
        for name, child in schema.get("properties", {}).items():
            yield from _leaves(child, f"{key}.{name}" if key else name)
    else:
        yield key, schema


def _value(config: Mapping, key: str):
    node = config
    for part in key.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def config_reference(schema: Mapping, presets: Mapping[str, Mapping]) -> str:
    """The Markdown of config/README.md for the resolved ``schema`` and the presets by file name."""
    names = list(presets)
    lines = [
        "# Configuration: presets and keys",
        "",
        "Generated from `workflow/schemas/config.schema.yaml` and the presets by "
        "`tools/config_readme.py` (a test keeps it in sync). A preset given with `--configfile` "
        "must set every key; `--config` overrides single values, e.g. `--config replicate=1` or "
        "`--config 'paperA={stepwise: {beta: 0.5}}'` (text is read as the number the key "
        "needs). Problems stop the run before any job, one line per key.",
        "",
        "## Presets",
        "",
    ]
    lines += [f"- `config/{name}`: {PRESET_TEXT.get(name, '')}" for name in names]
    lines += [
        "",
        "## Keys",
        "",
        "| key | meaning | allowed | default | " + " | ".join(f"`{n}`" for n in names) + " |",
        "|---" * (4 + len(names)) + "|",
    ]
    for key, node in _leaves(schema):
        meaning = " ".join(str(node.get("description", "")).split())
        values = [_cell(_value(presets[n], key)) for n in names]
        lines.append(
            f"| `{key}` | {_cell(meaning)} | {_cell(_describe(node))} | "
            f"{_cell(node.get('default'))} | " + " | ".join(values) + " |"
        )
    return "\n".join(lines) + "\n"
