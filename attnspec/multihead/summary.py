"""Paper D's figure and table rows from the simulated spectra: the tidy tables figures D1-D3 are
drawn from (one row per observation, theory curves included) and the rows of tables D-T1 and
D-T2. Pure: the scripts read the draws and write the rows.

Draw records are those of :mod:`attnspec.multihead.draws` (arrays of shape (draws, n)). Means
over draws come with Student-t 95 % half-widths (paper D's convention, appendix D); one draw
has none (NaN).
"""

from collections.abc import Mapping

import numpy as np

from attnspec.multihead.draws import SCHEME_LABELS, STAGES, heads_shape
from attnspec.multihead.evidence import (
    METRICS,
    floor_comparisons,
    law_distances,
    public_model_row,
)
from attnspec.multihead.limit import closed_form_moments, limit_law, limit_mean
from attnspec.multihead.metrics import student_t_interval
from attnspec.multihead.public_models import public_model
from attnspec.registry import TESTS

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
PUBLIC_PLOTTED_HEADER = (
    "model",
    "name",
    "sharing",
    "n_tokens",
    "metric",
    "source",
    "draw",
    "value",
    "half_width",
)
OURS, FLOOR, PUBLISHED = (
    "attnspec",
    "attnspec: two Gaussian equivalents (floor)",
    "paper D, table D.2",
)
"""Sources of figure D1's rows: softmax against its Gaussian equivalent, the finite-size floor
of rows D.1 (a Gaussian equivalent against a second one with independent noise), the paper."""


def public_model_metrics(model_id: str, record: Mapping, beta: float) -> dict:
    """Per draw of one table D.2 configuration, by metric (relative W1 in per cent, KS): the
    distance of softmax to its Gaussian equivalent and the floor (two Gaussian equivalents)."""
    mean = limit_mean(public_model(model_id).shape, beta)
    found = floor_comparisons(record, mean)
    return {
        label: (scale * found[metric].distance, scale * found[metric].floor)
        for metric, label, scale in ((METRICS[0], W1_METRIC, 100), (METRICS[1], KS_METRIC, 1))
    }


