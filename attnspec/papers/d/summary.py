"""Paper D's figure and table rows from the simulated spectra: the tidy tables figures D1-D3 are
drawn from (pandas DataFrames, one row per observation, theory curves included; a ``kind``
column first, "data", "theory" or "statistic", then ``series`` naming the row within its kind)
and the rows of tables D-T1 and D-T2. Pure: the scripts read the draws and write the tables.

Draw records are those of :mod:`attnspec.papers.d.multihead` (arrays of shape (draws, n)). Means
over draws come with Student-t 95 % half-widths (paper D's convention, appendix D); one draw
has none (NaN).
"""

from collections.abc import Mapping, Sequence

import numpy as np

from attnspec.intervals import student_t_interval
from attnspec.multihead.limit import closed_form_moments, limit_law, limit_mean
from attnspec.papers.d.declared_tests import TESTS, floor_row, published_row
from attnspec.papers.d.evidence import METRICS, floor_comparisons, law_distances
from attnspec.papers.d.multihead import SCHEME_LABELS, STAGES, heads_shape
from attnspec.papers.d.public_models import public_model
from attnspec.plotting.tidy import DATA, STATISTIC, THEORY, VERDICT, tidy_table

THEORY_POINTS = 400
W1_METRIC, KS_METRIC = "relative W1 (%)", "KS"
INDEPENDENT_LAW, TIED_LAW = "independent-head law", "tied law"


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


def public_model_metrics(model_id: str, record: Mapping, beta: float) -> dict:
    """Per draw of one table D.2 configuration, by metric (relative W1 in per cent, KS): the
    distance of softmax to its Gaussian equivalent and the floor (two Gaussian equivalents)."""
    mean = limit_mean(public_model(model_id).shape, beta)
    found = floor_comparisons(record, mean)
    return {
        label: (scale * found[metric].distance, scale * found[metric].floor)
        for metric, label, scale in ((METRICS[0], W1_METRIC, 100), (METRICS[1], KS_METRIC, 1))
    }


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
HEADS_PLOTTED_COLUMNS = ("kind", "series", "stage", "heads", "draw", "eigenvalue", "density")
SERIES_LABELS = {"softmax": "softmax", "gaussian": "Gaussian equivalent"}
LIMIT_LAW = "limit law"
HEADS_RANGE = 1.15
"""Figure D2 shows (0, HEADS_RANGE x the law's edge]."""


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
    ``laws``: :func:`attnspec.papers.d.evidence.sharing_laws`."""
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


# Captions: key numbers and what the data show -------------------------------------------------
def public_model_findings(records: Mapping[str, Mapping], beta: float) -> str:
    """Figure D1's "what the data show" paragraph: the range of the mean relative W1, its floor,
    and how many Student-t intervals overlap the published ones."""
    means, floors, overlaps, total = [], [], 0, 0
    for model_id, record in records.items():
        model = public_model(model_id)
        metrics = public_model_metrics(model_id, record, beta)
        for metric, published in ((W1_METRIC, model.published_w1), (KS_METRIC, model.published_ks)):
            mean, half = mean_half_width(metrics[metric][0])
            if np.isfinite(half):
                total += 1
                overlaps += _overlap(mean, half, published) == "yes"
        means.append((mean_half_width(metrics[W1_METRIC][0])[0], model.name))
        floors.append((mean_half_width(metrics[W1_METRIC][1])[0], model.name))
    low, high = min(means), max(means)
    text = (
        f"\n\n**What the data show.** The mean relative W1 ranges from {low[0]:.2f} % "
        f"({low[1]}) to {high[0]:.2f} % ({high[1]}); paper D reports 0.24 % to 2.82 % for its "
        f"seven configurations. Two Gaussian equivalents of the same weights (the floor of the "
        f"rows beyond the paper, D.1/<model>/w1 and ks) are {min(floors)[0]:.2f} % "
        f"({min(floors)[1]}) to {max(floors)[0]:.2f} % ({max(floors)[1]}) apart."
    )
    if total:
        text += (
            f" {overlaps} of {total} Student-t 95 % intervals (relative W1 and KS) overlap the "
            "published ones (different random draws: agreement within the intervals is what "
            "can be expected)."
        )
    else:
        text += " With one draw per configuration there are no intervals (CI preset)."
    return text + "\n\n"


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


def sharing_findings(spectra: Mapping[str, Mapping[int, np.ndarray]], laws) -> str:
    """Figure D3's "what the data show" paragraph: the mean KS to the laws at the largest n."""
    largest = max(spectra["independent"])
    parts = []
    for scheme in spectra:
        distance = law_distances(spectra[scheme][largest], laws.independent).mean()
        parts.append(f"{SCHEME_LABELS[scheme]} {distance:.4f}")
    own = law_distances(spectra["tied"][largest], laws.tied).mean() if "tied" in spectra else None
    text = (
        f"\n\n**What the data show.** At n = {largest} the mean KS of the softmax spectrum to "
        f"the independent-head law is {', '.join(parts)}"
    )
    if own is not None:
        text += f"; the K = V spectrum is at {own:.4f} from its own (tied) law"
    return text + (f". The two laws are {laws.distance:.4f} apart in KS ({laws.description}).\n\n")
