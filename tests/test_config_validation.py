"""Bad config values stop the workflow before any job, with one message naming the key."""

import copy

import jsonschema
import pytest
import yaml
from conftest import REPO, run, tool, tracked_copy
from referencing import Registry, Resource

from attnspec.configcheck import ConfigError, check_cross_key_constraints, describe_schema_error

SCHEMAS = REPO / "workflow" / "schemas"
SCHEMA = yaml.safe_load((SCHEMAS / "config.schema.yaml").read_text())
REGISTRY = Registry().with_resources(
    (path.name, Resource.from_contents(yaml.safe_load(path.read_text())))
    for path in SCHEMAS.glob("paper*.schema.yaml")
)
DEFAULT = yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def first_error_message(config) -> str:
    errors = list(validator().iter_errors(config))
    assert errors, "the schema accepted a bad config"
    return describe_schema_error(jsonschema.exceptions.best_match(errors))


def validator():
    return jsonschema.Draft202012Validator(SCHEMA, registry=REGISTRY)


def with_stepwise(**changes):
    config = copy.deepcopy(DEFAULT)
    config["paperA"]["stepwise"].update(changes)
    return config


@pytest.mark.parametrize("preset", ["config.yaml", "paper.yaml", "ci.yaml"])
def test_presets_are_valid(preset):
    config = yaml.safe_load((REPO / "config" / preset).read_text())
    validator().validate(config)
    check_cross_key_constraints(config)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"beta": -0.5}, "config key paperA.stepwise.beta: got -0.5; allowed: a number in (0, 10]"),
        ({"draws": 1}, "config key paperA.stepwise.draws: got 1; allowed: an integer in [2, 1000]"),
        ({"d_qk": 2.5}, "config key paperA.stepwise.d_qk: got 2.5; allowed: an integer in [1,"),
        (
            {"n_tokens": "1000"},
            "config key paperA.stepwise.n_tokens: got '1000'; allowed: an integer",
        ),
        ({"sampler": "orthogonal"}, "allowed: one of 'gaussian', 'literal'"),
        ({"n_tokenz": 5}, "unknown config key(s) n_tokenz under paperA.stepwise; allowed keys:"),
    ],
)
def test_schema_errors_name_the_key_and_the_allowed_range(changes, expected):
    assert expected in first_error_message(with_stepwise(**changes))


def test_literal_sampler_needs_ell_at_most_d():
    config = with_stepwise(sampler="literal", n_tokens=1000, d_model=500)
    with pytest.raises(
        ConfigError, match=r"paperA\.stepwise\.n_tokens: got 1000; allowed: n_tokens <="
    ):
        check_cross_key_constraints(config)
    check_cross_key_constraints(with_stepwise(sampler="gaussian", n_tokens=1000, d_model=500))


def test_snakemake_stops_before_any_job_with_one_clear_message(tmp_path):
    bad = with_stepwise(beta=-1.0)
    workdir = tracked_copy(tmp_path / "clone")
    (workdir / "bad.yaml").write_text(yaml.safe_dump(bad))
    result = run(
        [tool("snakemake"), "--cores", "1", "--configfile", "bad.yaml"], cwd=workdir, check=False
    )
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "config key paperA.stepwise.beta: got -1.0; allowed: a number in (0, 10]" in output
    assert "Traceback" not in output
    assert not (workdir / "results").exists() and not (workdir / "logs").exists()


def test_paper_b_keys_are_validated_through_the_referenced_schema():
    config = copy.deepcopy(DEFAULT)
    config["paperB"]["sticking"]["top_k"] = 1
    assert "config key paperB.sticking.top_k: got 1; allowed: an integer in [2, 50]" in (
        first_error_message(config)
    )


def test_beta_range_must_be_increasing():
    config = copy.deepcopy(DEFAULT)
    config["paperA"]["edge_curve"].update(beta_min=2.5, beta_max=1.0)
    with pytest.raises(ConfigError, match=r"paperA\.edge_curve\.beta_min: got 2.5; allowed"):
        check_cross_key_constraints(config)
