"""attnspec.theory.law.LimitLaw: every limit law of the library has the same verbs and
attributes, and they agree with each other (cdf, quantile, support, edge, atom)."""

import numpy as np
import pytest

from attnspec.multihead import MultiHeadLaw, TiedKeyValueLaw
from attnspec.theory import (
    LimitLaw,
    MarchenkoPasturSurrogate,
    NuInfinity,
    SymmetrisedLinearModel,
    population_law,
)
from attnspec.theory.marchenko_pastur import MarchenkoPastur

# (build, documented atom)
LAWS = {
    "nu_inf": (lambda: NuInfinity(1.0, 1.0), 0.0),
    "nu_inf with a gap": (lambda: NuInfinity(0.5, 10.0), 0.0),
    "R-transform model": (lambda: SymmetrisedLinearModel(1.0, 2.0), 0.0),
    "R-transform model with a gap": (lambda: SymmetrisedLinearModel(0.5, 10.0), 0.0),
    "MP_c, c < 1": (lambda: MarchenkoPastur(0.5, scale=2.0), 0.0),
    "MP_c, c > 1, shifted": (lambda: MarchenkoPastur(4.0, scale=1.5, shift=0.5), 0.75),
    "MP surrogate": (lambda: MarchenkoPasturSurrogate(1.0), 0.0),
    "population law": (lambda: population_law(1.0, 2.0), 0.5),
    "multi-head": (lambda: MultiHeadLaw(1.0, 4, 2.0), 0.0),
    "multi-head with values": (lambda: MultiHeadLaw(1.0, 4, 2.0, 0.5), 0.5),
    "tied keys and values": (lambda: TiedKeyValueLaw(1.0, 4, 0.5), 0.5),
}
WITHOUT_STIELTJES = (NuInfinity, SymmetrisedLinearModel, MultiHeadLaw, TiedKeyValueLaw)


@pytest.fixture(scope="module", params=sorted(LAWS))
def law_and_atom(request):
    build, atom = LAWS[request.param]
    return build(), atom


def test_every_law_is_a_limit_law_with_the_verbs_and_attributes(law_and_atom):
    law, atom = law_and_atom
    assert isinstance(law, LimitLaw)
    for verb in ("density", "cdf", "quantile", "support", "stieltjes"):
        assert callable(getattr(law, verb))
    for name in ("edge", "atom", "mean", "second_moment"):
        assert np.isfinite(getattr(law, name))
    assert law.atom == atom
    assert law.mean**2 < law.second_moment


def test_the_support_ends_at_the_edge_and_carries_what_the_atom_leaves(law_and_atom):
    law, _ = law_and_atom
    support = law.support()
    assert support[-1][1] == law.edge
    masses = [float(law.cdf(high) - law.cdf(low)) for low, high in support]
    assert law.atom + sum(masses) == pytest.approx(1.0, abs=1e-10)
    assert float(law.cdf(law.edge)) == pytest.approx(1.0, abs=1e-10)
    gaps = [(high, low) for (_, high), (low, _) in zip(support, support[1:], strict=False)]
    for high, low in gaps:
        assert float(law.density(0.5 * (high + low))) == 0.0


def test_quantile_inverts_the_cdf_on_the_support(law_and_atom):
    law, _ = law_and_atom
    shares = (0.3, 0.7)
    x = np.array([low + share * (high - low) for low, high in law.support() for share in shares])
    assert np.allclose(law.quantile(law.cdf(x)), x, rtol=1e-8, atol=0.0)


def test_stieltjes_is_closed_form_or_refused_by_name(law_and_atom):
    law, _ = law_and_atom
    if isinstance(law, WITHOUT_STIELTJES):
        with pytest.raises(NotImplementedError, match=f"^{type(law).__name__} has no Stieltjes"):
            law.stieltjes(1j)
    else:
        far = 10.0 * law.edge + 1.0
        assert law.stieltjes(far).real == pytest.approx(1.0 / far, rel=0.1)


def test_the_base_class_is_abstract():
    with pytest.raises(TypeError, match="abstract"):
        LimitLaw()
