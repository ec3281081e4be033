"""Paper D's tidy tables of figures D1-D3 (pandas DataFrames, one row per plotted value; a ``kind``
column first, "data", "theory", "statistic" or "verdict", then ``series`` naming the row within its
kind), from the statistics of :mod:`attnspec.papers.d.multihead_summary`."""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.multihead.limit import limit_law
from attnspec.papers.d.declared_tests import TESTS
from attnspec.papers.d.multihead import SCHEME_LABELS, STAGES, heads_shape
from attnspec.papers.d.multihead_summary import (
    HEADS_RANGE,
    KS_METRIC,
    METRICS,
    SERIES_LABELS,
    W1_METRIC,
    law_distances,
    public_model_metrics,
    theory_curve,
)
from attnspec.papers.d.public_models import public_model
from attnspec.plotting.tidy import DATA, STATISTIC, THEORY, VERDICT, tidy_table

INDEPENDENT_LAW, TIED_LAW = "independent-head law", "tied law"


# Figure D1 and table D-T1 ------------------------------------------------------------------
INTEGER_COLUMNS = ("draw", "heads", "n")
"""Identifier columns written as integers (empty where a row has none)."""

PUBLIC_PLOTTED_COLUMNS = (
    "kind",
    "series",
    "model",
    "name",
    "metric",
    "draw",
    "value",
    "low",
    "high",
    "margin",
    "verdict",
)
OURS, FLOOR = "softmax against its Gaussian equivalent", "floor: two Gaussian equivalents"
"""Figure D1's data: per draw, softmax against its Gaussian equivalent (what rows
D.1/<model>/published-<metric> judge against the published means), and the finite-size floor
of the rows beyond the paper, D.1/<model>/<metric> (a Gaussian equivalent against a second one
with independent noise)."""
AGAINST_PUBLISHED, BEYOND_FLOOR = (
    "mean against the published mean (paper D's statement)",
    "mean beyond the floor (beyond the paper)",
)
"""Figure D1's judged rows (kind "verdict"): D.1/<model>/published-<metric>, our mean distance
minus table D.2's mean, and D.1/<model>/<metric>, our mean distance minus the floor's; each as
value - target with its 95 % interval, its margin and its headline verdict."""
PUBLISHED_MEAN, PUBLISHED_HALF_WIDTH = (
    "published mean (table D.2)",
    "published 95 % half-width (table D.2)",
)
"""Figure D1's statistics: the published mean and half-width of paper D's table D.2."""


def public_model_judged_blocks(judged: Sequence[Mapping]) -> list[dict]:
    """Figure D1's judged rows (kind "verdict") from the claims table's rows D.1/<model>/...:
    per configuration and metric, :data:`AGAINST_PUBLISHED` and :data:`BEYOND_FLOOR` as value -
    target, its interval and margin (relative W1 in per cent, KS as is) and the headline verdict
    class (:func:`attnspec.claims.dashboard.headline_class`)."""
    from attnspec.claims.dashboard import headline_class

    blocks = []
    for row in judged:
        _, model_id, test = row["row_id"].split("/")
        series, metric = (
            (AGAINST_PUBLISHED, test.removeprefix("published-"))
            if test.startswith("published-")
            else (BEYOND_FLOOR, test)
        )
        label, scale = {METRICS[0]: (W1_METRIC, 100.0), METRICS[1]: (KS_METRIC, 1.0)}[metric]
        target = float(row["target"])
        blocks.append(
            {"kind": VERDICT, "series": [series], "model": model_id,
             "name": public_model(model_id).name, "metric": label,
             "value": [scale * (float(row["value"]) - target)],
             "low": [scale * (float(row["interval_low"]) - target)],
             "high": [scale * (float(row["interval_high"]) - target)],
             "margin": [scale * float(row["margin"])], "verdict": [headline_class(row)]}
        )  # fmt: skip
    return blocks


