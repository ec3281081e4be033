"""Figure A5's tidy table (paper A): the distances of every draw, the excess over the Y_lin floor,
beta*(ell) with its fit, and the exponents of D ~ ell^s in x, one row per plotted value."""

from collections.abc import Mapping

import numpy as np

from attnspec.papers.a.linearisation_summary import (
    METRICS,
    MODELS,
    excess_over_floor,
    threshold_betas,
    threshold_fit,
)

LINEARISATION_SCALARS = ("crossover", "x_spread_mean", "beta_spread_mean")


def linearisation_plotted_table(summary: Mapping, collapse: Mapping):
    """Figure A5's tidy table (a pandas DataFrame), columns ``kind``, ``series``, ``model``,
    ``n_tokens``, ``beta``, ``draw``, ``x``, ``value``:

    - data ``kolmogorov`` / ``wasserstein1_relative``: per model, ell, beta and draw the distance
      to nu_inf (``value``) at ``x`` = beta / sqrt(log ell), panels (a)-(c);
    - statistic ``excess_over_floor``: per (ell, beta, draw) the attention distance minus the
      mean Y_lin distance, panel (e);
    - statistic ``beta_star`` per (ell, draw) at ``x`` = log ell, its least-squares line
      ``beta_star_fit`` (:func:`threshold_fit`) and slope ``beta_star_fit_slope``; theory
      ``beta_star_sqrt_log``, the line beta* proportional to sqrt(log ell), panel (f);
    - statistic ``exponent`` (attention and linear), ``exponent_low`` / ``exponent_high`` (the
      95 % interval, attention) against ``x``, panel (d);
    - statistic: the scalars :data:`LINEARISATION_SCALARS` of
      :func:`attnspec.papers.a.linearisation_summary.collapse_analysis`.

    ``summary``: :func:`attnspec.papers.a.linearisation_summary.summarise_distances`;
    ``collapse``: :func:`attnspec.papers.a.linearisation_summary.collapse_analysis`.
    """
    import pandas as pd

    sizes = summary["n_tokens"].astype(np.int64)
    shape = (sizes.size, summary["beta"].size, int(summary["draws"]))
    ell, beta, draw = np.indices(shape).reshape(3, -1)
    cells = {
        "n_tokens": sizes[ell],
        "beta": summary["beta"][beta].astype(np.float64),
        "draw": draw,
        "x": summary["rescaled"][ell, beta].astype(np.float64),
    }
    blocks = [
        pd.DataFrame({"kind": "data", "series": metric, "model": model, **cells,
                      "value": summary[f"{metric}/{model}/draws"].reshape(-1)})
        for metric in METRICS
        for model in MODELS
    ]  # fmt: skip
    blocks.append(
        pd.DataFrame({"kind": "statistic", "series": "excess_over_floor", "model": "attention",
                      **cells, "value": excess_over_floor(summary).reshape(-1)})
    )  # fmt: skip
    crossings = threshold_betas(summary)
    log_sizes = np.log(sizes.astype(np.float64))
    blocks += [
        pd.DataFrame({"kind": "statistic", "series": "beta_star", "model": "attention",
                      "n_tokens": sizes, "draw": d, "x": log_sizes, "value": row})
        for d, row in enumerate(crossings)
    ]  # fmt: skip
    fit = threshold_fit(summary)
    for kind, series, line in (
        ("statistic", "beta_star_fit", "fit"),
        ("theory", "beta_star_sqrt_log", "reference"),
    ):
        blocks.append(
            pd.DataFrame({"kind": kind, "series": series, "n_tokens": sizes[[0, -1]],
                          "x": fit["log_ell"], "value": fit[line]})
        )  # fmt: skip
    curves = (
        ("exponent", "attention", "x_exponent"),
        ("exponent_low", "attention", "x_exponent_low"),
        ("exponent_high", "attention", "x_exponent_high"),
        ("exponent", "linear", "x_floor_exponent"),
    )
    blocks += [
        pd.DataFrame({"kind": "statistic", "series": series, "model": model, "x": collapse["x"],
                      "value": collapse[key]})
        for series, model, key in curves
    ]  # fmt: skip
    scalars = [("beta_star_fit_slope", float(fit["slope"]))]
    scalars += [(name, float(collapse[name])) for name in LINEARISATION_SCALARS]
    blocks.append(pd.DataFrame(scalars, columns=["series", "value"]).assign(kind="statistic"))
    columns = ["kind", "series", "model", "n_tokens", "beta", "draw", "x", "value"]
    table = pd.concat(blocks, ignore_index=True).reindex(columns=columns)
    return table.astype({"n_tokens": "Int64", "draw": "Int64"})
