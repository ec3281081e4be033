"""The config is complete, typed, in range and consistent before any job
(attnspec.workflow.configcheck)."""

import copy
import re

import jsonschema
import pytest
import yaml
from conftest import REPO, run, tool, tracked_copy

from attnspec.workflow.configcheck import (
    MAX_CONFIG_VALUES,
    ConfigError,
    check_corpus,
    check_cross_key_constraints,
    check_verify_draws,
    coerce_numbers,
    expanded_size,
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
    """A preset must be complete: no key of any mapping may be optional, but for the keys that
    describe the machine or one call rather than the science (job_memory_limit_mb, verify: top
    level)."""
    machine = {"job_memory_limit_mb", "verify"}

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


DROP = object()  # a key removed from the preset


def changed(*changes):
    """The default preset with each (dotted key, value) set, or the key removed for DROP."""
    config = copy.deepcopy(DEFAULT)
    for path, value in changes:
        *parents, key = path.split(".")
        node = config
        for part in parents:
            node = node[part]
        if value is DROP:
            del node[key]
        else:
            node[key] = value
    return config


# The exact lines the hand-written validator gave before jsonschema checked the config (issue 23):
# every keyword, the keys in the config's order, a list's duplicates only when its items are fine.
OLD_MESSAGES = [
    (
        [("paperB", DROP)],
        "config key paperB: missing (a preset must be complete; allowed: a mapping with keys "
        "sticking, ratio_scan, edges, conditional)",
    ),
    (
        [("paperA.stepwise.n_tokens", DROP)],
        "config key paperA.stepwise.n_tokens: missing (a preset must be complete; allowed: an "
        "integer in [8, 20000])",
    ),
    (
        [("paperZ", {})],
        "unknown config key(s) paperZ at the top level; allowed keys: replicate, vector_pdfs, "
        "store, scale, job_memory_limit_mb, verify, paperA, paperB, paperC, paperD",
    ),
    (
        [("paperA.stepwise.n_tokenz", 5)],
        "unknown config key(s) n_tokenz under paperA.stepwise; allowed keys: n_tokens, d_qk, "
        "beta, draws, n_removed, sampler, d_model, histogram_bins",
    ),
    (
        [("paperA.stepwise", [1, 2])],
        "config key paperA.stepwise: got [1, 2]; allowed: a mapping with keys n_tokens, d_qk, "
        "beta, draws, n_removed, sampler, d_model, histogram_bins",
    ),
    (
        [("paperB.sticking.betas", 1.0)],
        "config key paperB.sticking.betas: got 1.0; allowed: a list of at least 1 distinct "
        "values, each a finite number in [1e-150, 10]",
    ),
    (
        [("paperB.sticking.betas", [])],
        "config key paperB.sticking.betas: got 0 value(s) []; allowed: a list of at least 1 "
        "distinct values, each a finite number in [1e-150, 10] (Inverse temperatures of the "
        "sticking draws (the registry judges 0.5 and 1).)",
    ),
    (
        [("paperB.sticking.n_tokens", [256])],
        "config key paperB.sticking.n_tokens: got 1 value(s) [256]; allowed: a list of at "
        "least 3 distinct values, each an integer in [16, 65536] (Sizes ell of the sticking "
        "draws at c = 1 (B1-B3, B-T1); rows B.1, B.2 judge the largest, their finite-size "
        "models every ell (at least 3).)",
    ),
    (
        [("paperB.sticking.betas", [1.0, 1.0])],
        "config key paperB.sticking.betas: duplicate value(s) ['1.0']; allowed: a list of at "
        "least 1 distinct values, each a finite number in [1e-150, 10]",
    ),
    (
        [("paperC.canonical.spectra.profiles", ["zeros", "zeros"])],
        "config key paperC.canonical.spectra.profiles: duplicate value(s) [\"'zeros'\"]; "
        "allowed: a list of at least 1 distinct values, each one of 'zeros', 'iid', "
        "'gaussian'",
    ),
    (
        [("paperC.canonical.survival.kappas", [3.0, 1.0])],
        "config key paperC.canonical.survival.kappas: got [3.0, 1.0]; allowed: a list of at "
        "least 2 distinct values, increasing, each a finite number in [0, 10] (Spike "
        "strengths kappa, increasing.)",
    ),
    (
        [("paperD.heads.head_counts", [4, 1])],
        "config key paperD.heads.head_counts: got [4, 1]; allowed: a list of at least 1 "
        "distinct values, increasing, each an integer in [1, 256] (Head counts h, "
        "increasing.)",
    ),
    (
        [("paperB.sticking.betas", [0.5, 1.0, "x", 1.0])],
        "config key paperB.sticking.betas[2]: got 'x' (not a number); allowed: a finite "
        "number in [1e-150, 10] (Inverse temperature beta.)",
    ),
    (
        [("paperB.sticking.betas", [float("nan")])],
        "config key paperB.sticking.betas[0]: got nan (not a finite number); allowed: a "
        "finite number in [1e-150, 10] (Inverse temperature beta.)",
    ),
    (
        [("paperD.heads.head_counts", [1, 4, 16.0])],
        "config key paperD.heads.head_counts[2]: got 16.0 (16.0 is a float, not an integer "
        "(write 16)); allowed: an integer in [1, 256] (A head count h.)",
    ),
    (
        [("paperA.stepwise.beta", float("nan"))],
        "config key paperA.stepwise.beta: got nan (not a finite number); allowed: a finite "
        "number in [1e-150, 10] (Inverse temperature beta (paper A's regime is beta = O(1)).)",
    ),
    (
        [("paperA.stepwise.beta", -float("inf"))],
        "config key paperA.stepwise.beta: got -inf (not a finite number); allowed: a finite "
        "number in [1e-150, 10] (Inverse temperature beta (paper A's regime is beta = O(1)).)",
    ),
    (
        [("paperA.stepwise.n_tokens", 150.0)],
        "config key paperA.stepwise.n_tokens: got 150.0 (150.0 is a float, not an integer "
        "(write 150)); allowed: an integer in [8, 20000] (Number of tokens ell (rows of the "
        "attention matrix).)",
    ),
    (
        [("paperA.stepwise.draws", True)],
        "config key paperA.stepwise.draws: got True (not an integer); allowed: an integer in "
        "[2, 1000] (Independent draws (at least 2: the noise floor is the distance between "
        "distinct draws).)",
    ),
    (
        [("paperA.stepwise.d_qk", 2.5)],
        "config key paperA.stepwise.d_qk: got 2.5 (not an integer); allowed: an integer in "
        "[1, 100000] (Query/key width d_qk; the ratio is c = n_tokens / d_qk.)",
    ),
    (
        [("paperA.stepwise.beta", "one")],
        "config key paperA.stepwise.beta: got 'one' (not a number); allowed: a finite number "
        "in [1e-150, 10] (Inverse temperature beta (paper A's regime is beta = O(1)).)",
    ),
    (
        [("paperA.stepwise.beta", 1e-300)],
        "config key paperA.stepwise.beta: got 1e-300 (too small); allowed: a finite number in "
        "[1e-150, 10] (Inverse temperature beta (paper A's regime is beta = O(1)).)",
    ),
    (
        [("replicate", 1001)],
        "config key replicate: got 1001 (too large); allowed: an integer in [0, 1000] "
        "(Replicate of the whole workflow; r >= 1 re-keys every random stream "
        "(attnspec.seeding) so that a run gives statistically independent draws, with its "
        "simulations under results/replicate<r>/ (0 is the default streams, under results/).)",
    ),
    (
        [("paperC.canonical.bulk_scale", 0)],
        "config key paperC.canonical.bulk_scale: got 0 (too small); allowed: a finite number "
        "in (0, 10] (beta, the scale of the bulk profile.)",
    ),
    (
        [("paperB.conditional.draws", 1)],
        "config key paperB.conditional.draws: got 1 (too small); allowed: an integer in [2, "
        "1000] (Independent draws of K per ell (at least two, for the spread over draws).)",
    ),
    (
        [("paperA.stepwise.sampler", "orthogonal")],
        "config key paperA.stepwise.sampler: got 'orthogonal' (not allowed); allowed: one of "
        "'gaussian', 'literal' (gaussian samples Q, K iid N(0,1) (equal in law); literal "
        "builds X W^Q, X W^K with X of orthonormal rows (requires n_tokens <= d_model).)",
    ),
    (
        [("paperD.sharing.schemes", ["mqa", 5])],
        "config key paperD.sharing.schemes[1]: got 5 (not allowed); allowed: one of "
        "'independent', 'mqa', 'gqa', 'tied' (independent heads, multi-query (one K/V pair), "
        "grouped-query (kv_groups pairs) or K = V tied within each head.)",
    ),
    (
        [("paperC.pretrained.corpus", ["../etc/passwd"])],
        "config key paperC.pretrained.corpus[0]: got '../etc/passwd' (does not match "
        "^data/corpus/[A-Za-z0-9_.-]+\\.txt$); allowed: a string matching "
        "^data/corpus/[A-Za-z0-9_.-]+\\.txt$ (Path of one corpus text file, relative to the "
        "repository root.)",
    ),
    (
        [("paperC.pretrained.corpus", [5])],
        "config key paperC.pretrained.corpus[0]: got 5 (not a string); allowed: a string "
        "matching ^data/corpus/[A-Za-z0-9_.-]+\\.txt$ (Path of one corpus text file, relative "
        "to the repository root.)",
    ),
    (
        [("vector_pdfs", "yes")],
        "config key vector_pdfs: got 'yes' (not true or false); allowed: true or false (Also "
        "write each figure as a vector PDF (figures/paper<X>/<id>.pdf, for print; about 2x "
        "the drawing time of the PNG). The PNG, tidy CSV and caption are written either way; "
        "every preset sets it (the committed PDFs are the print files); false skips them.)",
    ),
    (
        [
            ("paperA.stepwise.zz", 1),
            ("paperA.stepwise.aa", 1),
            ("paperA.stepwise.beta", DROP),
            ("paperA.stepwise.draws", DROP),
            ("paperA.stepwise.d_qk", 0),
        ],
        "unknown config key(s) zz, aa under paperA.stepwise; allowed keys: n_tokens, d_qk, "
        "beta, draws, n_removed, sampler, d_model, histogram_bins\n"
        "config key paperA.stepwise.beta: missing (a preset must be complete; allowed: a "
        "finite number in [1e-150, 10])\n"
        "config key paperA.stepwise.draws: missing (a preset must be complete; allowed: an "
        "integer in [2, 1000])\n"
        "config key paperA.stepwise.d_qk: got 0 (too small); allowed: an integer in [1, "
        "100000] (Query/key width d_qk; the ratio is c = n_tokens / d_qk.)",
    ),
    (
        [("paperB.sticking.n_tokens", [8, 9])],
        "config key paperB.sticking.n_tokens: got 2 value(s) [8, 9]; allowed: a list of at "
        "least 3 distinct values, each an integer in [16, 65536] (Sizes ell of the sticking "
        "draws at c = 1 (B1-B3, B-T1); rows B.1, B.2 judge the largest, their finite-size "
        "models every ell (at least 3).)\n"
        "config key paperB.sticking.n_tokens[0]: got 8 (too small); allowed: an integer in "
        "[16, 65536] (Number of tokens ell.)\n"
        "config key paperB.sticking.n_tokens[1]: got 9 (too small); allowed: an integer in "
        "[16, 65536] (Number of tokens ell.)",
    ),
]


@pytest.mark.parametrize(("changes", "expected"), OLD_MESSAGES)
def test_problems_read_as_before_jsonschema(changes, expected):
    assert "\n".join(problems_of(changed(*changes))) == expected


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
        ("paperA.linearisation", "n_tokens", [250, 500, 500], "duplicate value(s) ['500']"),
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


def alias_bomb(levels: int = 9) -> str:
    """A flow list of ``levels`` + 1 anchored lists, each ten aliases of the one before: about
    10^(levels + 1) values once expanded, a few hundred characters written."""
    lists = ["&a0 [" + ", ".join(["1.0"] * 10) + "]"]
    lists += [f"&a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, levels + 1)]
    return "[" + ", ".join(lists) + "]"


@pytest.mark.parametrize(
    "value", [alias_bomb(), "&self [1.0, *self]"], ids=["alias bomb", "a list inside itself"]
)
def test_yaml_aliases_that_expand_past_the_bound_are_refused_with_the_file(tmp_path, value):
    """An alias bomb hung the config check for minutes; now it costs no more than its text."""
    preset = (REPO / "config" / "ci.yaml").read_text()
    path = tmp_path / "bomb.yaml"
    path.write_text(preset.replace("replicate: 0", f"replicate: {value}", 1))
    with pytest.raises(ConfigError) as raised:
        read_config_file(path)
    assert str(raised.value) == (
        f"config file {path}: more than {MAX_CONFIG_VALUES} values once YAML aliases (*name) are "
        f"expanded; allowed: at most {MAX_CONFIG_VALUES} (the presets hold under 500; an alias of "
        "a list of aliases multiplies them): write the values out"
    )


def test_the_merged_config_is_bounded_too():
    """--config values are YAML as well (Snakemake reads them with aliases)."""
    config = copy.deepcopy(DEFAULT)
    config["replicate"] = yaml.safe_load(alias_bomb())
    with pytest.raises(ConfigError, match="^the config of --configfile and --config: more than"):
        prepare_config(
            config,
            configfiles=[],
            default_preset=REPO / "config" / "config.yaml",
            schema_path=SCHEMA_PATH,
        )


def test_expanded_size_counts_shared_parts_wherever_they_appear():
    shared = [1, 2]
    assert expanded_size({"a": shared, "b": [shared, shared]}, 100) == 1 + 3 + 1 + 3 + 3
    # lists of 11, 111, 1111 and 11111 values (each one and ten of the one before) in one list
    assert expanded_size(yaml.safe_load(alias_bomb(levels=3)), 10**6) == 12345
    assert expanded_size(yaml.safe_load(alias_bomb(levels=3)), 1000) == 1001


def test_a_long_list_is_elided_in_the_message():
    """A 3000-value list was echoed in one message of 23,801 characters."""
    values = [round(2.0 - 0.0005 * i, 4) for i in range(3000)]
    config = copy.deepcopy(DEFAULT)
    config["paperB"]["sticking"]["betas"] = values
    with pytest.raises(ConfigError) as raised:
        check_cross_key_constraints(config)
    assert "got [2.0, 1.9995, 1.999, ..., 0.501, 0.5005] (3000 values); allowed" in str(
        raised.value
    )
    assert len(str(raised.value)) < 300


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


@pytest.mark.slow  # copies the repository, starts Snakemake
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


@pytest.mark.slow  # copies the repository, starts Snakemake
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


def test_the_draws_verify_names_are_checked_before_any_job():
    stored = "paperA/spectra/ell250-dqk250-beta0.5-gaussian/attention+linear-draws10/attention"
    check_verify_draws({"verify": stored, "store": "data/store"}, REPO)
    check_verify_draws({"store": ""}, REPO)  # unset: the default selection
    with pytest.raises(ConfigError, match=r"config key verify: paperB/x/draw1 not in the store"):
        check_verify_draws({"verify": f"{stored},paperB/x/draw1", "store": ""}, REPO)
    assert re.fullmatch(SCHEMA["properties"]["verify"]["pattern"].strip("^$"), stored)


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
    from attnspec.papers.b.sticking_evidence import JUDGED_BETAS, JUDGED_RATIOS

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


def test_paper_a_linearisation_simulates_the_betas_of_rows_a1_a3_and_a4():
    """Rows A.1 and A.4 judge beta 0.5 and 1 on the spectra of paperA.linearisation (A.3 beta 1);
    figure A3's own betas are free."""
    from attnspec.papers.a import bulk_laws_evidence, linearisation_summary

    judged = list(
        dict.fromkeys(linearisation_summary.JUDGED_BETAS + bulk_laws_evidence.JUDGED_BETAS)
    )
    config = copy.deepcopy(DEFAULT)
    config["paperA"]["linearisation"]["betas"] = [1.0, 2.0]
    expected = (
        f"paperA.linearisation.betas: got [1.0, 2.0]; allowed: a list containing {judged} (the "
        "values paper A's registry rows judge), missing [0.5]"
    )
    with pytest.raises(ConfigError, match=re.escape(expected)):
        check_cross_key_constraints(config)
    config = copy.deepcopy(DEFAULT)
    config["paperA"]["bulk_laws"]["betas"] = [1.5]
    check_cross_key_constraints(config)


def test_every_room_contributes_its_config_check_and_paper_d_s_is_checked_before_any_job():
    """Each room of the registry's list has config_check.first_problem (None on the presets);
    paper D's judged schemes are refused by the config check, not when its rules are read."""
    from attnspec.papers.registry import ROOMS, room_modules

    checks = room_modules("config_check")
    assert len(checks) == len(ROOMS)
    for preset in PRESETS:
        config = read_config_file(REPO / "config" / preset)
        assert [check.first_problem(config) for check in checks] == [None] * len(ROOMS)
    config = copy.deepcopy(DEFAULT)
    config["paperD"]["sharing"]["schemes"] = ["independent", "mqa", "tied"]
    with pytest.raises(ConfigError, match=re.escape("paperD.sharing.schemes lacks ['gqa']")):
        check_cross_key_constraints(config)
