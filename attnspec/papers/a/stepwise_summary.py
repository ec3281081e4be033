"""Figure A1's statistics (paper A, claim A.3): per model of the chain sqrt(ell) A_perp -> Y -> Y_f
-> Y_Q -> Y_Q^lin -> Y_lin, the pooled bulk's histogram, sorted values, distances and moments
against nu_inf (truncated like the data), and the rows of table A-T2.

Chain of models (papers.md section 6, A1; intermediate models reconstructed):
sqrt(ell) A_perp -> Y (row normaliser replaced by its mean) -> Y_f = f(S)/sqrt(ell)
-> Y_Q (rows N(0, Sigma_f/ell) given K) -> Y_Q^lin (rows N(0, Sigma_G/ell))
-> Y_f^lin = Y_lin = (beta S + sqrt(a) W)/sqrt(ell).
All models of one draw share Q and K (see :mod:`attnspec.papers.spectra`). Every spectrum
is the squared singular values of an ell x ell matrix on the sqrt(ell) scale (paper A scales by
sqrt(d); identical when ell = d).
"""

import logging
from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.distances import kolmogorov_distance, wasserstein1
from attnspec.models.gaussian_equivalent import STEPWISE_MODELS
from attnspec.papers.progress import Stopwatch
from attnspec.theory.nu_infinity import NuInfinity

LOG = logging.getLogger(__name__)


def bulk(spectrum: np.ndarray, n_removed: int) -> np.ndarray:
    """The spectrum (descending) with its ``n_removed`` largest values dropped."""
    return np.sort(spectrum)[::-1][n_removed:]


def truncated_moments(law, n_tokens: int, n_removed: int, nodes: int = 20000) -> tuple:
    """First two moments of ``law`` with its top n_removed/ell of mass cut, as in the data.

    The pooled bulk keeps the ell - r smallest of ell values, so its limit is the law below its
    quantile 1 - p, p = r/ell: m_k = (1/(1-p)) int_0^{1-p} Q(q)^k dq (midpoint rule in q).
    With r = 0 this is the plain m_1 = theta1, m_2 = 2 theta1^2 + beta^4 c (paper A, section 2).
    """
    keep = 1.0 - n_removed / n_tokens
    q = (np.arange(nodes) + 0.5) / nodes * keep
    values = law.quantile(q)
    return float(values.mean()), float(np.mean(values**2))


def summarise_stepwise(
    spectra: Mapping[str, Sequence[np.ndarray]],
    *,
    beta: float,
    ratio: float,
    n_removed: int,
    bins: int,
) -> dict:
    """Histograms, sorted spectra and distances of every model's pooled bulk.

    Returns a dict of arrays: ``edges`` (common bin edges), ``density/<model>`` (histogram,
    density-normalised), ``sorted/<model>`` (median over draws of the k-th largest bulk value),
    ``theory_x``/``theory_density`` (nu_inf), ``theory_sorted`` (nu_inf quantile at
    1 - (k + n_removed - 1/2)/ell), and per-model scalars ``ks_to_attention``, ``ks_to_nu_inf``,
    ``w1_to_nu_inf``, ``m1``, ``m2`` with their limits ``m1_theory`` and ``m2_theory``: the
    moments of nu_inf with the same top n_removed/ell of mass cut (:func:`truncated_moments`).
    """
    models = [m for m in STEPWISE_MODELS if m in spectra]
    if "attention" not in models:
        raise ValueError("the stepwise summary needs the 'attention' model as reference")
    clock = Stopwatch()
    law = NuInfinity(beta, ratio)
    pooled = {m: np.concatenate([bulk(s, n_removed) for s in spectra[m]]) for m in models}
    top = max(max(float(v.max()) for v in pooled.values()), law.edge) * 1.02
    edges = np.linspace(0.0, top, bins + 1)
    n_tokens = len(spectra["attention"][0])
    ranks = np.arange(1, n_tokens - n_removed + 1)
    theory_x = np.linspace(0.0, top, 800)[1:]
    m1_theory, m2_theory = truncated_moments(law, n_tokens, n_removed)
    summary = {
        "models": np.array(models),
        "edges": edges,
        "ranks": ranks,
        "theory_x": theory_x,
        "theory_density": law.density(theory_x),
        "theory_sorted": law.quantile(1.0 - (ranks + n_removed - 0.5) / n_tokens),
        "x_plus": np.float64(law.edge),
        "m1_theory": np.float64(m1_theory),
        "m2_theory": np.float64(m2_theory),
    }
    LOG.info("bulks pooled, nu_inf and its truncated moments in %.2f s", clock.lap())
    scalars = {key: [] for key in ("ks_to_attention", "ks_to_nu_inf", "w1_to_nu_inf", "m1", "m2")}
    for i, m in enumerate(models):
        summary[f"density/{m}"] = np.histogram(pooled[m], bins=edges, density=True)[0]
        draws = np.stack([bulk(s, n_removed) for s in spectra[m]])
        summary[f"sorted/{m}"] = np.median(draws, axis=0)
        scalars["ks_to_attention"].append(kolmogorov_distance(pooled[m], pooled["attention"]))
        scalars["ks_to_nu_inf"].append(kolmogorov_distance(pooled[m], law.cdf))
        scalars["w1_to_nu_inf"].append(wasserstein1(pooled[m], law.quantile))
        scalars["m1"].append(pooled[m].mean())
        scalars["m2"].append(np.mean(pooled[m] ** 2))
        LOG.info(
            "model %d of %d, %s (%d draws): KS to sqrt(ell) A_perp %.4f, KS to nu_inf %.4f, "
            "W1 to nu_inf %.4f, %.2f s",
            i + 1,
            len(models),
            m,
            len(spectra[m]),
            scalars["ks_to_attention"][-1],
            scalars["ks_to_nu_inf"][-1],
            scalars["w1_to_nu_inf"][-1],
            clock.lap(),
        )
    summary.update({key: np.array(values) for key, values in scalars.items()})
    LOG.info("%d models in %.2f s", len(models), clock.total())
    return summary


STEPWISE_TABLE_HEADER = (
    "model",
    "m1",
    "m1_theory",
    "m2",
    "m2_theory",
    "ks_to_nu_inf",
    "w1_to_nu_inf",
    "ks_to_attention",
)


def stepwise_table_rows(summary: dict) -> list[tuple]:
    """Rows of table A-T2 (one per model, in the order of figure A1) from a stepwise summary."""
    return [
        (
            str(model),
            float(summary["m1"][i]),
            float(summary["m1_theory"]),
            float(summary["m2"][i]),
            float(summary["m2_theory"]),
            float(summary["ks_to_nu_inf"][i]),
            float(summary["w1_to_nu_inf"][i]),
            float(summary["ks_to_attention"][i]),
        )
        for i, model in enumerate(summary["models"])
    ]
