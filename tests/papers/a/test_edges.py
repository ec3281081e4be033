"""Figure A4 computations: theory curves of the edge and the simulated top values of Y_lin."""

import numpy as np
import pytest

from attnspec.papers.a.edges_summary import (
    EDGE_TABLE_HEADER,
    edge_table_rows,
    edge_theory_curves,
    simulated_edges,
    tracy_widom_shift,
)
from attnspec.papers.spectra import model_spectrum
from attnspec.theory import bulk_edge
from attnspec.theory.r_transform import TRACY_WIDOM_1_MEAN


@pytest.fixture(scope="module")
def curves():
    return edge_theory_curves(0.05, 3.0, 40, n_tokens=1000)


def test_theory_curves_have_the_requested_grid(curves):
    assert curves["beta"][0] == 0.05 and curves["beta"][-1] == 3.0
    assert all(values.shape == (40,) for values in curves.values())


def test_edge_exceeds_the_surrogate_edge_and_the_ratio_falls_from_27_over_16(curves):
    ratio = curves["edge_ratio"]
    assert np.all(ratio > 1)
    assert ratio[0] == pytest.approx(27 / 16, rel=1e-2)
    assert np.all(np.diff(ratio) < 0)


def test_each_expansion_is_accurate_only_in_its_own_regime(curves):
    beta, x_plus = curves["beta"], curves["x_plus"]
    small_error = np.abs(curves["small_beta"] / x_plus - 1)
    large_error = np.abs(curves["large_beta"] / x_plus - 1)
    assert small_error[beta < 0.3].max() < 1e-4
    assert small_error[beta > 2.5].min() > 0.5
    assert large_error[beta > 2.5].max() < 1e-3
    assert large_error[beta < 0.3].min() > 0.5


def test_tracy_widom_expectation_sits_below_the_edge_by_the_mean_shift(curves):
    shift = np.array([tracy_widom_shift(beta, 1000) for beta in curves["beta"]])
    np.testing.assert_allclose(
        curves["x_plus"] - curves["tracy_widom_expectation"], -TRACY_WIDOM_1_MEAN * shift
    )
    assert np.all(shift > 0)
    assert tracy_widom_shift(1.0, 8000) == pytest.approx(tracy_widom_shift(1.0, 1000) / 4)


def test_simulated_edges_take_the_largest_value_of_each_draw():
    spectra = [
        [np.array([1.0, 5.0, 2.0]), np.array([4.0, 3.0])],
        [np.array([7.0]), np.array([9.0])],
    ]
    out = simulated_edges(spectra, [0.5, 1.0], n_tokens=100)
    np.testing.assert_array_equal(out["top"], [[5.0, 4.0], [7.0, 9.0]])
    np.testing.assert_array_equal(out["median"], [4.5, 8.0])
    np.testing.assert_array_equal(out["low"], [4.0, 7.0])
    np.testing.assert_array_equal(out["high"], [5.0, 9.0])
    assert out["x_plus"][1] == bulk_edge(1.0)
    rows = edge_table_rows(out)
    assert len(rows) == 2 and len(rows[0]) == len(EDGE_TABLE_HEADER)


def test_simulated_edges_reject_mismatched_betas():
    with pytest.raises(ValueError, match="betas"):
        simulated_edges([[np.ones(3)]], [0.5, 1.0], n_tokens=3)


def test_top_of_ylin_fluctuates_on_the_tracy_widom_scale():
    n_tokens, beta, draws = 100, 1.0, 32
    spectra = [
        [
            model_spectrum(
                "linear",
                draw,
                n_tokens=n_tokens,
                d_qk=n_tokens,
                beta=beta,
                sampler="gaussian",
                d_model=None,
            )
            for draw in range(draws)
        ]
    ]
    out = simulated_edges(spectra, [beta], n_tokens=n_tokens)
    units = (out["top"][0] - out["x_plus"][0]) / out["tracy_widom_shift"][0]
    # TW_1 has mean -1.2065 and standard deviation 1.2680: three standard errors each.
    assert abs(units.mean() - TRACY_WIDOM_1_MEAN) < 3 * 1.268 / np.sqrt(draws)
    assert abs(units.std(ddof=1) / 1.268 - 1) < 3 / np.sqrt(2 * (draws - 1))
