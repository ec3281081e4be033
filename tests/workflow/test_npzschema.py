"""Intermediate npz files are checked by content when read (attnspec.workflow.npzschema): each
kind declares its members, shapes, dtypes and finiteness; a pickled member, NaN where none may
be, a wrong shape or a missing or unknown member is refused with the file and member named."""

import re

import numpy as np
import pytest
from conftest import planned_rules, run, tool

from attnspec.papers.d.multihead import heads_draws, sharing_draws
from attnspec.workflow.io import load_npz, save_npz
from attnspec.workflow.npzschema import KINDS, ResultError, kind_of
from attnspec.workflow.redo import planned_jobs

HEADS = "results/paperD/heads/h2/draws2.npz"
SETTINGS = {"heads": 4, "kv_groups": 2, "gamma_k": 0.5, "gamma_o": 0.5, "beta": 1.0}


@pytest.fixture
def heads_file(tmp_path, monkeypatch):
    """A figure D2 result as paperD_heads writes it, at its place under results/."""
    monkeypatch.chdir(tmp_path)
    record = heads_draws(16, 2, 4, 8, 1.0, 2)
    save_npz(HEADS, **record)
    return record


def rewrite(record, **changed):
    save_npz(HEADS, **{**record, **changed})


def refusal(member: str, problem: str) -> str:
    """The message naming the file, the member, the problem, the rule and what to do."""
    return (
        rf"^results/paperD/heads/h2/draws2\.npz: member '{re.escape(member)}' {problem}.* \(a "
        r"result of rule paperD_heads\); the file is refused: remove it and run the command again"
    )


def test_the_library_s_records_pass_at_their_places(heads_file, tmp_path):
    assert load_npz(HEADS).keys() == heads_file.keys()
    sharing = "results/replicate1/paperD/sharing/gqa/n16/draws2.npz"
    save_npz(sharing, **sharing_draws("gqa", SETTINGS, 16, 2))
    assert kind_of(sharing)[0].rule == "paperD_sharing"
    load_npz(sharing)


def test_nan_where_values_must_be_finite_is_refused(heads_file):
    rewrite(
        heads_file, **{key: np.full_like(v, np.nan) for key, v in heads_file.items() if "/" in key}
    )
    with pytest.raises(ResultError, match=refusal("attention/softmax", "holds NaN or infinity")):
        load_npz(HEADS)


def test_a_pickled_member_is_refused_unread(heads_file):
    np.savez(HEADS, **heads_file, extra=np.array([{"code": "runs"}], dtype=object))
    with pytest.raises(ResultError, match=refusal("extra", "holds pickled Python objects")):
        load_npz(HEADS)


def test_a_member_cut_to_five_values_is_refused(heads_file):
    rewrite(heads_file, **{"output/gaussian": heads_file["output/gaussian"].ravel()[:5]})
    with pytest.raises(ResultError, match=refusal("output/gaussian", r"has shape \(5,\)")):
        load_npz(HEADS)
    rewrite(heads_file, **{"attention/softmax": heads_file["attention/softmax"][:, :5]})
    with pytest.raises(ResultError, match="n is 5 in member 'attention/softmax'"):
        load_npz(HEADS)


def test_the_draw_count_in_the_file_name_binds_the_draw_axis(heads_file):
    rewrite(heads_file, **{k: v[:1] for k, v in heads_file.items() if "/" in k})
    with pytest.raises(ResultError, match=r"draws is 2 in the file's name"):
        load_npz(HEADS)


def test_missing_unknown_and_mistyped_members_are_refused(heads_file):
    rewrite({k: v for k, v in heads_file.items() if k != "batch_draws"})
    with pytest.raises(ResultError, match=refusal("batch_draws", "is missing")):
        load_npz(HEADS)
    rewrite(heads_file, spare=np.zeros(3))
    with pytest.raises(ResultError, match=refusal("spare", "is not one this file holds")):
        load_npz(HEADS)
    rewrite(heads_file, batch_draws=np.float64(2))
    with pytest.raises(
        ResultError, match=refusal("batch_draws", "has dtype float64; allowed: integers")
    ):
        load_npz(HEADS)


def test_files_of_no_kind_are_read_unchecked_but_never_unpickled(tmp_path):
    np.savez(tmp_path / "mine.npz", x=np.array([np.nan]))
    assert np.isnan(load_npz(tmp_path / "mine.npz")["x"][0])
    np.savez(tmp_path / "bad.npz", x=np.array([object()], dtype=object))
    with pytest.raises(ResultError, match=r"bad\.npz: member 'x' holds pickled"):
        load_npz(tmp_path / "bad.npz")


def test_evidence_may_hold_nan_and_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = "results/paperD/evidence/sharing.npz"
    save_npz(
        path, **{"D.2/mqa::samples/ks": np.array([np.nan, 0.1]), "D.2/mqa::note": np.array("")}
    )
    assert kind_of(path)[0].rule == "paperD_sharing_evidence"
    load_npz(path)


def test_a_batch_is_not_taken_for_a_single_draw():
    assert kind_of("results/paperB/sticking/ell64-c1.0/draws3.npz")[0].rule == (
        "paperB_sticking_batch"
    )
    assert kind_of("results/paperB/sticking/ell8192-c1.0/draw3.npz")[0].rule == (
        "paperB_sticking_draw"
    )
    assert kind_of("results/paper-scale/replicate2/paperB/sticking/ell8192-c1.0/draw3.npz")[
        0
    ].rule == ("paperB_sticking_draw")


@pytest.mark.slow  # starts Snakemake
def test_every_npz_a_rule_writes_under_results_has_its_kind():
    """Every job of `all` and `replicates` of the three presets writing an npz under results/
    (dry runs, forced): the file has a kind, declared by the rule that writes it, and every
    kind is written by some job."""
    written = set()
    for preset in ("config/config.yaml", "config/ci.yaml", "config/paper.yaml"):
        command = [tool("snakemake"), "all", "replicates", "-n", "-F", "--configfile", preset]
        output = run(command)
        jobs = planned_jobs(output.stdout + output.stderr)
        assert {job.rule for job in jobs} == planned_rules(output.stdout)
        written |= {
            (job.rule, f) for job in jobs for f in job.outputs if re.match(r"results/.*\.npz$", f)
        }
    unknown = sorted(f for _, f in written if kind_of(f) is None)
    assert not unknown, unknown
    assert {
        (rule, kind_of(f)[0].rule) for rule, f in written if kind_of(f)[0].rule != rule
    } == set()
    assert {kind.rule for kind in KINDS} == {rule for rule, _ in written}
