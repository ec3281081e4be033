"""Figure D4's draws (paper D's figure D.1): every panel's conditions, the independent and tied
conditions of panel c coupled as the paper couples them (the same Q_r, K_r, W^O and noise W_r),
checked against a direct computation of MHA_perp and MHA^G; seeds from the parameters; the
settings' checks; the distinct laws of a panel."""

import numpy as np
import pytest

from attnspec.multihead.limit import limit_law
from attnspec.multihead.sampling import sample_weights
from attnspec.papers.d.design_choices import (
    check_figure_d1_settings,
    panel_conditions,
    panel_draw,
    panel_draws,
    panel_peak_mb,
    tied_weights,
)
from attnspec.papers.d.design_choices_summary import design_choices_key_rows, distinct_laws
from attnspec.seeding import rng_for

SETTINGS = {
    "n_tokens": 24,
    "beta": 1.0,
    "head_counts": [2, 4],
    "total_width": 48,
    "heads": 3,
    "d_head": 16,
    "output_widths": [96, 24],
    "sharing_output_width": 48,
    "draws": 2,
    "histogram_bins": 10,
}


def direct_spectra(weights, params, draw, beta=1.0):
    """All n eigenvalues of MHA_perp MHA_perp^T and n^-1 MHA^G MHA^G^T written out from paper
    D's (2.1), (3.1)-(3.3): per head the softmax of beta S_r, S_r = Q_r K_r^T / sqrt(d_K), minus
    1 1^T / n, and Y_r^G = (beta S_r + sqrt(e^{beta^2} - 1 - beta^2) W_r) / sqrt(n) with W_r the
    next n x n block of the draw's "noise" stream."""
    shape = weights.shape
    n = shape.n_tokens
    noise = rng_for(params, draw, "noise")
    softmax_blocks, gaussian_blocks = [], []
    for head in range(shape.heads):
        Q, K, V = weights.query(head), weights.key(head), weights.value(head)
        S = Q @ K.T / np.sqrt(shape.d_k)
        E = np.exp(beta * S - (beta * S).max(axis=1, keepdims=True))
        A = E / E.sum(axis=1, keepdims=True) - 1.0 / n
        W = noise.standard_normal((n, n))
        Y = (beta * S + np.sqrt(np.exp(beta**2) - 1 - beta**2) * W) / np.sqrt(n)
        if V is None:
            softmax_blocks.append(np.sqrt(n / shape.heads) * A)
            gaussian_blocks.append(np.sqrt(n / shape.heads) * Y)
        else:
            softmax_blocks.append(A @ V)
            gaussian_blocks.append(Y @ V)
    spectra = []
    for blocks, scale in ((softmax_blocks, 1.0), (gaussian_blocks, 1.0 / n)):
        M = np.hstack(blocks)
        if weights.output is not None:
            M = M @ weights.output
        spectra.append(np.sort(np.linalg.eigvalsh(scale * M @ M.T))[::-1])
    return spectra


@pytest.mark.parametrize("panel", ["a", "b", "c"])
def test_each_condition_is_the_direct_computation_of_its_seeded_draw(panel):
    record = panel_draw(panel, SETTINGS, 1)
    conditions = panel_conditions(panel, SETTINGS)
    assert list(record) == [f"{c.name}/{s}" for c in conditions for s in ("softmax", "gaussian")]
    for condition in conditions:
        independent = condition.shape.tied and next(
            c for c in conditions if c.name == "independent"
        )
        weights = (
            tied_weights(sample_weights(independent.shape, independent.params, 1))
            if condition.shape.tied
            else sample_weights(condition.shape, condition.params, 1)
        )
        softmax, gaussian = direct_spectra(weights, condition.params, 1)
        np.testing.assert_allclose(record[f"{condition.name}/softmax"], softmax, atol=1e-10)
        np.testing.assert_allclose(record[f"{condition.name}/gaussian"], gaussian, atol=1e-10)


def test_the_independent_and_tied_conditions_share_queries_keys_output_and_noise():
    independent, shared, tied = panel_conditions("c", SETTINGS)
    assert independent.params == tied.params != shared.params
    weights = sample_weights(independent.shape, independent.params, 0)
    coupled = tied_weights(weights)
    # the tied sampler with the same seeds draws the same arrays: V_r = K_r, the rest unchanged
    sampled = sample_weights(tied.shape, tied.params, 0)
    for name in ("queries", "keys", "values", "output"):
        np.testing.assert_array_equal(getattr(coupled, name), getattr(sampled, name))
    assert coupled.shape == tied.shape and coupled.values is coupled.keys
    assert coupled.queries is weights.queries and coupled.output is weights.output
    # the shared condition has one K/V pair and streams of its own
    other = sample_weights(shared.shape, shared.params, 0)
    assert other.keys.shape[0] == 1 and not np.allclose(other.queries, weights.queries)


def test_a_batch_equals_its_draws_and_the_seeds_follow_the_parameters():
    batch = panel_draws("c", SETTINGS, 2)
    for d in range(2):
        one = panel_draw("c", SETTINGS, d)
        for key, values in one.items():
            np.testing.assert_array_equal(batch[key][d], values)
    moved = panel_draw("c", {**SETTINGS, "beta": 0.5}, 0)
    assert not np.allclose(moved["independent/gaussian"], batch["independent/gaussian"][0])
    replicate = panel_draw("c", SETTINGS, 0, replicate=1)
    assert not np.allclose(replicate["tied/softmax"], batch["tied/softmax"][0])


def test_panel_a_keeps_the_total_width_and_the_settings_are_checked():
    widths = [(c.shape.heads, c.shape.d_k) for c in panel_conditions("a", SETTINGS)]
    assert widths == [(2, 24), (4, 12)]
    check_figure_d1_settings(SETTINGS)
    with pytest.raises(ValueError, match="paperD.figure_d1.total_width"):
        check_figure_d1_settings({**SETTINGS, "total_width": 50})
    with pytest.raises(ValueError, match="paperD.figure_d1.sharing_output_width"):
        check_figure_d1_settings({**SETTINGS, "sharing_output_width": 24})
    with pytest.raises(ValueError, match="panel must be one of"):
        panel_conditions("d", SETTINGS)


def test_panel_c_has_two_distinct_laws_and_the_key_rows_name_them():
    laws = distinct_laws("c", SETTINGS)
    assert list(laws) == ["independent", "tied"]
    shared = panel_conditions("c", SETTINGS)[1].shape
    assert limit_law(shared, 1.0).mean == laws["independent"].mean
    assert (
        laws["tied"].mean > laws["independent"].mean
    )  # (C.21): gamma_O (theta1 + h theta2 / gamma_K)
    records = {panel: panel_draws(panel, SETTINGS, 2) for panel in ("a", "b", "c")}
    found = {(row[0], row[1]): row[7] for row in design_choices_key_rows(records, SETTINGS)}
    assert found[("c", "K = V")] == "(C.21)" and found[("c", "MQA")] == "(C.15)"
    assert found[("a", "h = 2")] == "(C.9)"


def test_the_memory_of_a_panel_grows_with_its_draws():
    assert panel_peak_mb("c", SETTINGS, 10**5) > panel_peak_mb("c", SETTINGS, 1) > 150
