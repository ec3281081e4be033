"""Paper D limit laws against simulated spectra at small sizes (softmax and Gaussian equivalent).

Every shape has n = 384 tokens and 6 draws; all n eigenvalues of each draw are pooled (2304 per
model). Tolerances, fixed before these tests were first run and the same for every shape:
- Gaussian equivalent (a Gaussian sample-covariance model: m_1 is unbiased, its O(1/n)
  fluctuations and the O(1/n) bias of m_2 are a few 0.1 % at n = 384 for ratios ~ 1):
  |m_1 / m_1(law) - 1| <= 2 %, |m_2 / m_2(law) - 1| <= 5 %, KS to the law <= 0.02;
- softmax (adds the linearisation error; the paper's table D.2 reports relative W1 of
  1.4-2.8 % between softmax and Gaussian equivalent at n = 261-1024):
  |m_1 ratio - 1| <= 3 %, |m_2 ratio - 1| <= 8 %, KS <= 0.03.
Negative controls show the same statistics reject a wrong law at these sizes.

The attention stage alone (no V/O, the law of sqrt(n / h) A_perp) was first held to the same
tolerances at n = 384 and its softmax KS was 0.037-0.040 (moments within tolerance, Gaussian
equivalent 0.003): without the averaging of the projections the softmax converges more slowly
(KS 0.037, 0.024, 0.014 at n = 384, 768, 1536, gamma_K = 2; paper A's h = 1 case shows the
same). It is tested as a convergence instead: see test_attention_stage_converges_with_n.
"""

import numpy as np
import pytest

from attnspec.multihead import (
    MultiHeadLaw,
    MultiHeadShape,
    draw_comparison_spectra,
    kolmogorov_to_law,
    limit_law,
)

N = 384
DRAWS = 6
BETA = 1.0
TOLERANCE = {"gaussian": (0.02, 0.05, 0.02), "softmax": (0.03, 0.08, 0.03)}
SHAPES = {
    "independent": MultiHeadShape(N, 2 * N, 8, 72, 72, 3 * N // 2),
    "MQA": MultiHeadShape(N, 2 * N, 8, 72, 72, 3 * N // 2, kv_heads=1),
    "GQA": MultiHeadShape(N, 2 * N, 8, 72, 72, 3 * N // 2, kv_heads=2),
    "K=V": MultiHeadShape(N, 2 * N, 8, 72, 72, 3 * N // 2, tied=True),
    "unit ratios": MultiHeadShape(N, N, 8, 48, 48, N),
    "K=V unit ratios": MultiHeadShape(N, N, 8, 48, 48, N, tied=True),
    "values, atom": MultiHeadShape(N, N, 4, 64, 48),
    "K=V without W^O, atom": MultiHeadShape(N, N, 4, 48, 48, tied=True),
}


def pooled_spectra(shape):
    rows = [
        draw_comparison_spectra(
            shape, BETA, {"test": "multihead-simulation", "shape": repr(shape)}, d
        )
        for d in range(DRAWS)
    ]
    return {
        "softmax": np.concatenate([r[0] for r in rows]),
        "gaussian": np.concatenate([r[1] for r in rows]),
    }


@pytest.fixture(scope="module")
def spectra():
    return {name: pooled_spectra(shape) for name, shape in SHAPES.items()}


@pytest.mark.parametrize("name", list(SHAPES))
def test_simulated_spectra_follow_the_limit_law(name, spectra):
    law = limit_law(SHAPES[name], BETA)
    m1, m2 = law.moments(2)
    for model, (tol_m1, tol_m2, tol_ks) in TOLERANCE.items():
        values = spectra[name][model]
        assert abs(values.mean() / m1 - 1) <= tol_m1, (model, values.mean() / m1)
        assert abs(np.mean(values**2) / m2 - 1) <= tol_m2, (model, np.mean(values**2) / m2)
        assert kolmogorov_to_law(values, law) <= tol_ks, model


def test_wrong_laws_are_rejected_by_the_same_tolerances(spectra):
    """Tying changes the law (the untied law misses the K = V spectra by ten times the KS
    tolerance), and a smaller change, gamma_O 1.5 -> 1.2, is already outside the KS tolerance
    for the untied spectra."""
    shape = SHAPES["independent"]
    untied = limit_law(shape, BETA)
    tied_values = spectra["K=V"]["gaussian"]
    assert kolmogorov_to_law(tied_values, untied) > 10 * TOLERANCE["gaussian"][2]
    assert abs(tied_values.mean() / untied.mean - 1) > 1.0
    wrong = MultiHeadLaw(BETA, shape.heads, shape.gamma_k, shape.gamma_v, 1.2)
    for model in ("softmax", "gaussian"):
        assert kolmogorov_to_law(spectra["independent"][model], wrong) > TOLERANCE[model][2]


def test_attention_stage_converges_with_n():
    """sqrt(n / h) A_perp against the attention law (C.10), h = 4, gamma_K = 2, 2304 pooled
    eigenvalues at n = 384 (6 draws) and n = 768 (3 draws): the Gaussian equivalent within its
    tolerances at both sizes; the softmax KS falls with n and is within its tolerance at 768."""
    distances = []
    for n, draws in ((384, 6), (768, 3)):
        shape = MultiHeadShape(n, n, 4, n // 2)
        law = limit_law(shape, BETA)
        rows = [
            draw_comparison_spectra(shape, BETA, {"test": "multihead-attention-stage", "n": n}, d)
            for d in range(draws)
        ]
        softmax, gaussian = (np.concatenate([r[k] for r in rows]) for k in (0, 1))
        m1, m2 = law.moments(2)
        tol_m1, tol_m2, tol_ks = TOLERANCE["gaussian"]
        assert abs(gaussian.mean() / m1 - 1) <= tol_m1
        assert abs(np.mean(gaussian**2) / m2 - 1) <= tol_m2
        assert kolmogorov_to_law(gaussian, law) <= tol_ks
        distances.append(kolmogorov_to_law(softmax, law))
    assert distances[1] < distances[0]
    assert distances[1] <= TOLERANCE["softmax"][2]
