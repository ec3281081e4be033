"""The workflow's config, checked before any job: complete, typed, in range, consistent.

:func:`prepare_config` is what the Snakefile calls. The preset is ``config/config.yaml`` when no
``--configfile`` is given, otherwise the given file(s) alone (a preset is complete or refused:
never filled from another); ``--config`` values override either. Numbers written as text (YAML
1.1 reads ``1e-3`` as a string, ``--config`` delivers strings) are read as numbers where the
schema wants one. Then jsonschema checks every value against the schema (``workflow/schemas/``,
its ``$ref`` files resolved by :func:`load_schema`) more strictly than JSON Schema does: NaN and
infinity are not numbers, ``2.0`` is not an integer, lists hold no duplicates and keys marked
``x-increasing`` are increasing; then relations between keys (:func:`check_cross_key_constraints`).
Every problem becomes one line naming the key and what is allowed, all in one :class:`ConfigError`.
"""

import copy
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import yaml

from attnspec.validation import shown

# Values a config may hold once YAML aliases are expanded (the presets hold under 500). Aliases
# of aliases multiply: ten nested lists of ten aliases expand to 10^10 values, and checking them
# would hang; a config past this is refused before anything walks it.
MAX_CONFIG_VALUES = 100_000


class ConfigError(ValueError):
    """A configuration problem; the message names the key and what is allowed."""


class StrictLoader(yaml.SafeLoader):
    """PyYAML's safe loader without YAML 1.1's silent surprises: a key given twice in one mapping
    (the last value would win), integers in octal, base-60 or digit-group form (``010`` is 8,
    ``1:30`` is 90, ``1_0`` is 10) and base-60 floats are refused, each with its line."""


class _Refused(yaml.constructor.ConstructorError):
    """Valid YAML that :class:`StrictLoader` refuses."""


def _unique_mapping(loader, node, deep=False):
    loader.flatten_mapping(node)
    first_line = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if key in first_line:
            raise _Refused(
                None,
                None,
                f"duplicate key {key!r} (first at line {first_line[key]}; "
                "the last value would silently win)",
                key_node.start_mark,
            )
        first_line[key] = line
    return loader.construct_mapping(node, deep=deep)


_DECIMAL_INTEGER = re.compile(r"[-+]?(0|[1-9][0-9]*)")


def _plain(construct, is_plain, advice: str):
    """A YAML constructor that refuses the scalars for which ``is_plain(text)`` is false,
    naming the value YAML 1.1 would read."""

    def constructor(loader, node):
        value, text = construct(loader, node), loader.construct_scalar(node)
        if not is_plain(text):
            message = f"{text} is read by YAML 1.1 as {value}{advice}"
            raise _Refused(None, None, message, node.start_mark)
        return value

    return constructor


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _unique_mapping)
StrictLoader.add_constructor(
    "tag:yaml.org,2002:int",
    _plain(
        yaml.SafeLoader.construct_yaml_int,
        _DECIMAL_INTEGER.fullmatch,
        "; write a plain decimal integer",
    ),
)
StrictLoader.add_constructor(
    "tag:yaml.org,2002:float",
    _plain(
        yaml.SafeLoader.construct_yaml_float,
        lambda text: ":" not in text,
        " (base 60); write a plain decimal number",
    ),
)


