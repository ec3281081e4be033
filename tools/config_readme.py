"""Write config/README.md (every preset and key) from the schema and the presets."""

from pathlib import Path

from attnspec.workflow.configcheck import load_schema, read_config_file
from attnspec.workflow.configdoc import config_reference

ROOT = Path(__file__).resolve().parents[1]
PRESETS = ("config.yaml", "paper.yaml", "ci.yaml")


def generated() -> str:
    schema = load_schema(ROOT / "workflow" / "schemas" / "config.schema.yaml")
    presets = {name: read_config_file(ROOT / "config" / name) for name in PRESETS}
    return config_reference(schema, presets)


if __name__ == "__main__":
    (ROOT / "config" / "README.md").write_text(generated(), encoding="utf-8")
