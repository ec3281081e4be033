"""nu_inf against simulation (paper A): the bulk of sqrt(ell) A_perp at ell = 1000.

One draw per beta: the Kolmogorov distance of its ell - 1 non-trivial squared singular values to
nu_inf must be small in absolute terms (0.03: below the iid 1e-3 critical value 1.95/sqrt(999) =
0.062, and eigenvalues are more rigid than iid points) and several times smaller than the distance
to the Marchenko-Pastur surrogate, the law paper A refutes (so the test can tell the two apart).
"""

import pytest

from attnspec.distances import kolmogorov_distance
from attnspec.papers.spectra import model_spectrum
from attnspec.theory import MarchenkoPasturSurrogate, NuInfinity


@pytest.mark.parametrize("beta", [0.5, 1.0])
def test_attention_bulk_at_ell_1000_follows_nu_inf_not_mp(beta):
    spectrum = model_spectrum(
        "attention", 0, n_tokens=1000, d_qk=1000, beta=beta, sampler="gaussian", d_model=None
    )
    bulk = spectrum[:-1]  # A_perp u = 0: drop the structural zero
    to_nu_inf = kolmogorov_distance(bulk, NuInfinity(beta, 1.0).cdf)
    to_mp = kolmogorov_distance(bulk, MarchenkoPasturSurrogate(beta).cdf)
    assert to_nu_inf < 0.03
    assert to_nu_inf < to_mp / 3


@pytest.mark.parametrize("beta", [0.5, 1.0])
def test_linear_model_at_ell_1000_follows_nu_inf(beta):
    spectrum = model_spectrum(
        "linear", 0, n_tokens=1000, d_qk=1000, beta=beta, sampler="gaussian", d_model=None
    )
    # Y_lin is Gaussian: its eigenvalues sit within O(log(ell)/ell) of their classical locations,
    # so its distance to the limit is an order below the attention bulk's: 10/ell.
    assert kolmogorov_distance(spectrum, NuInfinity(beta, 1.0).cdf) < 10 / 1000