def read_config_file(path: str | Path) -> dict:
    """A YAML config file as a mapping, read by :class:`StrictLoader`; ConfigError naming the
    file (and the line of a syntax error, a duplicate key or an octal or base-60 number) if it
    is missing, unreadable, not UTF-8 text or not a mapping."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file {path}: not found") from None
    except OSError as error:
        raise ConfigError(f"config file {path}: cannot be read ({error.strerror})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"config file {path}: not UTF-8 text (save it as UTF-8)") from None
    try:
        data = yaml.load(text, Loader=StrictLoader)  # noqa: S506 (a SafeLoader subclass)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f", line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(error, "problem", None) or str(error).splitlines()[0]
        if isinstance(error, _Refused):
            raise ConfigError(f"config file {path}{where}: {problem}") from None
        raise ConfigError(f"config file {path}{where}: invalid YAML ({problem})") from None
    check_expanded_size(data, f"config file {path}")
    if not isinstance(data, Mapping):
        raise ConfigError(
            f"config file {path}: must be a mapping of config keys, got {shown(data)}"
        )
    return dict(data)


def expanded_size(data, limit: int) -> int:
    """The number of values in ``data`` (mappings, lists and scalars), a part shared by YAML
    aliases counted wherever it appears, as if expanded; past ``limit`` the count stops and
    returns ``limit + 1`` (also for a part that contains itself). Each shared part is counted
    once (memoised), so an alias bomb costs no more than its text."""
    counted: dict[int, int] = {}

    def size(node) -> int:
        if not isinstance(node, Mapping | list):
            return 1
        if id(node) not in counted:
            counted[id(node)] = limit + 1  # met again while being counted: it contains itself
            total = 1
            for child in node.values() if isinstance(node, Mapping) else node:
                total += size(child)
                if total > limit:
                    break
            counted[id(node)] = min(total, limit + 1)
        return counted[id(node)]

    return size(data)


def check_expanded_size(data, source: str) -> None:
    """ConfigError naming ``source`` if ``data`` holds more than MAX_CONFIG_VALUES values once
    its YAML aliases are expanded (:func:`expanded_size`)."""
    if expanded_size(data, MAX_CONFIG_VALUES) > MAX_CONFIG_VALUES:
        raise ConfigError(
            f"{source}: more than {MAX_CONFIG_VALUES} values once YAML aliases (*name) are "
            f"expanded; allowed: at most {MAX_CONFIG_VALUES} (the presets hold under 500; an "
            "alias of a list of aliases multiplies them): write the values out"
        )


def load_schema(path: str | Path) -> dict:
    """The schema at ``path`` with every ``$ref`` (looked up by :mod:`referencing`: ``#/$defs/...``
    or a file beside it) replaced by what it points to plus the keys beside it, without ``$schema``
    (jsonschema would check such a part with its standard types); every list is ``uniqueItems``."""
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    def retrieve(file: str):
        return DRAFT202012.create_resource(yaml.safe_load(Path(file).read_text(encoding="utf-8")))

    def inline(node, resolver):
        if isinstance(node, list):
            return [inline(item, resolver) for item in node]
        if not isinstance(node, Mapping):
            return node
        skip = ("$ref", "$defs", "$schema")
        resolved = {k: inline(v, resolver) for k, v in node.items() if k not in skip}
        if "$ref" in node:
            target = resolver.lookup(node["$ref"])
            resolved = {**inline(target.contents, target.resolver), **resolved}
        return {**resolved, "uniqueItems": True} if resolved.get("type") == "array" else resolved

    root = Registry(retrieve=retrieve).resolver().lookup(str(Path(path).resolve()))
    return inline(root.contents, root.resolver)


NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
INTEGER = re.compile(r"[+-]?\d+")


def _coerced(value, schema: Mapping):
    kind = schema.get("type")
    if isinstance(value, str):
        text = value.strip()
        if kind == "integer" and INTEGER.fullmatch(text):
            return int(text)
        if kind == "number" and NUMBER.fullmatch(text):
            return float(text)
        if kind == "boolean" and text.lower() in ("true", "false"):
            return text.lower() == "true"
        if kind in ("array", "object") and text[:1] in "[{":
            try:
                return _coerced(yaml.safe_load(text), schema)
            except yaml.YAMLError:
                return value
    if kind == "array" and isinstance(value, list):
        return [_coerced(item, schema.get("items", {})) for item in value]
    if kind == "object" and isinstance(value, Mapping):
        properties = schema.get("properties", {})
        return {k: _coerced(v, properties.get(k, {})) for k, v in value.items()}
    return value


def coerce_numbers(config: Mapping, schema: Mapping) -> dict:
    """A copy of ``config`` with text read as a number, integer, boolean or YAML list/mapping
    wherever the schema wants one (``1e-3`` in a YAML file, values from ``--config``)."""
    return _coerced(copy.deepcopy(dict(config)), schema)


def _describe(schema: Mapping) -> str:
    """Human-readable allowed values of a schema node: type and interval, or the enum."""
    if "enum" in schema:
        return "one of " + ", ".join(repr(v) for v in schema["enum"])
    kind = schema.get("type", "value")
    if kind == "array":
        items = _describe(schema.get("items", {}))
        least = schema.get("minItems", 0)
        order = ", increasing" if schema.get("x-increasing") else ""
        return f"a list of at least {least} distinct values{order}, each {items}"
    text = {
        "number": "a finite number",
        "integer": "an integer",
        "object": "a mapping",
        "string": "a string",
        "boolean": "true or false",
    }.get(kind, kind)
    if "properties" in schema:
        return f"{text} with keys " + ", ".join(schema["properties"])
    if "pattern" in schema:
        return f"{text} matching {schema['pattern']}"
    lower = (
        f"({schema['exclusiveMinimum']}"
        if "exclusiveMinimum" in schema
        else f"[{schema['minimum']}"
        if "minimum" in schema
        else None
    )
    upper = (
        f"{schema['exclusiveMaximum']})"
        if "exclusiveMaximum" in schema
        else f"{schema['maximum']}]"
        if "maximum" in schema
        else None
    )
    if lower is None and upper is None:
        return text
    return f"{text} in {lower or '(-inf'}, {upper or 'inf)'}"


def _hint(schema: Mapping) -> str:
    description = " ".join(str(schema.get("description", "")).split())
    return f" ({description})" if description else ""


# A value's problems in this order, only its first reported (but every unknown and missing key of
# a mapping); a list's duplicates or order only when its items are fine.
_ORDER = ("enum", "type", "pattern", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")
_ORDER += ("additionalProperties", "required", "minItems", "uniqueItems", "x-increasing")
_PROBLEM = {"enum": "not allowed"} | dict.fromkeys(("minimum", "exclusiveMinimum"), "too small")
_PROBLEM |= dict.fromkeys(("maximum", "exclusiveMaximum"), "too large")


def _validator(schema: Mapping):
    """A jsonschema validator of ``schema`` for which NaN and infinity are not numbers, ``2.0``
    and ``True`` not integers, and lists marked ``x-increasing`` must increase."""
    from jsonschema import Draft202012Validator, ValidationError, validators

    def increasing(validator, wanted, instance, schema):
        numbers = validator.evolve(schema={"type": "array", "items": {"type": "number"}})
        if wanted and numbers.is_valid(instance) and instance != sorted(set(instance)):
            yield ValidationError(f"{instance!r} is not increasing")

    def is_integer(checker, value):
        return isinstance(value, int) and not isinstance(value, bool)

    def is_number(checker, value):
        return is_integer(checker, value) or isinstance(value, float) and math.isfinite(value)

    types = Draft202012Validator.TYPE_CHECKER.redefine_many(
        {"integer": is_integer, "number": is_number}
    )
    keywords = {"x-increasing": increasing}
    return validators.extend(Draft202012Validator, keywords, type_checker=types)(schema)


def _problem(e) -> str:
    """Why the single value of jsonschema error ``e`` fails its schema node."""
    value, kind = e.instance, e.schema.get("type")
    if e.validator == "pattern":
        return f"does not match {e.schema['pattern']}"
    if e.validator != "type":
        return _PROBLEM.get(e.validator, e.message)
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        return f"{value!r} is a float, not an integer (write {int(value)})"
    if kind == "number":
        return "not a finite number" if isinstance(value, float) else "not a number"
    return "not " + _describe({"type": kind})


def _lines(e) -> list[str]:
    """The problem line(s) of jsonschema error ``e``, naming the key and what is allowed."""
    name, value, schema, keyword = e.json_path[2:], e.instance, e.schema, e.validator
    if keyword == "additionalProperties":
        unknown = ", ".join(str(key) for key in value if key not in schema["properties"])
        where = f"under {name}" if name else "at the top level"
        known = ", ".join(schema["properties"])
        return [f"unknown config key(s) {unknown} {where}; allowed keys: {known}"]
    if keyword == "required":
        parent = f"{name}." if name else ""
        return [
            f"config key {parent}{key}: missing (a preset must be complete; allowed: "
            f"{_describe(schema['properties'][key])})"
            for key in schema["required"]
            if key not in value
        ]
    whole = schema.get("type") in ("object", "array")  # a problem of the value as a whole
    if keyword == "uniqueItems":
        duplicated = sorted({repr(v) for i, v in enumerate(value) if v in value[:i]})
        got = f"duplicate value(s) {shown(duplicated)}"
    elif keyword == "minItems":
        got = f"got {len(value)} value(s) {shown(value)}"
    else:
        got = f"got {shown(value)}" + ("" if whole else f" ({_problem(e)})")
    hint = "" if keyword == "uniqueItems" or keyword == "type" and whole else _hint(schema)
    return [f"config key {name or '<top level>'}: {got}; allowed: {_describe(schema)}{hint}"]


def schema_problems(config: Mapping, schema: Mapping) -> list[str]:
    """Every problem of ``config`` against the resolved ``schema`` (:func:`load_schema`), one
    line each naming the key and what is allowed, in the order of the config's keys."""

    def order(error):
        node, where = config, []
        for part in error.absolute_path:
            where.append(list(node).index(part) if isinstance(node, Mapping) else part)
            node = node[part]
        return where, _ORDER.index(error.validator) if error.validator in _ORDER else len(_ORDER)

    errors = sorted(_validator(schema).iter_errors(config), key=order)
    has_inner = {tuple(e.absolute_path)[:i] for e in errors for i in range(len(e.absolute_path))}
    lines, seen = [], set()
    for error in errors:
        path, keyword = tuple(error.absolute_path), error.validator
        key = (path, keyword in ("additionalProperties", "required") and keyword)
        if key in seen or keyword in ("uniqueItems", "x-increasing") and path in has_inner:
            continue
        seen.add(key)
        lines += _lines(error)
    return lines


