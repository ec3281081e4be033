"""Progress records of the long library loops: one INFO record per unit of work ("<unit> i of N",
with its seconds), one at the end, and results that do not depend on whether anything is logged."""

import logging
import re

import numpy as np
import pytest

from attnspec.models.gaussian_equivalent import STEPWISE_MODELS
from attnspec.papers.a.full_spectrum import full_spectrum_draw
from attnspec.papers.a.linearisation_summary import distance_table
from attnspec.papers.a.perron import perron_draws
from attnspec.papers.a.stepwise_summary import summarise_stepwise
from attnspec.papers.b.conditional import conditional_draw
from attnspec.papers.b.sticking import sticking_draw
from attnspec.papers.c.degeneration import (
    bulk_count_job,
    bulk_grid,
    gaussian_model_job,
    isotropic_job,
    spectra_job,
    stable_rank_job,
    survival_job,
)
from attnspec.papers.c.pretrained import (
    DRAWS_PER_PROGRESS_RECORD,
    isotropic_diagnostics,
    model_diagnostics,
)
from attnspec.papers.spectra import model_spectrum
from attnspec.pretrained.bert import BertConfig, passages_queries_keys

MODEL = {
    "spikes": 3,
    "kappa": 2.0,
    "spike_placement": "spread",
    "bulk_scale": 1.0,
    "gaussian_ratio": 1.0,
}
# "<unit> i of N ...: ..., 0.12 s"
PROGRESS = re.compile(r"^(?P<unit>\w+) (?P<index>\d+) of (?P<total>\d+)\b.*, \d+\.\d\d s$")
# "N <units> ... in 0.12 s"
END = re.compile(r"^\d+ \w+.* in \d+\.\d\d s$")


def tiny_bert(layers=2, heads=2, hidden=8, inner=12, vocab=20, positions=16):
    """Random weights of a small BERT encoder, named as in the safetensors file."""
    rng = np.random.default_rng(0)
    weights = {
        "embeddings.word_embeddings.weight": rng.standard_normal((vocab, hidden)),
        "embeddings.position_embeddings.weight": rng.standard_normal((positions, hidden)),
        "embeddings.token_type_embeddings.weight": rng.standard_normal((2, hidden)),
    }
    linear = {
        "attention.self.query": (hidden, hidden),
        "attention.self.key": (hidden, hidden),
        "attention.self.value": (hidden, hidden),
        "attention.output.dense": (hidden, hidden),
        "intermediate.dense": (inner, hidden),
        "output.dense": (hidden, inner),
    }
    norms = ["embeddings.LayerNorm"]
    for layer in range(layers):
        prefix = f"encoder.layer.{layer}."
        for name, shape in linear.items():
            weights[prefix + name + ".weight"] = rng.standard_normal(shape) / np.sqrt(shape[1])
            weights[prefix + name + ".bias"] = rng.standard_normal(shape[0])
        norms += [prefix + "attention.output.LayerNorm", prefix + "output.LayerNorm"]
    for name in norms:
        weights[name + ".weight"], weights[name + ".bias"] = np.ones(hidden), np.zeros(hidden)
    return weights, BertConfig(layers, heads, hidden, positions, 1e-12)


def random_spectra(n_tokens, count, seed):
    rng = np.random.default_rng(seed)
    return [np.sort(rng.exponential(1.7, n_tokens))[::-1] for _ in range(count)]


def run_distance_table():
    points = [
        {"model": model, "n_tokens": ell, "beta": 1.0, "draw": draw}
        for ell in (40, 60)
        for model in ("attention", "linear")
        for draw in range(2)
    ]
    spectra = [random_spectra(p["n_tokens"], 1, i)[0] for i, p in enumerate(points)]
    return distance_table(spectra, points)


def run_stepwise():
    spectra = {m: random_spectra(50, 2, i) for i, m in enumerate(STEPWISE_MODELS)}
    return summarise_stepwise(spectra, beta=1.0, ratio=1.0, n_removed=3, bins=10)


def run_queries_keys():
    weights, config = tiny_bert()
    passages = np.random.default_rng(1).integers(0, 20, size=(3, 6))
    return passages_queries_keys(weights, config, passages)


def run_model_diagnostics():
    queries, keys = np.random.default_rng(6).standard_normal((2, 2, 1, 2, 12, 8))
    return model_diagnostics(queries, keys)