def public_model_plotted_table(
    records: Mapping[str, Mapping], beta: float, judged: Sequence[Mapping] = ()
):
    """Figure D1's tidy table (:data:`PUBLIC_PLOTTED_COLUMNS`), per configuration (``model``,
    its display ``name``) and ``metric`` (relative W1 in per cent, KS): kind "data", each
    draw's distance of softmax to its Gaussian equivalent (series :data:`OURS`) and the floor
    (:data:`FLOOR`); kind "statistic", the published mean and 95 % half-width of paper D's
    table D.2 (no draw); kind "verdict", the judged rows D.1/<model>/... of ``judged`` (claims
    table rows; :func:`public_model_judged_blocks`). The dimensions of each configuration are
    in table D-T1."""
    blocks = []
    for model_id, record in records.items():
        model = public_model(model_id)
        key = {"model": model_id, "name": model.name}
        published = {W1_METRIC: model.published_w1, KS_METRIC: model.published_ks}
        for metric, (values, floor) in public_model_metrics(model_id, record, beta).items():
            for series, found in ((OURS, values), (FLOOR, floor)):
                found = np.asarray(found, dtype=np.float64)
                blocks.append(
                    {"kind": DATA, "series": series, **key, "metric": metric,
                     "draw": np.arange(found.size), "value": found}
                )  # fmt: skip
            blocks.append(
                {"kind": STATISTIC, "series": [PUBLISHED_MEAN, PUBLISHED_HALF_WIDTH], **key,
                 "metric": metric, "value": [float(v) for v in published[metric]]}
            )  # fmt: skip
    blocks += public_model_judged_blocks(judged)
    return tidy_table(blocks, PUBLIC_PLOTTED_COLUMNS, integers=INTEGER_COLUMNS)


# Figure D2 --------------------------------------------------------------------------------
HEADS_PLOTTED_COLUMNS = ("kind", "series", "stage", "heads", "draw", "eigenvalue", "density")
LIMIT_LAW = "limit law"


def heads_plotted_table(records: Mapping[int, Mapping], settings: Mapping):
    """Figure D2's tidy table (:data:`HEADS_PLOTTED_COLUMNS`) per (stage, h): kind "data",
    every eigenvalue of every draw (series softmax or Gaussian equivalent); kind "theory", the
    limit law's density (series :data:`LIMIT_LAW`, no draw) on (0, HEADS_RANGE x edge], the
    range the figure shows."""
    blocks = []
    for stage in STAGES:
        for heads, record in records.items():
            shape = heads_shape(
                stage, settings["n_tokens"], heads, settings["d_head"], settings["d_out"]
            )
            key = {"stage": stage, "heads": heads}
            for series, label in SERIES_LABELS.items():
                values = np.atleast_2d(np.asarray(record[f"{stage}/{series}"], dtype=np.float64))
                blocks.append(
                    {"kind": DATA, "series": label, **key,
                     "draw": np.repeat(np.arange(len(values)), values.shape[1]),
                     "eigenvalue": values.ravel()}
                )  # fmt: skip
            law = limit_law(shape, settings["beta"])
            x, density = theory_curve(law, HEADS_RANGE * law.edge)
            blocks.append(
                {"kind": THEORY, "series": LIMIT_LAW, **key, "eigenvalue": x, "density": density}
            )
    return tidy_table(blocks, HEADS_PLOTTED_COLUMNS, integers=INTEGER_COLUMNS)


# Figure D3 --------------------------------------------------------------------------------
SHARING_PLOTTED_COLUMNS = (
    "kind",
    "series",
    "scheme",
    "n",
    "draw",
    "eigenvalue",
    "density",
    "value",
)
SPECTRUM = "softmax spectrum"
D2_EXCESS, D2_MARGIN = "D.2 excess KS", "D.2 margin"
D3_DELTA, D3_THRESHOLD = "D.3 Delta", "D.3 threshold"


def distance_series(law_name: str) -> str:
    """Figure D3's series of the KS distances of the softmax spectra to a law."""
    return f"KS to the {law_name}"


