"""The console command ``attnspec edge`` prints x_+ and the MP surrogate edge."""

import math

import pytest

from attnspec.cli import main
from attnspec.theory import bulk_edge


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
