"""Paper D's caption findings ("what the data show") of figures D1 and D3, computed from the
statistics of :mod:`attnspec.papers.d.multihead_summary`."""

from collections.abc import Mapping

import numpy as np

from attnspec.papers.d.multihead import SCHEME_LABELS
from attnspec.papers.d.multihead_summary import (
    KS_METRIC,
    W1_METRIC,
    _overlap,
    law_distances,
    mean_half_width,
    public_model_metrics,
)
from attnspec.papers.d.public_models import public_model


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
