"""The config is complete, typed, in range and consistent before any job (attnspec.configcheck)."""

import copy
import re

import jsonschema
import pytest
import yaml
from conftest import REPO, run, tool, tracked_copy

from attnspec.configcheck import (
    ConfigError,
    check_corpus,
    check_cross_key_constraints,
    coerce_numbers,
    load_schema,
    merge,
    prepare_config,
    read_config_file,
    schema_problems,
)

SCHEMA_PATH = REPO / "workflow" / "schemas" / "config.schema.yaml"
SCHEMA = load_schema(SCHEMA_PATH)
DEFAULT = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
PRESETS = ["config.yaml", "paper.yaml", "ci.yaml"]


def problems_of(config):
    return schema_problems(coerce_numbers(config, SCHEMA), SCHEMA)


def with_stepwise(**changes):
    config = copy.deepcopy(DEFAULT)
    config["paperA"]["stepwise"].update(changes)
    return config


@pytest.mark.parametrize("preset", PRESETS)
def test_presets_are_valid_and_complete(preset):
    config = read_config_file(REPO / "config" / preset)
    assert problems_of(config) == []
    check_cross_key_constraints(config)
    jsonschema.Draft202012Validator(SCHEMA).validate(config)


def test_every_schema_property_is_required():
    """A preset must be complete: no key of any mapping may be optional, but for the one key
    that describes the machine rather than the science (job_memory_limit_mb, top level)."""
    machine = {"job_memory_limit_mb"}

    def walk(node, key):
        if node.get("type") == "object":
            optional = machine if key == "<top>" else set()
            assert set(node.get("required", [])) == set(node["properties"]) - optional, key
            assert not set(node.get("required", [])) & optional, key
            assert node.get("additionalProperties") is False, key
            for name, child in node["properties"].items():
                walk(child, f"{key}.{name}")
        elif node.get("type") == "array":
            walk(node.get("items", {}), f"{key}[]")

    walk(SCHEMA, "<top>")


def test_resolved_schema_has_no_references_left():
    assert "$ref" not in yaml.safe_dump(SCHEMA)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        (
            {"beta": -0.5},
            "config key paperA.stepwise.beta: got -0.5 (too small); allowed: a finite",
        ),
        ({"draws": 1}, "config key paperA.stepwise.draws: got 1 (too small); allowed: an integer"),
        ({"d_qk": 2.5}, "config key paperA.stepwise.d_qk: got 2.5 (not an integer)"),
        ({"n_tokens": 150.0}, "got 150.0 (150.0 is a float, not an integer (write 150))"),
        ({"beta": float("nan")}, "paperA.stepwise.beta: got nan (not a finite number)"),
        ({"beta": float("inf")}, "paperA.stepwise.beta: got inf (not a finite number)"),
        ({"draws": True}, "paperA.stepwise.draws: got True (not an integer)"),
        ({"sampler": "orthogonal"}, "allowed: one of 'gaussian', 'literal'"),
        ({"n_tokenz": 5}, "unknown config key(s) n_tokenz under paperA.stepwise; allowed keys:"),
    ],
)
def test_bad_values_name_the_key_and_the_allowed_range(changes, expected):
    found = problems_of(with_stepwise(**changes))
    assert any(expected in line for line in found), found


def test_numbers_written_as_text_are_read_as_numbers():
    config = with_stepwise(beta="1e-3", n_tokens="1000")
    coerced = coerce_numbers(config, SCHEMA)
    assert coerced["paperA"]["stepwise"]["beta"] == 1e-3
    assert coerced["paperA"]["stepwise"]["n_tokens"] == 1000
    assert problems_of(config) == []


