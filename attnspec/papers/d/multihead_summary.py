"""Paper D's statistics from the multi-head draws (:mod:`attnspec.papers.d.multihead`): per-draw
distances and floors, theory curves, Student-t means over draws, and the rows of tables D-T1 and
D-T2 and figure D2's key numbers."""

from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from attnspec.intervals import student_t_interval
from attnspec.multihead.limit import closed_form_moments, limit_law, limit_mean
from attnspec.multihead.metrics import kolmogorov_to_law, per_draw_comparison
from attnspec.papers.d.declared_tests import D1_METRICS, floor_row, published_row
from attnspec.papers.d.multihead import MUTANT_PREFIX, SCHEME_LABELS, STAGES, heads_shape
from attnspec.papers.d.public_models import public_model

THEORY_POINTS = 400
W1_METRIC, KS_METRIC = "relative W1 (%)", "KS"


def mean_half_width(values) -> tuple[float, float]:
    """(mean, Student-t 95 % half-width) over draws; the half-width is NaN for one draw."""
    values = np.ravel(np.asarray(values, dtype=np.float64))
    if values.size < 2:
        return float(values.mean()), float("nan")
    interval = student_t_interval(values)
    return interval.mean, interval.half_width


def theory_curve(law, upper: float, points: int = THEORY_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """(x, density) of a law's continuous part on (0, upper], the support ends included."""
    x = np.linspace(0.0, upper, points + 1)[1:]
    ends = [e for interval in law.support() for e in interval if 0 < e <= upper]
    x = np.unique(np.concatenate([x, ends]))
    return x, law.density(x)


METRICS = tuple(metric for metric, _, _ in D1_METRICS)
"""The metrics of rows D.1 (w1, ks), the order of :func:`per_draw_comparison`'s results."""


class FloorComparison(NamedTuple):
    """One metric of a table D.2 configuration, per draw (relative W1 as a fraction of the
    limiting mean): softmax against its Gaussian equivalent (``distance``), that Gaussian
    equivalent against a second one with independent noise (``floor``), and softmax against
    each wrong Gaussian equivalent (``mutants``, by the registry's alternative name)."""

    distance: np.ndarray
    floor: np.ndarray
    mutants: dict[str, np.ndarray]


def floor_comparisons(record: Mapping, mean: float) -> dict[str, FloorComparison]:
    """:class:`FloorComparison` of each metric (:data:`METRICS`) from a public-model draw record
    (:func:`attnspec.papers.d.multihead.public_model_draws`); ``mean`` the limiting mean."""
    softmax, gaussian = record["softmax"], record["gaussian"]
    distance = per_draw_comparison(softmax, gaussian, mean)
    floor = per_draw_comparison(gaussian, record["floor"], mean)
    mutants = {
        key.removeprefix(MUTANT_PREFIX): per_draw_comparison(softmax, values, mean)
        for key, values in record.items()
        if key.startswith(MUTANT_PREFIX)
    }
    return {
        metric: FloorComparison(
            distance[i], floor[i], {name: pair[i] for name, pair in mutants.items()}
        )
        for i, metric in enumerate(METRICS)
    }


def law_distances(spectra, law) -> np.ndarray:
    """KS of each draw's eigenvalues (rows of ``spectra``) to ``law``."""
    return np.array([kolmogorov_to_law(row, law) for row in np.atleast_2d(spectra)])


# Figure D1 and table D-T1 ------------------------------------------------------------------
def public_model_metrics(model_id: str, record: Mapping, beta: float) -> dict:
    """Per draw of one table D.2 configuration, by metric (relative W1 in per cent, KS): the
    distance of softmax to its Gaussian equivalent and the floor (two Gaussian equivalents)."""
    mean = limit_mean(public_model(model_id).shape, beta)
    found = floor_comparisons(record, mean)
    return {
        label: (scale * found[metric].distance, scale * found[metric].floor)
        for metric, label, scale in ((METRICS[0], W1_METRIC, 100), (METRICS[1], KS_METRIC, 1))
    }


PUBLIC_TABLE_HEADER = (
    "model",
    "sharing",
    "n",
    "d = d_O",
    "h / h_KV",
    "d_K = d_V",
    "gamma_K",
    "gamma_O",
    "limiting mean",
    "draws",
    "rel. W1 (%)",
    "rel. W1 +-",
    "floor rel. W1 (%)",
    "floor rel. W1 +-",
    "published rel. W1 (%)",
    "published rel. W1 +-",
    "KS",
    "KS +-",
    "floor KS",
    "floor KS +-",
    "published KS",
    "published KS +-",
    "intervals overlap (W1, KS)",
    "verdict W1 against the published mean",
    "verdict KS against the published mean",
    "verdict W1 beyond the floor (beyond the paper)",
    "verdict KS beyond the floor (beyond the paper)",
)
"""Table D-T1's columns: the last four are the verdicts of rows D.1/<model>/published-<metric>
(paper D's own statement: our raw distance against the published mean) and D.1/<model>/<metric>
(beyond the paper: the distance minus the floor of two Gaussian equivalents, against 0)."""
NOT_JUDGED = "not judged (no registry row)"


def _overlap(mean, half, published) -> str:
    if not np.isfinite(half):
        return "n/a"
    low, high = mean - half, mean + half
    return (
        "yes"
        if low <= published[0] + published[1] and published[0] - published[1] <= high
        else "no"
    )


def public_model_table_rows(
    records: Mapping[str, Mapping], beta: float, verdicts: Mapping[str, str]
) -> list[tuple]:
    """Table D-T1: each configuration's dimensions, our relative W1 and KS and their floors
    (two Gaussian equivalents; mean and Student-t half-width) beside table D.2's raw values,
    whether our raw and the published intervals overlap, and the verdicts of its rows
    D.1/<model>/published-<metric> (the paper's statement) and D.1/<model>/<metric> (beyond the
    paper), W1 then KS each (``verdicts``: row id -> verdict label; :data:`NOT_JUDGED` for a
    configuration without rows)."""
    rows = []
    for model_id, record in records.items():
        model = public_model(model_id)
        shape = model.shape
        metrics = public_model_metrics(model_id, record, beta)
        cells, overlaps = [], []
        for metric, published in ((W1_METRIC, model.published_w1), (KS_METRIC, model.published_ks)):
            values, floor = metrics[metric]
            mean, half = mean_half_width(values)
            cells += [mean, half, *mean_half_width(floor), *published]
            overlaps.append(_overlap(mean, half, published))
        rows.append(
            (
                model.name,
                model.sharing,
                shape.n_tokens,
                shape.d_model,
                f"{shape.heads}/{shape.kv_heads}",
                shape.d_k,
                shape.gamma_k,
                shape.gamma_o,
                limit_mean(shape, beta),
                int(metrics[W1_METRIC][0].size),
                *cells,
                ", ".join(overlaps),
                *(
                    verdicts.get(row(model_id, m), NOT_JUDGED)
                    for row in (published_row, floor_row)
                    for m in METRICS
                ),
            )
        )
    return rows


# Figure D2 --------------------------------------------------------------------------------
SERIES_LABELS = {"softmax": "softmax", "gaussian": "Gaussian equivalent"}
HEADS_RANGE = 1.15
"""Figure D2 shows (0, HEADS_RANGE x the law's edge]."""


HEADS_KEY_HEADER = (
    "stage",
    "h",
    "gamma_K",
    "law edge",
    "KS softmax",
    "KS softmax +-",
    "KS Gaussian equivalent",
    "KS Gaussian equivalent +-",
    "eigenvalues beyond the shown range",
    "draws",
)


def heads_key_rows(records: Mapping[int, Mapping], settings: Mapping) -> list[tuple]:
    """Figure D2's key numbers per (stage, h): the KS of each draw's spectrum to the limit law
    (mean, Student-t half-width) for softmax and Gaussian equivalent, and how many eigenvalues
    (of all draws) lie beyond the figure's range HEADS_RANGE x edge."""
    rows = []
    for stage in STAGES:
        for heads, record in records.items():
            shape = heads_shape(
                stage, settings["n_tokens"], heads, settings["d_head"], settings["d_out"]
            )
            law = limit_law(shape, settings["beta"])
            cells = []
            beyond = 0
            for series in SERIES_LABELS:
                values = np.atleast_2d(record[f"{stage}/{series}"])
                cells += mean_half_width(law_distances(values, law))
                beyond += int(np.sum(values > HEADS_RANGE * law.edge))
            draws = np.atleast_2d(record[f"{stage}/softmax"]).shape[0]
            rows.append((stage, heads, shape.gamma_k, law.edge, *cells, beyond, draws))
    return rows


# Table D-T2 -------------------------------------------------------------------------------
MOMENTS_HEADER = (
    "figure",
    "configuration",
    "law",
    "moment",
    "closed form (paper D)",
    "series (attnspec)",
    "softmax",
    "softmax +-",
    "Gaussian equivalent",
    "Gaussian equivalent +-",
    "draws",
)
MOMENT_NAMES = ("m_1", "m_2 / m_1^2", "m_3 / m_1^3")


def _simulated_moments(spectra) -> np.ndarray:
    """(draws, 3): m_1 and m_q / m_1^q (q = 2, 3) of each draw's eigenvalues."""
    values = np.atleast_2d(spectra)
    m1 = values.mean(axis=1)
    return np.stack(
        [m1, (values**2).mean(axis=1) / m1**2, (values**3).mean(axis=1) / m1**3], axis=1
    )


def moment_rows(figure: str, configuration: str, shape, beta: float, record, prefix="") -> list:
    """Table D-T2 rows of one configuration: m_1, m_2 / m_1^2, m_3 / m_1^3 of its limit law in
    closed form (NaN where paper D gives none) and from the library's S-transform series,
    against the softmax and Gaussian-equivalent spectra (mean over draws, Student-t half-width)."""
    law = limit_law(shape, beta)
    series = [law.mean, *law.normalised_moments(3)[1:]]
    closed = closed_form_moments(shape, beta)
    name = (
        "K = V law (C.21)"
        if shape.tied
        else "untied law (C.10)"
        if shape.d_v is None
        else ("untied law (C.15)")
    )
    simulated = {
        key: _simulated_moments(record[f"{prefix}{key}"]) for key in ("softmax", "gaussian")
    }
    rows = []
    for q, moment in enumerate(MOMENT_NAMES):
        soft = mean_half_width(simulated["softmax"][:, q])
        gauss = mean_half_width(simulated["gaussian"][:, q])
        draws = simulated["softmax"].shape[0]
        rows.append(
            (figure, configuration, name, moment, closed[q], series[q], *soft, *gauss, draws)
        )
    return rows


def heads_moment_rows(records: Mapping[int, Mapping], settings: Mapping) -> list:
    """Table D-T2 rows of figure D2's configurations (each stage and h)."""
    rows = []
    for stage in STAGES:
        for heads, record in records.items():
            shape = heads_shape(
                stage, settings["n_tokens"], heads, settings["d_head"], settings["d_out"]
            )
            configuration = f"{stage}, h = {heads}, n = {shape.n_tokens}, d_K = {shape.d_k}" + (
                "" if stage == "attention" else f" = d_V, d_O = {shape.d_out}"
            )
            rows += moment_rows("D2", configuration, shape, settings["beta"], record, f"{stage}/")
    return rows


def sharing_moment_rows(records: Mapping[str, Mapping], shapes: Mapping, beta: float) -> list:
    """Table D-T2 rows of figure D3's schemes at the largest n (``records``/``shapes``: scheme ->
    draw record / layer shape)."""
    rows = []
    for scheme, record in records.items():
        shape = shapes[scheme]
        configuration = (
            f"{SCHEME_LABELS[scheme]}, h/h_KV = {shape.heads}/{shape.kv_heads}, n = "
            f"{shape.n_tokens}, d_K = d_V = {shape.d_k}, d_O = {shape.d_out}"
        )
        rows += moment_rows("D3", configuration, shape, beta, record)
    return rows
