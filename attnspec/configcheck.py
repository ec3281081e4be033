"""Turn configuration problems into one clear message naming the key and the allowed range.

The workflow validates its config against ``workflow/schemas/config.schema.yaml`` with
``snakemake.utils.validate``; :func:`describe_schema_error` rewrites the first JSON-schema error as
``config key a.b.c: <problem>; allowed: <range>``. :func:`check_cross_key_constraints` checks what
a JSON schema cannot express (relations between keys).
"""

from collections.abc import Mapping


class ConfigError(ValueError):
    """A configuration value outside its allowed range; the message names the key."""


def _allowed(schema: Mapping) -> str:
    """Human-readable allowed values of a JSON-schema node: type and interval, or the enum."""
    if "enum" in schema:
        return "one of " + ", ".join(repr(v) for v in schema["enum"])
    kind = schema.get("type", "value")
    text = {"number": "a number", "integer": "an integer", "object": "a mapping"}.get(kind, kind)
    if "properties" in schema:
        return f"{text} with keys " + ", ".join(schema["properties"])
    if "exclusiveMinimum" in schema:
        lower = f"({schema['exclusiveMinimum']}"
    elif "minimum" in schema:
        lower = f"[{schema['minimum']}"
    else:
        lower = "(-inf"
    if "exclusiveMaximum" in schema:
        upper = f"{schema['exclusiveMaximum']})"
    elif "maximum" in schema:
        upper = f"{schema['maximum']}]"
    else:
        upper = "inf)"
    if lower == "(-inf" and upper == "inf)":
        return text
    return f"{text} in {lower}, {upper}"


def describe_schema_error(error) -> str:
    """One line for a ``jsonschema.ValidationError``: dotted key, problem, what is allowed."""
    key = ".".join(str(p) for p in error.absolute_path) or "<top level>"
    schema = error.schema
    if error.validator == "additionalProperties":
        unknown = sorted(set(error.instance) - set(schema.get("properties", {})))
        where = f"under {key}" if error.absolute_path else "at the top level"
        return (
            f"unknown config key(s) {', '.join(unknown)} {where}; "
            f"allowed keys: {', '.join(schema.get('properties', {}))}"
        )
    if error.validator == "required":
        return f"config key {key}: {error.message}; allowed: {_allowed(schema)}"
    description = schema.get("description", "").strip()
    hint = f" ({description})" if description else ""
    return f"config key {key}: got {error.instance!r}; allowed: {_allowed(schema)}{hint}"


def check_cross_key_constraints(config: Mapping) -> None:
    """Raise :class:`ConfigError` for key combinations the schema cannot rule out.

    The literal sampler builds X with orthonormal rows (X X^T = I_ell), which needs
    n_tokens <= d_model (paper A, section 1: ell <= d); a beta range needs beta_min < beta_max.
    """
    for section_path, section in _sections_with(config, "beta_min"):
        if "beta_max" in section and not section["beta_min"] < section["beta_max"]:
            raise ConfigError(
                f"config key {section_path}.beta_min: got {section['beta_min']}; allowed: "
                f"beta_min < {section_path}.beta_max = {section['beta_max']}"
            )
    for section_path, section in _sections_with(config, "sampler"):
        if section.get("sampler") == "literal" and section["n_tokens"] > section["d_model"]:
            raise ConfigError(
                f"config key {section_path}.n_tokens: got {section['n_tokens']}; allowed: "
                f"n_tokens <= {section_path}.d_model = {section['d_model']} with the literal "
                "sampler (X has orthonormal rows, so ell <= d)"
            )


def _sections_with(config: Mapping, key: str, prefix: str = ""):
    """Yield (dotted path, mapping) for every config mapping that has ``key``."""
    for name, value in config.items():
        if isinstance(value, Mapping):
            path = f"{prefix}.{name}" if prefix else str(name)
            if key in value:
                yield path, value
            yield from _sections_with(value, key, path)
