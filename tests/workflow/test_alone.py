"""One job's script run alone with the snakemake object built from the workflow
(attnspec.workflow.alone): the same outputs as the job in a run, and one-line errors."""

import sys

import pytest
from conftest import run

from attnspec.workflow.alone import USAGE, AloneError, main, parse


def test_the_command_line_gives_the_rule_its_wildcards_and_the_config_files():
    assert parse(["paperB_sticking_draw", "n_tokens=4096", "draw=3"]) == (
        "paperB_sticking_draw",
        {"n_tokens": "4096", "draw": "3"},
        [],
    )
    assert parse(["B1", "--configfile", "config/ci.yaml"]) == ("B1", {}, ["config/ci.yaml"])


@pytest.mark.parametrize(
    "argv", [[], ["--configfile"], ["paperB_B1_figure", "draw"], ["-x"], ["r", "--configfile"]]
)
def test_a_malformed_command_line_is_refused(argv):
    with pytest.raises(AloneError):
        parse(argv)


def test_a_malformed_command_line_is_one_line_without_traceback(capsys):
    assert main(["paperB_B1_figure", "draw"]) == 2
    assert capsys.readouterr().err == (
        f"alone: error: draw: not WILDCARD=VALUE (the only option is --configfile)\n{USAGE}\n"
    )
    assert main([]) == 2
    assert capsys.readouterr().err == f"alone: error: give a rule first\n{USAGE}\n"
    assert main(["paperB_B1_figure", "--configfile", "no/such.yaml"]) == 2
    assert capsys.readouterr().err == "alone: error: --configfile no/such.yaml: no such file\n"


def alone(workdir, *args):
    return run(
        [sys.executable, "-m", "attnspec.workflow.alone", *args, "--configfile", "config/ci.yaml"],
        cwd=workdir,
        check=False,
    )


@pytest.mark.slow
def test_a_script_run_alone_writes_what_its_job_wrote_in_the_run(ci_clone):
    """After the CI preset's run, figure B1's and paper C's claims jobs run alone rewrite their
    outputs byte for byte (the same code, inputs and config, so the same bytes)."""
    for rule, outputs in (
        ("paperB_B1_figure", ["figures/paperB/B1-sticking.png", "figures/paperB/B1-sticking.md"]),
        ("claims_judge", ["results/paperC/claims.csv"]),
    ):
        before = {name: (ci_clone / name).read_bytes() for name in outputs}
        wildcards = ["paper=C"] if rule == "claims_judge" else []
        result = alone(ci_clone, rule, *wildcards)
        assert result.returncode == 0, result.stderr
        assert "alone: ran" in result.stderr
        for name in outputs:
            assert (ci_clone / name).read_bytes() == before[name], name


@pytest.mark.slow
def test_an_unknown_rule_or_an_open_wildcard_is_one_line_naming_what_to_give(ci_clone):
    unknown = alone(ci_clone, "paperB_B9_figure")
    assert unknown.returncode == 2 and unknown.stderr.startswith("alone: error: no rule")
    assert "Traceback" not in unknown.stderr
    several = alone(ci_clone, "paperB_sticking_batch")
    assert several.returncode == 2 and "give WILDCARD=VALUE for" in several.stderr
    assert "n_tokens" in several.stderr and "Traceback" not in several.stderr
    misnamed = alone(ci_clone, "paperB_sticking_batch", "ell=1024")
    assert "has no wildcard ell; its wildcards: draws, n_tokens, ratio, results" in misnamed.stderr
    none = alone(ci_clone, "paperB_sticking_draw")  # the CI preset batches every size
    assert none.returncode == 2 and "this preset runs no job of rule" in none.stderr


@pytest.mark.slow
def test_a_bad_config_is_one_line_naming_the_key(ci_clone, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        (ci_clone / "config" / "ci.yaml").read_text().replace("replicate: 0", "replicate: -1")
    )
    result = run(
        [sys.executable, "-m", "attnspec.workflow.alone", "paperA_AT1_table", "--configfile",
         str(bad)],
        cwd=ci_clone,
        check=False,
    )  # fmt: skip
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.startswith("alone: error: config key replicate")
