"""The console command ``attnspec edge`` prints x_+ and the MP surrogate edge; bad input gets one
line on stderr, no traceback, and a non-zero exit status."""

import math
import os
import subprocess
import sys

import pytest

from attnspec import __version__ as attnspec_version
from attnspec.cli import main
from attnspec.theory import bulk_edge, mp_edge


def attnspec(*args: str) -> subprocess.CompletedProcess:
    """Run the command line in a fresh process, as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "attnspec.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def printed(out: str, label: str) -> float:
    line = next(line for line in out.splitlines() if line.startswith(label))
    return (
        float(line.split("=")[-1].split()[0])
        if label.startswith("x_+ /")
        else float(line.split("=")[1].split()[0])
    )


def test_edge_prints_both_edges(capsys):
    assert main(["edge", "--beta", "1", "--ratio", "0.5"]) == 0
    out = capsys.readouterr().out
    x_plus = float(out.split("x_+")[1].split("=")[1].split()[0])
    surrogate = float(out.split("\n4(exp(beta^2) - 1) =")[1].split()[0])
    assert x_plus == pytest.approx(bulk_edge(1.0, 0.5), rel=1e-11)
    assert surrogate == pytest.approx(4 * math.expm1(1.0), rel=1e-11)


@pytest.mark.parametrize(
    "args",
    [
        ["edge", "--beta", "-1"],
        ["edge", "--beta", "0"],
        ["edge", "--beta", "1", "--ratio", "0"],
        ["edge", "--beta", "1", "--ratio", "nan"],
    ],
)
def test_edge_rejects_impossible_parameters(args, capsys):
    with pytest.raises(SystemExit):
        main(args)
    assert "must be" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "names", "allowed"),
    [
        (["--beta", "inf"], "--beta", "[1e-150, 26.6]"),
        (["--beta=-inf"], "--beta", "[1e-150, 26.6]"),
        (["--beta", "-inf"], "--beta", "expected one argument"),  # argparse: an option name
        (["--beta", "nan"], "--beta", "[1e-150, 26.6]"),
        (["--beta", "1e-300"], "--beta", "[1e-150, 26.6]"),
        (["--beta", "26.7"], "--beta", "[1e-150, 26.6]"),
        (["--beta", "27"], "--beta", "[1e-150, 26.6]"),
        (["--beta", "1e300"], "--beta", "[1e-150, 26.6]"),
        (["--beta", "-1"], "--beta", "[1e-150, 26.6]"),
        (["--beta", "0"], "--beta", "[1e-150, 26.6]"),
        (["--beta", "abc"], "--beta", "real number"),
        (["--beta", ""], "--beta", "real number"),
        (["--beta", "1", "--ratio", "0"], "--ratio", "[1e-08, 1e+08]"),
        (["--beta", "1", "--ratio", "-2"], "--ratio", "[1e-08, 1e+08]"),
        (["--beta", "1", "--ratio", "inf"], "--ratio", "[1e-08, 1e+08]"),
        (["--beta", "1", "--ratio", "1e300"], "--ratio", "[1e-08, 1e+08]"),
        (["--beta", "1", "--ratio", "x"], "--ratio", "real number"),
        ([], "--beta", "required"),
        (["--beta"], "--beta", "expected one argument"),
        (["--beta", "1", "--width", "3"], "--width", "unrecognized"),
        (["--beta", "1_0"], "--beta", "without '_'"),
        (["--beta", "1", "--beta", "2"], "--beta given twice", "give it once"),
        (["--beta", "1", "--ratio", "1", "--ratio", "2"], "--ratio given twice", "give it once"),
        (["--beta", "-1"], "--beta", "an inverse temperature is not negative"),
    ],
)
def test_bad_input_gets_one_line_and_a_nonzero_exit(args, names, allowed):
    result = attnspec("edge", *args)
    assert result.returncode != 0
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(("attnspec edge: error:", "attnspec: error:"))
    assert names in lines[0] and allowed in lines[0]


@pytest.mark.parametrize(("args", "allowed"), [([], "command"), (["frob"], "invalid choice")])
def test_missing_or_unknown_command_gets_one_line(args, allowed):
    result = attnspec(*args)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and allowed in result.stderr


@pytest.mark.parametrize(
    ("beta", "ratio"), [("26", "1"), ("26.6", "1e-8"), ("19", "1e8"), ("1e-150", "1"), ("1", "0.5")]
)
def test_representable_extremes_print_finite_edges(beta, ratio):
    # beta = 26 printed a traceback (OverflowError) before; x_+ is representable up to 26.6.
    result = attnspec("edge", "--beta", beta, "--ratio", ratio)
    assert result.returncode == 0 and result.stderr == ""
    x_plus = printed(result.stdout, "x_+ =")
    surrogate = printed(result.stdout, "4(exp(beta^2) - 1) =")
    assert x_plus == pytest.approx(bulk_edge(float(beta), float(ratio)), rel=1e-11)
    assert surrogate == pytest.approx(mp_edge(float(beta)), rel=1e-11)
    assert math.isfinite(printed(result.stdout, "x_+ / (4(exp(beta^2) - 1)) ="))


def test_help_is_printed_and_exits_zero():
    result = attnspec("edge", "--help")
    assert result.returncode == 0 and "[1e-150, 26.6]" in result.stdout


def test_version_is_printed():
    result = attnspec("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"attnspec {attnspec_version}"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a full disk)")
def test_output_that_cannot_be_written_gets_one_line():
    """Printed a 9-line traceback (OSError: No space left on device) before."""
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "attnspec.cli", "edge", "--beta", "1"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    assert result.returncode == 1
    assert result.stderr == (
        "attnspec edge: error: cannot write the result to standard output (No space left on "
        "device); write it to a file on a disk with room, or to the terminal\n"
    )