@pytest.mark.parametrize(
    ("section", "key", "value", "expected"),
    [
        ("paperB.sticking", "betas", [1.0, 1.0], "duplicate value(s) ['1.0']"),
        ("paperA.linearisation", "n_tokens", [250, 250], "duplicate value(s) ['250']"),
        ("paperB.sticking", "betas", [], "got 0 value(s) []"),
        ("paperB.sticking", "betas", [float("nan")], "paperB.sticking.betas[0]: got nan"),
        ("paperB.sticking", "betas", {"a": 1}, "allowed: a list of at least 1 distinct values"),
    ],
)
def test_lists_are_distinct_non_empty_and_typed(section, key, value, expected):
    config = copy.deepcopy(DEFAULT)
    node = config
    for part in section.split("."):
        node = node[part]
    node[key] = value
    found = problems_of(config)
    assert any(expected in line for line in found), found


def test_a_partial_preset_names_every_missing_key(tmp_path):
    partial = copy.deepcopy(DEFAULT)
    del partial["paperB"]
    del partial["paperA"]["stepwise"]["n_tokens"]
    path = tmp_path / "partial.yaml"
    path.write_text(yaml.safe_dump(partial))
    with pytest.raises(ConfigError) as raised:
        prepare_config(
            read_config_file(path),
            configfiles=[path],
            default_preset=REPO / "config" / "config.yaml",
            schema_path=SCHEMA_PATH,
        )
    text = str(raised.value)
    assert "config key paperB: missing" in text
    assert "config key paperA.stepwise.n_tokens: missing" in text


def test_without_configfile_the_default_preset_is_read_under_the_overrides():
    prepared = prepare_config(
        {"replicate": "2", "paperA": {"stepwise": {"beta": "0.5"}}},
        configfiles=[],
        default_preset=REPO / "config" / "config.yaml",
        schema_path=SCHEMA_PATH,
    )
    assert prepared["replicate"] == 2
    assert prepared["paperA"]["stepwise"]["beta"] == 0.5
    assert prepared["paperA"]["stepwise"]["n_tokens"] == DEFAULT["paperA"]["stepwise"]["n_tokens"]


def test_merge_is_recursive_and_leaves_its_inputs_alone():
    base = {"a": {"b": 1, "c": [1]}, "d": 2}
    merged = merge(base, {"a": {"b": 5}})
    assert merged == {"a": {"b": 5, "c": [1]}, "d": 2} and base["a"]["b"] == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("paperA:\n  stepwise: [1, 2\n", "line 3, column 1: invalid YAML"),
        ("- 1\n- 2\n", "must be a mapping of config keys"),
        ("", "must be a mapping of config keys, got None"),
    ],
)
def test_unreadable_config_files_name_the_file_and_line(tmp_path, text, expected):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match="config file .*bad.yaml") as raised:
        read_config_file(path)
    assert expected in str(raised.value)


def test_missing_config_file_is_named(tmp_path):
    with pytest.raises(ConfigError, match="nowhere.yaml: not found"):
        read_config_file(tmp_path / "nowhere.yaml")


def test_literal_sampler_needs_ell_at_most_d():
    config = with_stepwise(sampler="literal", n_tokens=1000, d_model=500)
    with pytest.raises(
        ConfigError, match=r"paperA\.stepwise\.n_tokens: got 1000; allowed: n_tokens <="
    ):
        check_cross_key_constraints(config)
    check_cross_key_constraints(with_stepwise(sampler="gaussian", n_tokens=1000, d_model=500))


def test_beta_range_must_be_increasing():
    config = copy.deepcopy(DEFAULT)
    config["paperA"]["edge_curve"].update(beta_min=2.5, beta_max=1.0)
    with pytest.raises(ConfigError, match=r"paperA\.edge_curve\.beta_min: got 2.5; allowed"):
        check_cross_key_constraints(config)


def test_snakemake_stops_before_any_job_with_one_clear_message(tmp_path):
    bad = with_stepwise(beta=-1.0)
    workdir = tracked_copy(tmp_path / "clone")
    (workdir / "bad.yaml").write_text(yaml.safe_dump(bad))
    result = run(
        [tool("snakemake"), "--cores", "1", "--configfile", "bad.yaml"], cwd=workdir, check=False
    )
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "config key paperA.stepwise.beta: got -1.0 (too small); allowed: a finite" in output
    assert "Traceback" not in output
    assert not (workdir / "results").exists() and not (workdir / "logs").exists()