def public_model_plotted_rows(records: Mapping[str, Mapping], beta: float) -> list[tuple]:
    """Figure D1's tidy rows: each draw's relative W1 (%) and KS (source attnspec), the floor
    of each draw (source :data:`FLOOR`) and the published mean with its half-width (source
    "paper D, table D.2", no draw)."""
    rows = []
    for model_id, record in records.items():
        model = public_model(model_id)
        key = (model_id, model.name, model.sharing, model.n_tokens)
        published = {W1_METRIC: model.published_w1, KS_METRIC: model.published_ks}
        for metric, (values, floor) in public_model_metrics(model_id, record, beta).items():
            rows += [(*key, metric, OURS, d, float(v), "") for d, v in enumerate(values)]
            rows += [(*key, metric, FLOOR, d, float(v), "") for d, v in enumerate(floor)]
            rows.append((*key, metric, PUBLISHED, "", *published[metric]))
    return rows


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
    "verdict W1",
    "verdict KS",
)


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
    D.1/<model>/w1 and D.1/<model>/ks (``verdicts``: row id -> verdict label; "not judged" if
    it has no row)."""
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
                    verdicts.get(public_model_row(model_id, m), "not judged (no registry row)")
                    for m in METRICS
                ),
            )
        )
    return rows


# Figure D2 --------------------------------------------------------------------------------
HEADS_PLOTTED_HEADER = ("stage", "heads", "series", "draw", "x", "y")
SERIES_LABELS = {"softmax": "softmax", "gaussian": "Gaussian equivalent"}
HEADS_RANGE = 1.15
"""Figure D2 shows (0, HEADS_RANGE x the law's edge]."""


def heads_plotted_rows(records: Mapping[int, Mapping], settings: Mapping) -> list[tuple]:
    """Figure D2's tidy rows per (stage, h): every eigenvalue of every draw (series softmax or
    Gaussian equivalent, x = eigenvalue, no y) and the limit law's density (series theory, no
    draw) on (0, HEADS_RANGE x edge], the range the figure shows."""
    rows = []
    for stage in STAGES:
        for heads, record in records.items():
            shape = heads_shape(
                stage, settings["n_tokens"], heads, settings["d_head"], settings["d_out"]
            )
            for series, label in SERIES_LABELS.items():
                values = np.atleast_2d(record[f"{stage}/{series}"])
                for draw, spectrum in enumerate(values):
                    rows += [(stage, heads, label, draw, float(v), "") for v in spectrum]
            law = limit_law(shape, settings["beta"])
            x, density = theory_curve(law, HEADS_RANGE * law.edge)
            rows += [
                (stage, heads, "theory", "", float(a), float(b))
                for a, b in zip(x, density, strict=True)
            ]
    return rows


# Figure D3 --------------------------------------------------------------------------------
SHARING_PLOTTED_HEADER = ("panel", "scheme", "series", "n", "draw", "x", "y")


def sharing_plotted_rows(spectra: Mapping[str, Mapping[int, np.ndarray]], laws) -> list[tuple]:
    """Figure D3's tidy rows (scheme labels of :data:`SCHEME_LABELS`):
    - panel "spectrum": each softmax eigenvalue of each draw at the largest n (x), per scheme;
    - panel "law": the densities of the independent-head and tied laws (x, y);
    - panel "distance": per (scheme, n, draw) the KS of the softmax spectrum to the
      independent-head law, and for K = V also to the tied law (y);
    - panel "judged": per (n, draw) the statistics of rows D.2 (the scheme's KS minus the mean
      independent-head KS at n) and D.3 (Delta), and the rows' pass thresholds (no draw):
      +- margin x law distance for D.2, margin x law distance for D.3 (attnspec.registry).
    ``laws``: :func:`attnspec.multihead.evidence.sharing_laws`."""
    independent_law, tied_law, law_distance = laws.independent, laws.tied, laws.distance
    sizes = sorted(spectra["independent"])
    largest = sizes[-1]
    rows = []
    for scheme, by_n in spectra.items():
        label = SCHEME_LABELS[scheme]
        for draw, spectrum in enumerate(np.atleast_2d(by_n[largest])):
            rows += [("spectrum", label, "softmax", largest, draw, float(v), "") for v in spectrum]
    top = max(float(np.max(spectra[s][largest])) for s in spectra)
    for law, name in ((independent_law, INDEPENDENT_LAW), (tied_law, TIED_LAW)):
        x, density = theory_curve(law, 1.05 * max(top, independent_law.edge, tied_law.edge))
        rows += [
            ("law", "", name, "", "", float(a), float(b)) for a, b in zip(x, density, strict=True)
        ]
    distances = {}
    for scheme, by_n in spectra.items():
        laws = [(independent_law, INDEPENDENT_LAW)]
        if scheme == "tied":
            laws.append((tied_law, TIED_LAW))
        for law, name in laws:
            for n in sizes:
                values = law_distances(by_n[n], law)
                distances[scheme, name, n] = values
                rows += [
                    ("distance", SCHEME_LABELS[scheme], f"to the {name}", n, d, "", float(v))
                    for d, v in enumerate(values)
                ]
    for n in sizes:
        floor = distances["independent", INDEPENDENT_LAW, n].mean()
        for scheme in ("mqa", "gqa"):
            excess = distances[scheme, INDEPENDENT_LAW, n] - floor
            rows += [
                ("judged", SCHEME_LABELS[scheme], "D.2 excess KS", n, d, "", float(v))
                for d, v in enumerate(excess)
            ]
        if "tied" in spectra:
            delta = distances["tied", INDEPENDENT_LAW, n] - distances["tied", TIED_LAW, n]
            rows += [
                ("judged", SCHEME_LABELS["tied"], "D.3 Delta", n, d, "", float(v))
                for d, v in enumerate(delta)
            ]
    d2 = TESTS["D.2/mqa"].margin * law_distance
    d3 = TESTS["D.3/tied"].margin * law_distance
    rows += [
        ("judged", "", "D.2 margin", "", "", "", d2),
        ("judged", "", "D.2 margin", "", "", "", -d2),
        ("judged", "", "D.3 threshold", "", "", "", d3),
    ]
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
        f"seven configurations. Two Gaussian equivalents of the same weights (the floor of rows "
        f"D.1) are {min(floors)[0]:.2f} % ({min(floors)[1]}) to {max(floors)[0]:.2f} % "
        f"({max(floors)[1]}) apart."
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