def check_cross_key_constraints(config: Mapping) -> None:
    """Raise :class:`ConfigError` for key combinations the schema cannot rule out.

    First each paper's own (its room's ``config_check.first_problem``, found through
    :func:`attnspec.papers.registry.room_modules`, in the registry's order of rooms; what they
    share: :mod:`attnspec.papers.config_rules`), then those of every section: a beta range needs
    beta_min < beta_max; the literal sampler builds X with orthonormal rows (X X^T = I_ell),
    which needs n_tokens <= d_model (paper A, section 1: ell <= d).
    """
    from attnspec.papers.registry import room_modules

    for room in room_modules("config_check"):
        problem = room.first_problem(config)
        if problem:
            raise ConfigError(problem)
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


def merge(base: Mapping, overrides: Mapping) -> dict:
    """``base`` with ``overrides`` merged in, mappings recursively (as Snakemake merges)."""
    merged = copy.deepcopy(dict(base))
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def prepare_config(
    config: Mapping,
    *,
    configfiles: Sequence[str | Path],
    default_preset: str | Path,
    schema_path: str | Path,
) -> dict:
    """The checked config of a run (module docstring).

    ``config`` is what Snakemake built: the ``--configfile`` files merged with the ``--config``
    overrides, or the overrides alone when ``configfiles`` is empty, in which case
    ``default_preset`` is read under them. ConfigError lists every problem.
    """
    for path in configfiles:  # Snakemake's reader lets duplicate keys and YAML 1.1 octal through
        read_config_file(path)
    check_expanded_size(config, "the config of --configfile and --config")
    base = {} if configfiles else read_config_file(default_preset)
    schema = load_schema(schema_path)
    prepared = coerce_numbers(merge(base, config), schema)
    problems = schema_problems(prepared, schema)
    if problems:
        source = ", ".join(map(str, configfiles)) or str(default_preset)
        head = f"{len(problems)} config problem(s) in {source}:\n" if len(problems) > 1 else ""
        raise ConfigError(head + "\n".join(problems))
    check_cross_key_constraints(prepared)
    return prepared