def test_config_overrides_on_the_command_line_are_typed(tmp_path):
    """--config replicate=1 and nested mappings (YAML text) reach the workflow as numbers."""
    workdir = tracked_copy(tmp_path / "clone")
    result = run(
        [
            tool("snakemake"),
            "-n",
            "--configfile",
            "config/ci.yaml",
            "--config",
            "replicate=1",
            "paperA={stepwise: {beta: 0.5}}",
            "--",
            "results/config.yaml",
        ],
        cwd=workdir,
    )
    assert "config_snapshot" in result.stdout


def _corpus_config(names, long_count=1):
    config = copy.deepcopy(DEFAULT)
    pretrained = config["paperC"]["pretrained"]
    pretrained["corpus"] = names
    pretrained["full_rank_passages"] = {"tokens": 16, "count": 2}
    pretrained["long_passages"] = {"tokens": 128, "count": long_count}
    return config


def test_the_corpus_is_checked_before_any_job(tmp_path):
    corpus = tmp_path / "data" / "corpus"
    corpus.mkdir(parents=True)
    (corpus / "text.txt").write_text((REPO / "data/corpus/gettysburg_address.txt").read_text())
    (corpus / "binary.txt").write_bytes(b"\xff\xfe\x00\x81" * 10)
    check_corpus(_corpus_config(["data/corpus/text.txt"], long_count=2), tmp_path)
    for names, count, expected in (
        (["data/corpus/text.txt"], 3, "long_passages.count: got 3; allowed: at most 2 (the "),
        (["data/corpus/missing.txt"], 1, "corpus: data/corpus/missing.txt not found"),
        (["data/corpus/binary.txt"], 1, "corpus: data/corpus/binary.txt is not UTF-8 text"),
    ):
        with pytest.raises(ConfigError, match=re.escape(expected)):
            check_corpus(_corpus_config(names, long_count=count), tmp_path)


def test_a_config_file_with_a_duplicate_key_or_yaml_1_1_numbers_is_refused_with_its_line(
    tmp_path,
):
    for text, expected in (
        (
            "a:\n  beta: 1.0\n  beta: 7.0\n",
            "line 3, column 3: duplicate key 'beta' (first at line 2",
        ),
        ("draws: 010\n", "line 1, column 8: 010 is read by YAML 1.1 as 8"),
        ("draws: 1:30\n", "1:30 is read by YAML 1.1 as 90"),
        ("draws: 1_0\n", "1_0 is read by YAML 1.1 as 10"),
        ("x: 1:30.5\n", "1:30.5 is read by YAML 1.1 as 90.5 (base 60)"),
    ):
        path = tmp_path / "preset.yaml"
        path.write_text(text)
        with pytest.raises(ConfigError, match=re.escape(expected)):
            read_config_file(path)
    path.write_bytes("replicate: 0\n".encode("utf-16"))
    with pytest.raises(ConfigError, match="not UTF-8 text"):
        read_config_file(path)
    path.write_text("a: 1\nb: 0.001\nc: -5\nd: 0\ne: [1, 2]\nf: {g: 1}\n")
    assert read_config_file(path) == {
        "a": 1,
        "b": 0.001,
        "c": -5,
        "d": 0,
        "e": [1, 2],
        "f": {"g": 1},
    }


def test_paper_b_judged_values_are_the_registry_rows_values():
    from attnspec.experiments.sticking_evidence import JUDGED_BETAS, JUDGED_RATIOS

    config = copy.deepcopy(DEFAULT)
    config["paperB"]["sticking"]["betas"] = [0.5, 1.5]
    expected = (
        f"paperB.sticking.betas: got [0.5, 1.5]; allowed: a list containing {list(JUDGED_BETAS)}"
    )
    with pytest.raises(ConfigError, match=re.escape(expected)):
        check_cross_key_constraints(config)
    config = copy.deepcopy(DEFAULT)
    config["paperB"]["ratio_scan"]["ratios"] = [0.5]
    with pytest.raises(ConfigError, match=re.escape(f"a list containing {list(JUDGED_RATIOS)}")):
        check_cross_key_constraints(config)