def sharing_plotted_table(spectra: Mapping[str, Mapping[int, np.ndarray]], laws):
    """Figure D3's tidy table (:data:`SHARING_PLOTTED_COLUMNS`; scheme labels of
    :data:`SCHEME_LABELS`):
    - data, series :data:`SPECTRUM`: each softmax eigenvalue of each draw at the largest n,
      per scheme;
    - theory: the densities of the independent-head and tied laws (series
      :data:`INDEPENDENT_LAW`, :data:`TIED_LAW`; eigenvalue, density);
    - data, series "KS to the <law>": per (scheme, n, draw) the KS of the softmax spectrum to
      the independent-head law, and for K = V also to the tied law (value);
    - statistic: per (n, draw) the statistics of rows D.2 (:data:`D2_EXCESS`, the scheme's KS
      minus the mean independent-head KS at n) and D.3 (:data:`D3_DELTA`);
    - theory: the rows' pass thresholds (no scheme, n or draw), set by the distance between the
      two laws: +- margin x law distance for D.2 (:data:`D2_MARGIN`, two rows), margin x law
      distance for D.3 (:data:`D3_THRESHOLD`) (attnspec.papers.d.declared_tests).
    ``laws``: :func:`attnspec.papers.d.multihead_evidence.sharing_laws`."""
    independent_law, tied_law, law_distance = laws.independent, laws.tied, laws.distance
    sizes = sorted(spectra["independent"])
    largest = sizes[-1]
    blocks = []
    for scheme, by_n in spectra.items():
        values = np.atleast_2d(np.asarray(by_n[largest], dtype=np.float64))
        blocks.append(
            {"kind": DATA, "series": SPECTRUM, "scheme": SCHEME_LABELS[scheme], "n": largest,
             "draw": np.repeat(np.arange(len(values)), values.shape[1]),
             "eigenvalue": values.ravel()}
        )  # fmt: skip
    top = max(float(np.max(spectra[s][largest])) for s in spectra)
    for law, name in ((independent_law, INDEPENDENT_LAW), (tied_law, TIED_LAW)):
        x, density = theory_curve(law, 1.05 * max(top, independent_law.edge, tied_law.edge))
        blocks.append({"kind": THEORY, "series": name, "eigenvalue": x, "density": density})
    distances = {}
    for scheme, by_n in spectra.items():
        to = [(independent_law, INDEPENDENT_LAW)]
        if scheme == "tied":
            to.append((tied_law, TIED_LAW))
        for law, name in to:
            for n in sizes:
                values = law_distances(by_n[n], law)
                distances[scheme, name, n] = values
                blocks.append(
                    {"kind": DATA, "series": distance_series(name),
                     "scheme": SCHEME_LABELS[scheme], "n": n, "draw": np.arange(values.size),
                     "value": values}
                )  # fmt: skip
    for n in sizes:
        floor = distances["independent", INDEPENDENT_LAW, n].mean()
        statistics = [
            (D2_EXCESS, scheme, distances[scheme, INDEPENDENT_LAW, n] - floor)
            for scheme in ("mqa", "gqa")
        ]
        if "tied" in spectra:
            delta = distances["tied", INDEPENDENT_LAW, n] - distances["tied", TIED_LAW, n]
            statistics.append((D3_DELTA, "tied", delta))
        blocks += [
            {"kind": STATISTIC, "series": series, "scheme": SCHEME_LABELS[scheme], "n": n,
             "draw": np.arange(values.size), "value": values}
            for series, scheme, values in statistics
        ]  # fmt: skip
    margins = {test.row_id: test.margin for test in TESTS}
    d2 = margins["D.2/mqa"] * law_distance
    d3 = margins["D.3/tied"] * law_distance
    blocks.append(
        {"kind": THEORY, "series": [D2_MARGIN, D2_MARGIN, D3_THRESHOLD], "value": [d2, -d2, d3]}
    )
    return tidy_table(blocks, SHARING_PLOTTED_COLUMNS, integers=INTEGER_COLUMNS)