def check_corpus(config: Mapping, root: str | Path) -> None:
    """Paper C's corpus before any job: every file of ``paperC.pretrained.corpus`` exists under
    ``root`` as UTF-8 text, and it has the full passages that ``full_rank_passages`` and
    ``long_passages`` ask for (WordPiece ids of all-MiniLM-L6-v2's tokenizer, counted as
    :func:`attnspec.pretrained.passages.count_full_passages`). ConfigError naming the key."""
    from attnspec.pretrained.loader import load_tokenizer
    from attnspec.pretrained.passages import count_full_passages, encode_documents

    pretrained = config["paperC"]["pretrained"]
    texts = []
    for name in pretrained["corpus"]:
        path = Path(root) / name
        try:
            texts.append(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigError(f"config key paperC.pretrained.corpus: {name} not found") from None
        except UnicodeDecodeError:
            raise ConfigError(
                f"config key paperC.pretrained.corpus: {name} is not UTF-8 text; allowed: "
                "UTF-8 text files under data/corpus/"
            ) from None
        except OSError as error:
            raise ConfigError(
                f"config key paperC.pretrained.corpus: {name} cannot be read ({error.strerror})"
            ) from None
    documents = encode_documents(load_tokenizer(), texts)
    for section in ("full_rank_passages", "long_passages"):
        tokens, count = pretrained[section]["tokens"], pretrained[section]["count"]
        available = count_full_passages(documents, tokens)
        if count > available:
            raise ConfigError(
                f"config key paperC.pretrained.{section}.count: got {count}; allowed: at most "
                f"{available} (the corpus has {available} full passages of {tokens} tokens)"
            )


def check_verify_draws(config: Mapping, root: str | Path) -> None:
    """Config key ``verify`` before any job: every draw it names is in the store under ``root``
    (config key ``store``, else data/store) as a record ``<name>.json``. ConfigError naming the
    key, the missing draws and where stored draws are listed."""
    names = [name for name in config.get("verify", "").split(",") if name]
    store = config.get("store") or "data/store"
    missing = [name for name in names if not (Path(root) / store / f"{name}.json").is_file()]
    if missing:
        raise ConfigError(
            f"config key verify: {', '.join(missing)} not in the store {store}; allowed: stored "
            f"draws, as paths relative to {store} without suffix (the .json records there, "
            "listed in docs/cluster.md)"
        )
