"""attnspec.validation: one helper per kind of argument, each accepting its stated range and
raising one ValueError that names the argument and that range."""

import ast
from pathlib import Path

import numpy as np
import pytest
import yaml

from attnspec import validation as v

SOURCE = Path(v.__file__)


def test_validation_imports_nothing_from_attnspec():
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    modules = [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    modules += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [m for m in modules if m.split(".")[0] == "attnspec"]


@pytest.mark.parametrize(
    ("value", "low", "high", "returned"),
    [(0, 0, None, 0), (np.int64(3), 1, None, 3), (5, 0, 5, 5)],
)
def test_check_count_accepts_integers_in_range(value, low, high, returned):
    result = v.check_count(value, "n", low, high)
    assert result == returned and type(result) is int


@pytest.mark.parametrize(
    ("value", "low", "high", "message"),
    [
        (-1, 0, None, "draw must be a non-negative integer, got -1"),
        (True, 0, None, "draw must be a non-negative integer, got True"),
        (2.0, 1, None, "draw must be an integer >= 1, got 2.0"),
        (7, 1, 6, "draw must be an integer in [1, 6], got 7"),
    ],
)
def test_check_count_refuses(value, low, high, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[")):
        v.check_count(value, "draw", low, high)


def test_check_positive_and_check_real():
    assert v.check_positive(np.float32(0.5), "tol") == 0.5
    for bad in (0, -1.0, float("inf"), float("nan"), True, "1"):
        with pytest.raises(ValueError, match="tol must be a finite number > 0"):
            v.check_positive(bad, "tol")
    assert v.check_real("2.5", "a") == 2.5
    with pytest.raises(ValueError, match="a must be a real number, got None"):
        v.check_real(None, "a")


def test_check_beta_and_ratio_ranges():
    assert v.check_beta(0.0, allow_zero=True) == 0.0
    assert v.check_parameters(26.6, 1e8) == (26.6, 1e8)
    with pytest.raises(ValueError, match="degenerate"):
        v.check_beta(0.0)
    with pytest.raises(ValueError, match="above 26.6"):
        v.check_betas([1.0, 30.0])
    with pytest.raises(ValueError, match="ratio c = ell / d_qk must be in"):
        v.check_ratio(1e9)


def test_check_choice():
    assert v.check_choice("causal", "mask", ("bidirectional", "causal")) == "causal"
    with pytest.raises(ValueError, match=r"mask must be one of \('a', 'b'\), got 'c'"):
        v.check_choice("c", "mask", ("a", "b"))


def test_check_samples_and_levels():
    assert np.array_equal(v.check_samples([[2, 1]]), [2.0, 1.0])
    for bad in ([], [1.0, np.nan], [np.inf]):
        with pytest.raises(ValueError, match="samples must be non-empty and finite"):
            v.check_samples(bad)
    assert np.array_equal(v.check_levels([0, 0.5, 1]), [0.0, 0.5, 1.0])
    with pytest.raises(ValueError, match=r"quantile levels q must lie in \[0, 1\]"):
        v.check_levels([0.5, 1.5])
    with pytest.raises(ValueError, match="quantile levels q must be real numbers, not NaN"):
        v.check_levels(np.nan)


def test_check_real_array_and_complex_array():
    assert v.check_real_array([-np.inf, 1], "x").dtype == np.float64
    with pytest.raises(ValueError, match="x must be finite numbers, got inf"):
        v.check_real_array([np.inf], "x", allow_inf=False)
    with pytest.raises(ValueError, match="w must be finite numbers"):
        v.check_finite_complex_array([1j, np.nan], "w")


def test_booleans_are_not_real_numbers_or_inverse_temperatures():
    """NuInfinity(True) was the law at beta = 1."""
    for value in (True, np.True_):
        with pytest.raises(ValueError, match="beta \\(inverse temperature\\) must be a real"):
            v.check_beta(value)
    with pytest.raises(ValueError, match="beta \\(inverse temperature\\) must be real numbers"):
        v.check_betas([True, False])
    assert v.check_real(np.float32(0.5), "a") == 0.5


def test_check_nonnegative():
    assert v.check_nonnegative(0, "kappa") == 0.0
    for bad in (-0.5, float("nan"), float("inf"), True, "1", [1.0]):
        with pytest.raises(ValueError, match="kappa must be a finite number >= 0"):
            v.check_nonnegative(bad, "kappa")


def test_check_matrix_reads_integers_as_float64_and_keeps_float32():
    assert v.check_matrix(np.eye(3, dtype=np.int32), "M").dtype == np.float64
    single = np.eye(3, dtype=np.float32)
    assert v.check_matrix(single, "M") is single


def test_check_fits_in_memory():
    v.check_fits_in_memory(8e6, "n = 1000: x")
    with pytest.raises(ValueError, match=r"^n = 10\^9: x would need 8e\+18 GB of memory, more"):
        v.check_fits_in_memory(8e27, "n = 10^9: x")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ([0.5, 1.0], "[0.5, 1.0]"),
        ((1,), "(1,)"),
        ("abc", "'abc'"),
        (list(range(3000)), "[0, 1, 2, ..., 2998, 2999] (3000 values)"),
        ([[1, [2, [3, [4]]]]], "[[1, [2, [...]]]]"),
        ("x" * 500, "'" + "x" * 199 + "... (502 characters)"),
    ],
)
def test_shown_keeps_short_values_as_their_repr_and_elides_long_ones(value, expected):
    assert v.shown(value) == expected


def test_a_long_list_is_elided_in_a_message():
    """A 3000-value list was echoed in one 23,801-character message."""
    with pytest.raises(ValueError) as raised:
        v.check_betas(["x"] * 3000)
    assert str(raised.value).endswith("got ['x', 'x', 'x', ..., 'x', 'x'] (3000 values)")


def _schema_beta_bounds(node, in_beta: bool = False):
    """(bound name, value) of every minimum / maximum under a schema key naming a beta (counts
    such as beta_points, of type integer, left out)."""
    if isinstance(node, list):
        for item in node:
            yield from _schema_beta_bounds(item, in_beta)
    if not isinstance(node, dict):
        return
    if in_beta and node.get("type") != "integer":
        for bound in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
            if bound in node:
                yield bound, node[bound]
    for key, value in node.items():
        yield from _schema_beta_bounds(value, in_beta or "beta" in str(key).lower())


def test_every_schema_bound_of_beta_is_an_end_of_a_beta_range():
    schemas = sorted((SOURCE.parents[1] / "workflow" / "schemas").glob("*.yaml"))
    lows = {entry.low for entry in v.BETA_RANGES.values()}
    highs = {entry.high for entry in v.BETA_RANGES.values()}
    checked = 0
    for schema in schemas:
        for bound, value in _schema_beta_bounds(yaml.safe_load(schema.read_text("utf-8"))):
            assert value in (lows if "inimum" in bound else highs), (schema.name, bound, value)
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("use", sorted(v.BETA_RANGES))
def test_check_beta_in_states_the_range_and_its_reason(use):
    low, high, _, reason = v.BETA_RANGES[use]
    assert v.check_beta_in(high, use, "this use") == high
    with pytest.raises(ValueError) as raised:
        v.check_beta_in(2 * high, use, "this use")
    message = str(raised.value)
    assert f"[{low:g}, {high:g}] for this use" in message and reason in message