# name -> (call with small sizes, logger, unit, number of units)
LOOPS = {
    "perron": (lambda: perron_draws(32, 1.0, 3), "attnspec.papers.a.perron", "draw", 3),
    "sticking": (
        lambda: sticking_draw(96, 2.0, 1, betas=[0.5, 1.0, 1.5], n_values=10, top_k=4),
        "attnspec.papers.b.sticking",
        "beta",
        3,
    ),
    "conditional": (
        lambda: conditional_draw(32, 32, 1.0, 0),
        "attnspec.papers.b.conditional",
        "covariance",
        2,
    ),
    "stable rank": (
        lambda: stable_rank_job(64, MODEL, ["iid"], 2),
        "attnspec.papers.c.degeneration",
        "matrix",
        4,
    ),
    "bulk counts": (
        lambda: bulk_count_job([32, 64, 128], MODEL, ["zeros", "iid"], 2, bulk_grid(10)),
        "attnspec.papers.c.degeneration",
        "size",
        3,
    ),
    "canonical spectra": (
        lambda: spectra_job(32, MODEL, ["zeros", "iid"]),
        "attnspec.papers.c.degeneration",
        "spectrum",
        6,
    ),
    "isotropic model": (
        lambda: isotropic_job(32, MODEL, "iid", 2),
        "attnspec.papers.c.degeneration",
        "draw",
        2,
    ),
    "gaussian model": (
        lambda: gaussian_model_job(32, 1.0, 2),
        "attnspec.papers.c.degeneration",
        "draw",
        2,
    ),
    "survival": (
        lambda: survival_job(32, MODEL, "iid", [0.0, 1.0], 1),
        "attnspec.papers.c.degeneration",
        "mask",
        2,
    ),
    "distances": (run_distance_table, "attnspec.papers.a.linearisation_summary", "size", 2),
    "stepwise": (run_stepwise, "attnspec.papers.a.stepwise_summary", "model", len(STEPWISE_MODELS)),
    "pretrained model": (run_model_diagnostics, "attnspec.papers.c.pretrained", "passage", 2),
    "forward pass": (run_queries_keys, "attnspec.pretrained.bert", "passage", 3),
}


def messages(caplog, logger):
    """The INFO messages ``logger`` emitted, in order."""
    return [r.getMessage() for r in caplog.records if (r.name, r.levelno) == (logger, logging.INFO)]


def assert_same(first, second):
    """Equal bit for bit: arrays, or dicts / tuples of arrays."""
    if isinstance(first, dict):
        assert list(first) == list(second)
        for key in first:
            np.testing.assert_array_equal(first[key], second[key])
    elif isinstance(first, tuple):
        for a, b in zip(first, second, strict=True):
            np.testing.assert_array_equal(a, b)
    else:
        np.testing.assert_array_equal(first, second)


@pytest.mark.parametrize("name", LOOPS)
def test_one_progress_record_per_unit_and_one_at_the_end(name, caplog):
    run, logger, unit, total = LOOPS[name]
    with caplog.at_level(logging.INFO, logger=logger):
        run()
    logged = messages(caplog, logger)
    progress = [m for m in (PROGRESS.match(message) for message in logged) if m]
    assert [(m["unit"], int(m["index"]), int(m["total"])) for m in progress] == [
        (unit, i, total) for i in range(1, total + 1)
    ]
    assert name in ("sticking", "conditional") or END.match(logged[-1]), logged[-1]


@pytest.mark.parametrize("name", LOOPS)
def test_results_do_not_depend_on_logging(name, caplog):
    run, logger, _, _ = LOOPS[name]
    with caplog.at_level(logging.INFO, logger=logger):
        logged = run()
    assert messages(caplog, logger)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger=logger):
        silent = run()
    assert not messages(caplog, logger)
    assert_same(logged, silent)


def test_the_deterministic_profile_counts_one_draw(caplog):
    logger = "attnspec.papers.c.degeneration"
    with caplog.at_level(logging.INFO, logger=logger):
        stable_rank_job(64, MODEL, ["zeros", "iid"], 2)
    progress = [m for m in map(PROGRESS.match, messages(caplog, logger)) if m]
    assert [(int(m["index"]), int(m["total"])) for m in progress] == [(i, 6) for i in range(1, 7)]


def test_isotropic_reference_logs_once_per_block_of_draws(caplog):
    draws = DRAWS_PER_PROGRESS_RECORD + 3
    logger = "attnspec.papers.c.pretrained"
    with caplog.at_level(logging.INFO, logger=logger):
        isotropic_diagnostics(4, 4, draws)
    logged = messages(caplog, logger)
    assert [int(m["index"]) for m in map(PROGRESS.match, logged) if m] == [
        DRAWS_PER_PROGRESS_RECORD,
        draws,
    ]
    assert ": 3 draws since the previous record" in logged[1]
    assert END.match(logged[-1])


@pytest.mark.parametrize(
    ("run", "logger", "stages"),
    [
        (
            lambda: model_spectrum(
                "attention", 0, n_tokens=40, d_qk=40, beta=1.0, sampler="gaussian", d_model=None
            ),
            "attnspec.papers.spectra",
            2,
        ),
        (
            lambda: full_spectrum_draw(0, n_tokens=40, d_qk=40, beta=1.0),
            "attnspec.papers.a.full_spectrum",
            3,
        ),
    ],
)
def test_single_draw_jobs_log_their_stages_with_seconds(run, logger, stages, caplog):
    with caplog.at_level(logging.INFO, logger=logger):
        run()
    logged = messages(caplog, logger)
    assert len(logged) == stages
    assert all(re.search(r" in \d+\.\d\d s$", message) for message in logged), logged
